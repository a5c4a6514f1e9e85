"""Random legal delves and dungeons through the application, checked at every
step (STYLE.md item 9; DESIGN: Undo and redo, Logs).

Each seed sets up a delve (whispering-barrow, Survey: OBJ-4 to OBJ-6;
drowned-cistern, Uncover: RETREAT-5, OBJ-7 to OBJ-10) or the dungeon
sentinel-vault (DUNGEON-6 to DUNGEON-11) for a party of one to four new
adventurers at XP 1-3 (DELVE-7 to DELVE-12), and plays it to the end: the
delve bot's command most of the time, a random legal one otherwise, undoing
and redoing at random points (tests/property/delve_play.py). Along the way:
no crash, no dead end, listed commands probed are accepted, replay equals
live, every undo restores both streams exactly (the battle and its Delve:
UNDO-2 by force over a draw), every redo gives the same events. At the end:
the store loads what was seen at every version, battle and Delve alike
(``delve_of(battle_id, version)``); export then import is the identity and
the log verifies; SQLite (and PostgreSQL, when reachable) hold the same as
memory.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from tiers import quick_first
from delve_play import (
    DELVES,
    DUNGEONS,
    CheckedDelve,
    DelveTable,
    DelveTally,
    SnapshottingApp,
    play_delve,
    player_for,
    random_delve_table,
)
from random_battles import NAMES, RACES

from domain.betrayal.battle.application import BetrayalApp, PartySpec, delve_stream
from domain.betrayal.battle.bots import delve_choice
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import Difficulty
from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.portable import verify_battle
from domain.kernel.ruleset import rules_context

SETUPS = DELVES + DUNGEONS
SEEDS = range(72)
TALLY_SEEDS = range(500, 516)
SQLITE_SEEDS = range(3)
SHORTAGE_SEARCH = range(40)  # long delves tried until one runs out of tiles of a shape
PROBES = 2  # listed commands decided at each step besides the one played


class ProbingDelve(CheckedDelve):
    """Before each command, a few other listed commands are decided on the
    pure rules (without saving): each must be accepted."""

    def execute(self) -> None:
        ctx = rules_context(self.rs, self.app.pack_of(self.rs), self.live, lambda kind, s: self.others.get(s))
        legal = self.rs.legal_commands(self.live, ctx)
        probe_rnd = random.Random(len(self.seen))  # probing does not change the game played
        for probe in probe_rnd.sample(legal, min(PROBES, len(legal))):
            try:
                self.rs.decide(self.live, probe, ctx)
            except (RuleViolation, MalformedCommand) as e:
                raise AssertionError(f"{self.battle_id}: listed {probe} refused: {e!r}") from e
        super().execute()


def _play(app: BetrayalApp, seed: int, checked: type[CheckedDelve] = CheckedDelve) -> CheckedDelve:
    rnd = random.Random(seed)
    return play_delve(app, random_delve_table(rnd, SETUPS), f"v{seed}", rnd, checked=checked)


@pytest.mark.parametrize("seed", quick_first(SEEDS, 12))
def test_random_delves_and_dungeons_end_and_undo_exactly_across_both_streams(seed: int) -> None:
    """DELVE-7..12, EXPLORATION-5..12, UNDO-2: no dead end, every battle
    ends, undo restores battle and Delve, loads at past versions (battle and
    Delve) equal what was seen, export/import is the identity and verifies."""
    with SnapshottingApp("memory") as app:
        game = _play(app, seed, ProbingDelve)
        assert game.live.phase is Phase.ENDED and game.live.outcome is not None and game.live.ended_reason
        assert app.legal(game.battle_id) == []
        delve = game.delve
        if game.table.dungeon:
            assert delve is None and app.delve_of(game.battle_id) is None
        else:
            assert delve is not None and delve.concluded, "a delve battle that ended left its Delve open"
        game.check_portable()
        assert verify_battle(app, game.battle_id).ok
        # A store that never snapshots loads the same, battle and Delve.
        plain = BetrayalApp("memory")
        plain.append([e for _, e in app.notifications()])
        game.check_store(plain, versions=8)
        game.check_delve_versions(plain, versions=8)


def test_the_random_runs_explore_draw_place_and_take_skyshards() -> None:
    """The runs above exercise what they claim (guards the knobs): tiles
    explored and placed (EXPLORATION-6, EXPLORATION-9), skyshards taken
    (SKYSHARD-6), Delve commands undone (DelveRestored), draws undone by
    force (UNDO-2), and dungeons among the tables."""
    tally = DelveTally()
    forced = dungeons = delves = 0
    for seed in TALLY_SEEDS:
        rnd = random.Random(seed)
        table = random_delve_table(rnd, SETUPS)
        with SnapshottingApp("memory") as app:
            game = CheckedDelve(app, player_for(table), f"v{seed}", rnd, table=table).play()
        tally.add(game.recorded)
        forced += game.tally.forced
        dungeons += table.dungeon
        delves += not table.dungeon
    for name in (
        "Explored",
        "CardDrawn",
        "TileDrawn",
        "TilePlaced",
        "EnemyPoolOpened",
        "SkyshardObtained",
        "DelveRestored",
        "DelveConcluded",
    ):
        assert tally[name] > 0, f"no {name} in {len(TALLY_SEEDS)} random runs: {dict(tally.counts)}"
    assert tally["TilePlaced"] >= delves, dict(tally.counts)
    assert forced and dungeons and delves


def test_a_long_delve_runs_out_of_tiles_of_a_shape_and_still_undoes_exactly() -> None:
    """EXPLORATION-7a, SKYSHARD-4: with a party of four at XP 1 and the delve
    bot exploring whenever it can, some delve draws a card whose shape has
    no tile left; it counts as a skyshard drawn, face down, and the checks
    (undo, redo, loads at every version, export) hold across it."""
    party = tuple(PartySpec(name, race) for name, race in zip(NAMES, RACES))
    tried = []
    for seed in SHORTAGE_SEARCH:
        rnd = random.Random(seed)
        table = DelveTable(setup=DELVES[seed % 2], party=party, xp=1, difficulty=Difficulty.APPRENTICE, seed=seed)
        with SnapshottingApp("memory") as app:
            game = CheckedDelve(app, player_for(table, delve_choice), f"long{seed}", rnd, table=table).play()
            tried.append(game.recorded["TilePlaced"])
            if game.recorded["ShortageSkyshard"]:
                assert any(d is not None and d.face_down for d in game.delves.values())
                game.check_store()
                game.check_delve_versions()
                game.check_portable()
                return
    pytest.fail(f"no delve of {len(SHORTAGE_SEARCH)} ran out of tiles of a shape (tiles placed in each: {tried})")


# -- real stores -----------------------------------------------------------------------


def _same_as_memory(game: CheckedDelve, seed: int) -> None:
    """The same seed played on memory gives the same battle and Delve, event for event."""
    with SnapshottingApp("memory") as memory:
        twin = _play(memory, seed)
        assert twin.live == game.live and twin.delve == game.delve
        assert memory.battle(twin.battle_id) == game.app.battle(game.battle_id)
        assert [e.event for e in memory.stream(twin.battle_id)] == [e.event for e in game.app.stream(game.battle_id)]
        stream = delve_stream(game.battle_id)
        assert [e.event for e in memory.events(stream)] == [e.event for e in game.app.events(stream)]


@pytest.mark.parametrize("seed", quick_first(SQLITE_SEEDS, 1))
def test_delves_hold_on_sqlite_and_match_memory(tmp_path: Path, seed: int) -> None:
    """Store independence: a new connection on the SQLite file loads the
    battle and its Delve at every version as they were live."""
    setting = f"sqlite:{tmp_path / 'delves.sqlite'}"
    with SnapshottingApp(setting) as app:
        game = _play(app, seed)
        with SnapshottingApp(setting) as again:
            game.check_store(again)
            game.check_delve_versions(again)
        _same_as_memory(game, seed)


@pytest.fixture
def postgres_app_class(postgres_store: str) -> Iterator[type[SnapshottingApp]]:
    """An application class of its own name: fresh tables, dropped afterwards.
    Skips with the reason when PostgreSQL is not reachable at 127.0.0.1:5432."""
    from postgres_tables import drop_postgres_tables

    app_class = type(f"Delve{uuid4().hex[:12]}", (SnapshottingApp,), {})
    yield app_class
    drop_postgres_tables(postgres_store, app_class.name)


@pytest.mark.postgres
def test_a_delve_holds_on_postgresql_and_matches_memory(
    postgres_store: str, postgres_app_class: type[SnapshottingApp]
) -> None:
    """The same on PostgreSQL, for one delve (whichever the seed sets up)."""
    seed = SQLITE_SEEDS[0]
    with postgres_app_class(postgres_store) as app:
        game = _play(app, seed)
        with postgres_app_class(postgres_store) as again:
            game.check_store(again)
            game.check_delve_versions(again)
        _same_as_memory(game, seed)
