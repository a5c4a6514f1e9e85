"""The current battle: what a command acts on when no ``--battle`` names one.

`rk use NAME` chooses it, `rk new` makes the battle it starts current, and
`rk demo` leaves it be. Which battle is current is one user's preference,
not a fact of the games, so it is kept outside the store: in
``$RULEKEEPER_HOME/current.json``, one entry per store (an SQLite file by
its absolute path, a PostgreSQL database by user, host, port and name,
never a password), holding the battle's id, which a rename never changes.
A store in memory keeps its choice in the process, for as long as its
application lives (a `rk play` session).

When nothing was chosen, or the battle chosen was deleted since (or is not
in this store), the latest battle not deleted is current.
"""

from __future__ import annotations

import json
import os
import weakref
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from domain.kernel.errors import NotFound
from domain.kernel.stores.store_setting import DEFAULT_HOME, HOME_VARIABLE

FILE = "current.json"
_IN_PROCESS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def current(app: Any) -> str:
    """The id of the current battle of ``app``'s store; NotFound if the
    store holds no battle that is not deleted."""
    chosen = chosen_battle(app)
    if chosen is not None:
        entry = app.index().get(chosen)
        if entry is not None and not entry.deleted:
            return chosen
    return app.latest_battle()


def current_or_none(app: Any) -> str | None:
    """``current``, or None when there is no battle to act on."""
    try:
        return current(app)
    except NotFound:
        return None


def chosen_battle(app: Any) -> str | None:
    """The id last chosen for ``app``'s store (by `rk use` or `rk new`),
    whatever has become of that battle since; None if none was."""
    key = store_key(app)
    if key is None:
        return _IN_PROCESS.get(app)
    found = _read(_file(app)).get(key)
    return found if isinstance(found, str) else None


def choose(app: Any, battle_id: str | None) -> None:
    """Make ``battle_id`` current for ``app``'s store (None: forget the
    choice, so the latest battle is current). OSError if the file cannot
    be written."""
    key = store_key(app)
    if key is None:
        if battle_id is None:
            _IN_PROCESS.pop(app, None)
        else:
            _IN_PROCESS[app] = battle_id
        return
    path = _file(app)
    # Stores whose file is gone are forgotten, so the file stays as small as the stores in use.
    choices = {
        k: v for k, v in _read(path).items() if not k.startswith("sqlite:") or os.path.exists(k[len("sqlite:") :])
    }
    if battle_id is None:
        choices.pop(key, None)
    else:
        choices[key] = battle_id
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Written beside and renamed over: a reader never sees half a file.
    import tempfile  # only to write: a command that reads the choice never imports it (~5 ms)

    fd, tmp = tempfile.mkstemp(prefix=f".{FILE}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(choices, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remember(app: Any, battle_id: str) -> bool:
    """``choose``, for a command whose work is done whether or not the
    choice can be kept (`rk new`): False if it could not."""
    try:
        choose(app, battle_id)
    except OSError:
        return False
    return True


def store_key(app: Any) -> str | None:
    """What names ``app``'s store in the file; None for a store in memory."""
    env = app.env
    module = env.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
    if module == "eventsourcing.sqlite":
        name = env.get("SQLITE_DBNAME") or ""
        if not name or ":memory:" in name or "mode=memory" in name:
            return None
        if name.startswith("file:"):  # a read-only opening: file:/path?mode=ro
            name = unquote(name[len("file:") :].split("?", 1)[0])
        return "sqlite:" + os.path.abspath(os.path.expanduser(name))
    if module == "eventsourcing.postgres":
        return (
            f"postgresql://{env.get('POSTGRES_USER')}@{env.get('POSTGRES_HOST')}:{env.get('POSTGRES_PORT')}"
            f"/{env.get('POSTGRES_DBNAME')}"
        )
    return None


def _file(app: Any) -> Path:
    return Path(app.env.get(HOME_VARIABLE) or DEFAULT_HOME).expanduser() / FILE


def _read(path: Path) -> dict[str, Any]:
    """The choices in ``path``; none if it is missing or unreadable (a
    damaged file only forgets choices, it never stops a command)."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}
