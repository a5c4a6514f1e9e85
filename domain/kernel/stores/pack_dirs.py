"""Content packs kept as folders: a pack a player names for a new game
(`rk new <setup> --pack DIR|NAME`), the documented place for them
(``$RULEKEEPER_HOME/packs/<name>/``), and the copy kept of each pack a
game was set up with (``$RULEKEEPER_HOME/packs/.kept/<hash>/``), so that
replay, undo and verify find a game's pack by the hash its setup recorded.

Application code: it reads and writes files; the rulesets parse the bytes
(``Ruleset.load_pack``), checked as their starter packs are.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from domain.kernel.errors import MalformedCommand
from .store_setting import home

PACKS = "packs"  # under $RULEKEEPER_HOME: one folder per pack, by the name `--pack NAME` gives
KEPT = ".kept"  # under it: a copy of each pack a game was set up with, by its hash
MAX_FILE = 1024 * 1024  # bytes of one pack file: more is refused


def packs_home(root: str | None = None) -> Path:
    """``$RULEKEEPER_HOME/packs``: where `--pack NAME` looks."""
    return Path(root if root is not None else home()) / PACKS


def locate(given: str, root: str | None = None) -> Path:
    """The folder ``--pack`` names: a path (it holds a ``/`` or is a folder
    here), else a pack's name under ``$RULEKEEPER_HOME/packs``."""
    path = Path(os.path.expanduser(given))
    if "/" in given or os.sep in given or _is_dir(path):
        if not _is_dir(path):
            raise MalformedCommand(f"--pack {given}: no such folder")
        return path
    named = packs_home(root) / given
    if not _is_dir(named) or given.startswith("."):
        there = sorted(p.name for p in _folders(packs_home(root)))
        raise MalformedCommand(
            f"--pack {given}: no folder {named}; "
            + (f"the packs there: {', '.join(there)}" if there else "no packs are there")
        )
    return named


def _is_dir(path: Path) -> bool:
    """Whether ``path`` is a folder; a name the system cannot even look up
    (too long) is none."""
    try:
        return path.is_dir()
    except OSError:
        return False


def read(folder: Path) -> dict[str, bytes]:
    """A pack folder's files, by name: every regular file in it, for the
    ruleset to check (an unexpected one is refused there)."""
    files = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        if path.stat().st_size > MAX_FILE:
            raise MalformedCommand(f"{path}: larger than {MAX_FILE // 1024} KiB")
        files[path.name] = path.read_bytes()
    if not files:
        raise MalformedCommand(f"--pack {folder}: the folder holds no pack files")
    return files


def keep(files: dict[str, bytes], pack_hash: str, root: str | None = None) -> None:
    """Keep a copy of a pack's files under its hash, once (a folder given
    by path may move or change; the game's record must not)."""
    target = packs_home(root) / KEPT / pack_hash
    if target.is_dir():
        return
    partial = target.with_name(f"{pack_hash}.partial-{os.getpid()}")
    partial.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (partial / name).write_bytes(data)
    try:
        partial.rename(target)  # whole or not at all: a reader never sees half a pack
    except OSError:  # another process kept it first
        for f in partial.iterdir():
            f.unlink()
        partial.rmdir()


def candidates(pack_hash: str, root: str | None = None) -> Iterator[Path]:
    """The folders that may hold the pack of ``pack_hash``: its kept copy
    first, then every pack under ``$RULEKEEPER_HOME/packs``."""
    base = packs_home(root)
    kept = base / KEPT / pack_hash
    if kept.is_dir():
        yield kept
    # a pack recorded by a hash of part of its content (``Ruleset.pack_hashes``) is kept under its own
    yield from (p for p in _folders(base / KEPT, hidden=True) if p != kept)
    yield from _folders(base)


def _folders(base: Path, hidden: bool = False) -> list[Path]:
    if not base.is_dir():
        return []
    return [
        p
        for p in sorted(base.iterdir())
        if p.is_dir() and (hidden or not p.name.startswith(".")) and ".partial-" not in p.name
    ]
