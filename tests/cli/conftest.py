"""The command-line tests' fixtures for `rk serve` (see served.py): ``env``,
a home and a store holding a fresh clash, as the environment of a client
process; ``server``, `rk serve` running on it."""

from __future__ import annotations

import os

import pytest
from served import NEW, Server, rk_client

from cli import client


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    """A home, a store with a fresh clash (seed 7), output as piped to a file."""
    home = tmp_path / "h"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in (client.NO_SERVER, "FORCE_COLOR", "NO_COLOR")}
    env |= {
        "RULEKEEPER_HOME": str(home),
        "RULEKEEPER_STORE": str(tmp_path / "rk.sqlite"),
        "COLUMNS": "100",
        "PYTHONIOENCODING": "utf-8",
        "RK_TEST_REPORT": str(tmp_path / "report"),
    }
    assert rk_client(env, *NEW, local=True).code == 0
    return env


@pytest.fixture
def server(env, tmp_path, request) -> Server:
    running = Server(env, tmp_path)
    request.addfinalizer(running.stop)
    return running
