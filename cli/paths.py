"""The files the command line writes (`rk export -o`, `rk keygen -o`, an
SQLite `--store`, the home's own files), checked before anything is done:
a path that cannot be written is refused in one line with the reason,
never a traceback, and nothing is written."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from domain.kernel.errors import RulekeeperError


class CannotWrite(RulekeeperError):
    """A file the command line was asked to write cannot be (exit 1)."""


def why_not(path: str | Path) -> str | None:
    """Why a file cannot be written at ``path`` (made or replaced), or None
    when nothing is seen in the way."""
    if not str(path).strip():
        return "no file is named"
    try:
        return _why_not(Path(path))
    except OSError as e:  # a name too long, a loop of links...
        return (e.strerror or str(e)).lower()


def _why_not(target: Path) -> str | None:
    if target.is_dir():
        return "it is a folder"
    if target.exists() and not target.is_file():
        return "it is not a regular file (a device or a pipe is never replaced)"
    folder = target.parent
    if not folder.exists():
        return f"there is no folder {folder}"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        if _read_only_mount(folder):
            return f"the folder {folder} is on a read-only file system"
        return f"the folder {folder} is not writable by you"
    if target.exists() and not os.access(target, os.W_OK):
        return "it is not writable by you"
    return None


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def check_writable(path: str | Path, what: str) -> Path:
    """``path`` if ``what`` may be written there; CannotWrite (one line,
    with the reason) if not."""
    reason = why_not(path)
    if reason is not None:
        raise CannotWrite(f"cannot write {what} to {path}: {reason}")
    return Path(path)


@contextmanager
def writing(path: str | Path, what: str) -> Iterator[None]:
    """What the system refuses while ``what`` is written to ``path`` (a
    full disk, a folder that refuses new files), as one line."""
    try:
        yield
    except OSError as e:
        raise CannotWrite(f"cannot write {what} to {path}: {(e.strerror or str(e)).lower()}") from None
