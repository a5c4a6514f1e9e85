"""Conquest on the command line: every line `rk legal` lists is a command
the command line takes and gives back the very command listed, so a whole
battle can be played by typing what `rk legal` says; status, log, undo,
redo, export, verify and battles work on a Conquest battle as on a clash."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import pytest

from cli.session import Defaults
from rk_fixture import Rk

pytestmark = pytest.mark.columns(120)  # the width these tests read output at

NEW = ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact"]


@pytest.fixture
def table(rk: Rk):
    """``table(*argv)`` types at one open application on a memory store,
    shared by every command (``table.defaults``)."""
    defaults = Defaults(store="memory", keep_open=True)
    yield rk.on(defaults)
    defaults.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_battle_is_played_by_typing_what_legal_lists(table, seed):
    table(*NEW, "--seed", str(seed), "--battle", f"cli{seed}")
    app = table.defaults.apps["memory"]
    rnd = random.Random(seed)
    for _ in range(3000):
        listed = table("legal", json=True).json()
        if not listed:
            break
        # each open command lists one finished command it gives, as typed (its example)
        pick = rnd.choice(listed)
        line = pick["example"]
        table(*shlex.split(line)[1:])
        assert json.loads(json.dumps(_builtins(app.battle(f"cli{seed}").done[-1].command))) == pick["command"], line
    else:
        pytest.fail("the battle did not end")
    assert app.ruleset(f"cli{seed}").summary(app.battle(f"cli{seed}").state).over
    assert "is over" in table("status").stdout


def _builtins(command):
    import msgspec

    return msgspec.to_builtins(command)


def _typed(table: Rk, verb: str) -> str:
    """Type the one line `rk legal` prints for ``verb``, as printed; the line."""
    lines = [line.strip() for line in table("legal").stdout.splitlines() if line.strip().startswith(f"rk {verb} ")]
    assert len(lines) == 1, lines
    table(*shlex.split(lines[0])[1:])
    return lines[0]


@pytest.mark.rule("CMD-1")
def test_a_first_round_with_no_arrivals_is_finished_by_typing_what_legal_prints(table):
    """Nothing on the table and nothing arriving: each Command Stack is
    empty, and the line `rk legal` gives for it is one `rk` takes."""
    table(*NEW, "--physical-dice", "--seed", "1", "--battle", "bare")
    table("choose-arrival", "--faces", "6,6,6")  # a 6 always fails (facts: REINF-9): no arrival
    table("choose-arrival", "--faces", "6,6")
    assert _typed(table, "order-stack") == "rk order-stack --cards none"
    table("order-stack", "--cards", "")  # an empty word says the same
    state = table.defaults.apps["memory"].battle("bare").state
    assert [side.stack for side in state.sides] == [(), ()] and "supremacy phase" in table("status").stdout
    rnd = random.Random(1)
    while table.defaults.apps["memory"].battle("bare").state.round == 1:  # the rest of the Round, as legal lists it
        listed = [o for o in table("legal", json=True).json() if o["verb"] != "surrender"]
        table(*shlex.split(rnd.choice(listed)["example"])[1:])
    assert "round 2" in table("status").stdout


def test_status_log_undo_redo_export_verify_and_battles_take_a_conquest_battle(table, tmp_path: Path):
    table(*NEW, "--seed", "4", "--battle", "q")
    status = table("status").stdout
    assert "round 1, reinforcement phase" in status and "Brine Spears" in status
    table("choose-arrival", "a1")
    assert table("status", json=True).json()["can_undo"]
    table("undo", "--force")
    assert not table("status", json=True).json()["can_undo"]
    table("redo")
    log = table("log").stdout
    assert "choose-arrival a1" in log and "REINF-4" in log
    assert "round 1" in table("status", "--at", "3").stdout
    path = tmp_path / "q.jsonl"
    table("export", "-o", str(path))
    assert json.loads(path.read_bytes().split(b"\n", 1)[0])["ruleset"] == "conquest"
    assert "ok" in table("verify", str(path)).stdout
    listed = table("battles", json=True).json()
    assert [(b["battle"], b["ruleset"]) for b in listed] == [("q", "conquest")]
    audit = table("audit").stdout
    assert "REINF-4" in audit


def test_a_refused_conquest_command_names_its_rule_and_writes_nothing(table):
    table(*NEW, "--seed", "4", "--battle", "q")
    before = table("status", json=True).json()["version"]
    code, out, err = table("march", "a1", "--inches", "6", code=None)
    assert (code, err.split(":")[0]) == (2, "ROUND-2"), err  # the Reinforcement Phase is not finished
    code, out, err = table("choose-arrival", "a5", code=None)
    assert (code, err.split(":")[0]) == (2, "REINF-4"), err  # heavy Regiments cannot arrive in Round 1
    assert table("status", json=True).json()["version"] == before


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "conquest", "--scenario", "nowhere", "--army", "saltmarch", "--army", "cinderpact"],
        ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch"],
        ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "nobody"],
        [
            "new",
            "conquest",
            "--scenario",
            "border-clash",
            "--army",
            "saltmarch",
            "--army",
            "cinderpact",
            "--assign",
            "nonsense",
        ],
    ],
)
def test_a_malformed_setup_is_refused_in_one_line(table, argv):
    code, out, err = table(*argv, code=None)
    assert code == 1 and err.strip() and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert table("battles", json=True).json() == []


def test_a_fresh_process_reads_a_conquest_battle_and_betrayal_views_refuse_it(rk):
    """The views read every event of the store: a process that has not loaded
    Conquest yet loads it for its first Conquest event (the kernel's mapper)."""
    rk.process(*NEW, "--seed", "4")
    audit = rk.process("audit", code=None)
    assert audit.code == 0 and "REINF-1" in audit.stdout, audit.stderr
    track = rk.process("track", code=None)
    assert track.code == 1 and "no cooldown track" in track.stderr and "Traceback" not in track.stderr
