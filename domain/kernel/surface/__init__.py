"""A ruleset's surface: what it shows a table, declared as data.

``kinds``: what a parameter is at the table (a hex, a unit, dice, cards, a
number...) and how it is typed; ``verbs``: a command and its parameters;
``grammar``: command lines both ways; ``declared``: a ruleset's whole
surface (verbs, setups, queries). ``surfaces()`` finds every ruleset's,
importing each package's ``surface`` module (never its rules).
"""

from __future__ import annotations

import importlib

from .declared import NAME, NEW, PACK, SEED, Demo, Query, Report, Setup, Surface, random_seed
from .grammar import Grammar, parse, plain, read, spell, usage, words_of
from .verbs import Param, Verb

_FOUND: dict[str, Surface] = {}
_PACKAGES: set[str] = set()
_LATER: dict[str, str] = {}  # ruleset -> "module:attribute": a surface given for later, not imported yet


def _load(package: str) -> None:
    if package in _PACKAGES:
        return
    try:
        module = importlib.import_module(f"domain.{package}.surface")
    except ModuleNotFoundError as e:
        if e.name != f"domain.{package}.surface":
            raise
        _PACKAGES.add(package)  # a ruleset that declares no surface: nothing to show
        return
    for surface in module.SURFACES:
        _FOUND[surface.ruleset] = surface
    for ruleset, where in getattr(module, "LATER", {}).items():
        _LATER[ruleset] = where
    _PACKAGES.add(package)


def _later(rulesets: list[str]) -> None:
    """Import the surfaces given for later of ``rulesets`` (those not given for later: nothing)."""
    for ruleset in rulesets:
        where = _LATER.get(ruleset)
        if where is not None:
            module, _, attribute = where.partition(":")
            _FOUND[ruleset] = getattr(importlib.import_module(module), attribute)
            # Forgotten once found, never before: another thread asking meanwhile imports it too (the same object).
            _LATER.pop(ruleset, None)


def surfaces() -> list[Surface]:
    """Every ruleset's surface, by ruleset name."""
    from domain.kernel.packages import names

    for package in names():
        _load(package)
    _later(list(_LATER))
    return [_FOUND[name] for name in sorted(_FOUND)]


def declares(surface: Surface, word: str) -> bool:
    """Whether ``word`` is the first word of a verb or a query of
    ``surface``, or the noun of the games it finds (``rk campaign ...``)."""
    return (
        any(v.words[0] == word for v in surface.verbs)
        or any(q.name.split()[0] == word for q in surface.queries)
        or (surface.noun == word and surface.find_game is not None)
    )


def of_package(package: str) -> list[Surface]:
    """The surfaces ruleset package ``package`` declares (none if it has no
    ``surface`` module), importing only it."""
    _load(package)
    _later([ruleset for ruleset in _LATER if ruleset.partition("-")[0] == package])
    return [s for s in _FOUND.values() if s.ruleset.partition("-")[0] == package]


def surface_of(ruleset: str) -> Surface:
    """The surface of ruleset ``ruleset`` (``betrayal-campaign`` is declared
    by the package ``betrayal``); KeyError if it declares none."""
    if ruleset not in _FOUND:
        _load(ruleset.partition("-")[0])
        _later([ruleset])
    return _FOUND[ruleset]


__all__ = [
    "NAME",
    "NEW",
    "PACK",
    "SEED",
    "Demo",
    "Grammar",
    "Param",
    "Query",
    "Report",
    "Setup",
    "Surface",
    "Verb",
    "declares",
    "of_package",
    "parse",
    "plain",
    "random_seed",
    "read",
    "spell",
    "surface_of",
    "surfaces",
    "usage",
    "words_of",
]
