"""Setting a battle up: both armies wait as reinforcements (REINF-1), each
Character joined to a Regiment of its Type (REINF-2), the Warlord named
(SUP-5); then Round 1 begins with both lines on the own edges (RLINE-3)."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.rng import check_seed

from .commands import StartConquest
from .decision import Decision
from .events import BattleStarted, RoundStarted
from .state import Character, Regiment
from .vocab import RULES_VERSION, SIDES


def start(d: Decision, cmd: StartConquest) -> None:
    pack = d.ctx.pack
    check_seed(cmd.seed)
    if cmd.scenario not in pack.scenarios:
        raise MalformedCommand(f"no scenario {cmd.scenario!r} (there are: {', '.join(pack.scenarios)})")
    if len(cmd.armies) != 2 or len(cmd.warlords) != 2:
        raise MalformedCommand('name two armies (and two warlords, or "")')
    regiments: list[Regiment] = []
    characters: list[Character] = []
    for side, army_id in enumerate(cmd.armies):
        army = pack.armies.get(army_id)
        if army is None:
            raise MalformedCommand(f"no army {army_id!r} (there are: {', '.join(pack.armies)})")
        regiments += _regiments(side, army)
    assigned = dict(cmd.assignments)
    for side, army_id in enumerate(cmd.armies):
        characters += _characters(side, pack.armies[army_id], cmd.warlords[side], assigned, regiments)
    unknown = set(assigned) - {c.id for c in characters}
    if unknown:
        raise MalformedCommand(f"no Character {sorted(unknown)[0]!r}")
    d.emit(
        BattleStarted(
            battle_id=cmd.battle_id,
            rules_version=RULES_VERSION,
            pack_id=pack.id,
            pack_hash=pack.hash,
            seed=cmd.seed,
            scenario=cmd.scenario,
            physical_dice=cmd.physical_dice,
            armies=cmd.armies,
            regiments=tuple(regiments),
            characters=tuple(characters),
        )
    )
    d.emit(RoundStarted(round=1, lines=(0, 0)))


def _regiments(side: int, army) -> list[Regiment]:
    out: list[Regiment] = []
    for entry in army.regiments:
        for _ in range(entry.count):
            out.append(
                Regiment(
                    id=f"{SIDES[side]}{len(out) + 1}",
                    side=side,
                    entry=entry.id,
                    name=entry.name,
                    type=entry.type,
                    cls=entry.cls,
                    stands=entry.stands,
                    march=entry.march,
                    depth=entry.depth,
                    volley=entry.volley,
                    draw_events=entry.draw_events,
                )
            )
    return out


def _characters(side: int, army, warlord: str, assigned: dict[str, str], regiments: list[Regiment]) -> list[Character]:
    names = [c.id for c in army.characters]
    chosen = warlord or army.warlord
    if chosen not in names:
        raise RuleViolation("SUP-5", f"the Warlord must be one of the army's Characters ({', '.join(names)})")
    own = [r for r in regiments if r.side == side]
    out = []
    for i, entry in enumerate(army.characters):
        cid = f"{SIDES[side]}c{i + 1}"
        same_type = [r for r in own if r.type == entry.type]
        if cid in assigned:
            target = next((r for r in own if r.id == assigned[cid]), None)
            if target is None:
                raise RuleViolation("REINF-2", f"{cid} can only join a Regiment of its own army")
            if target.type != entry.type:
                raise RuleViolation(
                    "REINF-2",
                    f"{entry.name} ({entry.type}) cannot join {target.id}, "
                    f"a {target.type} Regiment: the Types must match",
                )
        elif same_type:
            target = same_type[0]
        else:
            # facts REINF-2 default: no eligible Regiment rejects the army list
            raise RuleViolation(
                "REINF-2", f"{entry.name} has no {entry.type} Regiment to join; the army list is rejected"
            )
        out.append(
            Character(
                id=cid,
                side=side,
                entry=entry.id,
                name=entry.name,
                type=entry.type,
                regiment=target.id,
                warlord=entry.id == chosen,
                abilities=entry.abilities,
                draw_events=entry.draw_events,
            )
        )
    return out
