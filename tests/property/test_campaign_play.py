"""Random play of a campaign between battles (STYLE.md item 9): recruits of
random races and classes fight clashes, then random legal commands of the
Reward Phase, items, training and rest, with undos and redos at random.

Every undo restores, exactly, the campaign and every party member as they
were before the undone command; a redo gives back the state after it; the
campaign replayed from the store equals the live one; the exported log
verifies, and imports into an empty store as the identity (the same
campaign, the same adventurers, the same log written again), alone and
with its battles (one group log)."""

from __future__ import annotations

import random

import pytest

from domain.betrayal.battle import bots
from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.portable.export import export_battle, export_group
from domain.kernel.portable.importer import import_log
from domain.kernel.portable.verify import verify_log

SEEDS = range(12)
GEAR = [
    "bitterroot-draught",
    "mudcrab-hatchling",
    "scuffed-bracers",
    "notched-dagger",
    "honeyed-oatcake",
    "glyph-of-steady-aim",
    "clear-breath-vial",
    "mulled-cider-jug",
    "dented-kettle-helm",
]


def _snapshot(app: BetrayalApp, party: list[str]) -> tuple:
    return (ca.campaign(app, "saga"), *(app.adventurer(n) for n in party))


def _fight(app: BetrayalApp, party: list[str], battle_id: str, rnd: random.Random) -> None:
    able = [n for n in party if app.adventurer(n).hp > 0]
    if not able:
        return
    app.new_clash(
        setup=rnd.choice(["waystone-crossing", "fallen-watchtower"]),
        party=[PartySpec(n) for n in able],
        xp=1,
        seed=rnd.randrange(1000),
        battle_id=battle_id,
    )
    while (state := app.battle(battle_id).state).outcome is None:
        app.execute(battle_id, bots.greedy_choice(state, app.context(state), rnd))


def _between(app: BetrayalApp, party: list[str], rnd: random.Random, steps: int) -> int:
    """Random campaign commands with undos; returns how many undos ran."""
    undos = 0
    for _ in range(steps):
        before = _snapshot(app, party)
        legal = app.legal("saga")
        extra = [
            cc.GainItem(adventurer=rnd.choice(party), item=rnd.choice(GEAR), ready=rnd.random() < 0.3),
            cc.TrainLine(adventurer=rnd.choice(party), line=rnd.choice(["bow", "two-handed", "magicka"])),
        ]
        command = rnd.choice(legal + extra)
        try:
            app.execute("saga", command)
        except (RuleViolation, MalformedCommand):
            assert _snapshot(app, party) == before  # a refused command writes nothing
            continue
        after = _snapshot(app, party)
        if rnd.random() < 0.3:
            app.undo("saga")
            undos += 1
            assert _snapshot(app, party) == before
            if rnd.random() < 0.5:
                app.redo("saga")
                assert _snapshot(app, party) == after
    return undos


@pytest.mark.parametrize("seed", SEEDS)
def test_random_campaign_play_undoes_exactly_and_exports_as_the_identity(seed: int) -> None:
    rnd = random.Random(seed)
    app = BetrayalApp(store="memory")
    ca.new_campaign(app, "saga")
    pack = app.pack
    party = []
    for name in ("Ria", "Tarn", "Onmund")[: rnd.randint(1, 3)]:
        app.execute(
            "saga",
            cc.Recruit(name=name, race=rnd.choice(sorted(pack.races)), class_id=rnd.choice(sorted(pack.classes))),
        )
        party.append(name)
    undos = 0
    for n in range(2):
        _fight(app, party, f"b{n}", rnd)
        if f"b{n}" in {b for p in party for b in app.adventurer(p).battles}:
            app.execute(
                "saga", cc.GainRewards(battle_id=f"b{n}", xp=ca.battle_reward(app, f"b{n}") + rnd.randint(0, 6))
            )
            undos += _between(app, party, rnd, 12)
            if ca.campaign(app, "saga").reward:
                app.execute("saga", cc.EndRewards())
        undos += _between(app, party, rnd, 8)
        app.execute("saga", cc.Rest())
    live = _snapshot(app, party)
    replayed = BetrayalApp(store="memory")
    replayed.append([e for _, e in app.notifications()])
    assert _snapshot(replayed, party) == live
    data = export_battle(app, "saga")
    assert verify_log(data).ok
    copy = BetrayalApp(store="memory")
    assert import_log(copy, data) == "saga"
    assert copy.battle("saga").state == live[0]
    assert [copy.adventurer(n) for n in party] == list(live[1:])
    assert export_battle(copy, "saga") == data
    whole = export_group(app, "saga")  # the campaign with its battles, one log
    report = verify_log(whole)
    assert report.ok, report.summary()
    copy = BetrayalApp(store="memory")
    import_log(copy, whole)
    assert [copy.adventurer(n) for n in party] == list(live[1:])
    assert export_group(copy, "saga") == whole
