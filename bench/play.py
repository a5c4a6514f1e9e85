"""Item 5, random legal play in memory: whole clash battles, start to end,
by the seeded random bot, through ``BetrayalApp`` on the in-memory store;
the floor is the same battles played by the pure rules alone (``decide``,
then ``evolve``), which choose the very same commands."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp, adventurer_stream
from domain.betrayal.battle.bots import random_choice
from domain.betrayal.battle.commands import StartClash
from domain.betrayal.battle.context import context_for
from domain.betrayal.battle.evolve import evolve
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.rules import decide
from domain.betrayal.battle.state import Phase

from .measure import Row, median, rate
from .streams import PARTY, SETUP

MAX_COMMANDS = 5_000  # a battle that runs longer is cut short (and counted)


def play_app(seed: int) -> tuple[int, list[float]]:
    """One battle through the application: (commands, seconds per command)."""
    rnd = random.Random(seed)
    app = BetrayalApp("memory")
    party = [party_member(p) for p in PARTY]
    battle = app.new_clash(setup=SETUP, party=party, xp=1, seed=seed, battle_id=f"play-{seed}").battle
    ctx = app.context(battle.state)
    per: list[float] = []
    while battle.state.phase is not Phase.ENDED and len(per) < MAX_COMMANDS:
        command = random_choice(battle.state, ctx, rnd)
        start = time.perf_counter()
        battle = app.execute(f"play-{seed}", command).battle
        per.append(time.perf_counter() - start)
    return len(per), per


def play_rules(seed: int) -> tuple[int, list[float]]:
    """The same battle with the pure rules only."""
    rnd = random.Random(seed)
    pack = starter_pack()
    members = []
    for text in PARTY:
        spec = party_member(text)
        created = adv.create(pack, str(adventurer_stream(spec.name)), spec.name, spec.race, spec.lines)
        members.append(adv.member(created.state, spec.form))
    ctx = context_for(pack, SETUP)
    state = None
    for e in decide(
        None, StartClash(battle_id=f"play-{seed}", setup=SETUP, party=tuple(members), xp=1, seed=seed), ctx
    ):
        state = evolve(state, e)
    per: list[float] = []
    while state.phase is not Phase.ENDED and len(per) < MAX_COMMANDS:
        command = random_choice(state, ctx, rnd)
        start = time.perf_counter()
        for e in decide(state, command, ctx):
            state = evolve(state, e)
        per.append(time.perf_counter() - start)
    return len(per), per


GOAL_PER_COMMAND = 3.0  # random legal play: a command at most 3x decide + evolve (issue 25)


def play_rows(quick: bool = False, battles: int | None = None) -> list[Row]:
    seeds = range(1, (battles or (3 if quick else 40)) + 1)
    app_runs = _battles(play_app, seeds)
    rules_runs = _battles(play_rules, seeds)
    if app_runs["commands"] != rules_runs["commands"]:
        raise AssertionError("the application and the pure rules played different battles")
    counts = app_runs["commands"]
    note = (
        f"{len(counts)} battles, {median(counts):.0f} commands each (median; {min(counts)} to {max(counts)})"
        f"; random bot; rules floor {rules_runs['battles_per_second']:.1f} battles/s"
    )
    return [
        _row(
            "play in memory: battles",
            rate(app_runs["battles_per_second"], "battles/s"),
            rate(rules_runs["battles_per_second"], "battles/s"),
            rules_runs["battles_per_second"] / app_runs["battles_per_second"],
            note,
            app_runs,
            rules_runs,
        ),
        _row(
            "play in memory: per command",
            f"{median(app_runs['per_command']) * 1e3:.3g} ms",
            f"{median(rules_runs['per_command']) * 1e3:.3g} ms",
            median(app_runs["per_command"]) / median(rules_runs["per_command"]),
            "median of every command of every battle; floor: decide + evolve",
            app_runs,
            rules_runs,
            GOAL_PER_COMMAND,
        ),
    ]


def _battles(play: Callable[[int], tuple[int, list[float]]], seeds) -> dict:
    commands: list[int] = []
    per: list[float] = []
    start = time.perf_counter()
    for seed in seeds:
        n, times = play(seed)
        commands.append(n)
        per += times
    seconds = time.perf_counter() - start
    return {"commands": commands, "per_command": per, "seconds": seconds, "battles_per_second": len(commands) / seconds}


def _row(figure, value, floor, ratio, note, app_runs, rules_runs, goal=None) -> Row:
    return Row(
        figure=figure,
        size=f"{median(app_runs['commands']):.0f} cmd/battle",
        value=value,
        floor=floor,
        ratio=ratio,
        goal=goal,
        note=note,
        data={
            "battles": len(app_runs["commands"]),
            "commands_per_battle": app_runs["commands"],
            "battles_per_second": app_runs["battles_per_second"],
            "floor_battles_per_second": rules_runs["battles_per_second"],
            "median_command_seconds": median(app_runs["per_command"]),
            "floor_median_command_seconds": median(rules_runs["per_command"]),
        },
    )
