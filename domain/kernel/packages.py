"""The ruleset packages under ``domain/``, found by listing it (nothing is
imported): the registry (``ruleset``) and the surfaces (``surface``) both
start from here. Also where a package's bundled files are (``files``)."""

from __future__ import annotations

import importlib.util
import os
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importlib.abc imports importlib.resources, which a command that reads a pack does not need
    from importlib.abc import Traversable

# The last listing, with the folders' modification times it was made at: a
# command asks several times, and a package planted since changes the time.
_LISTED: tuple[tuple[int, ...], list[str]] | None = None


def names() -> list[str]:
    """Every ruleset package under ``domain/``, by name, sorted."""
    global _LISTED
    import domain

    try:
        stamp = tuple(os.stat(folder).st_mtime_ns for folder in domain.__path__)
    except OSError:
        stamp = ()
    if _LISTED is not None and stamp and _LISTED[0] == stamp:
        return list(_LISTED[1])
    found = sorted(m.name for m in pkgutil.iter_modules(domain.__path__) if m.ispkg and m.name != "kernel")
    _LISTED = (stamp, found)
    return list(found)


def files(package: str) -> Traversable:
    """The files of ``package`` (a ruleset's bundled content), as
    ``importlib.resources.files`` gives them: its folder, when the package
    is one folder on disk (what ``resources`` returns then too, without
    importing its readers and ``zipfile`` into every command), else what
    ``resources`` finds (a zipped install)."""
    spec = importlib.util.find_spec(package)
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    if len(folders) == 1 and os.path.isdir(folders[0]):
        from pathlib import Path

        return Path(folders[0])
    from importlib import resources

    return resources.files(package)
