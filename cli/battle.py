"""The commands that look at a battle and act on it: build the domain
command from what was typed, hand it to the application, narrate what
happened and show the battle after it."""

from __future__ import annotations

import secrets
from typing import Any

from domain.betrayal import commands as c
from domain.betrayal.application import PartySpec, Result
from domain.betrayal.events import CommandIssued
from domain.betrayal.evolve import evolve
from domain.betrayal.history import Battle
from domain.betrayal.vocab import BattleForm, Difficulty
from domain.kernel.errors import MalformedCommand

from . import parse, render
from .narrate import describe
from .session import Session
from .spell import spell


def new_clash(s: Session, *, setup: str, party: list[str], xp: int, seed: int | None,
              difficulty: str, physical_dice: bool, at: list[str]) -> None:
    """Set up a clash and print its status."""
    specs = [PartySpec.parse(p) for p in party]
    result = s.app.new_clash(
        setup=setup, party=specs, xp=xp,
        seed=seed if seed is not None else secrets.randbelow(2**31),
        battle_id=s.battle, difficulty=_choice(Difficulty, difficulty, "--difficulty"),
        physical_dice=physical_dice, placements=parse.hex_labels(at),
    )
    if s.json:
        s.out.emit(_result_json(s, result, None))
        return
    show_events(s, result, None)
    s.out.print(render.status(result.battle.state, s.app.context(result.battle.state)))


def status(s: Session, at: int | None = None) -> None:
    """The full view of the battle, now or as it stood after event ``at``."""
    if at is not None and at < 1:
        raise MalformedCommand("--at counts events from 1 (see `rk log`)")
    battle = s.app.battle(s.battle_id, version=at)
    if at is not None and battle.version < at:
        raise MalformedCommand(f"battle {s.battle_id} has only {battle.version} events")
    if at is not None and not s.json:
        s.out.print(f"As it stood after event {at} of {s.battle_id}:")
    if s.json:
        s.out.emit(_battle_json(battle))
        return
    s.out.print(render.status(battle.state, s.app.context(battle.state)))


def legal(s: Session) -> None:
    """What may be done now, as `rk` commands."""
    battle_id = s.battle_id
    state = s.app.battle(battle_id).state
    commands = s.app.legal(battle_id)
    physical = state.options.physical_dice
    lines = [f"rk {spell(cmd, physical)}" for cmd in commands]
    if s.json:
        s.out.emit([{"rk": text, "command": cmd} for text, cmd in zip(lines, commands)])
        return
    if not commands:
        s.out.print(f"nothing: {render.turn_line(state, s.app.pack).plain}")
        return
    s.out.print(*lines)
    if physical and any(isinstance(cmd, (c.Engage, c.RollEnemyDice)) for cmd in commands):
        s.out.print("(F: type the face each die shows, 1 to 6)")


def move(s: Session, hex_text: str) -> None:
    to = parse.hex_label(hex_text)
    before = s.app.battle(s.battle_id)
    if not s.app.context(before.state).board.contains(to):
        raise MalformedCommand(f"{hex_text.strip()} is not a hex of this map (see `rk status`)")
    act(s, c.Move(to=to), before)


def engage(s: Session, *, form: str, target: str | None, dice: str | None, faces: str | None) -> None:
    act(s, c.Engage(
        form=_choice(BattleForm, form, "--form"), target=target or None,
        dice=parse.dice(dice), faces=parse.faces(faces, "--faces"),
    ))


def resolve(s: Session, skip: str | None) -> None:
    act(s, c.Resolve(skip=parse.positions(skip, "--skip")))


def clear(s: Session, slot: int) -> None:
    if slot < 1:
        raise MalformedCommand("active slots are counted from 1")
    act(s, c.ClearActive(slot=slot - 1))


def simple(s: Session, name: str) -> None:
    """A command without arguments: EndTurn, NextRound, Retreat."""
    act(s, {"EndTurn": c.EndTurn, "NextRound": c.NextRound, "Retreat": c.Retreat}[name]())


def roll_enemy(s: Session, faces: str) -> None:
    typed = parse.faces(faces, "FACES")
    if typed is None:
        raise MalformedCommand("type the faces the enemy's dice show, e.g. 1,6,3")
    act(s, c.RollEnemyDice(faces=typed))


def act(s: Session, command: c.BattleCommand, before: Battle | None = None) -> None:
    """Execute ``command`` on the battle and show what it did."""
    battle_id = s.battle_id
    before = before or s.app.battle(battle_id)
    result = s.app.execute(battle_id, command)
    report(s, result, before)


def undo(s: Session, force: bool) -> None:
    battle_id = s.battle_id
    before = s.app.battle(battle_id)
    result = s.app.undo(battle_id, force=force)
    undone = before.done[-1]
    if not s.json:
        s.out.print(f"Undid {undone.command_id}: rk {spell(undone.command)}"
                    + (" (it had revealed dice: --force)" if undone.random else ""))
    report(s, result, before, narrate=False)


def redo(s: Session) -> None:
    battle_id = s.battle_id
    before = s.app.battle(battle_id)
    result = s.app.redo(battle_id)
    report(s, result, before)


def report(s: Session, result: Result, before: Battle, narrate: bool = True) -> None:
    """What a command did, line by line, then the compact view."""
    if s.json:
        s.out.emit(_result_json(s, result, before.state))
        return
    if narrate:
        show_events(s, result, before.state)
    state = result.battle.state
    s.out.print(render.compact(state, s.app.context(state)))


def show_events(s: Session, result: Result, state) -> None:
    """One line per event, each narrated against the state just before it."""
    for line in narration(s, result, state):
        s.out.print("  " + line)


def narration(s: Session, result: Result, state) -> list[str]:
    """The events of ``result`` narrated from ``state`` on (the command's
    own header line is left out: the player just typed it)."""
    lines = []
    for event in result.events:
        if not isinstance(event, CommandIssued):
            lines.append(describe(event, state, s.app.pack))
        state = evolve(state, event)
    return lines


# --- JSON -------------------------------------------------------------------------


def _battle_json(battle: Battle) -> dict[str, Any]:
    return {
        "battle": battle.state.battle_id,
        "version": battle.version,
        "can_undo": len(battle.done) > 1,
        "can_redo": bool(battle.undone),
        "state": battle.state,
    }


def _result_json(s: Session, result: Result, before) -> dict[str, Any]:
    return {
        "command_id": result.command_id,
        "events": [event_json(e) for e in result.events],
        "narration": narration(s, result, before),
        **_battle_json(result.battle),
    }


def event_json(event) -> dict[str, Any]:
    """An event as a JSON object, its type first."""
    import msgspec

    return {"type": type(event).__name__, **msgspec.to_builtins(event)}


def _choice(enum, text: str, option: str):
    try:
        return enum(text.strip().lower())
    except ValueError:
        raise MalformedCommand(f"{option}: {text!r} is not one of {', '.join(m.value for m in enum)}") from None
