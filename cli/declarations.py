"""What the rulesets declare, found by the words of a command line: the
verbs and queries of a word, the setups, the games named by a noun, the
selectors. Nothing here imports typer: ``cli.declared`` makes click
commands of what these find, and ``cli.direct`` runs a plain verb with
them without typer."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface import Setup, Surface, Verb


def _surfaces(word: str | None = None) -> list[Surface]:
    """Every ruleset's surface; given ``word``, only those that declare it
    (the others' packages are not imported: ``declaring``)."""
    from domain.kernel.surface import surfaces

    return surfaces() if word is None else declaring(word)


def _words() -> dict[str, list[str]]:
    """Every word each package's surfaces declare (``surface.declares``), by package."""
    from domain.kernel.packages import names
    from domain.kernel.surface import surfaces

    by_package: dict[str, set[str]] = {package: set() for package in names()}
    for surface in surfaces():
        words = by_package.setdefault(surface.ruleset.partition("-")[0], set())
        words |= {v.words[0] for v in surface.verbs} | {q.name.split()[0] for q in surface.queries}
        if surface.find_game is not None:
            words.add(surface.noun)
    return {package: sorted(words) for package, words in by_package.items()}


def declaring(word: str) -> list[Surface]:
    """The surfaces that declare ``word`` (``surface.declares``), by ruleset
    name, as ``surfaces()`` lists them: only the packages declaring it are
    imported (`rk engage` never loads another ruleset's surface). Which
    words each package declares is kept in a cache (``pack_cache.derived``),
    read again whenever the domain code changes."""
    from domain.kernel.packages import names
    from domain.kernel.stores.pack_cache import derived
    from domain.kernel.surface import declares, of_package

    listed = names()
    words = derived("words", "\0".join(listed), _words, dict[str, list[str]])
    found = [
        s
        for package in listed
        if word in words.get(package, (word,))  # (a package the cache has not seen: loaded to see)
        for s in of_package(package)
        if declares(s, word)
    ]
    return sorted(found, key=lambda s: s.ruleset)


def verbs_named(word: str) -> list[tuple[Surface, Verb]]:
    """Every ruleset's verb whose first word is ``word``."""
    return [(s, v) for s in _surfaces(word) for v in s.verbs if v.words[0] == word]


def queries_named(word: str) -> list[tuple[Surface, Any]]:
    """Every ruleset's query whose first word is ``word``."""
    return [(s, q) for s in _surfaces(word) for q in s.queries if q.name.split()[0] == word]


def setups() -> list[tuple[Surface, Setup]]:
    """Every ruleset's setup, with its surface."""
    return [(s, setup) for s in _surfaces() for setup in s.setups]


def games_named(word: str) -> list[Surface]:
    """The surfaces whose games are not battles (they find them) and are
    called ``word`` (``campaign``)."""
    return [s for s in _surfaces(word) if s.noun == word and s.find_game is not None]


def selectors() -> list[tuple[tuple[str, str], str]]:
    """Every ruleset's own option naming the game to act on, besides
    ``--battle`` (a campaign's ``--campaign``/``-c``), with what it names."""
    found = {s.selector: s.noun for s in _surfaces() if s.selector != ("--battle", "-b")}
    return sorted(found.items())
