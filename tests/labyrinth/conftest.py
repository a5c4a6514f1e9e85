"""The labyrinth tests' table: ``table(*argv)`` types one command line (the
shared ``rk`` fixture) at one open application on a memory store, at 80
columns; ``table.defaults`` is that table (its ``apps``)."""

from __future__ import annotations

import pytest

from cli.session import Defaults
from rk_fixture import Rk


@pytest.fixture
def table(rk: Rk):
    """One open application on a memory store, shared by every command."""
    defaults = Defaults(store="memory", keep_open=True)
    yield rk.on(defaults)
    defaults.close()
