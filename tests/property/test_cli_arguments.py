"""Random arguments to every `rk` command (enumerated from the typer app):
whatever is typed (huge digits, NUL bytes, unicode, negative or huge
numbers), a command either does its work or is refused with exactly one line
on stderr, never a traceback, and a refused command writes no event."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
import typer
from typer._click import Context
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import app
from cli.session import Defaults
from rk_fixture import Rk

# Not fed random arguments: `serve`, `server` and `projections follow` run
# until stopped and `play` reads a terminal; their arguments are the global
# ones every command shares (their own tests start and stop them).
SKIPPED = {"serve", "server", "follow", "play"}
# Paths are left to the portable log's own tests: a random one could write
# anywhere (the test also runs in a directory of its own). A parameter named
# so is given this value (None: left out).
FIXED = {
    ("import", "file"): "no-such-log.jsonl",
    ("*", "store"): None,
    ("*", "output"): None,
    ("*", "file"): None,
    ("*", "key"): None,
    ("*", "path"): None,
}


def commands() -> list[tuple[tuple[str, ...], object]]:
    """Every leaf command of the app, as (words, click command)."""
    found = []

    def walk(words: tuple[str, ...], command) -> None:
        if hasattr(command, "list_commands"):  # a group, its commands made as asked for (every ruleset's verbs)
            ctx = Context(command)
            for name in sorted(command.list_commands(ctx)):
                walk((*words, name), command.get_command(ctx, name))
        elif words[-1] not in SKIPPED:
            found.append((words, command))

    walk((), typer.main.get_command(app))
    return found


COMMANDS = commands()

texts = st.one_of(
    st.just("9" * 5000),
    st.just("c" + "9" * 5000),
    st.just("-" + "9" * 30),
    st.just(str(2**64)),
    st.just(str(2**63)),
    st.just("-1"),
    st.just("0"),
    st.just("1"),
    st.just("c4"),
    st.just("a1"),
    st.just("1,2,3"),
    st.just("light"),
    st.just("a1,a2"),
    st.just("x\x00y"),
    st.just("Evil\x1b]0;PWNED\x07"),
    st.just("ünïcödé☃"),
    st.just(""),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=30),
)


def argv_for(words: tuple[str, ...], command, data) -> list[str]:
    """Random values for some of the command's parameters."""
    argv = list(words)
    for param in command.params:
        key = (words[-1], param.name)
        if key in FIXED or ("*", param.name) in FIXED:
            value = FIXED.get(key)
            if value is not None:
                argv.append(value)
            continue
        if param.param_type_name == "argument":
            if param.required or data.draw(st.booleans()):
                argv.append(data.draw(texts))
            continue
        flag = param.opts[0]
        if getattr(param, "is_flag", False):
            if data.draw(st.booleans()):
                argv.append(flag if not param.secondary_opts or data.draw(st.booleans()) else param.secondary_opts[0])
        elif param.required or data.draw(st.booleans()):
            argv += [flag, data.draw(texts)]
    return argv


def written(store: Path) -> int:
    con = sqlite3.connect(store)
    try:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]
    finally:
        con.close()


@pytest.fixture(scope="module")
def two_battles(tmp_path_factory):
    """A store holding one Betrayal clash and one Conquest battle, shared by
    every example (so not the per-test ``store`` fixture)."""
    home = tmp_path_factory.mktemp("rk")
    os.environ.setdefault("RULEKEEPER_HOME", str(home / "home"))
    path = home / "rk.sqlite"
    here = os.getcwd()
    os.chdir(home)  # whatever a command writes beside it stays in the test's directory
    rk = Rk(Defaults(store=f"sqlite:{path}"))
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "7", "--battle", "clash")
    rk(
        "new",
        "conquest",
        "--scenario",
        "border-clash",
        "--army",
        "saltmarch",
        "--army",
        "cinderpact",
        "--seed",
        "7",
        "--battle",
        "war",
    )
    yield path
    os.chdir(here)


def test_every_command_is_enumerated():
    names = {" ".join(w) for w, _ in COMMANDS}
    assert {
        "move",
        "engage",
        "status",
        "battles",
        "new clash",
        "new delve",
        "new conquest",
        "march",
        "surrender",
        "why",
        "setups",
    } <= names


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_arguments_to_any_command_are_done_or_refused_in_one_line(two_battles, data):
    words, command = data.draw(st.sampled_from(COMMANDS), label="command")
    argv = argv_for(words, command, data)
    if data.draw(st.booleans()):
        argv = ["--battle", data.draw(st.sampled_from(["clash", "war"]) | texts), *argv]
    if data.draw(st.booleans()):
        argv = ["--json", *argv]
    before = written(two_battles)
    code, out, err = Rk(Defaults(store=f"sqlite:{two_battles}"))(*argv, code=None)
    assert "Traceback" not in err + out
    if code == 0:
        return
    assert code in (1, 2), (argv, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, (argv, err)
    assert "\x1b" not in err and "\x00" not in err
    assert written(two_battles) == before, argv
