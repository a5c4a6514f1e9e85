"""The small JSON files `rk server` keeps in the home (``server.json``,
``server-port.json``): written privately, read only when they can be trusted.

A file is trusted as the socket of `rk serve` is: only if it is this user's
and no one else may write it (one planted in a shared home would send the
host's token to another machine, or a server to another port)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def read_trusted(path: Path, warn: Callable[[str], None] | None = None) -> dict[str, Any] | None:
    """The JSON object in ``path``; None if there is none, it cannot be read
    or it is not trusted (``warn`` is told why, in that case)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None  # none, or a symbolic link (O_NOFOLLOW): nothing to trust
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            if warn is not None:
                warn(f"{path} is not a file of this user's that only this user may write: its address is not trusted")
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = json.loads(f.read(4096))
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def write_private(path: Path, data: dict[str, Any]) -> None:
    """``data`` as JSON into ``path``, made anew (mode 0600) under a temporary
    name and renamed into place: never written through a link someone left."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(data).encode())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
