"""Conquest on the command line: every line `rk legal` lists is a command
the command line takes and gives back the very command listed, so a whole
battle can be played by typing what `rk legal` says; status, log, undo,
redo, export, verify and battles work on a Conquest battle as on a clash."""

from __future__ import annotations

import io
import json
import random
import shlex
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from cli.main import main
from cli.session import Defaults

NEW = ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact"]


def rk(defaults: Defaults, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv), obj=defaults)
    return code, out.getvalue(), err.getvalue()


def ok(defaults: Defaults, *argv: str) -> str:
    code, out, err = rk(defaults, *argv)
    assert code == 0, (argv, out, err)
    return out


@pytest.fixture
def table(monkeypatch) -> Defaults:
    """One open application on a memory store, shared by every command."""
    monkeypatch.setenv("COLUMNS", "120")
    defaults = Defaults(store="memory", keep_open=True)
    yield defaults
    defaults.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_battle_is_played_by_typing_what_legal_lists(table, seed):
    ok(table, *NEW, "--seed", str(seed), "--battle", f"cli{seed}")
    app = table.apps["memory"]
    rnd = random.Random(seed)
    for _ in range(3000):
        listed = json.loads(ok(table, "legal", "--json"))
        if not listed:
            break
        # each open command lists one finished command it gives, as typed (its example)
        pick = rnd.choice(listed)
        line = pick["example"]
        ok(table, *shlex.split(line)[1:])
        assert json.loads(json.dumps(_builtins(app.battle(f"cli{seed}").done[-1].command))) == pick["command"], line
    else:
        pytest.fail("the battle did not end")
    assert app.ruleset(f"cli{seed}").summary(app.battle(f"cli{seed}").state).over
    assert "is over" in ok(table, "status")


def _builtins(command):
    import msgspec

    return msgspec.to_builtins(command)


def _typed(table: Defaults, verb: str) -> str:
    """Type the one line `rk legal` prints for ``verb``, as printed; the line."""
    lines = [line.strip() for line in ok(table, "legal").splitlines() if line.strip().startswith(f"rk {verb} ")]
    assert len(lines) == 1, lines
    ok(table, *shlex.split(lines[0])[1:])
    return lines[0]


@pytest.mark.rule("CMD-1")
def test_a_first_round_with_no_arrivals_is_finished_by_typing_what_legal_prints(table):
    """Nothing on the table and nothing arriving: each Command Stack is
    empty, and the line `rk legal` gives for it is one `rk` takes."""
    ok(table, *NEW, "--physical-dice", "--seed", "1", "--battle", "bare")
    ok(table, "choose-arrival", "--faces", "6,6,6")  # a 6 always fails (facts: REINF-9): no arrival
    ok(table, "choose-arrival", "--faces", "6,6")
    assert _typed(table, "order-stack") == "rk order-stack --cards none"
    ok(table, "order-stack", "--cards", "")  # an empty word says the same
    state = table.apps["memory"].battle("bare").state
    assert [side.stack for side in state.sides] == [(), ()] and "supremacy phase" in ok(table, "status")
    rnd = random.Random(1)
    while table.apps["memory"].battle("bare").state.round == 1:  # the rest of the Round, as legal lists it
        listed = [o for o in json.loads(ok(table, "legal", "--json")) if o["verb"] != "surrender"]
        ok(table, *shlex.split(rnd.choice(listed)["example"])[1:])
    assert "round 2" in ok(table, "status")


def test_status_log_undo_redo_export_verify_and_battles_take_a_conquest_battle(table, tmp_path: Path):
    ok(table, *NEW, "--seed", "4", "--battle", "q")
    status = ok(table, "status")
    assert "round 1, reinforcement phase" in status and "Brine Spears" in status
    ok(table, "choose-arrival", "a1")
    assert json.loads(ok(table, "status", "--json"))["can_undo"]
    ok(table, "undo", "--force")
    assert not json.loads(ok(table, "status", "--json"))["can_undo"]
    ok(table, "redo")
    log = ok(table, "log")
    assert "choose-arrival a1" in log and "REINF-4" in log
    assert "round 1" in ok(table, "status", "--at", "3")
    path = tmp_path / "q.jsonl"
    ok(table, "export", "-o", str(path))
    assert json.loads(path.read_bytes().split(b"\n", 1)[0])["ruleset"] == "conquest"
    assert "ok" in ok(table, "verify", str(path))
    listed = json.loads(ok(table, "battles", "--json"))
    assert [(b["battle"], b["ruleset"]) for b in listed] == [("q", "conquest")]
    audit = ok(table, "audit")
    assert "REINF-4" in audit


def test_a_refused_conquest_command_names_its_rule_and_writes_nothing(table):
    ok(table, *NEW, "--seed", "4", "--battle", "q")
    before = json.loads(ok(table, "status", "--json"))["version"]
    code, out, err = rk(table, "march", "a1", "--inches", "6")
    assert (code, err.split(":")[0]) == (2, "ROUND-2"), err  # the Reinforcement Phase is not finished
    code, out, err = rk(table, "choose-arrival", "a5")
    assert (code, err.split(":")[0]) == (2, "REINF-4"), err  # heavy Regiments cannot arrive in Round 1
    assert json.loads(ok(table, "status", "--json"))["version"] == before


@pytest.mark.parametrize("argv", [
    ["new", "conquest", "--scenario", "nowhere", "--army", "saltmarch", "--army", "cinderpact"],
    ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch"],
    ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "nobody"],
    ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact",
     "--assign", "nonsense"],
])
def test_a_malformed_setup_is_refused_in_one_line(table, argv):
    code, out, err = rk(table, *argv)
    assert code == 1 and err.strip() and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert json.loads(ok(table, "battles", "--json")) == []


def test_a_fresh_process_reads_a_conquest_battle_and_betrayal_views_refuse_it(tmp_path):
    """The views read every event of the store: a process that has not loaded
    Conquest yet loads it for its first Conquest event (the kernel's mapper)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "RULEKEEPER_STORE": str(tmp_path / "q.sqlite"), "COLUMNS": "120"}

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "cli.main", *argv], cwd=root, env=env,
                              capture_output=True, text=True, timeout=60)

    assert run(*NEW, "--seed", "4").returncode == 0
    audit = run("audit")
    assert audit.returncode == 0 and "REINF-1" in audit.stdout, audit.stderr
    track = run("track")
    assert track.returncode == 1 and "no cooldown track" in track.stderr and "Traceback" not in track.stderr
