"""Delves and dungeons on the command line: setting them up, the growing
map in `rk status`, the exploring verbs as `rk legal` lists them, refusals,
and the log, audit, pool and time travel of a delve.

The delve here is the starter pack's; its Entrance lies mid-table (columns
ae to ag, rows 31 to 33), its Connection hexes on ag31 and ag32. Played on
an SQLite file of each test's own, in-process (the shared ``rk`` fixture)."""

from __future__ import annotations

import pytest

from domain.betrayal.battle import commands as c
from domain.betrayal.surface import BATTLE_SURFACE
from domain.kernel.hexes import parse_label

pytestmark = pytest.mark.columns(100)  # the width these tests read output at

DELVE = [
    "new",
    "delve",
    "--delve",
    "drowned-cistern",
    "--party",
    "Ada:nord",
    "--party",
    "Bo:dark-elf",
    "--xp",
    "2",
    "--seed",
    "11",
]
BESIDE = ["--place", "af32", "--place", "ag31"]  # Ada beside the Connection hex ag32, Bo on ag31
FAR = ["--place", "ae31", "--place", "af31"]  # Ada three hexes from ag32 (Stamina 2)


def version(rk, *args: str) -> int:
    return rk("status", "--json", *args).json()["version"]


def legal(rk) -> list[str]:
    return rk("legal").stdout.splitlines()


@pytest.fixture
def delve(rk, store) -> None:
    """A fresh Uncover delve: Ada to act on af32, beside the explorable ag32."""
    rk(*DELVE, *BESIDE)


# --- setting up and looking -------------------------------------------------------


@pytest.mark.rule("DELVE-7", "DELVE-10", "SKYSHARD-3")
def test_new_delve_then_status_draws_the_entrance_and_the_delve_progress(rk, store):
    out = rk(*DELVE).stdout
    assert "DELVE-10: Ada placed on ae31" in out and "DELVE-7: the Entrance is placed" in out
    assert "Clash" not in out
    status = rk("status").stdout
    assert "Delve drowned-1 · The Drowned Cistern (uncover)" in status
    assert "     ae  af  ag" in status  # the table's own column letters, cropped to the Entrance
    assert " 31  Ad  Bo  E?" in status  # ag31: an explorable Connection hex
    assert "skyshards gained 0/3, drawn 0/3" in status
    assert "Delve deck 18 cards · tiles left: bend 3, cavern 3, cell 3, hall 3" in status  # CLEANUP-6: 2 SP cards aside
    assert "Explorable now (EXPLORATION-5): ag31, ag32" in status
    assert all(len(line) <= 100 for line in status.splitlines())


def test_delves_and_dungeons_are_listed_before_a_battle(rk, store):
    out = rk("delves").stdout
    assert "whispering-barrow" in out and "survey (OBJ-4)" in out and "uncover (OBJ-8)" in out
    rows = rk("delves", json=True).json()
    assert {r["id"]: r["skyshards"] for r in rows} == {"whispering-barrow": 3, "drowned-cistern": 3}
    setups = {r["id"]: r["mode"] for r in rk("setups", json=True).json()}
    assert setups["sentinel-vault"] == "dungeon" and setups["waystone-crossing"] == "clash"
    assert not store.exists()


@pytest.mark.rule("DUNGEON-6", "DUNGEON-9", "DUNGEON-8d")
def test_new_dungeon_sets_up_its_diagram_like_a_clash(rk, store):
    out = rk("new", "dungeon", "--setup", "sentinel-vault", "--party", "Ada:nord", "--xp", "2", "--seed", "5").stdout
    assert (
        "Dungeon sentinel-1" in out and "DUNGEON-9: Ada placed on a1" in out and "DUNGEON-8d: e1 Bound Sentinel" in out
    )
    assert "Dungeon sentinel-1" in rk("status").stdout
    assert any(line.startswith("rk move ") for line in legal(rk))
    assert not any("explore" in line for line in legal(rk))
    pool = rk("pool", json=True).json()
    assert pool[1]["name"] == "Bound Sentinel" and pool[1]["rule"] == "DUNGEON-8d, EP-8"
    assert pool[2]["rule"] == "DUNGEON-8a, EP-4"


@pytest.mark.rule("DUNGEON-8d")
def test_a_special_hex_off_the_diagram_is_refused_and_nothing_is_set_up(rk, store):
    result = rk(
        "new",
        "dungeon",
        "--setup",
        "sentinel-vault",
        "--party",
        "Ada:nord",
        "--xp",
        "2",
        "--seed",
        "5",
        "--specials",
        "h1",
        code=None,
    )
    assert result.code == 2
    assert result.stderr.strip() == "DUNGEON-8d: hex h1 is not a special hex of the diagram"
    assert "Traceback" not in (result.stdout + result.stderr)
    assert "No battles yet" in rk("battles").stdout


# --- exploring --------------------------------------------------------------------


@pytest.mark.rule("EXPLORE-1", "EXPLORATION-3a", "EXPLORATION-9", "EXPLORATION-9b")
def test_legal_lists_explore_and_place_tile_lines_that_typed_back_are_accepted(rk, delve):
    lines = legal(rk)
    assert "rk explore ag32" in lines and "rk move ag32 --explore" in lines
    rk(*"explore ag32".split())
    placing = legal(rk)
    assert placing and all(line.startswith("rk place-tile --rotation ") for line in placing)
    out = rk(*placing[0].split()[1:]).stdout
    assert "EXPLORATION-9: The Long Drain is connected as tile t1" in out
    assert "  t1  The Long Drain (hall)" in rk("status").stdout


@pytest.mark.rule("EXPLORATION-3a", "EXPLORATION-3b", "EXPLORATION-7b")
def test_move_explore_explores_the_hex_on_entering_it(rk, delve):
    out = rk("move", "ag32", "--explore").stdout
    assert "MOVE-1: Ada moves af32 → ag32" in out
    assert "EXPLORATION-6: Ada explores ag32 on entering it (EXPLORATION-3a)" in out
    assert "must leave ag32 before exploring it again (EXPLORATION-7b)" in out
    assert "Tile waiting to be placed: The Long Drain (hall) against ag32" in out


@pytest.mark.rule("EXPLORE-1")
def test_exploring_out_of_reach_is_refused_with_the_rule_and_writes_nothing(rk, store):
    rk(*DELVE, *FAR)
    before = version(rk)
    result = rk("explore", "ag32", code=None)
    assert result.code == 2
    assert result.stderr.startswith("EXPLORE-1: hex ag32 is out of range")
    assert version(rk) == before


@pytest.mark.rule("EXPLORATION-5", "EXPLORATION-9", "EXPLORE-2", "EXPLORE-1")
def test_other_exploring_refusals_name_their_rules(rk, delve):
    before = version(rk)
    refused = rk("explore", "ae31", code=None)
    assert refused.code == 2 and refused.stderr.startswith("EXPLORATION-5: hex ae31 has no Connection icon")
    refused = rk("place-tile", "--rotation", "0", "--origin", "ag32", code=None)
    assert refused.code == 2 and refused.stderr.startswith("EXPLORATION-9: no revealed tile")
    refused = rk("explore", "a1", code=None)
    assert refused.code == 2 and refused.stderr.startswith("EXPLORE-1: hex a1 is not on this map")
    assert version(rk) == before
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Cy:nord", "--xp", "1", "--seed", "3")
    refused = rk("explore", code=None)
    assert refused.code == 2 and refused.stderr.startswith("EXPLORE-2:")


# --- the log, the audit, the pool, time travel -----------------------------------------


@pytest.mark.rule("EXPLORATION-6", "EXPLORATION-7", "DELVE-4")
def test_log_and_audit_narrate_both_streams_of_a_delve_citing_rules(rk, delve):
    rk("explore", "ag32")
    rk(*legal(rk)[0].split()[1:])
    log = rk("log").stdout
    assert "[delve] DELVE-7: the Entrance is placed" in log
    assert "[delve] EXPLORATION-7: the hall tile The Long Drain is drawn" in log
    assert "DELVE-4: tile t1 gets a fresh EP of 4" in log
    rows = rk("audit", json=True).json()
    delve_rows = [r for r in rows if r["stream"] == "delve:drowned-1"]
    assert [r["event"] for r in delve_rows][:2] == ["DelveBegun", "TurnMarked"]
    assert all(r["rule"] and r["text"] != r["event"] for r in delve_rows)
    battle = [r for r in rows if r["stream"] == "battle:drowned-1" and r["event"] in ("Explored", "EnemyPoolOpened")]
    assert [r["rule"] for r in battle] == ["EXPLORATION-6", "DELVE-4"]


@pytest.mark.rule("DELVE-4", "EXPLORATION-11b")
def test_pool_of_a_delve_is_shown_tile_by_tile(rk, delve):
    assert rk("pool", json=True).json()[0]["kind"] == "none"
    rk("explore", "ag32")
    rk(*legal(rk)[0].split()[1:])
    rows = rk("pool", json=True).json()
    assert rows[0]["tile"] == "t1" and rows[0]["kind"] == "ep" and rows[0]["rule"] == "DELVE-4"
    assert rows[0]["ep_left"] == 4
    assert all(r["tile"] == "t1" for r in rows)
    assert {r["kind"] for r in rows[1:]} <= {"draw", "discarded", "spent"}


@pytest.mark.rule("EXPLORATION-9")
def test_status_at_an_earlier_event_shows_the_delve_as_it_stood(rk, delve):
    rk("explore", "ag32")
    waiting = version(rk)
    rk(*legal(rk)[0].split()[1:])
    then = rk("status", "--at", str(waiting)).stdout
    assert "Tile waiting to be placed: The Long Drain (hall) against ag32" in then
    assert "  t1  " not in then and " E! " in then  # the hex being explored
    assert "  t1  The Long Drain" in rk("status").stdout
    old = rk("status", "--json", "--at", str(waiting)).json()
    assert len(old["delve"]["tiles"]) == 1 and len(old["placements"]) >= 1
    assert len(rk("status", json=True).json()["delve"]["tiles"]) == 2


@pytest.mark.rule("UNDO-2")
def test_undoing_an_exploration_restores_the_delve(rk, delve):
    rk("explore", "ag32")
    assert rk("undo", code=None).code == 2  # it drew a card: a randomness barrier
    rk("undo", "--force")
    assert "rk explore ag32" in legal(rk)
    assert "[delve] UNDO: the delve is back as it was before the undone command" in rk("log").stdout


# --- spelling --------------------------------------------------------------------------


def test_delve_commands_are_spelled_as_typed():
    spell = BATTLE_SURFACE.grammar.spell
    ag32 = parse_label("ag32")
    assert spell(c.MoveToExplore(to=ag32)) == "move ag32 --explore"
    assert spell(c.Explore()) == "explore"
    assert spell(c.Explore(hex=ag32)) == "explore ag32"
    assert spell(c.PlaceTile(rotation=2, origin=ag32)) == "place-tile --rotation 2 --origin ag32"


def test_setups_of_delves_and_dungeons_are_spelled_as_rk_new(rk, store):
    rk(*DELVE, *BESIDE)
    rk(
        "new",
        "dungeon",
        "--setup",
        "sentinel-vault",
        "--party",
        "Cy:nord",
        "--xp",
        "1",
        "--seed",
        "5",
        "--specials",
        "g6",
        "--battle",
        "d1",
    )
    first = rk("log", "--json", "--battle", "drowned-1").json()[0]["text"]
    assert first == (
        "rk new delve --delve drowned-cistern --party Ada --party Bo --xp 2 --seed 11 --place af32 --place ag31"
    )
    first = rk("log", "--json", "--battle", "d1").json()[0]["text"]
    assert first == "rk new dungeon --setup sentinel-vault --party Cy --xp 1 --seed 5 --specials g6"
