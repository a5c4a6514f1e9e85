"""Read models from the notification log: the cooldown track, the enemy
pool and the audit, on the memory store and on an SQLite file; rebuild from
zero and resume after a crash give the same rows."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from eventsourcing.utils import Environment

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.battle import events as ev
from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp, adventurer_stream
from domain.betrayal.battle.bots import greedy_choice, random_choice
from domain.betrayal.battle.state import BattleState, Phase
from domain.betrayal.vocab import Difficulty
from domain.kernel.errors import NotFound, RuleViolation
from domain.kernel.hexes import name
from domain.kernel.stores.store import store_env
import betrayal_views as views
from projections.audit import AuditView
from projections.runner import Catchup

PARTY = ("Ysolda:nord", "Tarn:dark-elf", "Brelyna:breton")


@pytest.fixture(params=["memory", "sqlite"])
def app(request, tmp_path: Path):
    store = "memory" if request.param == "memory" else f"sqlite:{tmp_path / 'rk.sqlite'}"
    app = BetrayalApp(store=store)
    yield app
    views.close_views(app)
    app.close()


@pytest.fixture
def sqlite_app(tmp_path: Path):
    app = BetrayalApp(store=f"sqlite:{tmp_path / 'rk.sqlite'}")
    yield app
    views.close_views(app)
    app.close()


def new_battle(
    app: BetrayalApp, *, seed: int, xp: int = 4, setup: str = "waystone-crossing", party: tuple[str, ...] = PARTY
) -> str:
    specs = [party_member(p) for p in party]
    return app.new_clash(setup=setup, party=specs, xp=xp, seed=seed).battle.state.battle_id


def step(app: BetrayalApp, bid: str, rnd: random.Random) -> None:
    state = app.battle(bid).state
    app.execute(bid, greedy_choice(state, app.context(state), rnd))


def play(app: BetrayalApp, bid: str, rnd: random.Random, commands: int) -> None:
    for _ in range(commands):
        if app.battle(bid).state.phase is Phase.ENDED:
            return
        step(app, bid, rnd)


def undo(app: BetrayalApp, bid: str) -> bool:
    """Undo the last command, forcing it across a roll if needed; True if forced."""
    try:
        app.undo(bid)
        return False
    except RuleViolation as e:
        assert e.rule == "UNDO-2"
        app.undo(bid, force=True)
        return True


def tracks_of(state: BattleState) -> list[tuple]:
    return [
        (h.id, i, d.kind.value, d.uid, d.face, d.status.value if d.status else "")
        for h in state.heroes
        for i, d in enumerate(h.track, start=1)
    ]


def slots_of(state: BattleState) -> list[tuple]:
    out = []
    for h in state.heroes:
        out += [(h.id, "active", i, a.kind.value, a.uid, a.face, a.amount) for i, a in enumerate(h.active, 1)]
        out += [(h.id, "drained", i, "skill", uid, -1, 0) for i, uid in enumerate(h.drained, 1)]
    return out


def track_rows(app: BetrayalApp, bid: str) -> list[tuple]:
    return [(r.hero, r.position, r.kind, r.uid, r.face, r.status) for r in views.cooldown_track(app, bid)]


def slot_rows(app: BetrayalApp, bid: str) -> list[tuple]:
    return [(r.hero, r.slot, r.position, r.kind, r.uid, r.face, r.amount) for r in views.cooldown_slots(app, bid)]


def assert_view_matches(app: BetrayalApp, bid: str) -> None:
    state = app.battle(bid).state
    assert track_rows(app, bid) == tracks_of(state)
    assert slot_rows(app, bid) == slots_of(state)


# -- cooldown track -------------------------------------------------------------


@pytest.mark.rule("CLEANUP-4c")
def test_cooldown_rows_equal_the_state_at_every_step_and_after_undo(app: BetrayalApp):
    rnd = random.Random(7)
    forced = redone = 0
    for seed in (3, 11):
        # The second battle's survivors join with their tracks carried over.
        party = PARTY if seed == 3 else survivors(app) + ("Lydia:nord",)
        carried = [app.adventurer(p).track for p in party[:-1]] if seed != 3 else []
        bid = new_battle(app, seed=seed, xp=2, party=party)
        assert_view_matches(app, bid)
        n = 0
        while app.battle(bid).state.phase is not Phase.ENDED and n < 300:
            step(app, bid, rnd)
            n += 1
            assert_view_matches(app, bid)
            if n % 6 == 3:
                before = app.battle(bid)
                forced += undo(app, bid)
                after = app.battle(bid)
                undone = app.stream(bid)[-1].event
                assert isinstance(undone, ev.CommandUndone)
                assert track_rows(app, bid) == tracks_of(undone.restored) == tracks_of(after.state)
                assert slot_rows(app, bid) == slots_of(undone.restored)
                if n % 12 == 3:
                    app.redo(bid)
                    redone += 1
                    assert app.battle(bid).state == before.state
                    assert_view_matches(app, bid)
    assert forced and redone
    assert len(party) > 1, "someone survived the first battle"
    # The second battle began with what the first left on the tracks (CLEANUP-4c).
    started = next(e.event for e in app.stream(bid) if isinstance(e.event, ev.BattleStarted))
    assert [h.track for h in started.party[:-1]] == carried
    assert any(carried)


def survivors(app: BetrayalApp) -> tuple[str, ...]:
    names = [party_member(p).name for p in PARTY]
    return tuple(n for n in names if app.adventurer(n).hp > 0)


def test_cooldown_rows_follow_random_play_with_undo_and_redo():
    """Random play reaches fatigue, statuses and active slots that the
    greedy bot rarely does; the view equals the state after every command."""
    app = BetrayalApp(store="memory")
    rnd = random.Random(1)
    setups = ("waystone-crossing", "fallen-watchtower", "cinder-rite")
    races = ("nord", "dark-elf", "breton", "argonian")
    try:
        for seed in range(6):
            party = tuple(f"Hero{seed}{i}:{races[i]}" for i in range(1 + seed % 4))
            bid = app.new_clash(
                setup=setups[seed % 3],
                party=[party_member(p) for p in party],
                xp=1 + seed % 5,
                seed=seed,
                difficulty=list(Difficulty)[seed % 3],
            ).battle.state.battle_id
            for _ in range(300):
                if app.battle(bid).state.phase is Phase.ENDED:
                    break
                state = app.battle(bid).state
                app.execute(bid, random_choice(state, app.context(state), rnd))
                if rnd.random() < 0.1:
                    undo(app, bid)
                    if rnd.random() < 0.5:
                        app.redo(bid)
                assert_view_matches(app, bid)
        seen = {type(e.event) for _, e in app.notifications()}
        assert {ev.FatigueGained, ev.DieExhausted, ev.DiceRecovered, ev.HeroCleanedUp, ev.CommandUndone} <= seen
        assert seen & {ev.HeroStatusGained, ev.ActiveChanged}
    finally:
        views.close_views(app)


def test_cooldown_rows_name_dice_and_faces_from_the_pack(app: BetrayalApp):
    bid = new_battle(app, seed=3)
    play(app, bid, random.Random(1), 40)
    rows = views.cooldown_track(app, bid)
    skill = [r for r in rows if r.kind == "skill"]
    assert skill, "the bot exhausts dice in 40 commands"
    for r in skill:
        die = app.pack.dice[r.die]
        assert r.die_name == die.name
        assert r.shown and r.shown != f"face {r.face}"
    assert {r.hero_name for r in rows} <= {"Ysolda", "Tarn", "Brelyna"}


def test_an_unknown_battle_is_not_found(app: BetrayalApp):
    new_battle(app, seed=3)
    for query in (views.cooldown_track, views.enemy_pool, views.audit):
        with pytest.raises(NotFound):
            query(app, "no-such-battle")


# -- enemy pool -------------------------------------------------------------------


@pytest.mark.rule("EP-2")
@pytest.mark.rule("EP-6")
@pytest.mark.rule("EP-7")
@pytest.mark.rule("EP-8")
@pytest.mark.rule("CLASH-7a")
@pytest.mark.parametrize("setup", ["waystone-crossing", "cinder-rite"])
@pytest.mark.parametrize("xp", [0, 4, 40])
def test_pool_rows_match_the_draws_and_the_ep_arithmetic(app: BetrayalApp, setup: str, xp: int):
    party = PARTY[:2]
    bid = new_battle(app, seed=5, xp=xp, setup=setup, party=party)
    rows = views.enemy_pool(app, bid)
    events = [e.event for e in app.stream(bid)]
    placed = [e for e in events if isinstance(e, ev.EnemyPlaced)]
    closed = [e for e in events if isinstance(e, ev.EnemyPoolClosed)]

    ep_row, draws, end = rows[0], rows[1:-1], rows[-1]
    assert ep_row.kind == "ep" and ep_row.rule == "EP-2"
    assert ep_row.ep_left == xp * len(party)  # EP-2
    assert [(r.number, r.foe, r.enemy, r.level, r.ep_left, r.quest, r.hex) for r in draws] == [
        (e.number, e.foe, e.enemy, e.level, e.ep_left, e.quest, name(tuple(e.hex))) for e in placed
    ]
    left = ep_row.ep_left
    for r in draws:
        if r.quest:  # EP-8: quest units are outside the EP
            assert r.kind == "quest" and r.rule == "EP-8" and r.ep_left == left
        else:  # CLASH-7a: each draw spends its level
            assert r.kind == "draw" and r.level <= left and r.ep_left == left - r.level
            left = r.ep_left
    spent = sum(r.level for r in draws if not r.quest)
    if closed:  # EP-7: what is left is discarded
        assert end.kind == "discarded" and end.rule == "EP-7"
        assert end.discarded == closed[0].discarded == left > 0
        assert spent + end.discarded == ep_row.ep_left
    else:  # EP-6: the EP reached 0
        assert end.kind == "spent" and end.rule == "EP-6" and left == 0
        assert spent == ep_row.ep_left
    if setup == "cinder-rite":
        assert any(r.quest for r in draws)


@pytest.mark.rule("EP-4")
def test_pool_spends_the_highest_level_first(app: BetrayalApp):
    bid = new_battle(app, seed=5, xp=4, party=PARTY[:2])  # EP 8 -> 5, 1, 1, 1
    draws = [r for r in views.enemy_pool(app, bid) if r.kind == "draw"]
    assert [r.level for r in draws] == [5, 1, 1, 1]
    assert [r.ep_left for r in draws] == [3, 2, 1, 0]


# -- audit ------------------------------------------------------------------------


def undo_logged(app: BetrayalApp, bid: str) -> tuple[str, str, bool]:
    """Undo the last command: (its command id, the undo's command id, forced)."""
    last = app.battle(bid).done[-1].command_id
    forced = undo(app, bid)
    return last, app.stream(bid)[-1].command_id, forced


def test_audit_has_a_line_per_event_citing_rules_and_marks_undone_commands(app: BetrayalApp):
    bid = new_battle(app, seed=3)
    rnd = random.Random(4)
    play(app, bid, rnd, 3)
    undos = [undo_logged(app, bid)]
    play(app, bid, rnd, 2)
    while not undos[-1][2]:  # back until a command that revealed dice is forced
        undos.append(undo_logged(app, bid))
    play(app, bid, rnd, 400)

    lines = views.audit(app, bid)
    stream = app.stream(bid)
    battle_lines = [line for line in lines if line.stream == f"battle:{bid}"]
    assert [(line.version, line.event) for line in battle_lines] == [
        (e.originator_version, type(e.event).__name__) for e in stream
    ]
    assert [line.notification_id for line in lines] == sorted(line.notification_id for line in lines)
    for line, env in zip(battle_lines, stream):
        assert line.command_id == env.command_id
        assert line.text
        rule = getattr(env.event, "rule", None)
        if rule:  # events carrying their rule cite it
            assert line.rule == rule
    by_event = {line.event: line.rule for line in battle_lines}
    expected = {
        "EngageDeclared": "ENGAGE-5",
        "RoundStarted": "ROUND-4",
        "TurnStarted": "TURN-3",
        "DiceRecovered": "RECOVER-1",
        "HeroMoved": "MOVE-1",
        "EnemyEngaged": "ENEMY-6a",
        "EnemyPlaced": "CLASH-7a",
        "HeroCleanedUp": "CLEANUP-3",
    }
    for event, rule in expected.items():
        if event in by_event:
            assert by_event[event] == rule, event
    if "BattleEnded" in by_event:  # END-1, or the rule its reason starts with
        ended = next(e.event for e in stream if isinstance(e.event, ev.BattleEnded))
        assert by_event["BattleEnded"] == (ended.reason.split(":")[0] if ":" in ended.reason else "END-1")

    undone_ids = {cid for cid, _, _ in undos}
    assert any(forced for _, _, forced in undos)
    for cid, undo_id, forced in undos:
        marked = [line for line in lines if line.command_id == cid]
        assert marked and all(line.undone and line.undone_by == undo_id for line in marked)
        assert all(line.forced == forced for line in marked)
        undo_line = next(line for line in lines if line.command_id == undo_id)
        assert undo_line.event == "CommandUndone" and not undo_line.undone
        assert undo_line.rule == ("UNDO-2" if forced else "UNDO-1")
    assert not any(line.undone for line in lines if line.command_id not in undone_ids)

    # The adventurers' own streams: created at setup, written back at the end.
    created = [line for line in lines if line.event == "AdventurerCreated"]
    assert {line.stream for line in created} == {"adventurer:Ysolda", "adventurer:Tarn", "adventurer:Brelyna"}
    if app.battle(bid).state.phase is Phase.ENDED:
        concluded = [line for line in lines if line.event == "BattleConcluded"]
        assert len(concluded) == len(PARTY) and all(line.rule == "CLEANUP-3b" for line in concluded)


def test_undoing_the_final_command_marks_the_adventurer_write_back_undone():
    app = BetrayalApp(store="memory")
    try:
        bid = new_battle(app, seed=3, party=PARTY[:1])
        rnd = random.Random(2)
        while app.battle(bid).state.phase is not Phase.ENDED:
            step(app, bid, rnd)
        final, undo_id, _ = undo_logged(app, bid)
        lines = views.audit(app, bid)
        back = [line for line in lines if line.event == "BattleConcluded"]
        restored = [line for line in lines if line.event == "AdventurerRestored"]
        assert len(back) == 1 and back[0].command_id == final
        assert back[0].undone and back[0].undone_by == undo_id
        assert len(restored) == 1 and restored[0].stream == "adventurer:Ysolda"
        assert restored[0].command_id == undo_id and restored[0].rule == "UNDO"
        assert isinstance(app.events(adventurer_stream("Ysolda"))[-1].event, adv.AdventurerRestored)
    finally:
        views.close_views(app)


# -- rebuild and resume -------------------------------------------------------------


def projections() -> tuple:
    """Every read model the runner keeps: the kernel's and each ruleset's."""
    return views.projections()


def api_rows(app: BetrayalApp, bids: list[str]) -> list:
    return [
        (views.cooldown_track(app, b), views.cooldown_slots(app, b), views.enemy_pool(app, b), views.audit(app, b))
        for b in bids
    ]


def played(app: BetrayalApp) -> list[str]:
    rnd = random.Random(9)
    bids = []
    parties = (PARTY, ("Lydia:nord", "Teldryn:dark-elf"))
    for seed, party in zip((3, 4), parties):
        bid = new_battle(app, seed=seed, party=party)
        bids.append(bid)
        play(app, bid, rnd, 12)
        undo(app, bid)
        app.undo(bid, force=True)
        app.redo(bid)
        play(app, bid, rnd, 30)
    return bids


def test_a_rebuild_from_zero_gives_identical_rows(app: BetrayalApp):
    bids = played(app)
    before_rows = api_rows(app, bids)
    before = views.views_for(app).contents()
    path = views.views_path_for(app)
    views.close_views(app)
    if path is not None:
        assert path.exists()
        for extra in ("", "-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
    assert api_rows(app, bids) == before_rows
    assert views.views_for(app).contents() == before
    # reset() is the same rebuild without deleting the file.
    views.views_for(app).reset()
    assert api_rows(app, bids) == before_rows


def test_a_crash_mid_page_keeps_the_last_committed_page_and_resumes(sqlite_app: BetrayalApp):
    app = sqlite_app
    rnd = random.Random(5)
    bid = new_battle(app, seed=3)
    play(app, bid, rnd, 10)
    views.catch_up(app)
    first = views.views_for(app).position()
    assert first == app.max_notification_id()
    play(app, bid, rnd, 15)
    undo(app, bid)
    app.undo(bid, force=True)
    play(app, bid, rnd, 10)

    class Crash(Exception):
        pass

    pending = list(app.notifications(start=first + 1))
    page = 7
    assert len(pending) > 3 * page
    crash_at = pending[2 * page + 3][0]  # inside the third page
    committed = pending[2 * page - 1][0]  # the end of the second page

    class CrashingAudit(AuditView):
        def line(self, db, nid, env):
            if nid == crash_at:
                raise Crash(f"power cut at notification {nid}")
            super().line(db, nid, env)

    path = views.views_path_for(app)
    crashing = Catchup(
        path, tuple(CrashingAudit() if isinstance(p, AuditView) else p for p in projections()), page=page
    )
    with pytest.raises(Crash):
        crashing.catch_up(app)
    assert set(crashing.positions().values()) == {committed}
    partial = Catchup(None, projections())
    partial.catch_up(app, upto=committed)
    assert crashing.contents() == partial.contents()
    crashing.close()

    # A new process resumes from the committed page and ends where a rebuild does.
    views.close_views(app)
    assert views.catch_up(app) > 0
    fresh = Catchup(None, projections())
    fresh.catch_up(app)
    assert views.views_for(app).contents() == fresh.contents()
    assert views.views_for(app).position() == fresh.position() == app.max_notification_id()
    assert_view_matches(app, bid)


def test_two_catchups_on_one_file_apply_each_event_once(sqlite_app: BetrayalApp, tmp_path: Path):
    app = sqlite_app
    other = BetrayalApp(store=f"sqlite:{tmp_path / 'rk.sqlite'}")
    try:
        rnd = random.Random(6)
        bid = new_battle(app, seed=3)
        for _ in range(4):
            play(app, bid, rnd, 5)
            views.catch_up(other)
            play(app, bid, rnd, 3)
            views.catch_up(app)
        assert views.cooldown_track(other, bid) == views.cooldown_track(app, bid)
        fresh = Catchup(None, projections())
        fresh.catch_up(app)
        assert views.views_for(app).contents() == fresh.contents() == views.views_for(other).contents()
    finally:
        views.close_views(other)
        other.close()


# -- where the views live -------------------------------------------------------------


def _stub(store: str) -> SimpleNamespace:
    return SimpleNamespace(env=Environment("rulekeeper", store_env(store, app_name="rulekeeper")))


def test_views_path_follows_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert views.views_path_for(_stub("memory")) is None
    assert views.views_path_for(_stub(str(tmp_path / "camp.sqlite"))) == tmp_path / "camp.views.sqlite"
    assert views.views_path_for(_stub(f"sqlite:{tmp_path / 'camp.db'}")) == tmp_path / "camp.views.db"
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    pg = _stub("postgresql://rk@db.example:5432/campaign")
    pg.env["RULEKEEPER_HOME"] = str(tmp_path / "home")
    assert views.views_path_for(pg) == tmp_path / "home" / "views-campaign.sqlite"


def test_the_sqlite_views_sit_beside_the_store(sqlite_app: BetrayalApp):
    bid = new_battle(sqlite_app, seed=3)
    views.cooldown_track(sqlite_app, bid)
    store = Path(sqlite_app.env.get("SQLITE_DBNAME"))
    assert views.views_path_for(sqlite_app) == store.with_name("rk.views.sqlite")
    assert store.with_name("rk.views.sqlite").exists()
