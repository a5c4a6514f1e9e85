"""When the store cannot be reached, or does not answer in time: one line
that says so (503 to a client, one line in the server's log, one line
from `rk server` starting), with the store's password never in it."""

from __future__ import annotations

import re
import sys
from urllib.parse import unquote, urlsplit

from domain.kernel.errors import RulekeeperError

UNREACHABLE = "the store cannot be reached"
_URL_PASSWORD = re.compile(r"(://[^:/@\s\[\]]+):[^@\s/]*@")  # user:password@ of a URL, not "user[:password]@"


class StoreDown(RulekeeperError):
    """The store could not be reached or used, or did not answer within the
    request's deadline (503): the reason, one line, password masked."""


def is_store_error(error: BaseException) -> bool:
    """An error of the store's database being away or unusable (refused,
    timed out, closed under us, read-only), as opposed to a bug or a
    conflict (an integrity error is "the game moved on", said elsewhere)."""
    kinds: list[type] = [StoreDown]
    for module, names in (
        ("eventsourcing.persistence", ("OperationalError", "InterfaceError")),
        ("domain.kernel.stores.pgstore", ("StoreTimeout",)),
        ("sqlite3", ("OperationalError", "InterfaceError")),
        ("psycopg", ("OperationalError", "InterfaceError")),
    ):
        for name in names:
            kind = getattr(sys.modules.get(module), name, None)
            if isinstance(kind, type):
                kinds.append(kind)
    return isinstance(error, tuple(kinds))


def store_down(error: BaseException, setting: str | None) -> StoreDown:
    """``error`` as one line that names what failed and not the password."""
    if isinstance(error, StoreDown):
        return error
    return StoreDown(f"{UNREACHABLE}: {reason_of(error, setting)}")


def reason_of(error: BaseException, setting: str | None) -> str:
    """What the driver said, in one line, without the password."""
    said = one_line(str(error)) or type(error).__name__
    if "readonly" in said or "read-only" in said:
        said += " (this store can only be read here)"
    return hide_password(said, setting)


def one_line(text: str) -> str:
    """``text``'s lines joined by "; " (a driver's message spans several)."""
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


def hide_password(text: str, setting: str | None) -> str:
    """``text`` with the password of ``setting`` (a PostgreSQL URL) and any
    ``password=`` or URL password in it replaced by ``***``."""
    if setting:
        try:
            password = urlsplit(setting).password
        except ValueError:
            password = None
        for secret in {password, unquote(password or "")} - {None, ""}:
            text = text.replace(str(secret), "***")
    text = re.sub(r"(password\s*=\s*)('[^']*'|\S+)", r"\1***", text, flags=re.IGNORECASE)
    return _URL_PASSWORD.sub(r"\1:***@", text)
