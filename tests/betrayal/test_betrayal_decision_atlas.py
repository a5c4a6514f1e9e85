"""Betrayal's decision atlas (tests/decision_atlas.py): clashes with items,
classes and physical dice, clashes with companions, both delves, the
dungeon and a campaign's steps, each played at random to its end and a few
of its states asked again about every command the game offered anywhere.

Every rule the atlas touches has its own test citing it; this one catches a
changed refusal (its rule ID or words), a changed event (a roll, a recorded
rule ID, a number) or a changed list of legal commands that those tests
miss. Written anew, after a meant change, with
``RK_WRITE_ATLAS=1 .venv/bin/pytest tests/betrayal/test_betrayal_decision_atlas.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from uuid import UUID

import msgspec

# The random tables of the property tests (tests/property/) are the ones
# worth asking about; their modules import each other by bare name.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "property"))

from checked_play import player_for as clash_player
from decision_atlas import AtlasGame, atlas_lines, check_atlas, example_player
from delve_play import DELVES, DUNGEONS, random_delve_table
from delve_play import player_for as delve_player
from random_battles import random_table
from test_companion_play import escorted

from kernel_play import Player

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.battle import bots
from domain.betrayal.battle.application import BetrayalApp, PartySpec, adventurer_stream
from domain.betrayal.battle.ruleset import ADVENTURERS
from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.betrayal.campaign.ruleset import CAMPAIGN
from domain.betrayal.vocab import Difficulty
from domain.kernel.ruleset import Write

ATLAS = Path(__file__).with_name("decision_atlas.txt")
HEADER = "# Betrayal's decision atlas: tests/decision_atlas.py says what it is and how to write it again"


PARTY = ("Ria", "Tarn", "Onmund")
GEAR = ("bitterroot-draught", "notched-dagger", "honeyed-oatcake", "dented-kettle-helm", "clear-breath-vial")
LINES = ("bow", "two-handed", "magicka", "destruction")


def _campaign(difficulty: Difficulty, members: int) -> Player:
    """A campaign whose recruits fight a clash (greedy bot), then try its
    listed steps and, as often, an item or a line the player names."""
    party = PARTY[:members]

    def start(app, campaign_id: str, rnd: random.Random):
        ca.new_campaign(app, campaign_id, difficulty=difficulty)
        pack = app.pack
        for name in party:
            app.execute(
                campaign_id,
                cc.Recruit(name=name, race=rnd.choice(sorted(pack.races)), class_id=rnd.choice(sorted(pack.classes))),
            )
        battle_id = f"{campaign_id}-clash"
        app.new_clash(
            setup="waystone-crossing",
            party=[PartySpec(n) for n in party],
            xp=1,
            seed=rnd.randrange(1000),
            battle_id=battle_id,
        )
        while (state := app.battle(battle_id).state).outcome is None:
            app.execute(battle_id, bots.greedy_choice(state, app.context(state), rnd))
        return app.execute(campaign_id, cc.GainRewards(battle_id=battle_id, xp=ca.battle_reward(app, battle_id) + 3))

    def choose(state, ctx, rnd: random.Random):
        listed = CAMPAIGN.legal_commands(state, ctx)
        named = [
            cc.GainItem(adventurer=rnd.choice(party), item=rnd.choice(GEAR), ready=rnd.random() < 0.3),
            cc.ReadyItem(adventurer=rnd.choice(party), item=rnd.choice(GEAR)),
            cc.UseItem(adventurer=rnd.choice(party), item=rnd.choice(GEAR)),
            cc.TrainLine(adventurer=rnd.choice(party), line=rnd.choice(LINES)),
            cc.Promote(adventurer=rnd.choice(party)),
            cc.Rest(),
            cc.EndSession(),
        ]
        return rnd.choice(listed + named)

    return Player("betrayal-campaign", start, choose)


def _equipped(seed: int) -> Player:
    """A random clash whose members bring items and class sheets, as the
    pure-rules property tests give them (``Table.start_clash``): their
    adventurers written first, then the clash set up by its own command."""
    table = random_table(random.Random(seed), physical_dice=seed % 2 == 1)

    def start(app, battle_id: str, rnd: random.Random):
        command = table.start_clash(battle_id)
        made = [
            adv.create(app.pack, str(adventurer_stream(m.name)), m.name, m.race, spec.lines)
            for m, spec in zip(command.party, table.party, strict=True)
        ]
        party = tuple(
            msgspec.structs.replace(m, adventurer_id=c.state.adventurer_id) for m, c in zip(command.party, made)
        )
        prelude = [Write(ADVENTURERS.kind, UUID(c.state.adventurer_id), (c,)) for c in made]
        return app.start(
            "betrayal", msgspec.structs.replace(command, party=party), battle_id=battle_id, prelude=prelude
        )

    return Player("betrayal", start, clash_player(table).choose)


def _games() -> list[AtlasGame]:
    games = [
        AtlasGame(f"clash {n}", clash_player(random_table(random.Random(seed), physical_dice=seed % 2 == 1)), seed)
        for n, seed in enumerate((11, 12))
    ]
    games += [
        AtlasGame(f"clash with items and classes {n}", _equipped(seed), seed) for n, seed in enumerate((13, 14, 15, 16))
    ]
    games += [  # the party chooses each defence (COMBAT-4), with the surface's example parties
        AtlasGame("clash example 0, defences chosen", example_player("betrayal", "clash", 0, choose_defense=True), 17),
        AtlasGame(
            "clash example 1, defences chosen, physical dice",
            example_player("betrayal", "clash", 1, choose_defense=True, physical_dice=True),
            18,
        ),
    ]
    games += [
        AtlasGame(f"clash with companions {n}", clash_player(escorted(random.Random(seed))), seed)
        for n, seed in enumerate((21, 22))
    ]
    games += [
        AtlasGame(f"delve {name}", delve_player(random_delve_table(random.Random(seed), (name,))), seed)
        for name, seed in zip(DELVES + DUNGEONS, (31, 32, 33), strict=True)
    ]
    games += [
        AtlasGame(f"campaign {level.value}", _campaign(level, members), seed, max_commands=60, open_ended=True)
        for level, members, seed in ((Difficulty.ADEPT, 2, 41), (Difficulty.EXPERT, 3, 42))
    ]
    return games


def test_the_rules_answer_every_command_of_the_atlas_as_written_down():
    check_atlas(ATLAS, atlas_lines(lambda: BetrayalApp(store="memory"), _games()), HEADER)
