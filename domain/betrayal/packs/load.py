"""Where a Betrayal content pack comes from: a folder (``load_pack_dir``) or
the starter pack bundled in ``domain/betrayal/content`` (``starter_pack``),
read back parsed from the pack cache (``pack_cache``) when its files have
not changed, else parsed by ``parse`` (``parse_pack``), imported only
then. Which files a pack holds is ``files``'."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from os import PathLike
from pathlib import Path

from domain.kernel import packages
from domain.kernel.stores.pack_cache import parsed

from .catalog import Pack
from .files import ALL_FILES, CAMPAIGN_FILES, COMPANION_FILE, CORE_FILES, DELVE_FILES, EXTRA_FILES, PACK_FILES

__all__ = [
    "ALL_FILES",
    "CAMPAIGN_FILES",
    "COMPANION_FILE",
    "CORE_FILES",
    "DELVE_FILES",
    "EXTRA_FILES",
    "PACK_FILES",
    "load_pack_dir",
    "parse_pack",
    "starter_pack",
]


def parse_pack(files: Mapping[str, bytes]) -> Pack:
    """Build a validated ``Pack`` from the raw bytes of its files, by name
    (``parse.parse_pack``: pure, raises ``ContentError`` for anything
    malformed)."""
    from .parse import parse_pack as parsed_from  # the parsers, for a pack not in the cache

    return parsed_from(files)


def load_pack_dir(path: str | PathLike[str]) -> Pack:
    """Read the pack files from a directory (the five core files, and the
    delve and campaign files when there) and parse them (or read the parsed
    pack back from ``pack_cache``, keyed by the files' bytes)."""
    folder = Path(path)
    files = {name: (folder / name).read_bytes() for name in ALL_FILES + EXTRA_FILES if (folder / name).is_file()}
    return parsed(files, parse_pack, Pack)


@functools.cache
def starter_pack() -> Pack:
    """The starter pack bundled in ``domain/betrayal/content``, delve and
    campaign files included (parsed once per change, ``pack_cache``)."""
    content = packages.files("domain.betrayal.content")
    files = {name: content.joinpath(name).read_bytes() for name in ALL_FILES + EXTRA_FILES}
    return parsed(files, parse_pack, Pack)
