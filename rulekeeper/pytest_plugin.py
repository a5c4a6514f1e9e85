"""rulekeeper's pytest plugin: games, golden logs and given/when/then as
fixtures. Installed with rulekeeper (the ``pytest11`` entry point
``rulekeeper``), so any test suite of its users has them; ``-p
no:rulekeeper`` turns it off.

Fixtures (each test gets its own in-memory store):

``rulekeeper``   a ``rulekeeper.Rulekeeper`` on a fresh in-memory store
``given``        a ``rulekeeper.testing.Given`` on it, with no game yet:
                 ``given.setup(...).when("move c4").then_has(...)``
``game``         a game set up as the test's ``rulekeeper_setup`` mark says:
                 ``@pytest.mark.rulekeeper_setup("clash", seed=1, ...)``
``golden_log``   the golden logs of the folder the ini option
                 ``rulekeeper_golden`` names (default: ``logs``, from the
                 rootdir): ``golden_log("won.jsonl").game()``, and
                 ``golden_log.check(game, "won.jsonl")``

Options: ``--rulekeeper-regen`` writes the golden logs that
``golden_log.check`` compares with, from the games the tests play.

The plugin imports rulekeeper only when a test asks for one of its
fixtures, so a suite that uses none pays nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# Its checks are plain asserts: pytest rewrites them (readable differences)
# only when told before they are imported.
pytest.register_assert_rewrite("rulekeeper.testing", "rulekeeper.golden")

if TYPE_CHECKING:
    from rulekeeper import Game, Rulekeeper
    from rulekeeper.golden import GoldenLogs
    from rulekeeper.testing import Given

REGEN = "--rulekeeper-regen"
GOLDEN_INI = "rulekeeper_golden"
SETUP_MARK = "rulekeeper_setup"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulekeeper")
    group.addoption(
        REGEN,
        action="store_true",
        default=False,
        help="write the golden logs golden_log.check compares with, from the games the tests play",
    )
    parser.addini(
        GOLDEN_INI,
        default="logs",
        help="the folder of golden logs the golden_log fixture reads, from the rootdir (default: logs)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{SETUP_MARK}(setup, **fields): the game the `game` fixture sets up (as rulekeeper.Rulekeeper.new takes them)",
    )


@pytest.fixture
def rulekeeper() -> Iterator[Rulekeeper]:
    """A ``rulekeeper.Rulekeeper`` on a fresh in-memory store, closed after the test."""
    from rulekeeper import Rulekeeper

    with Rulekeeper("memory") as keeper:
        yield keeper


@pytest.fixture
def given(rulekeeper: Rulekeeper) -> Given:
    """Given / when / then on the test's store (``rulekeeper.testing``)."""
    from rulekeeper.testing import Given

    return Given(rulekeeper)


@pytest.fixture
def game(request: pytest.FixtureRequest, rulekeeper: Rulekeeper) -> Game:
    """The game the test's ``rulekeeper_setup`` mark sets up."""
    mark = request.node.get_closest_marker(SETUP_MARK)
    if mark is None or not mark.args:
        pytest.fail(f"the game fixture needs @pytest.mark.{SETUP_MARK}(setup, **fields)", pytrace=False)
    return rulekeeper.new(*mark.args, **mark.kwargs)


@pytest.fixture
def golden_log(request: pytest.FixtureRequest, rulekeeper: Rulekeeper) -> GoldenLogs:
    """The golden logs of the ``rulekeeper_golden`` folder (``rulekeeper.golden``)."""
    from rulekeeper.golden import GoldenLogs

    folder = Path(str(request.config.getini(GOLDEN_INI)))
    if not folder.is_absolute():
        folder = request.config.rootpath / folder
    return GoldenLogs(folder, rulekeeper, bool(request.config.getoption(REGEN)))
