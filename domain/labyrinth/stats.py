"""Derived stats (labyrinth-facts.md section 3): a PC's base stats from its
class's abilities at its level, and what the rules read at any moment,
with equipment, buffs and debuffs, ailments and binds applied."""

from __future__ import annotations

import msgspec

from .catalog import Abilities, ClassSheet, EnemyKind, Pack
from .state import Base, Combatant
from .vocab import PC_RESISTANCE, PHYSICAL, Ailment, Attribute, Bind, Buff, CRITICAL_MARGIN, Reach

BLIND_PENALTY = 3  # AILMENT-BLIND
HEAD_BIND_PENALTY = 2  # facts: Adds to BIND-HEAD
ARM_BIND_PENALTY = 4  # facts: Adds to BIND-ARM
SLEEP_RESISTANCE = -1  # facts: a sleeper's Cut/Bash/Stab resistance; every die deals damage
UNKNOWN_RESISTANCE = 3  # facts: Fills ENEMY-3, an Enemy no PC Identified
RARE_RESIST_SHIFT = (0, 1)  # facts section 8: a rare Enemy's resistance 0 becomes 1, 1 becomes 2


def bonus(value: int) -> int:
    """An ability's bonus, floor(value / 5) (facts: Fills MAIN-2)."""
    return value // 5


def abilities_at(sheet: ClassSheet, level: int) -> Abilities:
    """A class's abilities at ``level``: level 1's plus growth per level above."""
    a, g, n = sheet.abilities, sheet.growth, level - 1
    return Abilities(
        str=a.str + g.str * n,
        tec=a.tec + g.tec * n,
        vit=a.vit + g.vit * n,
        agi=a.agi + g.agi * n,
        luc=a.luc + g.luc * n,
    )


def pc_base(sheet: ClassSheet, level: int) -> Base:
    """A PC's base stats by the facts' formulas (weapon and armour apart)."""
    a = abilities_at(sheet, level)
    s, t, v, ag, lu = (bonus(x) for x in (a.str, a.tec, a.vit, a.agi, a.luc))
    return Base(
        max_hp=v * 2 + level + 5,
        max_tp=t + level + 3,
        phit=(s + ag) // 2,
        ehit=(t + lu) // 2,
        evasion=(ag + lu) // 2 + 5,
        patk=s,
        eatk=t,
        defense=0,
        satk=(t + lu) // 2,
        sdef=(v + lu) // 2,
        speed=a.agi,
        resist={attr: PC_RESISTANCE for attr in Attribute if attr is not Attribute.NONE},
    )


def enemy_base(kind: EnemyKind) -> Base:
    """An Enemy's base stats: its sheet's, as printed (its "Weakness"
    skills with them; ``stats`` applies those only once it is Identified)."""
    return Base(
        max_hp=kind.hp,
        max_tp=kind.tp,
        phit=kind.phit,
        ehit=kind.ehit,
        evasion=kind.evasion,
        patk=kind.patk,
        eatk=kind.eatk,
        defense=kind.defense,
        satk=kind.satk,
        sdef=kind.sdef,
        speed=kind.speed,
        resist=dict(kind.resist),
        attribute=kind.attribute,
        reach=kind.reach,
        weak=dict(kind.weak),
    )


def rare_base(kind: EnemyKind) -> Base:
    """The base stats of ``kind``'s rare variant (facts section 8, "Rare
    Enemies"): [HP] times its multiplier; each resistance 0 becomes 1 and
    1 becomes 2 (an attribute the sheet leaves out counts 0, so becomes 1);
    the GM's bonuses of its ``rare`` table to both hits, [Evasion], both
    attacks and [Defense]. [TP], [Speed] and the rest stay the sheet's."""
    b, r = enemy_base(kind), kind.rare
    resist = {}
    for attr in Attribute:
        if attr is not Attribute.NONE:
            value = b.resist.get(attr, 0)
            resist[attr] = value + 1 if value in RARE_RESIST_SHIFT else value
    return msgspec.structs.replace(
        b,
        max_hp=b.max_hp * r.hp,
        phit=b.phit + r.hit,
        ehit=b.ehit + r.hit,
        evasion=b.evasion + r.evasion,
        patk=b.patk + r.attack,
        eatk=b.eatk + r.attack,
        defense=b.defense + r.defense,
        resist=resist,
    )


def rare_name(kind: EnemyKind) -> str:
    """What the party calls ``kind``'s rare variant once it spots it."""
    return kind.rare.name or f"Rare {kind.name}"


class Stats(msgspec.Struct, frozen=True, kw_only=True):
    """What the rules read for a character now."""

    max_hp: int
    max_tp: int
    phit: int
    ehit: int
    evasion: int
    patk: int
    eatk: int
    defense: int
    satk: int
    sdef: int
    speed: int
    attributes: tuple[Attribute, ...]  # of its Normal attack: the weapon's plus an Element grant
    reach: Reach
    resist: dict[Attribute, int]
    crit_margin: int


def buff_total(c: Combatant, up: Buff, down: Buff | None = None) -> int:
    """The net ● of a buff kind and its opposing debuff."""
    total = sum(b.amount for b in c.buffs if b.kind == up)
    return total - (sum(b.amount for b in c.buffs if b.kind == down) if down else 0)


def stats(c: Combatant, pack: Pack) -> Stats:
    """``c``'s stats with equipment, buffs, ailments and binds applied."""
    b = c.base
    weapon = pack.weapons.get(c.weapon)
    armor = pack.armor.get(c.armor)
    patk = b.patk + (weapon.patk if weapon else 0) + buff_total(c, Buff.PATK_UP, Buff.PATK_DOWN)
    eatk = b.eatk + (weapon.eatk if weapon else 0) + buff_total(c, Buff.EATK_UP, Buff.EATK_DOWN)
    defense = b.defense + (armor.defense if armor else 0) + buff_total(c, Buff.DEF_UP, Buff.DEF_DOWN)
    speed = (
        b.speed
        + (weapon.speed if weapon else 0)
        + (armor.speed if armor else 0)
        + buff_total(c, Buff.SPD_UP, Buff.SPD_DOWN)
    )
    hit = buff_total(c, Buff.HIT_UP, Buff.HIT_DOWN)
    evasion = b.evasion + buff_total(c, Buff.EVA_UP, Buff.EVA_DOWN)
    sdef = b.sdef + buff_total(c, Buff.SDEF_UP, Buff.SDEF_DOWN)
    if c.has(Ailment.BLIND):
        hit -= BLIND_PENALTY
        evasion -= BLIND_PENALTY
    if c.bound(Bind.HEAD):
        hit -= HEAD_BIND_PENALTY
    if c.bound(Bind.ARM):
        patk -= ARM_BIND_PENALTY
    if c.inactive or c.bound(Bind.LEG) or any(c.has(a) for a in (Ailment.SLEEP, Ailment.PETRIFY)):
        evasion = 0
    attribute = weapon.attribute if weapon else b.attribute
    reach = weapon.reach if weapon else b.reach
    grants = tuple(x.element for x in c.buffs if x.kind == Buff.ELEMENT and x.element)
    return Stats(
        max_hp=b.max_hp + buff_total(c, Buff.MAXHP_UP),
        max_tp=b.max_tp,
        phit=b.phit + hit,
        ehit=b.ehit + hit,
        evasion=evasion,
        patk=patk,
        eatk=eatk,
        defense=defense,
        satk=b.satk,
        sdef=sdef,
        speed=max(speed, 0),
        attributes=(attribute, *grants),
        reach=reach,
        resist=_resist(c),
        crit_margin=1 if any(x.kind == Buff.CRIT_UP for x in c.buffs) else CRITICAL_MARGIN,
    )


def _resist(c: Combatant) -> dict[Attribute, int]:
    out: dict[Attribute, int] = {attr: c.base.resist.get(attr, 0) for attr in Attribute if attr is not Attribute.NONE}
    if not c.unknown:  # "Weakness" skills count only once some PC Identified it (facts: Fills ENEMY-3)
        for attr, amount in c.base.weak.items():
            if attr in out:
                out[attr] = max(out[attr] - amount, 0)  # a die always beats 0; lower changes nothing
    for x in c.buffs:
        if x.element in out and x.kind in (Buff.RESIST, Buff.WEAK):
            out[x.element] += 1 if x.kind == Buff.RESIST else -1
    if c.unknown:  # no PC Identified it (facts: Fills ENEMY-3); Sleep still opens it below
        out = {attr: max(value, UNKNOWN_RESISTANCE) for attr, value in out.items()}
    if c.has(Ailment.SLEEP):
        out.update({attr: SLEEP_RESISTANCE for attr in PHYSICAL})
    return out


def resistance(target: Stats, attributes: tuple[Attribute, ...]) -> int:
    """The resistance an attack meets: a compound attack the lowest of its
    attributes' (facts step 3); a non-elemental one always 0."""
    if Attribute.NONE in attributes or not attributes:
        return 0
    return min(target.resist.get(a, 0) for a in attributes)
