"""Setting a battle up: the party's PCs from class and level (derived stats
by the facts' formulas, starting equipment and items, the skills learned by
that level, 1 FP), the encounter's Enemies from their sheets, everyone
placed in rows (SCALE-1), then turn 1 begins."""

from __future__ import annotations

from collections import Counter

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.rng import check_seed

from . import events as ev
from . import flow
from .commands import StartLabyrinth
from .decision import Decision
from .state import Combatant
from .stats import abilities_at, bonus, enemy_base, pc_base
from .vocab import ROW_LIMIT, RULES_VERSION, SIDE_LIMIT, Row, Side

START_FP = 1  # facts: Fills FUMBLE-2, "Start"


def start(d: Decision, command: StartLabyrinth) -> None:
    check_seed(command.seed)
    pack = d.pack
    encounter = pack.encounters.get(command.encounter)
    if encounter is None:
        raise MalformedCommand(f"no encounter {command.encounter!r} in pack {pack.id}")
    if not command.party:
        raise MalformedCommand("a battle needs a party of at least one PC")
    if len(command.party) > SIDE_LIMIT or len(encounter.enemies) > SIDE_LIMIT:
        raise RuleViolation("SCALE-1", f"a battle is at most {SIDE_LIMIT} against {SIDE_LIMIT}")
    people: list[Combatant] = []
    for n, member in enumerate(command.party, start=1):
        sheet = pack.classes.get(member.cls)
        if sheet is None:
            raise MalformedCommand(f"no class {member.cls!r} in pack {pack.id}")
        if member.level < 1:
            raise MalformedCommand(f"level {member.level} is not a level (1 or more)")
        base = pc_base(sheet, member.level)
        people.append(Combatant(
            id=f"p{n}", name=member.name or sheet.name, side=Side.PC, kind=sheet.id, level=member.level,
            base=base, row=member.row or sheet.row, order=member.order, roster=n, hp=base.max_hp,
            tp=base.max_tp, fp=START_FP, weapon=sheet.weapon, other=sheet.other, armor=sheet.armor,
            skills=tuple(sid for level, sid in sheet.skills if level <= member.level), items=sheet.items))
    for row in Row:
        if sum(1 for c in people if c.row is row) > ROW_LIMIT:
            raise RuleViolation("SCALE-1", f"PCs stand at most {ROW_LIMIT} to a row")
    names = Counter(e.enemy for e in encounter.enemies)
    seen: Counter[str] = Counter()
    for n, entry in enumerate(encounter.enemies, start=1):
        kind = pack.enemies.get(entry.enemy)
        if kind is None:
            raise MalformedCommand(f"no enemy {entry.enemy!r} in pack {pack.id}")
        seen[kind.id] += 1
        name = kind.name if names[kind.id] == 1 else f"{kind.name} {chr(ord('A') + seen[kind.id] - 1)}"
        base = enemy_base(kind)
        people.append(Combatant(id=f"e{n}", name=name, side=Side.ENEMY, kind=kind.id, level=kind.level,
                                base=base, row=entry.row, order=0, roster=len(command.party) + n,
                                hp=base.max_hp, tp=base.max_tp, skills=kind.skills, link=entry.link))
    d.emit(ev.BattleStarted(battle_id=command.battle_id, rules_version=RULES_VERSION, pack_id=pack.id,
                            pack_hash=pack.hash, seed=command.seed, encounter=encounter.id,
                            options=command.options, combatants=_placed(people)))
    if command.options.identify:
        identify(d, {f"p{n}": bonus(abilities_at(pack.classes[m.cls], m.level).tec)
                     for n, m in enumerate(command.party, start=1)})
    flow.start_turn(d)
    flow.advance(d)


def identify(d: Decision, tec: dict[str, int]) -> None:
    """Identify (ENEMY-3, ENEMY-4; facts: Fills ENEMY-3): before the battle,
    at no cost, each PC makes one TEC check (2D6 + TEC bonus) that covers
    every Enemy: it identifies those whose Rarity it reaches (two 6s always
    do, all 1s never). An Enemy no PC identified keeps its resistances at
    3 or more. Each 1 gives its roller FP, as on any action check."""
    ids = tuple(tec)
    faces, counter = d.roll(2 * len(ids))
    pairs = [faces[2 * i:2 * i + 2] for i in range(len(ids))]
    totals = tuple(sum(p) + tec[cid] for cid, p in zip(ids, pairs))
    known, unknown = [], []
    for enemy in d.state.side(False):
        kind = d.pack.enemies[enemy.kind]
        found = any(_reaches(p, total, kind.rarity) for p, total in zip(pairs, totals))
        (known if found else unknown).append(enemy.id)
    d.emit(ev.Identified(ids=ids, faces=faces, counter=counter, totals=totals, known=tuple(known),
                         unknown=tuple(unknown), fp=tuple(p.count(1) for p in pairs)))


def _reaches(pair: tuple[int, ...], total: int, rarity: int) -> bool:
    if pair.count(6) >= 2:
        return True  # absolute success
    return pair.count(1) < len(pair) and total >= rarity


def _placed(people: list[Combatant]) -> tuple[Combatant, ...]:
    """Number each row left to right: the orders asked for first, then the rest in roster order."""
    from msgspec.structs import replace

    out = {c.id: c for c in people}
    for pc in (True, False):
        for row in Row:
            members = [c for c in people if c.pc_side == pc and c.row is row]
            members.sort(key=lambda c: (c.order if c.order > 0 else 99, c.roster))
            for n, c in enumerate(members, start=1):
                out[c.id] = replace(c, order=n)
    return tuple(out[c.id] for c in people)
