"""A store holding a game of each ruleset (a clash with one move made, a
delve, a Conquest battle, a labyrinth battle), made through ``rk`` in
process, for the tests that compare two ways of writing the same output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import main

GAMES = {
    "c1": ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"],
    "d1": ["new", "delve", "--delve", "drowned-cistern", "--party", "Ria", "--seed", "3"],
    "q1": ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact"],
    "l1": ["new", "labyrinth", "--encounter", "mossy-hollow", "--party", "mender"],
}


def ran(run, argv: list[str]) -> tuple[object, str, str]:
    """``run(argv)``'s status, stdout and stderr, as the ``rk`` fixture captures them."""
    with CliRunner().isolation() as (out, err, _):
        try:
            code = run(argv)
        except SystemExit as e:
            code = e.code
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace")


def made_games(folder: Path, columns: int) -> Path:
    """``folder`` with ``rk.sqlite`` holding ``GAMES`` (named by their keys,
    one move made in ``c1``) and the ``home`` they were made in, made at
    ``columns`` columns."""
    env = {
        "RULEKEEPER_STORE": str(folder / "rk.sqlite"),
        "RULEKEEPER_HOME": str(folder / "home"),
        "COLUMNS": str(columns),
    }
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        for name, line in GAMES.items():
            assert ran(main, [*line, "--name", name])[0] == 0
        assert ran(main, ["move", "a2", "-b", "c1"])[0] == 0
    return folder
