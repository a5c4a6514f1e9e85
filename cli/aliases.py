"""`rk <noun> status|legal|log|undo|redo` (`rk campaign undo`): the commands
every game answers, under the group of a ruleset whose games are not
battles, so that its vocabulary reads whole. They are `rk status`, `rk
legal`... acting on the game named (an argument, the surface's selector
such as ``--campaign``, or ``--battle``), else on the one its ruleset finds
(``Surface.find_game`` with no fields: the newest campaign), never on the
current battle. No ruleset is named here."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.surface import Param, Surface, Verb, read
from domain.kernel.surface.kinds import Flag, Number, Text

from .session import Session
from .verbs import _globals, _options, _pull

MAX_VERSION = 2**63 - 1

# Each generic command: its help (``{noun}`` stands for the surface's noun),
# its own options, and whether it only reads.
COMMANDS: dict[str, tuple[str, tuple[Param, ...], bool]] = {
    "status": (
        "Show the {noun} (as `rk status`).",
        (
            Param(
                "at",
                Number(1, MAX_VERSION, of="event"),
                "Only up to this event (the numbers `rk log` shows), to see it as it stood then.",
                option="--at",
                metavar="VERSION",
                required=False,
            ),
        ),
        True,
    ),
    "legal": ("What may be done now in the {noun}, one `rk` command per line (as `rk legal`).", (), True),
    "log": (
        "Every event of the {noun} and of what its commands wrote, narrated (as `rk log`).",
        (Param("no_pager", Flag(), "Write straight to the terminal.", option="--no-pager", required=False),),
        True,
    ),
    "undo": (
        "Undo the {noun}'s last command (appends an undo; nothing is erased; as `rk undo`).",
        (Param("force", Flag(), "Also undo a command that revealed randomness.", option="--force", required=False),),
        False,
    ),
    "redo": ("Redo the {noun}'s command undone last, if nothing was done since (as `rk redo`).", (), False),
}


def verb(surface: Surface, what: str) -> Verb:
    """The alias ``what`` of ``surface``'s group as a verb (its help and the
    words it reads)."""
    summary, params, _ = COMMANDS[what]
    name = Param(
        "name",
        Text(surface.noun),
        f"The {surface.noun}, by name or id (default: the one its commands act on).",
        metavar="NAME",
        required=False,
    )
    return Verb(
        name=f"{surface.noun} {what}", command=dict, summary=summary.format(noun=surface.noun), params=(name, *params)
    )


def run(s: Session, surface: Surface, what: str, words: list[str]) -> None:
    """``rk <noun> <what> <words>``: the generic command on the game named,
    else the one ``surface`` finds; refused if the game named is another
    ruleset's."""
    from . import game, history

    alias = verb(surface, what)
    words = _globals(s, words, _options([alias]))
    named, words = _pull(words, tuple(n for n in {*surface.selector, "--battle", "-b"} if n))
    _, values = read(alias, words)
    named = values.pop("name", None) or named
    if named:
        s.battle = named
        if s.ruleset.name != surface.ruleset:
            raise MalformedCommand(f"{named!r} is not a {surface.noun}: `rk {what} --battle {named}` acts on it")
    else:
        assert surface.find_game is not None, "a surface with a group of its own finds its games"
        s.set_game(surface.find_game(s.app, {}))
    actions: dict[str, Any] = {
        "status": lambda: game.status(s, values.get("at")),
        "legal": lambda: game.legal(s),
        "log": lambda: history.log(s, page=not values.get("no_pager", False)),
        "undo": lambda: game.undo(s, values.get("force", False)),
        "redo": lambda: game.redo(s),
    }
    actions[what]()
