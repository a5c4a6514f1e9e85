"""A CLI test's store and runner: a fresh SQLite store per test, at 80
columns, and ``rk(...)`` that runs a command in-process and returns stdout."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app


@pytest.fixture
def store(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "rk.sqlite"
    monkeypatch.setenv("RULEKEEPER_STORE", str(path))
    monkeypatch.setenv("COLUMNS", "80")
    return path


def rk(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout
