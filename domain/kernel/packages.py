"""The ruleset packages under ``domain/``, found by listing it (nothing is
imported): the registry (``ruleset``) and the surfaces (``surface``) both
start from here."""

from __future__ import annotations

import os
import pkgutil

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
