"""Reading the skills and effects of a labyrinth pack (``skills.toml``, and the
effects of items in ``gear.toml``).

An effect is a table whose ``effect`` says what it does; each kind accepts
only the keys it uses, so a stray ``ailment`` on a heal is refused rather
than silently ignored. Every refusal is a ``ContentError`` naming the file,
the field path and the reason. References to Enemy kinds (tokens) are
checked by ``packs.py`` once the Enemies are read: see ``token_refs``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    REQUIRED,
    At,
    choice,
    flag,
    ident,
    integer,
    keyed,
    list_of,
    record,
    table,
    text,
)

from .catalog import Skill, SkillEffect
from .vocab import (
    DEBUFFS,
    ELEMENTS,
    PHYSICAL,
    Ailment,
    Attribute,
    Bind,
    Buff,
    Effect,
    Part,
    Reach,
    Speed,
    Targets,
    Timing,
)

# Buff kinds whose ● is an amount, an element, or nothing at all.
_WITH_AMOUNT = frozenset(
    {
        Buff.PATK_UP,
        Buff.EATK_UP,
        Buff.DEF_UP,
        Buff.SPD_UP,
        Buff.HIT_UP,
        Buff.EVA_UP,
        Buff.SDEF_UP,
        Buff.MAXHP_UP,
        Buff.HP_REGEN,
        Buff.TP_REGEN,
        Buff.PATK_DOWN,
        Buff.EATK_DOWN,
        Buff.DEF_DOWN,
        Buff.SPD_DOWN,
        Buff.HIT_DOWN,
        Buff.EVA_DOWN,
        Buff.SDEF_DOWN,
    }
)
_WITH_ELEMENT = frozenset({Buff.ELEMENT, Buff.RESIST, Buff.WEAK})

_OPPONENT_SIDE = frozenset({Targets.OPPONENT, Targets.OPPONENTS, Targets.ROW_OPPONENTS})
_ALLY_SIDE = frozenset({Targets.SELF, Targets.ALLY, Targets.ALLIES, Targets.ROW_ALLIES})
_CURABLE = tuple(a.value for a in Ailment) + tuple(b.value for b in Bind)


def _cure_name(value: object, at: At) -> str:
    text(value, at)
    if value not in _CURABLE:
        at.fail(f"unknown ailment or bind {value!r} (expected one of: {', '.join(_CURABLE)})")
    return value


_EFFECT = {
    "effect": (choice(Effect), REQUIRED),
    "targets": (choice(Targets), None),  # None: the effect kind's usual side, below
    "elemental": (flag, False),
    "attribute": (choice(Attribute), None),
    "reach": (choice(Reach), None),
    "dice": (integer(-6, 20), 0),
    "hits": (integer(1, 6), 1),
    "buff": (choice(Buff), None),
    "amount": (integer(1, 20), 0),
    "element": (choice(Attribute), None),
    "turns": (integer(1, 20), 0),
    "ailment": (choice(Ailment), None),
    "bind": (choice(Bind), None),
    "target_bonus": (integer(0, 30), 7),
    "on_hit": (flag, False),
    "cures": (list_of(_cure_name), ()),
    "divide": (integer(2, 10), 2),
    "token": (ident, ""),
}

# The keys each kind of effect may carry besides ``effect``. ``reach`` (None:
# the user's weapon's) also limits whom a buff, ailment or bind can be aimed at.
_KEYS: dict[Effect, frozenset[str]] = {
    Effect.ATTACK: frozenset({"targets", "elemental", "attribute", "reach", "dice", "hits"}),
    Effect.HEAL: frozenset({"targets", "dice"}),
    Effect.BUFF: frozenset({"targets", "reach", "buff", "amount", "element", "turns"}),
    Effect.AILMENT: frozenset({"targets", "reach", "ailment", "target_bonus", "on_hit"}),
    Effect.BIND: frozenset({"targets", "reach", "bind", "target_bonus", "on_hit"}),
    Effect.CURE: frozenset({"targets", "cures"}),
    Effect.GUARD: frozenset({"divide"}),
    Effect.COUNTER: frozenset({"attribute", "reach", "dice"}),
    Effect.CHASE: frozenset({"targets", "turns"}),
    Effect.TOKEN: frozenset({"token", "turns"}),
}
_USUAL_TARGETS = {
    Effect.ATTACK: Targets.OPPONENT,
    Effect.AILMENT: Targets.OPPONENT,
    Effect.BIND: Targets.OPPONENT,
    Effect.HEAL: Targets.ALLY,
    Effect.CURE: Targets.ALLY,
    Effect.CHASE: Targets.ALLY,
    Effect.GUARD: Targets.SELF,
    Effect.COUNTER: Targets.OPPONENT,
    Effect.TOKEN: Targets.SELF,
}
_REACTIONS = frozenset({Effect.GUARD, Effect.COUNTER})


def effect(value: object, at: At) -> SkillEffect:
    """One effect table, checked against what its kind needs."""
    row = record(value, at, _EFFECT)
    kind: Effect = row["effect"]
    for key in table(value, at):
        if key != "effect" and key not in _KEYS[kind]:
            at.key(key).fail(f"a {kind.value} effect takes no {key!r}")
    if row["targets"] is None:
        row["targets"] = _usual_targets(kind, row["buff"])
    _CHECKS.get(kind, lambda r, a: None)(row, at)
    return SkillEffect(**{k: v for k, v in row.items() if v is not None})


def _usual_targets(kind: Effect, buff: Buff | None) -> Targets:
    if kind is Effect.BUFF:
        return Targets.OPPONENT if buff in DEBUFFS else Targets.SELF
    return _USUAL_TARGETS[kind]


def _side(row: dict[str, Any], at: At, side: frozenset[Targets], reason: str) -> None:
    if row["targets"] not in side:
        at.key("targets").fail(f"{row['targets'].value!r}: {reason}")


def _attack(row: dict[str, Any], at: At) -> None:
    _side(row, at, _OPPONENT_SIDE, "an attack targets opponents")
    attribute = row["attribute"]
    if row["elemental"]:
        # an elemental attack does not borrow a weapon's physical attribute or reach
        if attribute is None:
            at.key("attribute").fail("an elemental attack names its attribute (fire, ice, volt or none)")
        if attribute in PHYSICAL:
            at.key("attribute").fail(f"{attribute.value!r}: an elemental attack is fire, ice, volt or none")
        if row["reach"] is None:
            at.key("reach").fail("an elemental attack names its reach (near or far)")
    elif attribute is not None and attribute not in PHYSICAL:
        at.key("attribute").fail(
            f"{attribute.value!r}: a physical attack is cut, bash or stab (set elemental = true for an element)"
        )


def _heal(row: dict[str, Any], at: At) -> None:
    _side(row, at, _ALLY_SIDE, "a heal targets its user's side")


def _buff(row: dict[str, Any], at: At) -> None:
    buff: Buff | None = row["buff"]
    if buff is None:
        at.key("buff").fail("a buff effect names its buff")
    if buff is Buff.CHASE:
        at.key("buff").fail("Pursuit is granted by a chase effect, not a buff effect")
    if buff not in DEBUFFS:
        _side(row, at, _ALLY_SIDE, f"a buff ({buff.value}) is granted to its user's side")
    if buff in _WITH_AMOUNT and not row["amount"]:
        at.key("amount").fail(f"{buff.value} needs its amount")
    if buff not in _WITH_AMOUNT and row["amount"]:
        at.key("amount").fail(f"{buff.value} takes no amount")
    element = row["element"]
    if buff in _WITH_ELEMENT and element is None:
        at.key("element").fail(f"{buff.value} needs its element (fire, ice or volt)")
    if buff in _WITH_ELEMENT and element not in ELEMENTS:
        at.key("element").fail(f"{element.value!r}: {buff.value} takes fire, ice or volt")
    if buff not in _WITH_ELEMENT and element is not None:
        at.key("element").fail(f"{buff.value} takes no element")


def _ailment(row: dict[str, Any], at: At) -> None:
    if row["ailment"] is None:
        at.key("ailment").fail("an ailment effect names its ailment")
    _side(row, at, _OPPONENT_SIDE, "an ailment is inflicted on opponents")


def _bind(row: dict[str, Any], at: At) -> None:
    if row["bind"] is None:
        at.key("bind").fail("a bind effect names the part it binds")
    _side(row, at, _OPPONENT_SIDE, "a bind is inflicted on opponents")


def _cure(row: dict[str, Any], at: At) -> None:
    _side(row, at, _ALLY_SIDE, "a cure targets its user's side")


def _counter(row: dict[str, Any], at: At) -> None:
    attribute = row["attribute"]
    if attribute is not None and attribute not in PHYSICAL:
        # a counter is a physical attack roll like a Normal attack
        at.key("attribute").fail(f"{attribute.value!r}: a counter is cut, bash or stab")


def _chase(row: dict[str, Any], at: At) -> None:
    # Pursuit:● follows another character's attack rolls, so ● is never oneself
    _side(row, at, _ALLY_SIDE - {Targets.SELF}, "Pursuit is granted on allies")


def _token(row: dict[str, Any], at: At) -> None:
    if not row["token"]:
        at.key("token").fail("a token effect names the token Enemy kind it places")


_CHECKS = {
    Effect.ATTACK: _attack,
    Effect.HEAL: _heal,
    Effect.BUFF: _buff,
    Effect.AILMENT: _ailment,
    Effect.BIND: _bind,
    Effect.CURE: _cure,
    Effect.COUNTER: _counter,
    Effect.CHASE: _chase,
    Effect.TOKEN: _token,
}


def effects(
    value: object, at: At, *, passive: bool = False, what: str = "skill", on_critical: bool = False
) -> tuple[SkillEffect, ...]:
    """A non-empty array of effects. Guard and counter answer an attack roll
    against their user, so they belong to Passive skills, and a Passive
    skill does nothing else; an ``on_hit`` effect needs an attack before it.
    An on-critical skill (Passive too: it is never an action) instead does
    anything but guard or counter, to the foe its user just hit critically
    or to its user's side as a whole (CRIT-3)."""
    if not isinstance(value, list) or not value:
        at.fail(f"a {what} needs an array of at least one effect")
    out: list[SkillEffect] = []
    for i, item in enumerate(value):
        where = at.index(i)
        one = effect(item, where)
        if one.effect in _REACTIONS and (not passive or on_critical):
            where.key("effect").fail(
                f"a {one.effect.value} effect only works on a Passive skill"
                + (" that answers an attack roll, not an on-critical one" if on_critical else "")
            )
        if passive and not on_critical and one.effect not in _REACTIONS:
            where.key("effect").fail(
                f"a Passive skill answers an attack roll: it guards or counters, not {one.effect.value}"
            )
        if on_critical and one.targets in (Targets.ALLY, Targets.ROW_ALLIES):
            # a trigger has no ally chosen: it reaches the foe hit, its user, or a whole side
            where.key("targets").fail(
                f"{one.targets.value!r}: an on-critical effect targets the foe hit "
                "(opponent, row-opponents, opponents), self or allies"
            )
        if one.on_hit and not any(e.effect is Effect.ATTACK for e in out):
            where.key("on_hit").fail("on_hit needs an attack effect before it in the same list")
        out.append(one)
    return tuple(out)


def _part(value: object, at: At) -> Part:
    text(value, at)
    tagged = [p.value for p in Part if p is not Part.NONE]
    if value not in tagged:
        at.fail(f"unknown value {value!r} (expected one of: {', '.join(tagged)})")
    return Part(value)


MAX_FP_COST = 9  # an FP cost printed on a skill: a whole number 0 .. 9 (facts: Fills FUMBLE-2)

_SKILL = {
    "name": (text, REQUIRED),
    "timing": (choice(Timing), REQUIRED),
    "effects": (lambda v, a: v, REQUIRED),
    "part": (_part, Part.NONE),
    "tp": (integer(0, 99), 0),
    "fp": (integer(0, MAX_FP_COST), 0),
    "speed": (choice(Speed), Speed.NORMAL),
    "delay": (integer(0, 9), 0),
    "on_critical": (flag, False),
    "text": (text, ""),
}


def skill(key: str, row: dict[str, Any], at: At) -> Skill:
    """One skill: its effects fit its timing; only a Main action has a place
    in the order (fastest, delayed) and a delay, which needs an attack."""
    timing: Timing = row["timing"]
    if row["on_critical"] and timing is not Timing.PASSIVE:
        at.key("on_critical").fail(
            f'an on-critical skill triggers, it is never used: its timing is "passive", not {timing.value!r}'
        )
    if row["on_critical"] and row["fp"]:
        # it triggers with no one choosing to spend: an FP cost there is not modelled (FUMBLE-2)
        at.key("fp").fail("an on-critical skill triggers by itself: it takes no FP cost")
    found = effects(row["effects"], at.key("effects"), passive=timing is Timing.PASSIVE, on_critical=row["on_critical"])
    if row["speed"] is not Speed.NORMAL and timing is not Timing.MAIN:
        at.key("speed").fail(f"only a Main-action skill is {row['speed'].value}, not a {timing.value} one")
    if row["delay"]:
        if row["speed"] is not Speed.DELAYED:
            at.key("delay").fail('a delayed attack has speed = "delayed"')
        if not any(e.effect is Effect.ATTACK for e in found):
            at.key("delay").fail("a delay needs an attack effect to land later")
    return Skill(id=key, effects=found, **{k: v for k, v in row.items() if k != "effects"})


def skills(doc: Mapping[str, Any], at: At) -> dict[str, Skill]:
    """``skills.toml``: a ``skills`` table of skills keyed by id."""
    top = record(doc, at, {"skills": (lambda v, a: keyed(v, a, _SKILL), REQUIRED)})
    found = {k: skill(k, row, at.key("skills").key(k)) for k, row in top["skills"].items()}
    if not found:
        at.key("skills").fail("a pack needs at least one skill")
    return found


def enemy_fp_costs(ids: tuple[str, ...], known: Mapping[str, Skill], at: At) -> None:
    """Refuse an Enemy sheet (its ``skills`` list at ``at``) naming a skill
    with an FP cost: FP is the PCs' resource (facts: Fills FUMBLE-2, 1 FP
    at the start of each session), so an Enemy could never pay it."""
    for i, name in enumerate(ids):
        skill = known.get(name)
        if skill is not None and skill.fp:
            at.index(i).fail(f"skill {name!r} costs {skill.fp} FP: Enemies have no FP to pay it with")


def token_refs(effects_: tuple[SkillEffect, ...], at: At) -> list[tuple[At, str]]:
    """Where each token effect of ``effects_`` (found at ``at``) names its
    Enemy kind, to check once the Enemies are known."""
    return [(at.index(i).key("token"), e.token) for i, e in enumerate(effects_) if e.effect is Effect.TOKEN]
