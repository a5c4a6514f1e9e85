"""Given / when / then for labyrinth rules tests, through the pure functions,
on a small fixture pack of our own (never the starter pack's numbers).

A state comes from the real setup (``start``), then is adjusted field by
field (``edit``); ``when`` decides commands and folds their events;
``pinned`` finds a seed or RNG counter whose next faces are the ones a
test needs, so exact outcomes are checked without patching the RNG."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel.errors import RuleViolation
from domain.labyrinth.catalog import (
    Abilities,
    Armor,
    ClassSheet,
    Drop,
    Encounter,
    EncounterEnemy,
    EnemyKind,
    Item,
    Pack,
    Skill,
    SkillEffect,
    Weapon,
)
from domain.labyrinth.commands import Member, StartLabyrinth
from domain.labyrinth.critical import trigger
from domain.labyrinth.decision import Decision, RulesContext, faces_at
from domain.labyrinth.rules import decide, evolve, legal_commands
from domain.labyrinth.state import LabyrinthState, Options
from domain.labyrinth.vocab import Attribute, Buff, Effect, Part, Reach, Row, Targets, Timing
from domain.labyrinth.vocab import Ailment, Bind

A = Attribute
E = Effect


def _skill(id: str, timing: Timing, *effects: SkillEffect, **kw) -> Skill:
    return Skill(id=id, name=id.replace("-", " ").title(), timing=timing, effects=effects, **kw)


SKILLS = {
    s.id: s
    for s in (
        _skill("power-strike", Timing.MAIN, SkillEffect(effect=E.ATTACK, dice=2), part=Part.ARM, tp=2),
        _skill(
            "flame-burst",
            Timing.MAIN,
            SkillEffect(effect=E.ATTACK, elemental=True, attribute=A.FIRE, reach=Reach.FAR, targets=Targets.OPPONENTS),
            part=Part.HEAD,
            tp=3,
        ),
        _skill("heal", Timing.MAIN, SkillEffect(effect=E.HEAL, targets=Targets.ALLY, dice=2), part=Part.HEAD, tp=2),
        _skill(
            "rally",
            Timing.STANDBY,
            SkillEffect(effect=E.BUFF, targets=Targets.ALLIES, buff=Buff.PATK_UP, amount=2, turns=2),
            tp=1,
        ),
        _skill(
            "venom-sting",
            Timing.MAIN,
            SkillEffect(effect=E.ATTACK),
            SkillEffect(effect=E.AILMENT, ailment=Ailment.POISON, on_hit=True, target_bonus=7),
            tp=0,
        ),
        _skill("arm-snare", Timing.MAIN, SkillEffect(effect=E.BIND, bind=Bind.ARM, target_bonus=9), tp=0),
        _skill("guard", Timing.PASSIVE, SkillEffect(effect=E.GUARD, divide=2), tp=1),
        _skill("riposte", Timing.PASSIVE, SkillEffect(effect=E.COUNTER), tp=0),
        _skill("follow", Timing.MAIN, SkillEffect(effect=E.CHASE, targets=Targets.ALLY, turns=3), tp=1),
    )
}

WEAPONS = {
    w.id: w
    for w in (
        Weapon(id="sword", name="Sword", attribute=A.CUT, reach=Reach.NEAR, patk=4),
        Weapon(id="bow", name="Bow", attribute=A.STAB, reach=Reach.FAR, patk=3),
        Weapon(id="staff", name="Staff", attribute=A.BASH, reach=Reach.NEAR, patk=1, eatk=3),
    )
}
ARMOR = {"mail": Armor(id="mail", name="Mail", defense=2), "robe": Armor(id="robe", name="Robe", defense=1)}
ITEMS = {"salve": Item(id="salve", name="Salve", effects=(SkillEffect(effect=E.HEAL, targets=Targets.ALLY, dice=3),))}

_GROW = Abilities(str=1, tec=1, vit=1, agi=1, luc=1)
CLASSES = {
    c.id: c
    for c in (
        ClassSheet(
            id="fighter",
            name="Fighter",
            abilities=Abilities(str=12, tec=5, vit=11, agi=8, luc=6),
            growth=_GROW,
            skills=((1, "power-strike"), (1, "guard"), (2, "rally")),
            weapon="sword",
            other="bow",
            armor="mail",
            items=("salve",),
        ),
        ClassSheet(
            id="mage",
            name="Mage",
            abilities=Abilities(str=5, tec=13, vit=6, agi=9, luc=10),
            growth=_GROW,
            skills=((1, "flame-burst"), (1, "heal"), (1, "follow")),
            weapon="staff",
            armor="robe",
            row=Row.BACK,
        ),
    )
}

ENEMIES = {
    e.id: e
    for e in (
        EnemyKind(
            id="slime",
            name="Slime",
            level=1,
            hp=8,
            speed=6,
            phit=2,
            evasion=7,
            patk=5,
            defense=1,
            resist={A.CUT: 2, A.FIRE: 1},
            drops=(Drop(roll=7, item="goo"), Drop(roll=11, item="gem")),
        ),
        EnemyKind(
            id="wasp",
            name="Wasp",
            level=2,
            hp=6,
            speed=12,
            phit=3,
            evasion=8,
            patk=4,
            satk=3,
            skills=("venom-sting",),
            reach=Reach.FAR,
            attribute=A.STAB,
        ),
        EnemyKind(
            id="brute", name="Brute", level=3, hp=14, speed=4, phit=3, evasion=6, patk=7, defense=2, skills=("riposte",)
        ),
    )
}
ENCOUNTERS = {
    e.id: e
    for e in (
        Encounter(
            id="slimes", name="Two slimes", enemies=(EncounterEnemy(enemy="slime"), EncounterEnemy(enemy="slime"))
        ),
        Encounter(
            id="mixed",
            name="Wasp and brute",
            enemies=(EncounterEnemy(enemy="brute"), EncounterEnemy(enemy="wasp", row=Row.BACK)),
        ),
    )
}

PACK = Pack(
    id="fixture",
    name="Fixture pack",
    hash="f" * 64,
    classes=CLASSES,
    skills=SKILLS,
    weapons=WEAPONS,
    armor=ARMOR,
    items=ITEMS,
    enemies=ENEMIES,
    encounters=ENCOUNTERS,
)
CTX = RulesContext(pack=PACK)
PARTY = (Member(cls="fighter", level=1), Member(cls="mage", level=1))


def start(
    seed: int = 1, encounter: str = "slimes", party=PARTY, ctx: RulesContext | None = None, **options
) -> LabyrinthState:
    """A battle just set up (on the fixture pack, or ``ctx``'s): turn 1,
    waiting for Standby declarations."""
    cmd = StartLabyrinth(battle_id="t", encounter=encounter, party=party, seed=seed, options=Options(**options))
    state = None
    for event in decide(None, cmd, ctx or CTX):
        state = evolve(state, event)
    return state  # type: ignore[return-value]


def when(state: LabyrinthState, *commands, ctx: RulesContext | None = None):
    """Decide and apply ``commands`` in turn; the final state and every event."""
    events = []
    for command in commands:
        produced = decide(state, command, ctx or CTX)
        for event in produced:
            state = evolve(state, event)
        events += produced
    return state, events


def violates(state: LabyrinthState, command, rule: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command, CTX)
    assert caught.value.rule == rule, caught.value
    return caught.value


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def edit(state: LabyrinthState, cid: str, **changes) -> LabyrinthState:
    """One combatant's fields changed."""
    return replace(state, combatants=tuple(replace(c, **changes) if c.id == cid else c for c in state.combatants))


def pinned(seed: int, want: tuple[int, ...], start_at: int = 0, limit: int = 400000) -> int:
    """The first RNG counter from ``start_at`` whose next faces are ``want``."""
    window: list[int] = []
    for counter in range(start_at, start_at + limit + len(want)):
        window.append(faces_at(seed, counter, 1)[0])
        if len(window) > len(want):
            window.pop(0)
        if tuple(window) == want:
            return counter - len(want) + 1
    raise AssertionError(f"no counter gives {want}")


def decision(state: LabyrinthState) -> Decision:
    """A decision on ``state``, to call one rules function directly."""
    return Decision(state, CTX, on_critical=trigger)


def at(state: LabyrinthState, counter: int) -> LabyrinthState:
    """The state with its RNG counter moved to ``counter``."""
    return replace(state, rng=counter)


def legal(state: LabyrinthState):
    return legal_commands(state, CTX)
