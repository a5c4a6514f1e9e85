"""Betrayal's demo (`rk demo`): a short clash on Waystone Crossing, two
adventurers against EP 4, played to its end by the greedy bot; a line per
command tells the few things worth a glance (rolls, damage, defeats, enemy
moves, a new round, the end)."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import NotFound
from domain.kernel.hexes import label

SETUP = "waystone-crossing"
XP = 2  # EP 4 for two adventurers: a few enemies, a few rounds


def request(app: Any, number: int) -> dict[str, Any]:
    """The demo clash, its adventurers named after its number."""
    return {
        "setup": SETUP,
        "xp": XP,
        "party": [
            {"name": f"Ysolda-{number}", "race": "nord", "lines": ["one-hand-shield", "heavy-armor"], "form": "light"},
            {"name": f"Tarn-{number}", "race": "dark-elf", "lines": ["bow", "destruction-staff"], "form": "ranged"},
        ],
    }


def taken(app: Any, number: int) -> bool:
    """Whether an adventurer of demo ``number`` exists already."""
    from domain.betrayal.battle.application import adventurer

    for name in (f"Ysolda-{number}", f"Tarn-{number}"):
        try:
            adventurer(app, name)
        except NotFound:
            continue
        return True
    return False


def choose(state: Any, ctx: Any, rnd: Any) -> Any:
    from domain.betrayal.battle.bots import greedy_choice

    return greedy_choice(state, ctx, rnd)


def who(state: Any) -> str:
    """The adventurer whose turn it is, else the party."""
    return state.hero(state.turn.hero).name if state.turn else "party"


def shows_undo(command: Any) -> bool:
    """The first move shows an undo and a redo."""
    from domain.betrayal.battle.commands import Move

    return isinstance(command, Move)


def told(state: Any, events: Any, pack: Any) -> str:
    """The few events worth a glance: rolls, damage, defeats, enemy moves,
    a new round, the end."""
    from domain.betrayal.battle import events as ev
    from domain.betrayal.battle.evolve import evolve
    from domain.betrayal.battle.names import unit_name

    def short(unit: str) -> str:  # an adventurer's name or an enemy's id: enough on one line
        return unit_name(state, pack, unit).split(" ")[0]

    parts: list[str] = []
    for event in events:
        if isinstance(event, ev.DiceRolled):
            whose = "" if state.pending and state.pending.hero == event.unit else f"{event.unit} "
            parts.append(f"{whose}rolled " + ",".join(str(r.face + 1) for r in event.dice))
        elif isinstance(event, ev.DamageDealt):
            lost = event.to_hp + event.to_bonus
            parts.append(f"{short(event.target)} " + (f"-{lost} ({event.hp} HP)" if lost else "unhurt"))
        elif isinstance(event, ev.UnitDefeated):
            parts.append(f"{short(event.unit)} defeated")
        elif isinstance(event, ev.EnemyMoved):
            parts.append(f"{event.foe} to {label(event.path[-1])}")
        elif isinstance(event, ev.RoundStarted):
            parts.append(f"round {event.round}")
        elif isinstance(event, ev.BattleEnded):
            parts.append(event.outcome.value.upper())
        if not isinstance(event, (ev.CommandIssued, ev.CommandUndone)):
            state = evolve(state, event)
    return ", ".join(parts)
