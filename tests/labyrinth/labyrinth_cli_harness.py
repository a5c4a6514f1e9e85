"""The command line in labyrinth tests: ``rk`` runs one command in-process
on a table of defaults and gives its exit status, stdout and stderr;
``table`` is one open application on a memory store, at 80 columns."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from cli.main import main
from cli.session import Defaults

WIDTH = 80


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
    """One open application on a memory store, at 80 columns."""
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    defaults = Defaults(store="memory", keep_open=True)
    yield defaults
    defaults.close()
