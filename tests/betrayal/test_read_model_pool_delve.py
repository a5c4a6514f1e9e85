"""A delve's enemy pools in the pool view (projections.pool, `rk pool`): no
pool at setup (DELVE-9), then a fresh EP for each tile revealed (DELVE-4,
raised by a When Revealed effect, EXPLORATION-8), the enemies drawn for it
(EXPLORATION-11b) and how it closed (EXPLORATION-11c, EP-6). The view
follows play live, with undos (UNDO-2), equals a rebuild from zero and
equals what the battle log says; a clash's and a dungeon's pool keep their
single pool, with no tile."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from domain.betrayal.battle import events as ev
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.bots import delve_choice, greedy_choice
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import Difficulty
from domain.kernel.commandlog import CommandUndone
from domain.kernel.hexes import name
import betrayal_views as views
from domain.betrayal.read_models import reports
from domain.betrayal.read_models.pool import PoolRow, PoolView, pool_rows
from projections.runner import Catchup

HEROES = (("Ysolda", "nord"), ("Tarn", "dark-elf"), ("Brelyna", "breton"), ("Lydia", "argonian"))
SURVEY, UNCOVER = "whispering-barrow", "drowned-cistern"
# (delve, seed, heroes, xp). Played straight through by the bot (the delve
# deck without its SP cards, CLEANUP-6): survey-13 and uncover-2 discard EP
# on every tile (uncover-2 with a When Revealed rise); uncover-0 with one
# hero spends every tile's EP to 0; survey-1 at XP 0 opens empty pools
# (spent at once) and one raised by a When Revealed effect that discards.
# The undos below send each game its own way.
GAMES = [
    pytest.param(SURVEY, 13, 4, 1, id="survey-13"),
    pytest.param(UNCOVER, 2, 4, 1, id="uncover-2-raised"),
    pytest.param(UNCOVER, 0, 1, 1, id="uncover-0-one-hero"),
    pytest.param(SURVEY, 1, 3, 0, id="survey-1-xp-0"),
]


@pytest.fixture
def app():
    app = BetrayalApp("memory")
    yield app
    views.close_views(app)
    app.close()


def new_delve(app: BetrayalApp, delve: str, seed: int, heroes: int, xp: int, bid: str = "v1") -> str:
    app.new_delve(
        delve=delve,
        party=[PartySpec(n, r) for n, r in HEROES[:heroes]],
        xp=xp,
        seed=seed,
        battle_id=bid,
        difficulty=Difficulty.APPRENTICE,
    )
    return bid


def step(app: BetrayalApp, bid: str, rnd: random.Random) -> list:
    """One bot command; the battle events it wrote."""
    return list(app.execute(bid, delve_choice(app.battle(bid).state, app.rules_context(bid), rnd)).events)


def over(app: BetrayalApp, bid: str) -> bool:
    return app.battle(bid).state.phase is Phase.ENDED


# -- the log, read independently of the view ---------------------------------------


def pools_in_the_log(app: BetrayalApp, bid: str) -> list[tuple]:
    """Per tile in the order revealed, from the battle's log without the
    undone commands: (tile, card revealed, EP, the draws in order, the close)."""
    envelopes = app.stream(bid)
    undone = {env.event.command_id for env in envelopes if isinstance(env.event, CommandUndone)}
    pools: list[list] = []
    opened: dict[str, list] = {}  # command id -> the pool it opened
    card = ""
    for env in envelopes:
        e = env.event
        if env.command_id in undone:
            continue
        if isinstance(e, ev.Explored):
            card = e.card
        elif isinstance(e, ev.EnemyPoolOpened):
            pools.append([e.tile, card, e.ep, [], None])
            opened[env.command_id] = pools[-1]
        elif isinstance(e, ev.EnemyPlaced):
            opened[env.command_id][3].append((e.number, e.foe, e.enemy, e.level, e.ep_left, e.draw, name(e.hex)))
        elif isinstance(e, ev.EnemyPoolClosed):
            opened[env.command_id][4] = ("discarded", e.discarded, e.reason.split(":")[0])
    out = []
    for tile, card, ep, draws, close in pools:
        left = draws[-1][4] if draws else ep
        out.append((tile, card, ep, tuple(draws), close or (("spent", 0, "EP-6") if left <= 0 else None)))
    return out


def pools_in_the_rows(rows: list[PoolRow]) -> list[tuple]:
    """The view's rows in the shape of ``pools_in_the_log`` (the card comes
    from the note), checking each row's rule and arithmetic on the way."""
    if [r.kind for r in rows] == ["none"]:
        assert rows[0].rule == "DELVE-9" and rows[0].tile == ""
        return []
    pools: list[list] = []
    for r in rows:
        if r.kind == "ep":  # DELVE-4
            assert r.rule == "DELVE-4" and r.tile
            pools.append([r.tile, r.note, r.ep_left, [], None])
            left = r.ep_left
            continue
        tile, _, _, draws, close = pools[-1]
        assert r.tile == tile and close is None
        if r.kind == "draw":  # EXPLORATION-11b: each draw spends its level
            assert r.rule == "EXPLORATION-11b" and not r.quest
            assert r.note == f"EP {left} - level {r.level} = {r.ep_left}" and r.ep_left == left - r.level
            draws.append((r.number, r.foe, r.enemy, r.level, r.ep_left, r.draw, r.hex))
            left = r.ep_left
        elif r.kind == "discarded":  # EXPLORATION-11c: what is left is lost
            assert r.discarded == left > 0
            pools[-1][4] = ("discarded", r.discarded, r.rule)
        else:  # EP-6: the tile's EP reached 0
            assert r.kind == "spent" and r.rule == "EP-6" and left <= 0
            pools[-1][4] = ("spent", 0, "EP-6")
    return [(t, note, ep, tuple(d), c) for t, note, ep, d, c in pools]


def assert_equals_the_log(app: BetrayalApp, bid: str) -> list[PoolRow]:
    """The live view (caught up now) against the log and the aggregates."""
    rows = views.enemy_pool(app, bid)
    seen, logged = pools_in_the_rows(rows), pools_in_the_log(app, bid)
    assert [p[:1] + p[2:] for p in seen] == [p[:1] + p[2:] for p in logged]
    # Every tile placed opened its pool, and every foe of a delve was drawn for one.
    delve, state = app.delve_of(bid), app.battle(bid).state
    assert [p[0] for p in seen] == [t.key for t in delve.tiles if t.key != "E"]
    assert [d[1] for p in seen for d in p[3]] == [f.id for f in state.foes]
    # The ep row names the tile now under its key and the card that revealed it.
    pack = app.pack
    base = state.xp * len(state.heroes)
    for (tile, note, ep, _, _), (_, card, _, _, _) in zip(seen, logged):
        assert note.startswith(f"{pack.tiles[delve.placed(tile).tile].name} (card {pack.cards[card].name}):")
        raised = f" + {ep - base} When Revealed (EXPLORATION-8)" if ep != base else ""
        assert note.endswith(f"fresh EP = XP {state.xp} x party size {len(state.heroes)}{raised} = {ep}")
    return rows


def pool_tables(db: Catchup) -> dict[str, list[tuple]]:
    return {t: rows for t, rows in db.contents().items() if t in PoolView.tables}


def assert_rebuild_equals_live(app: BetrayalApp, bid: str) -> None:
    """A fresh catch-up over the whole log (small pages) gives the tables and
    the rows the live view holds."""
    live = views.views_for(app)
    live.catch_up(app)
    fresh = Catchup(None, (PoolView(),), page=7)
    try:
        assert fresh.catch_up(app) > 0
        assert pool_tables(fresh) == pool_tables(live)
        with fresh.reading() as db:
            rebuilt = pool_rows(db, str(app.ruleset(bid).game_stream(bid)), app.pack)
        assert rebuilt == views.enemy_pool(app, bid)
    finally:
        fresh.close()


# -- live, undone, rebuilt, and the log -----------------------------------------------


@pytest.mark.parametrize("delve, seed, heroes, xp", GAMES)
def test_the_pools_follow_play_and_undo_and_equal_the_log_and_a_rebuild(app, delve, seed, heroes, xp):
    bid = new_delve(app, delve, seed, heroes, xp)
    rnd = random.Random(seed)
    before = [assert_equals_the_log(app, bid)]
    assert [r.kind for r in before[0]] == ["none"]  # DELVE-9: no enemies at setup
    redone = dropped = undone = n = 0
    while not over(app, bid) and n < 400:
        events = step(app, bid, rnd)
        n += 1
        now = assert_equals_the_log(app, bid)
        if any(isinstance(e, ev.EnemyPoolOpened) for e in events):
            # The command revealed a tile: undo it (forced across its draws,
            # UNDO-2); its pool goes. Every other time redo it, else let play
            # go another way (the key comes back for another tile).
            app.undo(bid, force=True)
            assert assert_equals_the_log(app, bid) == before[-1]
            if (redone + dropped) % 2 == 0:
                app.redo(bid)
                assert assert_equals_the_log(app, bid) == now
                redone += 1
            else:
                dropped += 1
                continue
        elif n % 7 == 3:  # an undo of another command, not redone
            app.undo(bid, force=True)
            assert assert_equals_the_log(app, bid) == before[-1]
            undone += 1
            continue
        before.append(now)
    assert over(app, bid) and redone and dropped and undone
    assert any(r.kind == "ep" for r in before[-1])
    app.undo(bid, force=True)  # the command that ended the battle
    assert assert_equals_the_log(app, bid) == before[-1]
    assert_rebuild_equals_live(app, bid)
    app.redo(bid)
    assert_equals_the_log(app, bid)
    assert_rebuild_equals_live(app, bid)


@pytest.mark.rule("DELVE-4")
@pytest.mark.rule("EXPLORATION-8")
def test_each_tile_gets_a_fresh_ep_and_a_when_revealed_rise_is_shown(app):
    """DELVE-4: every tile starts from XP x party size, whatever earlier
    tiles spent; EXPLORATION-8: a When Revealed effect adds to it."""
    bid = new_delve(app, SURVEY, 12, 3, 0)
    rnd = random.Random(12)
    while not over(app, bid):
        step(app, bid, rnd)
    rows = assert_equals_the_log(app, bid)
    eps = [r for r in rows if r.kind == "ep"]
    assert len(eps) >= 2 and len({r.tile for r in eps}) == len(eps)
    assert {r.ep_left for r in eps if "When Revealed" not in r.note} == {0}  # XP 0 x 3
    (raised,) = [r for r in eps if "When Revealed" in r.note]
    assert raised.ep_left > 0
    assert f"= XP 0 x party size 3 + {raised.ep_left} When Revealed (EXPLORATION-8)" in raised.note
    # Each tile's pool is its own: its rows follow its ep row and carry its key.
    for r in rows:
        assert r.tile in {e.tile for e in eps}
    assert [r.kind for r in rows if r.tile == raised.tile][0] == "ep"


@pytest.mark.rule("DELVE-4")
@pytest.mark.rule("EXPLORATION-11b")
def test_a_pool_undone_with_its_tile_leaves_the_earlier_tiles_alone(app):
    """Undoing the command that revealed the second tile takes that tile's
    pool back (its draws and its close), and only that one."""
    bid = new_delve(app, SURVEY, 13, 4, 1)
    rnd = random.Random(13)
    while sum(r.kind == "ep" for r in views.enemy_pool(app, bid)) < 2:
        assert not over(app, bid), "seed 13 reveals a second tile"
        step(app, bid, rnd)
    rows = assert_equals_the_log(app, bid)
    first = [r for r in rows if r.tile == "t1"]
    assert {r.kind for r in rows if r.tile == "t2"} >= {"ep", "draw"}
    app.undo(bid, force=True)
    assert assert_equals_the_log(app, bid) == first
    app.redo(bid)
    assert assert_equals_the_log(app, bid) == rows
    assert_rebuild_equals_live(app, bid)


# -- the command line ---------------------------------------------------------------


@pytest.mark.rule("DELVE-4")
@pytest.mark.rule("EXPLORATION-11b")
@pytest.mark.rule("EXPLORATION-11c")
@pytest.mark.columns(160)
def test_rk_pool_shows_a_delve_tile_by_tile(rk):
    rk(
        "new",
        "delve",
        "--delve",
        UNCOVER,
        "--party",
        "Ada:nord",
        "--party",
        "Bo:dark-elf",
        "--xp",
        "2",
        "--seed",
        "73",
        "--place",
        "af32",
        "--place",
        "ag31",
    )
    assert "no tile revealed yet: each will get a fresh EP of 4 (DELVE-4)" in rk("pool").stdout
    rk("explore", "ag32")
    rk(*rk("legal").stdout.splitlines()[0].split()[1:])  # rk place-tile ...
    out = rk("pool").stdout
    header = next(line for line in out.splitlines() if "kind" in line)
    assert header.split()[:3] == ["tile", "kind", "rule"]
    lines = [line.split() for line in out.splitlines() if line.strip().startswith("t1 ")]
    assert [line[1:3] for line in lines] == [
        ["ep", "DELVE-4"],
        ["draw", "EXPLORATION-11b"],
        ["draw", "EXPLORATION-11b"],
        ["discarded", "EXPLORATION-11c"],
    ]
    assert "The Long Drain (card Echoing" in out and "fresh EP = XP 2 x party" in out
    rows = rk("pool", json=True).json()
    assert [(r["tile"], r["kind"], r["ep_left"]) for r in rows] == [
        ("t1", "ep", 4),
        ("t1", "draw", 3),
        ("t1", "draw", 2),
        ("t1", "discarded", 0),
    ]
    assert rows[-1]["discarded"] == 2


# -- a clash and a dungeon: one pool, no tile -------------------------------------------


def single_pool_in_the_log(app: BetrayalApp, bid: str) -> list[tuple]:
    """A clash's or a dungeon's pool from its log: (kind, foe, level, EP
    left, discarded), the EP first."""
    envelopes = app.stream(bid)
    undone = {env.event.command_id for env in envelopes if isinstance(env.event, CommandUndone)}
    events = [env.event for env in envelopes if env.command_id not in undone]
    started = next(e for e in events if isinstance(e, ev.BattleStarted))
    out, left = [("ep", "", 0, started.ep, 0)], started.ep
    for e in events:
        if isinstance(e, ev.EnemyPlaced):
            out.append(("quest" if e.quest else "draw", e.foe, e.level, e.ep_left, 0))
            left = left if e.quest else e.ep_left
        elif isinstance(e, ev.EnemyPoolClosed):
            out.append(("discarded", "", 0, 0, e.discarded))
    if out[-1][0] != "discarded" and left <= 0:
        out.append(("spent", "", 0, 0, 0))
    return out


@pytest.mark.rule("EP-2")
@pytest.mark.rule("EP-4")
@pytest.mark.rule("EP-7")
@pytest.mark.rule("EP-8")
@pytest.mark.rule("DUNGEON-8a")
@pytest.mark.rule("DUNGEON-8d")
def test_a_clash_and_a_dungeon_keep_one_pool_without_a_tile(app):
    party = [PartySpec("Ysolda", "nord"), PartySpec("Tarn", "dark-elf")]
    clash = app.new_clash(setup="waystone-crossing", party=party, xp=40, seed=5).battle.state.battle_id
    quest = app.new_clash(setup="cinder-rite", party=party, xp=4, seed=3).battle.state.battle_id
    dungeon = app.new_dungeon(setup="sentinel-vault", party=party[:1], xp=2, seed=5).battle.state.battle_id
    rnd = random.Random(4)
    for bid in (clash, quest, dungeon):
        for i in range(12):
            if app.battle(bid).state.phase is Phase.ENDED:
                break
            state = app.battle(bid).state
            app.execute(bid, greedy_choice(state, app.context(state), rnd))
            if i % 4 == 3:
                app.undo(bid, force=True)
        rows = views.enemy_pool(app, bid)
        assert [
            (r.kind, r.foe, r.level, r.ep_left if r.kind in ("ep", "draw", "quest") else 0, r.discarded) for r in rows
        ] == single_pool_in_the_log(app, bid)
        assert all(r.tile == "" for r in rows)
        assert rows[0].rule == "EP-2" and rows[0].note.startswith("EP = XP ")
        # The table shows no tile column where no row has a tile.
        asked = SimpleNamespace(app=app, game_id=bid, read_models=lambda: views.reading(app))
        (block,) = reports.pool(asked).view
        assert "tile" not in [c.name for c in block.columns] and block.columns[0].name == "kind"
        assert_rebuild_equals_live(app, bid)
    assert {r.kind for r in views.enemy_pool(app, clash)} == {"ep", "draw", "discarded"}  # EP-7
    assert any(r.kind == "quest" and r.rule == "EP-8" for r in views.enemy_pool(app, quest))
    rules = {r.rule for r in views.enemy_pool(app, dungeon)}
    assert {"DUNGEON-8d, EP-8", "DUNGEON-8a, EP-4"} <= rules


# -- an old views database ---------------------------------------------------------------


def test_a_views_database_of_the_old_pool_layout_rebuilds_the_pools(tmp_path: Path):
    """The view was renamed ("pool" -> "pool-2") with new tables: a views
    file written by the single-pool layout loses its old tables and the
    pools are rebuilt from the first notification."""
    store = tmp_path / "rk.sqlite"
    old = sqlite3.connect(tmp_path / "rk.views.sqlite")
    old.execute("CREATE TABLE positions (projection TEXT PRIMARY KEY, notification_id INTEGER NOT NULL)")
    old.execute("INSERT INTO positions VALUES ('pool', 10000)")
    old.execute(
        "CREATE TABLE pool_battles (stream TEXT PRIMARY KEY, battle_id TEXT, setup TEXT, xp INTEGER,"
        " party INTEGER, ep INTEGER, pack_hash TEXT)"
    )
    old.commit()
    old.close()
    app = BetrayalApp(store=f"sqlite:{store}")
    try:
        assert views.views_path_for(app) == tmp_path / "rk.views.sqlite"
        bid = new_delve(app, UNCOVER, 30, 1, 1)
        rnd = random.Random(30)
        while not any(r.kind == "draw" for r in views.enemy_pool(app, bid)):
            step(app, bid, rnd)
        assert_equals_the_log(app, bid)
        with views.views_for(app).reading() as db:
            tables = {t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "pool_battles" not in tables and set(PoolView.tables) <= tables
    finally:
        views.close_views(app)
        app.close()
