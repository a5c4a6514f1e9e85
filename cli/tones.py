"""How the tones of a document (``domain.kernel.surface.document``) look on
a terminal: tones say what words are; the styles are chosen here only."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface.document import Words

# How each tone of a document looks on a terminal.
STYLES = {
    "": "",
    "strong": "bold",
    "ally": "bold green",
    "foe": "bold red",
    "dim": "dim",
    "warn": "yellow",
    "good": "bold green",
    "bad": "bold red",
    "shard": "bold magenta",
    "open": "bold black on yellow",
    "cache": "yellow",
    "special": "magenta",
    "entrance": "cyan",
    "note": "dim",
}


def styled(words: Words, base: str = "") -> Any:
    """``words`` as rich text, each piece in its tone's style."""
    from rich.text import Text

    if isinstance(words, str):
        return Text(words, style=base)
    out = Text(style=base)
    for text, tone in words:
        out.append(text, style=STYLES.get(tone, ""))
    return out
