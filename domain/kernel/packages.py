"""The ruleset packages under ``domain/``, found by listing it (nothing is
imported): the registry (``ruleset``) and the surfaces (``surface``) both
start from here."""

from __future__ import annotations

import pkgutil


def names() -> list[str]:
    """Every ruleset package under ``domain/``, by name, sorted."""
    import domain

    return sorted(m.name for m in pkgutil.iter_modules(domain.__path__) if m.ispkg and m.name != "kernel")
