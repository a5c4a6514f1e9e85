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
from .stats import enemy_base, pc_base, rare_base, rare_name
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
    # allied NPCs count toward their side's 6 and the PC row limits (facts: Fills SCALE-1, default)
    counted = " (allied NPCs count toward it)" if command.allies else ""
    if len(command.party) + len(command.allies) > SIDE_LIMIT or len(encounter.enemies) > SIDE_LIMIT:
        raise RuleViolation("SCALE-1", f"a battle is at most {SIDE_LIMIT} against {SIDE_LIMIT}{counted}")
    people: list[Combatant] = []
    for n, member in enumerate(command.party + command.allies, start=1):
        pc = n <= len(command.party)
        people.append(_pc(pack, member, f"p{n}" if pc else f"a{n - len(command.party)}", n, pc))
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
        people.append(
            Combatant(
                id=f"e{n}",
                name=(rare_name(kind) if shown else kind.name) + suffix,
                side=Side.ENEMY,
                kind=kind.id,
                level=kind.level,
                base=base,
                row=entry.row,
                order=0,
                roster=len(command.party) + len(command.allies) + n,
                hp=base.max_hp,
                tp=base.max_tp,
                skills=kind.skills,
                link=entry.link,
                rare=rare_name(kind) + suffix if rare else "",
                spotted=shown,
            )
        )
    d.emit(
        ev.BattleStarted(
            battle_id=command.battle_id,
            rules_version=RULES_VERSION,
            pack_id=pack.id,
            pack_hash=pack.hash,
            seed=command.seed,
            encounter=encounter.id,
            options=command.options,
            combatants=_placed(people),
        )
    )
    # Identify and turn 1 are the battle's first step (``flow.begin``): a roll typed off physical dice
    # may have to wait for its faces there, as anywhere
    flow.advance(d)


def _pc(pack: Pack, member: Member, cid: str, roster: int, pc: bool) -> Combatant:
    """A PC (``pc``) or an allied NPC from its class and level, or from its
    own sheet (``sheets.py``): derived stats by the facts' formulas (Fills
    MAIN-2), its equipment, skills and items, 1 FP for a PC (Fills FUMBLE-2;
    an NPC, which never spends FP, starts with none)."""
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
        id=cid,
        name=member.name or cls.name,
        side=Side.PC if pc else Side.NPC,
        kind=cls.id,
        level=member.level,
        base=base,
        row=member.row or cls.row,
        order=member.order,
        roster=roster,
        hp=base.max_hp,
        tp=base.max_tp,
        fp=START_FP if pc else 0,
        weapon=kit.weapon,
        other=kit.other,
        armor=kit.armor,
        skills=kit.skills,
        items=kit.items,
    )


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
