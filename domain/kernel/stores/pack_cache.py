"""A cache of parsed content packs, so a command does not parse TOML.

Parsing and validating a pack's TOML is most of what loading a ruleset
costs a short-lived process (``rk status`` as a process read and checked
the starter pack's fourteen files each time). ``parsed`` keeps the parsed
pack, encoded by msgspec, in ``$RULEKEEPER_HOME/cache/packs/``; the file
name is a digest of

- the pack's files (each name and its bytes, as ``pack_hash`` feeds them):
  any change to the content is a miss, so a pack is validated exactly as
  before whenever it is new;
- the code that parses it: the path, size and modification time of every
  Python file of the ``domain`` package (a stat each, no read), so a change
  to the parser or to the types it builds is a miss too;
- the type's name and msgspec's version.

On a miss (or a cache file that does not decode) the pack is parsed as
always and the result written (to a temporary file renamed into place, so
concurrent processes never read half a file); a pack that fails to parse is
never cached, so the refusal is the same each time. The cache never changes
a value: what is decoded is the Struct that was encoded, and the pack's
hashes (recorded in games) are fields of it. A home that cannot be written
only means no cache.

``derived`` keeps, the same way, what the domain code alone decides (the
words each ruleset package's surface declares, ``cli.declarations``), in
``$RULEKEEPER_HOME/cache/<name>/``; ``RULEKEEPER_NO_PACK_CACHE`` turns it
off too.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

import msgspec

from domain.kernel.digests import blake2b

from .store_setting import home

T = TypeVar("T")

CACHE_DIR = ("cache", "packs")  # under $RULEKEEPER_HOME
NO_CACHE_VARIABLE = "RULEKEEPER_NO_PACK_CACHE"  # set (to anything) to parse every time


def parsed(files: Mapping[str, bytes], parse: Callable[[Mapping[str, bytes]], T], type_: type[T]) -> T:
    """``parse(files)``, or the same value read back from the cache."""
    if os.environ.get(NO_CACHE_VARIABLE):
        return parse(files)
    path = _cache_file(files, type_)
    try:
        return msgspec.msgpack.decode(path.read_bytes(), type=type_)
    except (OSError, msgspec.DecodeError):
        pass
    value = parse(files)
    _write(path, msgspec.msgpack.encode(value))
    return value


def derived(name: str, key: str, make: Callable[[], T], type_: type[T]) -> T:
    """``make()``, or the same value read back: for what the domain code
    alone decides (``key`` saying anything else it depends on), kept in
    ``$RULEKEEPER_HOME/cache/<name>/`` under a digest of ``key`` and the
    code (the same stamp a pack's entry is keyed by: any change to the code
    is a miss)."""
    if os.environ.get(NO_CACHE_VARIABLE):
        return make()
    digest = blake2b(digest_size=16)
    digest.update(f"{type_!r}\0{msgspec.__version__}\0{_code_stamp()}\0{key}".encode())
    path = Path(home(), CACHE_DIR[0], name, digest.hexdigest() + ".msgpack")
    try:
        return msgspec.msgpack.decode(path.read_bytes(), type=type_)
    except (OSError, msgspec.DecodeError):
        pass
    value = make()
    _write(path, msgspec.msgpack.encode(value))
    return value


def _cache_file(files: Mapping[str, bytes], type_: type) -> Path:
    digest = blake2b(digest_size=16)
    digest.update(f"{type_.__module__}.{type_.__qualname__}\0{msgspec.__version__}\0{_code_stamp()}\0".encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return Path(home(), *CACHE_DIR, digest.hexdigest() + ".msgpack")


@functools.cache
def _code_stamp() -> str:
    """A digest of every Python file of the ``domain`` package by path,
    size and modification time (a change to the code that builds a pack)."""
    digest = blake2b(digest_size=16)

    # Each folder's files by name, then its folders by name, depth first (as
    # ``os.walk`` goes, so the stamp is what it was): one ``scandir`` per
    # folder, each path made relative by hand (``os.path.relpath`` per file
    # took half the stamp's time).
    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        inside = []
        for entry in entries:
            if entry.is_dir():
                if entry.name != "__pycache__" and not entry.is_symlink():
                    inside.append(entry)
            elif entry.name.endswith(".py"):
                st = entry.stat()
                digest.update(f"{prefix}{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        for entry in inside:
            walk(entry.path, f"{prefix}{entry.name}/")

    walk(str(Path(__file__).resolve().parents[2]), "")
    return digest.hexdigest()


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # only on a miss: a command that reads the cache never imports it

        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".pack-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass  # no cache where the home cannot be written
