"""Determinism of labyrinth battles on the starter pack, by random legal
play over many seeds: every encounter, every ambush option, the GM choosing
the Enemies' actions or the seeded policy, parties of one to four PCs of
levels 1 to 3.

On the pure rules: no crash, no dead end (a listed command exists until the
battle is over, and listed commands probed are accepted), ``decide`` gives
the same events twice, every random outcome re-derives from (seed,
counter), every event narrates, the battle ends within ``MAX_COMMANDS``,
and replaying every event from nothing gives the live state.

Through the kernel (tests/kernel_play.py's ``CheckedGame``): undo restores
the state before the command exactly, redo gives the same events, loads at
every version equal what was seen live, replay equals live, and export then
import is the identity (the same lines, the recorded digest), on memory,
SQLite and PostgreSQL (skipped with the reason when it is not reachable).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import msgspec
import pytest
from tiers import quick_first
from kernel_play import CheckedGame, Player, play_checked
from postgres_tables import drop_postgres_tables

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, import_log, state_digest
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth.commands import Attack, EnemyAct, Escape, Member, StartLabyrinth, UseItem, UseSkill
from domain.labyrinth.decision import RulesContext
from domain.labyrinth.packs import starter_pack
from domain.labyrinth.rules import decide, evolve, legal_commands, replay
from domain.labyrinth.state import LabyrinthState, Options
from domain.labyrinth.vocab import ROW_LIMIT, Row, Side, Termination

ENCOUNTERS = ("mossy-hollow", "warren-gate", "ogre-den")
AMBUSH = (None, Side.PC, Side.ENEMY)
MAX_COMMANDS = 1500  # a battle still going after this many is a bug: rounds must end it
PROBES = 2  # listed commands decided at each step besides the one played
RUNNERS = 5  # one battle in RUNNERS has a party that declares Escape whenever it may
FIGHTING = (Attack, UseSkill, UseItem, EnemyAct)


def battle_setup(seed: int, battle_id: str = "") -> StartLabyrinth:
    """Seed's battle: the encounter, the ambush option and the GM option
    cycle with the seed, so every combination comes round; the party is
    drawn from the seed."""
    rnd = random.Random(seed)
    pack = starter_pack()
    party: list[Member] = []
    for _ in range(rnd.randint(1, 4)):
        sheet = pack.classes[rnd.choice(sorted(pack.classes))]
        row = sheet.row
        if sum(1 for m in party if m.row is row) == ROW_LIMIT:  # a full row: this one stands in the other
            row = Row.BACK if row is Row.FRONT else Row.FRONT
        party.append(Member(cls=sheet.id, level=rnd.randint(1, 3), row=row))
    options = Options(
        ambush=AMBUSH[(seed // 3) % 3],
        gm_enemies=(seed // 9) % 2 == 1,
        ask_passives=(seed // 2) % 2 == 1,  # passives chosen by hand half the time (PASSIVE-2)
        ask_fp=(seed // 4) % 2 == 1,
    )  # and FP on Suppression rolls (FUMBLE-2)
    return StartLabyrinth(
        battle_id=battle_id or f"lab{seed}",
        encounter=ENCOUNTERS[seed % 3],
        party=tuple(party),
        seed=seed,
        options=options,
    )


def choose(state: LabyrinthState, ctx: RulesContext, rnd: random.Random):
    """Mostly a fighting command (so battles end), sometimes any listed one;
    a runners' party declares Escape whenever it may (so escapes happen)."""
    options = RULESET.legal_commands(state, ctx)
    if state.seed % RUNNERS == 0:
        escapes = [c for c in options if isinstance(c, Escape)]
        if escapes:
            return escapes[0]
    fighting = [c for c in options if isinstance(c, FIGHTING)]
    return rnd.choice(fighting if fighting and rnd.random() < 0.8 else options)


# -- the pure rules --------------------------------------------------------------------------------


def play_pure(seed: int) -> LabyrinthState:
    """Play seed's battle to its end on the pure rules, checking each step."""
    ctx = RulesContext(pack=starter_pack())
    rnd = random.Random(seed)
    probe_rnd = random.Random(-seed - 1)  # probing does not change the battle played
    events = decide(None, battle_setup(seed), ctx)
    state = replay(events)
    for _ in range(MAX_COMMANDS):
        if state.over:
            break
        listed = legal_commands(state, ctx)
        assert listed, f"seed {seed}: dead end at turn {state.turn} {state.phase}"
        for probe in probe_rnd.sample(listed, min(PROBES, len(listed))):
            _accepted(seed, state, probe, ctx)
        command = choose(state, ctx, rnd)
        produced = _accepted(seed, state, command, ctx)
        assert decide(state, command, ctx) == produced, f"seed {seed}: {command} decided twice differs"
        for event in produced:
            assert RULESET.check_random(state, event) is None, f"seed {seed}: {event}"
            assert RULESET.describe_event(event, state, ctx.pack), f"seed {seed}: {event} narrates as nothing"
            state = evolve(state, event)
        events += produced
    else:
        raise AssertionError(f"seed {seed}: no end after {MAX_COMMANDS} commands (turn {state.turn})")
    assert legal_commands(state, ctx) == [], f"seed {seed}: commands listed after the end"
    assert replay(events) == state, f"seed {seed}: replay from nothing differs from the live state"
    return state


def _accepted(seed: int, state: LabyrinthState, command, ctx: RulesContext) -> list:
    try:
        return decide(state, command, ctx)
    except (RuleViolation, MalformedCommand) as e:
        raise AssertionError(f"seed {seed}: listed {command} refused: {e!r} (turn {state.turn} {state.phase})") from e


def _play_many(seeds: range) -> Counter:
    ends: Counter = Counter()
    for seed in seeds:
        ends[play_pure(seed).termination] += 1
    return ends


@pytest.mark.rule("STANDBY-1")
@pytest.mark.rule("MAIN-1")
def test_random_starter_pack_battles_end_without_dead_ends_and_replay_to_the_live_state() -> None:
    ends = _play_many(range(120))
    # the seeds show every way a battle ends (STANDBY-8: some parties get away)
    assert set(ends) == set(Termination), ends


@pytest.mark.slow
def test_many_more_random_starter_pack_battles_hold() -> None:
    _play_many(range(120, 420))


# -- through the kernel ----------------------------------------------------------------------------


def _start(app: GameApp, battle_id: str, rnd: random.Random):
    return app.start("labyrinth", battle_setup(rnd.randrange(2**31), battle_id), battle_id=battle_id)


PLAYER = Player("labyrinth", _start, choose)


class Snapshotting(GameApp):
    """Snapshots every 20 events, so that loads go through snapshot + tail."""

    name = "rulekeeper"
    snapshot_every = 20


def check_export_import(game: CheckedGame) -> None:
    """Export, verify, import into an empty store, export again: the same
    lines, and the header's digest is the live state's."""
    game.check_portable()
    log = export_battle(game.app, game.battle_id)
    header = msgspec.json.decode(log.split(b"\n", 1)[0])
    assert header["final_state_digest"] == state_digest(game.live)
    with GameApp("memory") as fresh:
        import_log(fresh, log)
        again = export_battle(fresh, game.battle_id)
        assert again.splitlines() == log.splitlines()
        assert state_digest(fresh.battle(game.battle_id).state) == header["final_state_digest"]


@pytest.mark.parametrize("seed", quick_first(range(24), 6))
def test_random_labyrinth_battles_hold_through_the_kernel_with_undo_and_redo(seed: int) -> None:
    with Snapshotting("memory") as app:
        game = play_checked(app, PLAYER, f"lab{seed}", random.Random(seed))
        assert game.over
        check_export_import(game)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def app_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[type[GameApp], str]]:
    """An application class and a store setting; PostgreSQL gets fresh
    tables of the class's own name, dropped afterwards."""
    if request.param == "sqlite":
        yield Snapshotting, f"sqlite:{tmp_path / 'labyrinth.sqlite'}"
        return
    setting = request.getfixturevalue("postgres_store")
    name = f"Labyrinth{uuid4().hex[:12]}"
    app_class = type(name, (Snapshotting,), {"name": name})
    yield app_class, setting
    drop_postgres_tables(setting, app_class.name)


@pytest.mark.parametrize("seed", quick_first(range(3), 1))
def test_labyrinth_battles_on_a_real_store_match_memory(app_store, seed: int) -> None:
    app_class, setting = app_store
    with app_class(setting) as app:
        game = play_checked(app, PLAYER, f"lab{seed}", random.Random(seed))
        with app_class(setting) as again:  # a new connection loads the same, at every version sampled
            game.check_store(again, versions=40)
        check_export_import(game)
        stored = [e.event for e in app.stream(game.battle_id)]
    with Snapshotting("memory") as memory:
        twin = play_checked(memory, PLAYER, f"lab{seed}", random.Random(seed))
        assert twin.live == game.live
        assert [e.event for e in memory.stream(twin.battle_id)] == stored
