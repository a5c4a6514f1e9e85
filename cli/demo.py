"""`rk demo`: a short game played from setup to the end by a bot, one line
per command, with an undo and a redo shown on the way: the demo a ruleset
declares (``Surface.demo``), the first ruleset by name that declares one
unless ``--ruleset`` names another.

It runs on the ordinary store (the default SQLite file unless told
otherwise), under a fresh game id (``demo-N``) and with names that carry
that number, so running it again never collides with an earlier run and
every game it plays can be looked at afterwards (`rk log`). It never
becomes the current game (``domain.kernel.stores.current_battle``): whatever was current before
stays so, and `rk use demo-N` picks the demo.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from rich.text import Text

from domain.kernel.errors import NotFound
from domain.kernel.narration import Narrator
from domain.kernel.ruleset import HOST

from domain.kernel.stores.current_battle import chosen_battle, current_or_none, remember
from .game import show
from .phrases import Phrases
from .session import Session

MAX_COMMANDS = 400  # a bot's game ends long before; this only guards the loop
WIDTH = 98


def _declared(ruleset: str | None) -> tuple[Any, Any]:
    """The surface and the demo to play: ``ruleset``'s, or the first by name."""
    from domain.kernel.surface import surfaces

    found = [s for s in surfaces() if s.demo is not None and (ruleset is None or s.ruleset == ruleset)]
    if not found:
        there = ", ".join(s.ruleset for s in surfaces() if s.demo is not None) or "none"
        raise NotFound(
            f"no demo for {ruleset!r}; the rulesets with one: {there}" if ruleset else "no ruleset has a demo"
        )
    return found[0], found[0].demo


def run(s: Session, seed: int, ruleset: str | None = None) -> None:
    surface, demo = _declared(ruleset)
    setup = surface.setup(demo.setup)
    app = s.app
    kept = current_or_none(app)
    if kept is not None and chosen_battle(app) != kept:
        remember(app, kept)  # the game in hand stays current, though the demo is newer
    number = _free_number(app, demo)
    game_id = f"demo-{number}"
    fields = {**demo.request(app, number), "name": game_id}
    if any(f.name == "seed" for f in msgspec.structs.fields(setup.request)):
        fields["seed"] = seed
    result = setup.start(app, msgspec.convert(fields, setup.request))
    rs = app.ruleset(game_id)
    pack = app.pack_of(rs)
    show(s, result.battle, full=False)
    s.out.print("")

    game = result.battle
    seats = {seat.key: seat.name for seat in rs.seats(game.state)}
    width = max([len(name) for name in seats.values()] + [5])
    bot = random.Random(seed)
    played: list[dict[str, Any]] = []
    shown_undo = False
    while not rs.summary(game.state).over and len(played) < MAX_COMMANDS:
        state = game.state
        ctx = app.rules_context(game_id)
        command = demo.choose(state, ctx, bot)
        typed = rs.describe_command(command)
        result = app.execute(game_id, command)
        who = (
            demo.who(state)
            if demo.who is not None
            else seats.get(rs.actor(state, command) or "", "host" if rs.actor(state, command) == HOST else "table")
        )
        events = result.events[1:]
        told = demo.told(state, events, pack) if demo.told is not None else "; ".join(_lines(rs, pack, state, events))
        _line(s, f"R{rs.summary(state).round:<2} {who:<{width}} rk {typed}", told)
        played.append({"command_id": result.command_id, "rk": f"rk {typed}"})
        undoable = demo.shows_undo(command) if demo.shows_undo is not None else not any(rs.reveals(e) for e in events)
        if not shown_undo and undoable and not rs.summary(result.battle.state).over:
            shown_undo = True
            app.undo(game_id)
            s.out.print(Text(f"{'':{width + 4}} rk undo → rk {typed} is taken back", style="yellow"))
            result = app.redo(game_id)
            s.out.print(Text(f"{'':{width + 4}} rk redo → it again", style="yellow"))
        game = result.battle

    s.out.print("")
    show(s, game, full=False)
    if s.json:
        s.out.emit(
            {
                "battle": game_id,
                "ruleset": rs.name,
                "commands": played,
                "summary": rs.summary(game.state),
                "state": game.state,
            }
        )
        return
    still = f"; commands still act on {app.find_battle(kept).name} (rk use {game_id} to change that)" if kept else ""
    s.out.print(
        Phrases(
            Text(
                f"Battle {game_id} is kept in the store: rk log --battle {game_id},"
                f" rk verify --battle {game_id}{still}",
                style="dim",
            )
        )
    )


def _free_number(app: Any, demo: Any) -> int:
    """The next demo number whose game and names are all new."""
    taken = {b.battle_id for b in app.battles()}
    number = 1 + sum(1 for game in taken if game.startswith("demo-"))
    while f"demo-{number}" in taken or (demo.taken is not None and demo.taken(app, number)):
        number += 1
    return number


def _lines(rs: Any, pack: Any, state: Any, events: list[Any]) -> list[str]:
    narrator = Narrator(rs, pack, state)
    return [narrator(event) for event in events]


def _line(s: Session, head: str, told: str) -> None:
    """``R2 Tarn-3   rk engage ... → what came of it``, on one line."""
    text = head + (f" → {told}" if told else "")
    if len(text) > WIDTH:
        text = text[: WIDTH - 1] + "…"
    s.out.print(text)
