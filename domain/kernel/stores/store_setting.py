"""A store setting, read: which form it takes, the store it names from any
directory, and how to show it without its password.

The setting comes from the caller or from the ``RULEKEEPER_STORE``
environment variable and takes one of these forms:

============================================  =====================================
empty or unset                                an SQLite file at ``default_store_path()``
                                              (``domain.kernel.stores.store``), in ``home()``
``memory``                                    in memory (``eventsourcing.popo``), for tests
``sqlite:PATH``, or a path ending in          that SQLite file
``.sqlite`` or ``.db``
``postgresql://user[:pw]@host[:port]/db``     a PostgreSQL database
============================================  =====================================

Only ``os`` and ``re``: the `rk` client (``cli.client``) reads settings with
these functions before it knows whether a server will answer, and a process
that only forwards a command line should not pay for ``pathlib`` or
``urllib``. ``domain.kernel.stores.store`` turns a setting into the eventsourcing
library's environment.
"""

from __future__ import annotations

import os
import re

STORE_VARIABLE = "RULEKEEPER_STORE"
HOME_VARIABLE = "RULEKEEPER_HOME"
DEFAULT_HOME = "~/.local/share/rulekeeper"

ACCEPTED = (
    "use 'memory', 'sqlite:PATH', a path ending in .sqlite or .db,"
    " or postgresql://user[:password]@host[:port]/dbname"
    f" (or leave {STORE_VARIABLE} unset for the default SQLite file)"
)


def home() -> str:
    """``$RULEKEEPER_HOME``, else ``~/.local/share/rulekeeper``: where the
    default store (and ``rk serve``'s socket) live."""
    return os.path.expanduser(os.environ.get(HOME_VARIABLE) or DEFAULT_HOME)


def store_form(setting: str) -> tuple[str, str]:
    """The form of a store setting and what it names, the one reading of the
    table above: ``("default", "")``, ``("memory", "")``, ``("sqlite", PATH)``
    (as typed, not yet expanded) or ``("postgresql", URL)``. Raises
    ValueError for a setting of no known form.

    >>> store_form("games.db"), store_form("sqlite:~/x"), store_form(" Memory ")
    (('sqlite', 'games.db'), ('sqlite', '~/x'), ('memory', ''))
    """
    setting = setting.strip()
    if not setting:
        return "default", ""
    if setting.lower() == "memory":
        return "memory", ""
    if setting.startswith("sqlite:"):
        path = setting[len("sqlite:") :]
        if not path:
            raise ValueError(f"store {setting!r} names no file: {ACCEPTED}")
        return "sqlite", path
    if setting.startswith(("postgresql://", "postgres://")):
        return "postgresql", setting
    if setting.endswith((".sqlite", ".db")):
        return "sqlite", setting
    raise ValueError(f"unknown store {masked(setting)!r}: {ACCEPTED}")


def canonical_store(setting: str, cwd: str) -> str:
    """``setting`` in a form that names the same store from any directory:
    an SQLite path made absolute against ``cwd`` (``sqlite:/abs/path``),
    ``memory`` in lower case, "" for the default file, others as they are
    (a setting of no known form too: opening it says what is wrong).

    >>> canonical_store("games.db", "/srv"), canonical_store("sqlite:../x.sqlite", "/srv/a")
    ('sqlite:/srv/games.db', 'sqlite:/srv/x.sqlite')
    """
    try:
        form, target = store_form(setting)
    except ValueError:
        return setting.strip()
    if form == "memory":
        return "memory"
    if form != "sqlite":
        return target
    return "sqlite:" + os.path.normpath(os.path.join(cwd, os.path.expanduser(target)))


def masked(setting: str) -> str:
    """The setting with any password replaced, fit for an error message or
    a socket: ``postgresql://me:***@host/db``."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", setting)
