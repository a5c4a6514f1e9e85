"""The command line in tests: ``store``, a fresh SQLite store per test, and
``rk``, which runs one command line as ``rk`` would and checks its exit
status. Loaded by conftest.py for every test; take them as fixtures, never
import them.

    def test_a_clash_starts(rk):
        assert rk("new", "clash", ...).stdout.startswith("clash")
        assert rk("status", json=True).json()["version"] == 1
        assert "MOVE-1" in rk("move", "c2", code=2).stderr

``rk`` runs in-process (the entry point ``cli.main.main`` under a
``CliRunner``'s captured streams), so a test is quick and sees every line;
``rk.process`` runs a real ``python -m cli.main`` for the few tests whose
subject is the process itself (imports, signals, pagers, pipes).
``rk.on(defaults)`` types commands at one open table (``Defaults``, such
as a memory store kept open), as ``rk play`` does.
"""

from __future__ import annotations

import json as jsonlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import main
from cli.session import Defaults

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = 80  # the width a test reads output at, unless it says another (the ``columns`` mark)
TIMEOUT = 60  # seconds a real process may take before the test fails


@dataclass(frozen=True)
class Ran:
    """One command line run: its arguments, exit status and output.

    It unpacks as ``code, stdout, stderr``."""

    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """The standard output read as JSON (a command run with ``--json``)."""
        return jsonlib.loads(self.stdout)

    def __iter__(self):
        return iter((self.code, self.stdout, self.stderr))


class Rk:
    """Runs ``rk`` command lines; call it as ``rk(*args, code=0, input=None,
    json=False)``. ``code`` is the exit status required (``None``: any);
    ``json`` adds ``--json``; ``input`` is what is typed on standard input."""

    def __init__(self, defaults: Defaults | None = None) -> None:
        self.defaults = defaults

    def __call__(self, *args: str, code: int | None = 0, input: str | None = None, json: bool = False) -> Ran:
        argv = [*args, "--json"] if json else list(args)
        # The entry point, not the Typer app: usage errors exit 1 as in `rk`.
        with CliRunner().isolation(input=input) as (out, err, _):
            try:
                status = main(argv, obj=self.defaults)
            except SystemExit as e:  # a command may exit itself (a pager's quit, `rk play`)
                status = e.code if isinstance(e.code, int) else int(e.code is not None)
            sys.stdout.flush()
            sys.stderr.flush()
            ran = Ran(
                tuple(argv),
                status,
                out.getvalue().decode("utf-8", "replace"),
                err.getvalue().decode("utf-8", "replace"),
            )
        _check(ran, code)
        return ran

    def on(self, defaults: Defaults) -> Rk:
        """The same runner typing at ``defaults`` (one open application)."""
        return Rk(defaults)

    def process(
        self,
        *args: str,
        code: int | None = 0,
        input: str | None = None,
        json: bool = False,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Ran:
        """``python -m cli.main ARGS`` as a separate process, its output
        piped, in this test's environment (plus ``env``)."""
        args = (*args, "--json") if json else args
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", *args],
            cwd=cwd or ROOT,
            env={**os.environ, **(env or {})},
            input=input,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        ran = Ran(tuple(args), done.returncode, done.stdout, done.stderr)
        _check(ran, code)
        return ran

    def spawn(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        """``python -m cli.main ARGS`` started and left running (a follower,
        a server), its output piped as text; the test ends it."""
        return subprocess.Popen(
            [sys.executable, "-m", "cli.main", *args],
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )


def _check(ran: Ran, code: int | None) -> None:
    assert code is None or ran.code == code, (ran.args, ran.code, ran.stdout, ran.stderr)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "columns(n): the width the store fixture sets (default 80)")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Path:
    """A fresh SQLite store of this test's own (``RULEKEEPER_STORE``), its own
    home, and plain output at 80 columns (``@pytest.mark.columns(n)`` for another)."""
    path = tmp_path / "rk.sqlite"
    mark = request.node.get_closest_marker("columns")
    monkeypatch.setenv("RULEKEEPER_STORE", str(path))
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", str(mark.args[0] if mark else COLUMNS))
    monkeypatch.delenv("FORCE_COLOR", raising=False)  # tests read plain text
    return path


@pytest.fixture
def rk(store: Path) -> Rk:
    """Runs ``rk`` command lines on this test's ``store`` (see ``Rk``)."""
    return Rk()
