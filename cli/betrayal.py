"""Betrayal on the command line: its verbs (new clash, move, engage,
resolve, clear, end turn, next round, retreat, roll the enemy's dice) and
its views (the board and the party), as ``cli.game`` asks of a ruleset."""

from __future__ import annotations

import secrets
from typing import Any

from domain.betrayal import commands as c
from domain.betrayal.application import PartySpec, new_clash as start_clash
from domain.betrayal.spell import spell
from domain.betrayal.state import BattleState
from domain.betrayal.vocab import BattleForm, Difficulty
from domain.kernel.commandlog import Game
from domain.kernel.errors import MalformedCommand

from . import parse, render
from .game import act, choice, narration, result_json
from .session import Session

def new_clash(s: Session, *, setup: str, party: list[str], xp: int, seed: int | None,
              difficulty: str, physical_dice: bool, at: list[str]) -> None:
    """Set up a clash and print its status."""
    specs = [PartySpec.parse(p) for p in party]
    result = start_clash(
        s.app, setup=setup, party=specs, xp=xp,
        seed=seed if seed is not None else secrets.randbelow(2**31),
        battle_id=s.battle, difficulty=choice(Difficulty, difficulty, "--difficulty"),
        physical_dice=physical_dice, placements=parse.hex_labels(at),
    )
    if s.json:
        s.out.emit(result_json(s, result, None))
        return
    for line in narration(s, result, None):
        s.out.print("  " + line)
    show_status(s, result.battle)


def show_status(s: Session, game: Game) -> None:
    """The board, whose turn, every adventurer and enemy."""
    s.out.print(render.status(game.state, s.app.context(game.state)))


def show_compact(s: Session, state: BattleState) -> None:
    """The short view after a command."""
    s.out.print(render.compact(state, s.app.context(state)))


def legal_lines(s: Session, state: BattleState, commands: list[Any]) -> list[str]:
    """Each legal command as an `rk` line; with physical dice, F marks a face to type."""
    physical = state.options.physical_dice
    if not commands:
        return [f"nothing: {render.turn_line(state, s.app.pack_of('betrayal')).plain}"]
    lines = [f"rk {spell(cmd, physical)}" for cmd in commands]
    if physical and any(isinstance(cmd, (c.Engage, c.RollEnemyDice)) for cmd in commands):
        lines.append("(F: type the face each die shows, 1 to 6)")
    return lines


def move(s: Session, hex_text: str) -> None:
    to = parse.hex_label(hex_text)
    before = s.app.battle(s.battle_id)
    if not s.app.context(before.state).board.contains(to):
        raise MalformedCommand(f"{hex_text.strip()} is not a hex of this map (see `rk status`)")
    act(s, c.Move(to=to), before)


def engage(s: Session, *, form: str, target: str | None, dice: str | None, faces: str | None) -> None:
    act(s, c.Engage(
        form=choice(BattleForm, form, "--form"), target=target or None,
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


