"""Store selection: one setting picks where the events live.

The setting comes from the caller or from the ``RULEKEEPER_STORE``
environment variable and takes one of these forms:

============================================  =====================================
empty or unset                                an SQLite file at ``default_store_path()``
``memory``                                    in memory (``eventsourcing.popo``), for tests
``sqlite:PATH``, or a path ending in          that SQLite file
``.sqlite`` or ``.db``
``postgresql://user[:pw]@host[:port]/db``     a PostgreSQL database
============================================  =====================================

This module turns the setting into the eventsourcing library's environment
variables. It imports nothing from ``eventsourcing.postgres``: psycopg costs
about 300 ms of start-up, and the library imports it lazily from
``PERSISTENCE_MODULE`` only when PostgreSQL is chosen.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import SplitResult, quote, unquote, urlsplit

STORE_VARIABLE = "RULEKEEPER_STORE"
HOME_VARIABLE = "RULEKEEPER_HOME"
DEFAULT_HOME = "~/.local/share/rulekeeper"
DEFAULT_FILE = "rulekeeper.sqlite"

# Seconds a writer waits for SQLite's lock before "database is locked".
SQLITE_LOCK_TIMEOUT = "5"

ACCEPTED = (
    "use 'memory', 'sqlite:PATH', a path ending in .sqlite or .db,"
    " or postgresql://user[:password]@host[:port]/dbname"
    f" (or leave {STORE_VARIABLE} unset for the default SQLite file)"
)


def default_store_path() -> Path:
    """``$RULEKEEPER_HOME/rulekeeper.sqlite``; the home defaults to ``~/.local/share/rulekeeper``."""
    home = os.environ.get(HOME_VARIABLE) or DEFAULT_HOME
    return Path(home).expanduser() / DEFAULT_FILE


def store_env(setting: str | None = None, *, app_name: str, read_only: bool = False) -> dict[str, str]:
    """The eventsourcing environment for application ``app_name``.

    ``setting`` defaults to the environment: ``<APP_NAME>_RULEKEEPER_STORE``
    if set (the library's own per-application convention, so a second
    application, such as a projection, can have a file of its own), else
    ``RULEKEEPER_STORE``. Raises ValueError for a setting of no known form.
    The default SQLite file's directory is created here.
    """
    if setting is None:
        setting = (
            os.environ.get(f"{app_name.upper()}_{STORE_VARIABLE}")
            or os.environ.get(STORE_VARIABLE)
            or ""
        )
    setting = setting.strip()
    # UUID ids are stored in native uuid columns (the library's default type).
    env = {"ORIGINATOR_ID_TYPE": "uuid"}
    if not setting:
        path = default_store_path()
        if not read_only:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        return env | _sqlite(path, read_only)
    if setting.lower() == "memory":
        return env | {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if setting.startswith("sqlite:"):
        path_text = setting[len("sqlite:") :]
        if not path_text:
            raise ValueError(f"store {setting!r} names no file: {ACCEPTED}")
        return env | _sqlite(Path(path_text).expanduser(), read_only)
    if setting.startswith(("postgresql://", "postgres://")):
        # A read never creates the tables (a read-only role could not, either).
        return env | _postgres(setting) | ({"CREATE_TABLE": "no"} if read_only else {})
    if setting.endswith((".sqlite", ".db")):
        return env | _sqlite(Path(setting).expanduser(), read_only)
    raise ValueError(f"unknown store {_masked(setting)!r}: {ACCEPTED}")


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
        raise ValueError(f"store {_masked(url)!r} has {problem}: {ACCEPTED}")
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


def _masked(setting: str) -> str:
    """The setting with any password replaced, fit for an error message."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", setting)
