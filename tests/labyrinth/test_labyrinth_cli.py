"""The labyrinth battle on the command line: every line `rk legal` lists is a
command the command line takes and gives back the very command listed;
`rk status` shows both sides row by row with what is true of each
combatant, in 80 columns; the generic commands (undo, redo, log, export,
import, verify, audit) take a labyrinth battle; refusals of the rules exit
2 naming their rule, malformed setups exit 1, and neither writes anything."""

from __future__ import annotations

import io
import json
import random
import shlex
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace
from rich.console import Console

from domain.labyrinth.views import conditions, side
from cli.document import renderables
from cli.session import Defaults
from domain.labyrinth.state import ActiveBuff, Affliction
from domain.labyrinth.vocab import Attribute, Buff, Phase, Side
from rk_fixture import Rk

WIDTH = 80  # the columns the shared store fixture sets
NEW = [
    "new",
    "labyrinth",
    "--encounter",
    "mossy-hollow",
    "--party",
    "vanguard",
    "--party",
    "mender:2:Iris",
    "--party",
    "tracker:1::back",
]


def app_of(table: Rk):
    return table.defaults.apps["memory"]


def state_of(table: Rk, battle: str = "lab"):
    return app_of(table).battle(battle).state


def commands(listing: str) -> list[str]:
    """The command lines of `rk legal` (a long one's legend hangs under it)."""
    return [line for line in listing.splitlines() if line.startswith("rk ")]


def declare_all(table: Rk) -> None:
    """Every PC awaited in the Standby phase passes (and, under the GM, every
    Enemy awaited with a Standby skill)."""
    for who in table("status", json=True).json()["awaiting"]:
        table(*(["enemy", who, "pass"] if who.startswith("e") else ["pass", who]))


def hold_fastest(table: Rk) -> None:
    """Whoever the fastest window asks holds, until the [Speed] order (ORDER-3)."""
    for _ in range(12):
        state = state_of(table)
        if state.window != "fastest" or state.over:
            return
        table("hold", state.acting)
    pytest.fail("the fastest window did not close")


def assert_fits(text: str) -> None:
    too_wide = [line for line in text.splitlines() if len(line.rstrip()) > WIDTH]
    assert not too_wide, too_wide


# --- playing by what `rk legal` lists ----------------------------------------------------


@pytest.mark.parametrize("seed", [1, 5])
def test_every_line_legal_lists_gives_back_the_very_command_listed(table, seed):
    table(*NEW, "--seed", str(seed), "--battle", "lab")
    app = app_of(table)
    rnd = random.Random(seed)
    for _ in range(40):  # enough for both phases, several turns, Enemies acting in between
        listed = table("legal", json=True).json()
        if not listed:
            break
        pick = rnd.choice(listed)
        assert pick["rk"].startswith("rk ") and pick["example"].startswith("rk ")
        # an open command's example, typed as listed, gives the very command listed
        table(*shlex.split(pick["example"])[1:])
        assert msgspec.to_builtins(app.battle("lab").done[-1].command) == pick["command"], pick["example"]
    assert app.battle("lab").version > 3


def test_legal_lists_the_standby_declarations_of_every_awaited_pc_then_the_acting_pcs_actions(table):
    table(*NEW, "--seed", "3", "--battle", "lab")
    lines = commands(table("legal").stdout)
    for pc in ("p1", "p2", "p3"):
        assert f"rk pass {pc}" in lines and f"rk full-defense {pc}" in lines and f"rk escape {pc}" in lines
    assert "rk move p1 back 1" in lines and "rk swap p3" in lines
    assert any(line.startswith("rk standby-skill p1 ") for line in lines)
    declare_all(table)
    state = state_of(table)
    if state.window == "fastest":  # a fastest skill is offered first: use it, or hold (ORDER-3)
        lines = commands(table("legal").stdout)
        assert f"rk hold {state.acting}" in lines
        assert all(line.split()[1] in ("skill", "hold", "pass") for line in lines)
        hold_fastest(table)
    acting = state_of(table).acting
    lines = commands(table("legal").stdout)
    assert lines[-1] == f"rk pass {acting}"
    assert all(line.split()[1] in ("attack", "skill", "consume", "pass") for line in lines)
    assert all(line.split()[2] == acting for line in lines)


# --- setting up ------------------------------------------------------------------------


def test_a_new_battle_takes_levels_names_rows_and_every_table_option(table):
    out = table(
        *NEW,
        "--seed",
        "9",
        "--battle",
        "lab",
        "--ambush",
        "enemies",
        "--gm-enemies",
        "--option",
        "default_buff_turns=4",
        "--option",
        "reapply-raises-depth=false",
        "--option",
        "one_ailment_at_a_time=yes",
    ).stdout
    state = state_of(table)
    iris, tracker = state.get("p2"), state.get("p3")
    assert (iris.name, iris.level, tracker.row.value) == ("Iris", 2, "back")
    o = state.options
    assert (o.ambush, o.gm_enemies, o.default_buff_turns, o.reapply_raises_depth, o.one_ailment_at_a_time) == (
        Side.ENEMY,
        True,
        4,
        False,
        True,
    )
    assert "options: ambush=enemy, gm_enemies=true" in " ".join(out.split())


def test_the_setup_as_the_log_tells_it_sets_the_same_battle_up_again(table):
    table(*NEW, "--seed", "9", "--battle", "lab", "--ambush", "pcs", "--option", "default_buff_turns=2")
    first = app_of(table).battle("lab").done[0].command
    line = app_of(table).ruleset("lab").describe_command(first)
    assert f"rk {line}" in " ".join(table("log").stdout.split())
    typed = shlex.split(line)
    table(*typed, "--battle", "again")
    assert app_of(table).battle("again").done[0].command == replace(first, battle_id="again")


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--option", "speed_of_light=3"], "no table option 'speed_of_light'; the options are: ambush, gm_enemies"),
        (["--option", "gm_enemies=perhaps"], "not true or false"),
        (["--option", "default_buff_turns=0"], "whole number from 1 to 99"),
        (["--option", "default_buff_turns"], "NAME=VALUE"),
        (["--ambush", "nobody"], "'nobody' is not one of pcs, enemies"),
        (["--party", "vanguard:x"], "the level is a whole number"),
        (["--party", "vanguard:1:Ada:middle"], "the row is front or back"),
        (["--party", "vanguard:1:Ada:front:extra"], "CLASS[:LEVEL[:NAME[:ROW]]]"),
        (["--party", "wizard"], "no class 'wizard'"),
        (["--encounter", "nowhere"], "no encounter 'nowhere'"),
    ],
)
def test_a_malformed_setup_is_refused_in_one_line_and_writes_nothing(table, argv, says):
    new = NEW[:2] + NEW[4:] if argv[0] == "--encounter" else NEW  # an option is given once
    code, out, err = table(*new, *argv, code=None)
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert says in err, err
    assert table("battles", json=True).json() == []


def test_encounters_and_classes_list_the_starter_pack_in_80_columns(table):
    out = table("encounters").stdout
    assert_fits(out)
    assert "mossy-hollow" in out and "Glimmer Moth" in out and "link pack" in out
    out = table("labyrinth-classes").stdout
    assert_fits(out)
    assert "vanguard" in out and "broadsword" in out and "sundering-blow" in out
    listed = table("labyrinth-classes", json=True).json()
    assert {c["id"] for c in listed} >= {"vanguard", "mender", "tracker"}
    assert "mossy-hollow" in {e["id"] for e in table("encounters", json=True).json()}


# --- the status --------------------------------------------------------------------------


def test_the_status_says_whose_declarations_are_awaited_then_who_acts(table):
    table(*NEW, "--seed", "3", "--battle", "lab")
    out = table("status").stdout
    assert_fits(out)
    flat = " ".join(out.split())
    assert "turn 1, Standby phase; declarations awaited from p1 Vanguard, p2 Iris, p3 Tracker" in flat
    assert "Party" in out and "Enemies" in out and "front" in out and "back" in out
    assert "p1 Vanguard" in flat and "e4 Glimmer Moth" in flat and "to declare" in out
    table("full-defense", "p1")
    flat = " ".join(table("status").stdout.split())
    assert "declarations awaited from p2 Iris, p3 Tracker" in flat and "declared Full defense" in flat
    table("pass", "p2")
    table("pass", "p3")
    state = state_of(table)
    assert state.phase is Phase.MAIN
    flat = " ".join(table("status").stdout.split())
    assert f"turn 1, Main phase; {state.acting} {state.get(state.acting).name} to act" in flat
    assert "Full defense, Waiting" in flat
    status = table("status", json=True).json()
    assert (status["waits_for"], status["acting"]) == (state.acting, state.acting)


def test_a_side_shows_hp_tp_fp_ailments_binds_and_buffs_with_depth_and_turns_in_80_columns(table):
    table(*NEW, "--seed", "3", "--battle", "lab")
    state = state_of(table)
    p1 = replace(
        state.get("p1"),
        hp=4,
        ailments=(Affliction(kind="poison", depth=2), Affliction(kind="stun")),
        binds=(Affliction(kind="arm", depth=1),),
        waiting=True,
        full_defense=True,
        buffs=(
            ActiveBuff(kind=Buff.PATK_UP, amount=2, turns=3),
            ActiveBuff(kind=Buff.DEF_DOWN, amount=1, turns=1),
            ActiveBuff(kind=Buff.ELEMENT, element=Attribute.FIRE, turns=2),
        ),
    )
    e1 = replace(state.get("e1"), hp=-5)  # a blow past 0: players read 0 (the store keeps -5)
    state = replace(state, combatants=tuple({"p1": p1, "e1": e1}.get(c.id, c) for c in state.combatants))
    assert conditions(state, p1) == [
        "to declare",
        "Full defense",
        "Waiting",
        "poison (depth 2)",
        "stun",
        "arm bind (depth 1)",
        "Physical attack up 2 (3 turns)",
        "Defense down 1 (1 turn)",
        "Element grant fire (2 turns)",
    ]
    assert conditions(state, e1)[0] == "incapacitated"
    pack = app_of(table).pack_of("labyrinth")
    console = Console(width=WIDTH, file=io.StringIO(), color_system=None)
    for title, pc in (("Party", True), ("Enemies", False)):
        console.print(*renderables(side(state, pack, title, pc)))
    out = console.file.getvalue()
    assert_fits(out)
    flat = " ".join(out.split())
    assert f"4/{p1.base.max_hp}" in flat and "poison (depth 2)" in flat and "arm bind (depth 1)" in flat
    assert "Element grant fire (2 turns)" in flat and "0/9" in flat and "-5/9" not in flat


# --- the generic commands -----------------------------------------------------------------


def test_undo_redo_log_export_import_verify_and_audit_take_a_labyrinth_battle(table, tmp_path: Path):
    table(*NEW, "--seed", "4", "--battle", "lab")
    table("pass", "p1")
    assert table("status", json=True).json()["can_undo"]
    out = table("undo").stdout
    assert "Undid the last command, rk pass p1" in " ".join(out.split())
    assert table("status", json=True).json()["awaiting"] == ["p1", "p2", "p3"]
    assert "Redid rk pass p1" in table("redo").stdout
    declare_all(table)
    hold_fastest(table)
    table("pass", state_of(table).acting)
    log = table("log").stdout
    assert "rk pass p1" in log and "STANDBY-1" in log and "rk new labyrinth --encounter mossy-hollow" in log
    assert "STANDBY-1" in table("audit").stdout
    assert "Standby phase" in table("status", "--at", "3").stdout
    path = tmp_path / "lab.jsonl"
    table("export", "-o", str(path))
    assert json.loads(path.read_bytes().split(b"\n", 1)[0])["ruleset"] == "labyrinth"
    assert "ok" in table("verify", str(path)).stdout
    assert "ok" in table("verify").stdout
    other = Defaults(store="memory", keep_open=True)
    try:
        table.on(other)("import", str(path))
        assert other.apps["memory"].battle("lab").state == state_of(table)
    finally:
        other.close()
    listed = table("battles", json=True).json()
    assert [(b["battle"], b["ruleset"]) for b in listed] == [("lab", "labyrinth")]


def test_the_gm_gives_the_acting_enemys_action_under_gm_enemies(table):
    table(*NEW, "--seed", "2", "--battle", "lab", "--gm-enemies")
    for _ in range(12):  # PCs pass until an Enemy's turn comes
        status = table("status", json=True).json()
        if status["waits_for"] == "gm":
            break
        if status["waits_for"] == "standby":
            declare_all(table)
        elif status["window"] == "fastest":
            table("hold", status["acting"])
        else:
            table("pass", status["acting"])
    else:
        pytest.fail("no Enemy's turn came")
    enemy = state_of(table).acting
    assert f"the GM chooses {enemy}" in " ".join(table("status").stdout.split())
    lines = table("legal").stdout.splitlines()
    assert f"rk enemy {enemy} pass" in lines
    assert any(line.startswith(f"rk enemy {enemy} attack --target ") for line in lines)
    listed = table("legal", json=True).json()
    attack = next(o["example"] for o in listed if o["example"].startswith(f"rk enemy {enemy} attack --target "))
    table(*shlex.split(attack)[1:])
    done = app_of(table).battle("lab").done[-1].command
    assert (type(done).__name__, done.actor, done.skill) == ("EnemyAct", enemy, "")


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.rule("STANDBY-1")
def test_a_pc_declares_once_a_turn_and_a_second_declaration_is_refused_writing_nothing(table):
    table(*NEW, "--seed", "4", "--battle", "lab")
    table("move", "p1", "back")
    before = app_of(table).battle("lab").version
    code, out, err = table("swap", "p1", code=None)
    assert (code, err.split(":")[0]) == (2, "STANDBY-1"), err
    assert app_of(table).battle("lab").version == before


@pytest.mark.rule("MAIN-1")
def test_a_main_action_in_the_standby_phase_and_an_enemy_order_without_the_gm_are_refused(table):
    table(*NEW, "--seed", "4", "--battle", "lab")
    before = app_of(table).battle("lab").version
    code, out, err = table("attack", "p1", "e1", code=None)
    assert (code, err.split(":")[0]) == (2, "MAIN-1"), err
    code, out, err = table("enemy", "e1", "attack", "--target", "p1", code=None)
    assert (code, err.split(":")[0]) == (2, "MAIN-1"), err
    assert app_of(table).battle("lab").version == before


@pytest.mark.parametrize(
    "argv",
    [
        ["move", "p1", "sideways"],
        ["move", "p1"],
        ["move", "p1", "back", "--explore"],
        ["skill", "p1", "no-such-skill"],
        ["pass", "p9"],
    ],
)
def test_a_malformed_command_exits_1_in_one_line(table, argv):
    table(*NEW, "--seed", "4", "--battle", "lab")
    before = app_of(table).battle("lab").version
    if argv[0] == "skill":
        declare_all(table)
        hold_fastest(table)
        before = app_of(table).battle("lab").version
        argv = [argv[0], state_of(table).acting, *argv[2:]]
    code, out, err = table(*argv, code=None)
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert app_of(table).battle("lab").version == before


def test_rk_move_with_a_row_is_refused_on_a_battle_of_another_ruleset(table):
    table(
        "new",
        "conquest",
        "--scenario",
        "border-clash",
        "--army",
        "saltmarch",
        "--army",
        "cinderpact",
        "--seed",
        "1",
        "--battle",
        "q",
    )
    code, out, err = table("move", "a1", "back", code=None)
    assert code == 1 and "move is not a command of a Conquest" in err and "Labyrinth TRPG" in err, err
