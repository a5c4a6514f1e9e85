"""The game index names battles and deletes them softly: ``BattleRenamed``,
``BattleDeleted`` and ``BattleRestored`` are appended to the index stream,
the battles' own logs are never touched, and export, import and verify go
on working by the id the log carries."""

from __future__ import annotations

import pytest

from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.kernel import battle_index
from domain.kernel.battle_index import (
    BattleDeleted,
    BattleIndex,
    BattleRenamed,
    BattleRestored,
    GameRegistered,
    check_name,
    stem_of,
)
from domain.kernel.envelope import wrap
from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.battle_index import legacy_class, legacy_stream
from domain.kernel.games import INDEX_PAGE, INDEX_STREAM
from domain.kernel.portable import export_battle, import_log, verify_battle, verify_log


def clash(app: BetrayalApp, battle_id: str, seed: int = 7) -> str:
    app.new_clash(
        setup="waystone-crossing", party=[PartySpec(f"Hero{seed}", "nord")], xp=1, seed=seed, battle_id=battle_id
    )
    return battle_id


@pytest.fixture
def app():
    with BetrayalApp("memory") as app:
        yield app


def index_of(*events) -> BattleIndex:
    index = BattleIndex()
    for e in events:
        index.apply(e)
    return index


# -- the fold ----------------------------------------------------------------------------


def test_a_game_goes_by_its_id_until_renamed_then_by_its_name_and_its_id():
    index = index_of(
        GameRegistered(battle_id="waystone-1", ruleset="betrayal", setup="waystone-crossing"),
        BattleRenamed(battle_id="waystone-1", name="Friday"),
    )
    assert index.find("waystone-1").name == "Friday"
    assert index.find("Friday").battle_id == index.find("friday").battle_id == "waystone-1"
    index.apply(BattleRenamed(battle_id="waystone-1", name="saturday"))
    assert index.find("Friday") is None and index.find("saturday").battle_id == "waystone-1"
    assert index.holder("FRIDAY") is None and index.holder("Saturday").battle_id == "waystone-1"


def test_a_deleted_game_keeps_its_name_and_comes_back_when_restored():
    index = index_of(
        GameRegistered(battle_id="a", ruleset="betrayal"),
        GameRegistered(battle_id="b", ruleset="conquest"),
        BattleDeleted(battle_id="a"),
    )
    assert [e.battle_id for e in index.entries()] == ["b"]
    assert [e.battle_id for e in index.entries(deleted=True)] == ["a", "b"]
    assert index.find("a").deleted and index.holder("A").battle_id == "a"
    index.apply(BattleRestored(battle_id="a"))
    assert [e.battle_id for e in index.entries()] == ["a", "b"]


def test_a_game_imported_under_another_games_name_takes_that_name_back():
    index = index_of(
        GameRegistered(battle_id="waystone-1", ruleset="betrayal"),
        BattleRenamed(battle_id="waystone-1", name="final"),
        GameRegistered(battle_id="final", ruleset="betrayal"),
    )
    assert index.find("final").battle_id == "final"
    assert index.find("waystone-1").name == "waystone-1"


def test_fresh_ids_are_the_setups_first_word_and_the_first_free_number():
    index = index_of(
        GameRegistered(battle_id="waystone-1", ruleset="betrayal"),
        GameRegistered(battle_id="x", ruleset="betrayal"),
        BattleRenamed(battle_id="x", name="Waystone-2"),
    )
    assert index.fresh_id("waystone-crossing") == "waystone-3"
    assert index.fresh_id("border-clash") == "border-1"
    assert (stem_of("the-old-mill"), stem_of("!!"), stem_of("9" * 40)) == ("the-old", "battle", "9" * 16)


@pytest.mark.parametrize("name", ["", "-x", "two words", "x" * 65, "ünï", "a/b", "Evil\x1b]0;x\x07"])
def test_a_name_that_cannot_be_typed_as_one_word_is_malformed(name):
    with pytest.raises(MalformedCommand, match="letters"):
        check_name(name)


# -- the application ---------------------------------------------------------------------


def test_rename_appends_to_the_index_and_leaves_the_log_alone(app):
    clash(app, "waystone-1")
    log = [e.event for e in app.stream("waystone-1")]
    before = export_battle(app, "waystone-1")
    renamed = app.rename_battle("waystone-1", "friday-night")
    assert (renamed.battle_id, renamed.name) == ("waystone-1", "friday-night")
    assert isinstance(app.events.last(INDEX_STREAM).event, BattleRenamed)
    assert [e.event for e in app.stream("waystone-1")] == log
    assert app.find_battle("FRIDAY-night").battle_id == "waystone-1"
    # The log carries the id: the export is the same bytes, it verifies, and it imports elsewhere by its id.
    assert export_battle(app, app.find_battle("friday-night").battle_id) == before
    assert verify_battle(app, "waystone-1").ok and verify_log(before).ok
    with BetrayalApp("memory") as other:
        assert import_log(other, before) == "waystone-1"
        assert other.find_battle("waystone-1").name == "waystone-1"


def test_a_name_another_battle_has_is_refused_and_writes_nothing(app):
    clash(app, "waystone-1")
    clash(app, "waystone-2", seed=8)
    app.rename_battle("waystone-2", "final")
    app.delete_battle("final")
    version = app.events.last(INDEX_STREAM).originator_version
    for name in ("WAYSTONE-2", "Final"):  # a deleted battle's id or name, in any case
        with pytest.raises(MalformedCommand, match="taken by battle"):
            app.rename_battle("waystone-1", name)
    with pytest.raises(MalformedCommand, match="taken by battle final"):
        clash(app, "final", seed=9)
    with pytest.raises(MalformedCommand, match="letters"):
        app.rename_battle("waystone-1", "no spaces")
    with pytest.raises(NotFound, match="no battle 'nowhere'"):
        app.rename_battle("nowhere", "somewhere")
    assert app.events.last(INDEX_STREAM).originator_version == version


def test_delete_then_restore_keeps_the_log_and_the_latest_skips_deleted_games(app):
    clash(app, "a", seed=1)
    clash(app, "b", seed=2)
    app.delete_battle("b")
    assert app.latest_battle() == "a"
    assert verify_battle(app, "b").ok  # a deleted battle's log is whole
    with pytest.raises(MalformedCommand, match="already deleted"):
        app.delete_battle("b")
    app.restore_battle("b")
    assert app.latest_battle() == "b"
    with pytest.raises(MalformedCommand, match="not deleted"):
        app.restore_battle("b")
    assert [g.battle_id for g in app.battles()] == ["a", "b"]


def test_the_latest_game_is_found_past_many_pages_of_deletions(app):
    clash(app, "kept", seed=1)
    events = [GameRegistered(battle_id=f"gone{i}", ruleset="betrayal") for i in range(INDEX_PAGE)]
    events += [BattleDeleted(battle_id=f"gone{i}") for i in range(INDEX_PAGE)]
    app.append(wrap(INDEX_STREAM, app.events.last(INDEX_STREAM).originator_version, events, "index"))
    assert app.latest_battle() == "kept"
    app.delete_battle("kept")
    with pytest.raises(NotFound, match="no battle yet"):
        app.latest_battle()


def test_a_battle_of_the_legacy_index_can_be_renamed_and_deleted(app):
    app.append(
        wrap(legacy_stream("betrayal"), 0, [legacy_class("betrayal")(battle_id="old", setup="waystone-crossing")], "c1")
    )
    clash(app, "today", seed=1)
    app.rename_battle("old", "ancient")
    assert app.find_battle("ancient").battle_id == "old"
    app.delete_battle("today")
    assert app.latest_battle() == "old"


def test_the_battles_view_agrees_with_the_index(app):
    from projections.views import battles

    clash(app, "waystone-1", seed=1)
    clash(app, "waystone-2", seed=2)
    app.rename_battle("waystone-1", "final")
    app.delete_battle("waystone-2")
    assert (
        [(r.battle, r.name, r.deleted) for r in battles(app)]
        == [(e.battle_id, e.name, e.deleted) for e in app.index().entries(deleted=True)]
        == [("waystone-1", "final", False), ("waystone-2", "waystone-2", True)]
    )
    with BetrayalApp("memory") as other:  # a log imported under the id another battle goes by
        clash(other, "waystone-9", seed=3)
        other.rename_battle("waystone-9", "waystone-1")
        import_log(other, export_battle(app, "waystone-1"))
        assert (
            [(r.battle, r.name) for r in battles(other)]
            == [(e.battle_id, e.name) for e in other.index().entries()]
            == [("waystone-9", "waystone-9"), ("waystone-1", "waystone-1")]
        )


def test_the_index_module_documents_its_events():
    assert {e.TOPIC for e in battle_index.INDEX_EVENTS} >= {
        "rulekeeper.BattleRenamed",
        "rulekeeper.BattleDeleted",
        "rulekeeper.BattleRestored",
    }
