"""Shared fixtures. ``@pytest.mark.rule("ENGAGE-4")`` names the rule a test checks."""

import os

import pytest  # noqa: E402
from hypothesis import settings

# The suite is deterministic: every property test draws the same examples on
# every run (derandomize) and no example database carries one run's finds
# into the next. HYPOTHESIS_PROFILE=explore searches afresh each run, with
# the database, to look for new counterexamples (then pin them as tests).
# No deadline: an example's time is no check of ours (a loaded machine made
# a 200 ms deadline fail a passing example), and a timing is not a test.
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

POSTGRES_TEST_STORE = "postgresql://postgres@127.0.0.1:5432/test"

# ``store`` and ``rk``: every test's store and command line (rk_fixture.py).
pytest_plugins = ["rk_fixture"]


@pytest.fixture(autouse=True)
def _test_home(tmp_path_factory, monkeypatch) -> None:
    """RULEKEEPER_HOME in the tests' own directory (a test may set another):
    what commands keep there, such as the current battle of each store
    (``domain.kernel.stores.current_battle``), never reaches the home of whoever runs the tests."""
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path_factory.getbasetemp() / "rulekeeper-home"))


@pytest.fixture(scope="session")
def postgres_store() -> str:
    """The store setting of the test PostgreSQL database, or skip the test.

    psycopg is imported here, not at the top, so runs without PostgreSQL
    tests do not pay its import time.
    """
    try:
        import psycopg
    except ImportError as e:
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432: {e}")
    try:
        psycopg.connect(POSTGRES_TEST_STORE, connect_timeout=2).close()
    except psycopg.Error as e:
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432: {e}")
    return POSTGRES_TEST_STORE


@pytest.fixture
def postgres_app_name(postgres_store: str):
    """A fresh application name for one test on PostgreSQL, whose tables
    (``<name>_events``, ``<name>_snapshots``) are dropped afterwards, so tests
    neither see each other's events nor leave any behind."""
    from uuid import uuid4

    from postgres_tables import drop_postgres_tables

    name = f"t{uuid4().hex[:12]}"
    yield name
    drop_postgres_tables(postgres_store, name)


# -- tiers -------------------------------------------------------------------------
# The quick tier (the default, the README's test command) runs every check:
# every rule test, and each property, process and store test on a few
# well-chosen cases. The full tier adds the rest of those cases (``slow``):
# more seeds, the same checks through real processes, 100,000-event stores.
# ``pytest -m slow`` runs only them; ``--full`` runs both; an explicit ``-m``
# is obeyed as given. CI (.ci/run) runs both tiers.


def pytest_addoption(parser):
    parser.addoption(
        "--full",
        action="store_true",
        help="run the full tier too: every seed and case marked slow (default: the quick tier)",
    )


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full") or config.getoption("markexpr"):
        return
    quick = [item for item in items if item.get_closest_marker("slow") is None]
    if len(quick) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("slow")])
        items[:] = quick
