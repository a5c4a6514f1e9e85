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
    (the others' packages are not imported)."""
    from domain.kernel.surface import declaring, surfaces

    return surfaces() if word is None else declaring(word)


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
