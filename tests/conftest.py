"""Shared fixtures. ``@pytest.mark.rule("ENGAGE-4")`` names the rule a test checks."""


import pytest  # noqa: E402

POSTGRES_TEST_STORE = "postgresql://postgres@127.0.0.1:5432/test"


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
