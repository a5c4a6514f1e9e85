"""Commands written back as the `rk` line that gives them, so that `rk legal`
and `rk log` speak the same language the player types."""

from __future__ import annotations

import shlex

from . import commands as c
from domain.kernel.hexes import label


def spell(command: c.BattleCommand, physical_dice: bool = False) -> str:
    """The `rk` command line (without ``rk``) that gives ``command``.

    ``physical_dice`` marks a listing of what may be done in a battle played
    with real dice: faces are shown as ``F`` placeholders, one per die, since
    only the table knows them. Without it, typed faces are written out.
    """
    if isinstance(command, c.Move):
        return f"move {label(command.to)}"
    if isinstance(command, c.MoveToExplore):
        return f"move {label(command.to)} --explore"
    if isinstance(command, c.Explore):
        return "explore" if command.hex is None else f"explore {label(command.hex)}"
    if isinstance(command, c.PlaceTile):
        return f"place-tile --rotation {command.rotation} --origin {label(command.origin)}"
    if isinstance(command, c.Engage):
        parts = [f"engage --form {command.form.value}"]
        if command.target:
            parts.append(f"--target {command.target}")
        if command.dice:
            parts.append("--dice " + _ones(command.dice))
            if physical_dice:  # a listing: only the table knows the faces
                parts.append("--faces " + ",".join("F" for _ in command.dice))
            elif command.faces is not None:
                parts.append("--faces " + _ones(f + 1 for f in command.faces))
        return " ".join(parts)
    if isinstance(command, c.Resolve):
        if command.skip:
            return "resolve --skip " + _ones(i + 1 for i in command.skip)
        return "resolve"
    if isinstance(command, c.ClearActive):
        return f"clear {command.slot + 1}"
    if isinstance(command, c.EndTurn):
        return "end-turn"
    if isinstance(command, c.NextRound):
        return "next-round"
    if isinstance(command, c.Retreat):
        return "retreat"
    if isinstance(command, c.RollEnemyDice):
        if physical_dice:
            return "roll-enemy " + ",".join("F" for _ in command.faces)
        return "roll-enemy " + _ones(f + 1 for f in command.faces)
    if isinstance(command, c.StartDungeon):  # a StartClash too: first
        specials = f" --specials {','.join(label(h) for h in command.specials)}" if command.specials else ""
        return f"new dungeon --setup {command.setup} {_start(command, '--place')}{specials}"
    if isinstance(command, c.StartClash):
        return f"new clash --setup {command.setup} {_start(command, '--at')}"
    if isinstance(command, c.StartDelve):
        return f"new delve --delve {command.delve} {_start(command, '--place')}"
    return type(command).__name__


def _start(command: c.StartClash | c.StartDelve, place: str) -> str:
    """The options every setup takes: party, XP, seed, difficulty, dice,
    and each adventurer's Entrance hex (``place`` names that option)."""
    party = " ".join(f"--party {shlex.quote(m.name)}" for m in command.party)
    options = "" if command.difficulty.value == "adept" else f" --difficulty {command.difficulty.value}"
    options += " --physical-dice" if command.physical_dice else ""
    options += "".join(f" {place} {label(h)}" for h in command.placements)
    return f"{party} --xp {command.xp} --seed {command.seed}{options}"


def _ones(values) -> str:
    return ",".join(str(v) for v in values)
