"""Setting a battle up: the party's PCs from class and level (derived stats
by the facts' formulas, starting equipment and items, the skills learned by
that level, 1 FP) or from their own sheets (``sheets.py``), then any allied
NPCs the same way (ids a1, a2...; they act by the seeded policy), the
encounter's Enemies from their sheets (a rare variant's derived from its
sheet, facts section 8), everyone placed in rows (SCALE-1), then Identify if
the table plays it (ENEMY-3, ENEMY-4), then turn 1 begins."""

from __future__ import annotations

from collections import Counter

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.rng import check_seed

from . import events as ev
from . import flow, sheets
from .catalog import Pack
from .commands import Member, StartLabyrinth
from .decision import Decision
from .state import Combatant
from .stats import abilities_at, bonus, enemy_base, pc_base, rare_base, rare_name
from .vocab import ROW_LIMIT, RULES_VERSION, SIDE_LIMIT, Row, Side

START_FP = 1  # facts: Fills FUMBLE-2, "Start"
RARE_SPOT_MARGIN = 2  # facts: Fills ENEMY-3, spotting a rare variant needs Rarity + 2


def start(d: Decision, command: StartLabyrinth) -> None:
    check_seed(command.seed)
    pack = d.pack
    encounter = pack.encounters.get(command.encounter)
    if encounter is None:
        raise MalformedCommand(f"no encounter {command.encounter!r} in pack {pack.id}")
    if not command.party:
        raise MalformedCommand("a battle needs a party of at least one PC")
    # allied NPCs count toward their side's 6 and the PC row limits (facts: Fills SCALE-1, default)
    counted = " (allied NPCs count toward it)" if command.allies else ""
    if len(command.party) + len(command.allies) > SIDE_LIMIT or len(encounter.enemies) > SIDE_LIMIT:
        raise RuleViolation("SCALE-1", f"a battle is at most {SIDE_LIMIT} against {SIDE_LIMIT}{counted}")
    people: list[Combatant] = []
    tec: dict[str, int] = {}  # each PC's TEC bonus, for Identify
    for n, member in enumerate(command.party + command.allies, start=1):
        pc = n <= len(command.party)
        c, tec_bonus = _pc(pack, member, f"p{n}" if pc else f"a{n - len(command.party)}", n, pc)
        people.append(c)
        if pc:
            tec[c.id] = tec_bonus
    for row in Row:
        if sum(1 for c in people if c.row is row) > ROW_LIMIT:
            raise RuleViolation("SCALE-1", f"PCs stand at most {ROW_LIMIT} to a row{counted}")
    names = Counter(e.enemy for e in encounter.enemies)
    seen: Counter[str] = Counter()
    slots = {f"e{n}" for n in range(1, len(encounter.enemies) + 1)}
    for slot in command.rare:
        if slot not in slots:
            raise MalformedCommand(f"rare {slot!r}: the encounter's Enemies are e1 to e{len(slots)}")
    for n, entry in enumerate(encounter.enemies, start=1):
        kind = pack.enemies.get(entry.enemy)
        if kind is None:
            raise MalformedCommand(f"no enemy {entry.enemy!r} in pack {pack.id}")
        seen[kind.id] += 1
        suffix = "" if names[kind.id] == 1 else f" {chr(ord('A') + seen[kind.id] - 1)}"
        rare = entry.rare or f"e{n}" in command.rare  # facts section 8, "Rare Enemies"
        base = rare_base(kind) if rare else enemy_base(kind)
        # with Identify played, the party sees the sheet's name until it spots the variant (ENEMY-3)
        shown = rare and not command.options.identify
        people.append(Combatant(id=f"e{n}", name=(rare_name(kind) if shown else kind.name) + suffix,
                                side=Side.ENEMY, kind=kind.id, level=kind.level,
                                base=base, row=entry.row, order=0, roster=len(command.party) + len(command.allies) + n,
                                hp=base.max_hp, tp=base.max_tp, skills=kind.skills, link=entry.link,
                                rare=rare_name(kind) + suffix if rare else "", spotted=shown))
    d.emit(ev.BattleStarted(battle_id=command.battle_id, rules_version=RULES_VERSION, pack_id=pack.id,
                            pack_hash=pack.hash, seed=command.seed, encounter=encounter.id,
                            options=command.options, combatants=_placed(people)))
    if command.options.identify:
        identify(d, tec)
    flow.start_turn(d)
    flow.advance(d)


def _pc(pack: Pack, member: Member, cid: str, roster: int, pc: bool) -> tuple[Combatant, int]:
    """A PC (``pc``) or an allied NPC from its class and level, or from its
    own sheet (``sheets.py``): derived stats by the facts' formulas (Fills
    MAIN-2), its equipment, skills and items, 1 FP for a PC (Fills FUMBLE-2;
    an NPC, which never spends FP, starts with none); and its TEC bonus."""
    who = "" if pc else f"ally {cid}: "
    cls = pack.classes.get(member.cls)
    if cls is None:
        raise MalformedCommand(f"{who}no class {member.cls!r} in pack {pack.id}")
    if member.level < 1:
        raise MalformedCommand(f"{who}level {member.level} is not a level (1 or more)")
    if member.sheet is not None:
        wrong = sheets.problem(cls, member.level, member.sheet, pack)
        if wrong is not None:
            raise MalformedCommand(f"{cid}'s sheet: {wrong[0]}: {wrong[1]}")
    shaped = sheets.as_class(cls, member.sheet)
    base = pc_base(shaped, member.level)
    kit = sheets.outfit(cls, member.level, member.sheet)
    return Combatant(
        id=cid, name=member.name or cls.name, side=Side.PC if pc else Side.NPC, kind=cls.id, level=member.level,
        base=base, row=member.row or cls.row, order=member.order, roster=roster, hp=base.max_hp,
        tp=base.max_tp, fp=START_FP if pc else 0, weapon=kit.weapon, other=kit.other, armor=kit.armor,
        skills=kit.skills, items=kit.items), bonus(abilities_at(shaped, member.level).tec)


def identify(d: Decision, tec: dict[str, int]) -> None:
    """Identify (ENEMY-3, ENEMY-4; facts: Fills ENEMY-3): before the battle,
    at no cost, each PC makes one TEC check (2D6 + TEC bonus) that covers
    every Enemy: it identifies those whose Rarity it reaches (two 6s always
    do, all 1s never). An Enemy no PC identified keeps its resistances at
    3 or more and its "Weakness" skills do not apply. A rare variant is
    spotted only by a result of Rarity + 2 (two 6s again always do); a
    lower success shows the sheet's data. Each 1 gives its roller FP, as
    on any action check."""
    ids = tuple(tec)
    faces, counter = d.roll(2 * len(ids))
    pairs = [faces[2 * i:2 * i + 2] for i in range(len(ids))]
    totals = tuple(sum(p) + tec[cid] for cid, p in zip(ids, pairs))
    known: list[str] = []
    unknown: list[str] = []
    spotted: list[str] = []
    for enemy in d.state.side(False):
        kind = d.pack.enemies[enemy.kind]
        found = any(_reaches(p, total, kind.rarity) for p, total in zip(pairs, totals))
        (known if found else unknown).append(enemy.id)
        spot = kind.rarity + RARE_SPOT_MARGIN
        if enemy.rare and any(_reaches(p, total, spot) for p, total in zip(pairs, totals)):
            spotted.append(enemy.id)
    d.emit(ev.Identified(ids=ids, faces=faces, counter=counter, totals=totals, known=tuple(known),
                         unknown=tuple(unknown), fp=tuple(p.count(1) for p in pairs), spotted=tuple(spotted)))


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
