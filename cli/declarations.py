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


# What `rk <word>` needs to know, before its game is found, of the packages
# declaring ``word`` as a plain verb (``shared_verb``): those packages, the
# options their verbs of it declare, the options naming a game their surfaces give.
Shared = tuple[list[str], list[str], list[list[str]]]


def _shared(word: str) -> Shared | None:
    """``Shared`` for ``word`` if several packages declare it and only as a
    verb of one word finding no game of its own (no query, no game's noun,
    no verb of two words starting with it), else None."""
    entries = verbs_named(word)
    packages = sorted({surface.ruleset.partition("-")[0] for surface, _ in entries})
    if len(packages) < 2 or games_named(word) or queries_named(word):
        return None
    if any(len(v.words) > 1 or (v.find_game or surface.find_game) is not None for surface, v in entries):
        return None
    options = sorted({name for _, v in entries for p in v.params for name in (p.option, p.short) if name})
    selectors = sorted({surface.selector for surface, _ in entries})
    return packages, options, [list(selector) for selector in selectors]


def shared_verb(word: str) -> Shared | None:
    """``Shared`` for ``word`` when several packages declare it, only as a
    plain verb (``rk move`` of a Betrayal battle and of a labyrinth's): the
    game can then be found before any of their surfaces is loaded, and only
    its package's loaded (``cli.verbs.give_to_game``). None otherwise. Kept
    in a cache as ``declaring``'s words are (made with the surfaces
    declaring the word loaded, again whenever the domain code changes)."""
    from domain.kernel.packages import names
    from domain.kernel.stores.pack_cache import derived

    listed = names()
    words = derived("words", "\0".join(listed), _words, dict[str, list[str]])
    if sum(word in words.get(package, (word,)) for package in listed) < 2:
        return None  # one package's word (or none's): ``declaring`` loads only it
    return derived("shared-verbs", "\0".join([*listed, word]), lambda: _shared(word), Shared | None)  # type: ignore[arg-type]
