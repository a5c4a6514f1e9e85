"""Arrangements shared by the campaign tests: a store in memory with a
campaign and its party, a battle played to its end by the greedy bot, and
an adventurer put in a given state between battles (events appended to its
stream as a store would hold them)."""

from __future__ import annotations

import random

from domain.betrayal.battle import bots
from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.betrayal.adventurer.state import AdventurerState
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.ruleset import ADVENTURERS, BETRAYAL
from domain.kernel.envelope import wrap

CAMPAIGN = "saga"


def campaign(
    party=(("Ria", "nord", "bastion"), ("Tarn", "dark-elf", "stalker", ("bow", "destruction-staff"))),
    *,
    difficulty="adept",
    dial: int | None = None,
) -> BetrayalApp:
    """A memory store with a campaign ``saga`` and its recruits: (name, race,
    class) or (name, race, class, lines)."""
    from domain.betrayal.vocab import Difficulty

    app = BetrayalApp(store="memory")
    ca.new_campaign(app, CAMPAIGN, difficulty=Difficulty(difficulty), dial=dial)
    for name, race, class_id, *lines in party:
        ca.command(
            app, CAMPAIGN, cc.Recruit(name=name, race=race, class_id=class_id, lines=tuple(lines[0]) if lines else ())
        )
    return app


def play(app: BetrayalApp, battle_id: str, names=("Ria", "Tarn"), setup="waystone-crossing", seed=2) -> None:
    """A clash of ``names`` played to its end by the greedy bot."""
    app.new_clash(setup=setup, party=[PartySpec(n) for n in names], xp=2, seed=seed, battle_id=battle_id)
    rnd = random.Random(seed)
    while (state := app.battle(battle_id).state).outcome is None:
        app.execute(battle_id, bots.greedy_choice(state, app.context(state), rnd))


def run(app: BetrayalApp, *commands):
    """Give the campaign each command in turn; the last result."""
    result = None
    for command in commands:
        result = ca.command(app, CAMPAIGN, command)
    return result


def rewarded(app: BetrayalApp, xp: int, battle_id: str = "w1") -> BetrayalApp:
    """The party has played ``battle_id`` and its Reward Phase is open with ``xp`` each."""
    play(app, battle_id)
    run(app, cc.GainRewards(battle_id=battle_id, xp=xp))
    return app


def set_adventurer(app: BetrayalApp, name: str, **fields) -> AdventurerState:
    """Put an adventurer in the state ``fields`` say, as a restore event of
    its stream (an arrangement, not play): the rules then decide from it."""
    from msgspec.structs import replace

    from domain.betrayal.adventurer.aggregate import AdventurerRestored

    stream = BETRAYAL.stream_of(ADVENTURERS.kind, name)
    state = replace(app.adventurer(name), **fields)
    last = app.events.last(stream)
    app.append(
        wrap(stream, last.originator_version, [AdventurerRestored(command_id="arranged", restored=state)], "arranged")
    )
    app._companions.pop(stream, None)
    return app.adventurer(name)


def me(app: BetrayalApp, name: str = "Ria") -> AdventurerState:
    return app.adventurer(name)
