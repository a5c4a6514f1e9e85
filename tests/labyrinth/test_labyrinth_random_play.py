"""Random play over many seeds, encounters and options, through the pure
functions and through the kernel (undo, redo, replay, export, verify):
no exception, no dead end, every battle ends, every random outcome
re-derives from (seed, counter), every event narrates."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from kernel_play import Player, play_checked
from labyrinth_harness import CTX, PACK, PARTY, legal, start

from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, verify_log
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth.catalog import Abilities
from domain.labyrinth.commands import Attack, Member, StartLabyrinth, TypeFaces, UseSkill
from domain.labyrinth.sheets import PcSheet
from domain.labyrinth.rules import decide, evolve, replay
from domain.labyrinth.state import Options
from domain.labyrinth.vocab import Side

MAX_COMMANDS = 2000
BIG_PARTY = PARTY + (Member(cls="fighter", level=3, name="Vet"),)
# an allied NPC from a class, and one from its own sheet (issue #12)
ALLIES = (
    Member(cls="mage", level=2, name="Aid"),
    Member(
        cls="fighter",
        name="Own",
        sheet=PcSheet(abilities=Abilities(str=14, tec=6, vit=12, agi=10, luc=7), skills=("guard",), items=("salve",)),
    ),
)


def choose(state, ctx, rnd: random.Random):
    """Mostly attack and use skills, so battles end; sometimes anything;
    with physical dice, any faces for the roll asked."""
    options = RULESET.legal_commands(state, ctx)
    if len(options) == 1 and isinstance(options[0], TypeFaces):  # physical dice: the table's faces, any
        return TypeFaces(actor=options[0].actor, faces=tuple(rnd.randint(1, 6) for _ in options[0].faces))
    fighting = [c for c in options if isinstance(c, (Attack, UseSkill))]
    return rnd.choice(fighting if fighting and rnd.random() < 0.8 else options)


def _options(seed: int) -> Options:
    return Options(
        gm_enemies=seed % 5 == 0,
        ambush=(None, Side.PC, Side.ENEMY)[seed % 3],
        auto_passives=seed % 7 != 0,
        one_ailment_at_a_time=seed % 4 == 0,
        ask_passives=seed % 2 == 1,
        ask_fp=seed % 3 == 1,
        physical_dice=seed % 8 == 3,
    )


def play(seed: int):
    encounter = ("slimes", "mixed")[seed % 2]
    party = BIG_PARTY if seed % 3 == 0 else PARTY
    allies = ALLIES[: seed % 4] if seed % 4 < 3 else ()
    cmd = StartLabyrinth(
        battle_id=f"g{seed}", encounter=encounter, party=party, seed=seed, options=_options(seed), allies=allies
    )
    events = decide(None, cmd, CTX)
    state = replay(events)
    rnd = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        if state.over:
            return state, events
        assert legal(state), f"dead end at turn {state.turn} {state.phase}"
        produced = decide(state, choose(state, CTX, rnd), CTX)
        for event in produced:
            assert RULESET.check_random(state, event) is None, event
            assert RULESET.describe_event(event, state, PACK)
            state = evolve(state, event)
        events += produced
    raise AssertionError("the battle did not end")


@pytest.mark.rule("STANDBY-1")
@pytest.mark.rule("MAIN-1")
def test_random_battles_always_end_and_replay_exactly():
    ends = Counter()
    for seed in range(80):
        state, events = play(seed)
        assert replay(events) == state
        ends[state.termination] += 1
    assert len(ends) >= 2, ends


def _start(app: GameApp, battle_id: str, rnd: random.Random):
    seed = rnd.randrange(2**31)
    return app.start(
        "labyrinth",
        StartLabyrinth(
            battle_id=battle_id,
            encounter=rnd.choice(["slimes", "mixed"]),
            party=PARTY,
            seed=seed,
            options=_options(seed),
        ),
        battle_id=battle_id,
    )


PLAYER = Player("labyrinth", _start, choose)


@pytest.mark.parametrize("seed", range(12))
def test_random_labyrinth_battles_hold_through_the_kernel(seed: int) -> None:
    with GameApp("memory", packs={"labyrinth": PACK}) as app:
        game = play_checked(app, PLAYER, f"l{seed}", random.Random(seed))
        assert game.over
        # kernel_play's check_portable imports into an app with the default
        # pack; this fixture pack's log is verified against itself instead.
        report = verify_log(export_battle(app, f"l{seed}"), PACK)
        assert report.ok, report.summary()


def test_a_started_battle_waits_for_the_party_standby_declarations():
    state = start()
    assert state.turn == 1 and state.phase.value == "standby"
    assert {c.actor for c in legal(state)} == {"p1", "p2"}
