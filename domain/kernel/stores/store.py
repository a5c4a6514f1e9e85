"""Store selection: one setting picks where the events live.

This module turns the setting (its forms: ``domain.kernel.stores.store_setting``)
into the eventsourcing library's environment variables. It imports nothing
from ``eventsourcing.postgres``: psycopg costs about 300 ms of start-up, and
the library imports it lazily from ``PERSISTENCE_MODULE`` only when
PostgreSQL is chosen.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, quote, unquote, urlsplit

from .store_setting import ACCEPTED, STORE_VARIABLE, home, masked, store_form

DEFAULT_FILE = "rulekeeper.sqlite"

# Bounds on every PostgreSQL wait, in seconds (see domain.kernel.stores.pgstore);
# the environment (or ``env``) overrides them, also per application
# (``RULEKEEPER_POSTGRES_LOCK_TIMEOUT``). 0 means no bound.
POSTGRES_BOUNDS = {
    "POSTGRES_CONNECT_TIMEOUT": "5",
    "POSTGRES_STATEMENT_TIMEOUT": "60",
    "POSTGRES_LOCK_TIMEOUT": "15",
    "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "30",
    # Kept by this process (libpq), not the server: see pgstore.client_bounds.
    "POSTGRES_KEEPALIVES_IDLE": "10",
    "POSTGRES_KEEPALIVES_INTERVAL": "5",
    "POSTGRES_KEEPALIVES_COUNT": "3",
    "POSTGRES_TCP_USER_TIMEOUT": "30",
}

# Seconds a writer waits for SQLite's lock before "database is locked".
SQLITE_LOCK_TIMEOUT = "5"


def default_store_path() -> Path:
    """``$RULEKEEPER_HOME/rulekeeper.sqlite``; the home defaults to ``~/.local/share/rulekeeper``."""
    return Path(home()) / DEFAULT_FILE


def store_env(setting: str | None = None, *, app_name: str, read_only: bool = False) -> dict[str, str]:
    """The eventsourcing environment for application ``app_name``.

    ``setting`` defaults to the environment: ``<APP_NAME>_RULEKEEPER_STORE``
    if set (the library's own per-application convention, so a second
    application, such as a projection, can have a file of its own), else
    ``RULEKEEPER_STORE``. Raises ValueError for a setting of no known form.
    The default SQLite file's directory is created here.
    """
    if setting is None:
        setting = os.environ.get(f"{app_name.upper()}_{STORE_VARIABLE}") or os.environ.get(STORE_VARIABLE) or ""
    form, target = store_form(setting)
    # UUID ids are stored in native uuid columns (the library's default type).
    env = {"ORIGINATOR_ID_TYPE": "uuid"}
    if form == "default":
        path = default_store_path()
        if not read_only:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        return env | _sqlite(path, read_only)
    if form == "memory":
        return env | {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if form == "sqlite":
        return env | _sqlite(Path(target).expanduser(), read_only)
    # A read never creates the tables (a read-only role could not, either).
    return env | _postgres(target) | ({"CREATE_TABLE": "no"} if read_only else {})


def _sqlite(path: Path, read_only: bool = False) -> dict[str, str]:
    if read_only:
        if not path.is_file():
            # Nothing stored there yet: read an empty store, create nothing.
            return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
        flags = "mode=ro"
        shm = path.with_name(path.name + "-shm")
        if not os.access(path.parent, os.W_OK) and not shm.exists():
            # SQLite cannot open a WAL file read-only without its -shm file,
            # which it cannot create here: no one can be writing it either.
            flags += "&immutable=1"
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": f"file:{quote(str(path.absolute()))}?{flags}",
            "SQLITE_LOCK_TIMEOUT": SQLITE_LOCK_TIMEOUT,
            "CREATE_TABLE": "no",
        }
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": SQLITE_LOCK_TIMEOUT,
    }


def create_private(path: Path) -> None:
    """Create the SQLite file ``path`` readable by its owner only (0600), if
    it does not exist; the library's WAL files take the same mode. Failing
    quietly: SQLite then reports the problem when it opens the file."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:
        pass


def _postgres(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    dbname = unquote(parts.path.lstrip("/"))
    problem = _postgres_problem(parts, dbname)
    if problem:
        raise ValueError(f"store {masked(url)!r} has {problem}: {ACCEPTED}")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or ""),
        # Empty under trust auth: the library requires the key, not a value.
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
    }


def _postgres_problem(parts: SplitResult, dbname: str) -> str:
    """What is wrong with a PostgreSQL URL, or "" when nothing is."""
    try:
        _ = parts.port  # urllib parses the port lazily and raises here
    except ValueError:
        return "a port that is not a number"
    if not parts.username:
        return "no user"
    if not parts.hostname:
        return "no host"
    if not dbname or "/" in dbname:
        return "no single database name"
    if parts.query or parts.fragment:
        return "a query or fragment, which is not supported"
    return ""


class Settings(dict[str, str]):
    """An application's settings, read as the eventsourcing library reads
    its ``Environment``: ``<NAME>_KEY`` first, then ``KEY`` (``name``: the
    application's). What a store read without the library
    (``domain.kernel.stores.plain``) decides from, exactly as the library
    would decide."""

    def __init__(self, name: str, values: dict[str, str]) -> None:
        super().__init__(values)
        self.name = name

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key`` (its application's form first), or ``default``."""
        for name in (f"{self.name.upper()}_{key}", key) if self.name else (key,):
            value = super().get(name)
            if value is not None:
                return value
        return default


def app_settings(name: str, defaults: dict[str, str], given: dict[str, str], snapshots: bool) -> Settings:
    """The settings the library gives application ``name`` (its
    ``Application.construct_env``): the class's ``defaults``, snapshots on
    when the class takes them, the process environment, then ``given``."""
    values = dict(defaults)
    if snapshots:
        values["IS_SNAPSHOTTING_ENABLED"] = "y"
    values.update(os.environ)
    values.update(given)
    return Settings(name, values)
