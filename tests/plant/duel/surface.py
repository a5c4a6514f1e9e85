"""The duel as the table sees it: its verbs, its setup and its views,
declared for the adapters (``domain.kernel.surface``). Imports its
commands only; the rules and views load when used."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.kernel.surface import NAME, SEED, Param, Setup, Surface, Verb
from domain.kernel.surface.kinds import Choice, HexKind, Number

from . import commands as c
from .vocab import CARDS, DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH

PLAY = "Playing a duel"


def _verb(name: str, command: type, summary: str, *params: Param) -> Verb:
    return Verb(name=name, command=command, summary=summary, params=params, panel=PLAY)


VERBS = (
    _verb(
        "step",
        c.Step,
        "Move your pawn to a neighbouring free hex (DUEL-3).",
        Param("to", HexKind(), "The hex, e.g. b2 (see `rk status`).", metavar="HEX"),
    ),
    _verb(
        "pledge",
        c.Pledge,
        "Pledge a card face down, before your turn's act; your strike reveals it (DUEL-4).",
        Param("card", Choice(values=tuple(CARDS), of="card"), "sun (+2), moon (+1) or star (+0).", metavar="CARD"),
    ),
    _verb("strike", c.Strike, "Strike the pawn next to yours: a d6 plus your pledge's bonus, 5 or more wins (DUEL-5)."),
    _verb("pass", c.Pass, "End your turn where you stand (DUEL-2)."),
)


class NewDuel(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A duel on a board ``width`` hexes wide."""

    width: Annotated[int, msgspec.Meta(ge=MIN_WIDTH, le=MAX_WIDTH)] = DEFAULT_WIDTH
    seed: int | None = None
    name: str | None = None


def _start(app: Any, request: NewDuel) -> Any:
    from .new_game import start

    return start(app, request)


def _fields(command: c.StartDuel) -> dict[str, Any]:
    return {"width": command.width, "seed": command.seed}


SETUP = Setup(
    name="duel",
    summary="Set up a duel of two pawns on a hex board 3 rows high (DUEL-1) and show it.",
    details="Example: rk new duel --width 5 --seed 3",
    request=NewDuel,
    params=(
        Param(
            "width",
            Number(MIN_WIDTH, MAX_WIDTH, of="hexes"),
            f"The board's width in hexes, {MIN_WIDTH} to {MAX_WIDTH} (default {DEFAULT_WIDTH}).",
            option="--width",
        ),
        SEED,
        NAME,
    ),
    start=_start,
    makes=(c.StartDuel,),
    fields=_fields,
    examples=({"width": 5}, {"width": MIN_WIDTH}),
)


def _view(name: str) -> Any:
    def draw(*args: Any) -> Any:
        from . import views

        return getattr(views, name)(*args)

    draw.__name__ = name
    return draw


SURFACES = (
    Surface(
        ruleset="duel",
        title="Duel",
        verbs=VERBS,
        setups=(SETUP,),
        panel=PLAY,
        status=_view("status"),
        compact=_view("compact"),
        board=_view("board"),
    ),
)
