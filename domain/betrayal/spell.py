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
        # faces: one per die gathered, then any free die (RACE-NORD) after them
        if command.faces:
            if physical_dice:  # a listing: only the table knows the faces
                parts.append("--faces " + ",".join("F" for _ in command.faces))
            else:
                parts.append("--faces " + _ones(f + 1 for f in command.faces))
        elif command.dice and physical_dice:
            parts.append("--faces " + ",".join("F" for _ in command.dice))
        if command.weapon:  # WEAPON-1, OVERTAX-2
            parts.append(f"--weapon {command.weapon}" + (" --overtax" if command.overtax else ""))
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
    if isinstance(command, c.UseRaceAbility):
        parts = ["race-ability"] + ([command.hero] if command.hero else [])
        if command.dice:
            parts.append("--dice " + _ones(command.dice))
        if command.slots:
            parts.append("--slots " + _ones(i + 1 for i in command.slots))
        if command.targets:
            parts.append("--targets " + ",".join(command.targets))
        if command.hex is not None:
            parts.append(f"--hex {label(command.hex)}")
        if command.arm:
            parts.append("--arm")
        return " ".join(parts)
    if isinstance(command, c.Defend):
        parts = ["defend"]
        if command.blocks is not None:
            parts.append("--blocks " + (_ones(i + 1 for i in command.blocks) or "none"))
        if command.race:
            parts.append("--race")
        if command.gear is not None:  # ARMOR-2
            parts.append("--gear " + (",".join(command.gear) or "none"))
        if command.overtax:  # OVERTAX-3
            parts.append("--overtax " + ",".join(command.overtax))
        return " ".join(parts)
    if isinstance(command, c.UseGear):  # ITEM-3
        parts = ["use-item", command.item] + ([command.hero] if command.hero else [])
        if command.target:
            parts.append(f"--target {command.target}")
        if command.overtax:
            parts.append("--overtax")
        if command.dice:
            parts.append("--dice " + _ones(i + 1 for i in command.dice))
        if command.faces:
            parts.append("--faces " + (",".join("F" for _ in command.faces) if physical_dice
                                       else _ones(f + 1 for f in command.faces)))
        if command.hex is not None:
            parts.append(f"--hex {label(command.hex)}")
        return " ".join(parts)
    if isinstance(command, c.TurnClassSheet):  # ADVANCE-16
        return "promote" + (f" {command.hero}" if command.hero else "")
    if isinstance(command, c.UseClassAbility):  # CLASS-1
        parts = ["ability", command.ability] + ([command.hero] if command.hero else [])
        if command.target:
            parts.append(f"--target {command.target}")
        if command.hex is not None:
            parts.append(f"--hex {label(command.hex)}")
        if command.dice:
            parts.append("--dice " + _ones(i + 1 for i in command.dice))
        if command.faces:
            parts.append("--faces " + (",".join("F" for _ in command.faces) if physical_dice
                                       else _ones(f + 1 for f in command.faces)))
        if command.change_form:
            parts.append("--change-form")
        if command.slot is not None:
            parts.append(f"--slot {command.slot + 1}")
        return " ".join(parts)
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
    options += " --choose-defense" if command.choose_defense else ""
    options += "".join(f" {place} {label(h)}" for h in command.placements)
    return f"{party} --xp {command.xp} --seed {command.seed}{options}"


def _ones(values) -> str:
    return ",".join(str(v) for v in values)
