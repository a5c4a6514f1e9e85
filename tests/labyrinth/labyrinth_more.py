"""An extended fixture pack for the special cases of the order and the
attack roll: fastest and delayed skills (ORDER-3), a delayed attack, an
on-critical skill (CRIT-3), a token placer, a link group, an Enemy with a
Standby skill. Built on the harness's fixture pack (never the starter
pack's numbers); ``start``/``when`` here play with it."""

from __future__ import annotations

from msgspec.structs import replace

from domain.labyrinth.catalog import (
    Abilities,
    ClassSheet,
    Encounter,
    EncounterEnemy,
    EnemyKind,
    Skill,
    SkillEffect,
)
from domain.labyrinth.commands import Member
from domain.labyrinth.critical import trigger
from domain.labyrinth.decision import Decision, RulesContext, faces_at
from domain.labyrinth.rules import legal_commands
from domain.labyrinth.state import LabyrinthState
from domain.labyrinth.vocab import Attribute, Bind, Buff, Effect, Part, Reach, Speed, Targets, Timing
import labyrinth_harness as harness
from labyrinth_harness import PACK

E = Effect


def _skill(id: str, timing: Timing, *effects: SkillEffect, **kw) -> Skill:
    return Skill(id=id, name=id.replace("-", " ").title(), timing=timing, effects=effects, **kw)


SKILLS = {
    s.id: s
    for s in (
        _skill("dash", Timing.MAIN, SkillEffect(effect=E.ATTACK), speed=Speed.FASTEST, tp=1),
        _skill("slow-shot", Timing.MAIN, SkillEffect(effect=E.ATTACK, reach=Reach.FAR), speed=Speed.DELAYED),
        _skill(
            "storm",
            Timing.MAIN,
            SkillEffect(
                effect=E.ATTACK,
                targets=Targets.OPPONENTS,
                elemental=True,
                attribute=Attribute.VOLT,
                reach=Reach.FAR,
                dice=1,
            ),
            speed=Speed.DELAYED,
            delay=1,
            tp=2,
        ),
        _skill(
            "keen-edge",
            Timing.PASSIVE,
            SkillEffect(effect=E.BUFF, targets=Targets.SELF, buff=Buff.PATK_UP, amount=2, turns=2),
            on_critical=True,
            part=Part.ARM,
            tp=1,
        ),
        _skill("rend", Timing.PASSIVE, SkillEffect(effect=E.BIND, bind=Bind.ARM, target_bonus=9), on_critical=True),
        _skill("jab", Timing.MAIN, SkillEffect(effect=E.ATTACK), speed=Speed.FASTEST),
        _skill("call-stub", Timing.MAIN, SkillEffect(effect=E.TOKEN, targets=Targets.SELF, token="stub", turns=2)),
        _skill(
            "howl",
            Timing.STANDBY,
            SkillEffect(effect=E.BUFF, targets=Targets.SELF, buff=Buff.PATK_UP, amount=1, turns=2),
        ),
    )
}

CLASSES = {
    "scout": ClassSheet(
        id="scout",
        name="Scout",
        abilities=Abilities(str=10, tec=10, vit=10, agi=3, luc=10),
        growth=Abilities(str=1, tec=1, vit=1, agi=1, luc=1),
        skills=((1, "dash"), (1, "storm"), (1, "slow-shot"), (1, "keen-edge")),
        weapon="sword",
        armor="mail",
    )
}


def _enemy(id: str, speed: int, **kw) -> EnemyKind:
    kw = {"level": 1, "hp": 8, "phit": 2, "evasion": 6, "patk": 4, "defense": 1, **kw}
    return EnemyKind(id=id, name=id.replace("-", " ").title(), speed=speed, **kw)


ENEMIES = {
    e.id: e
    for e in (
        _enemy("imp", 3, skills=("jab",)),
        _enemy("caller", 7, skills=("call-stub",)),
        _enemy("stub", 0, hp=4, reach=Reach.FAR, token=True),
        _enemy("hound-fast", 10),
        _enemy("hound-slow", 5),
        _enemy("howler", 4, skills=("howl",)),
    )
}
ENCOUNTERS = {
    e.id: e
    for e in (
        Encounter(id="imps", name="An imp", enemies=(EncounterEnemy(enemy="imp"), EncounterEnemy(enemy="slime"))),
        Encounter(
            id="caller", name="A caller", enemies=(EncounterEnemy(enemy="caller"), EncounterEnemy(enemy="slime"))
        ),
        Encounter(
            id="pack",
            name="A pack",
            enemies=(
                EncounterEnemy(enemy="hound-fast", link="pack"),
                EncounterEnemy(enemy="hound-slow", link="pack"),
                EncounterEnemy(enemy="slime"),
            ),
        ),
        Encounter(id="howler", name="A howler", enemies=(EncounterEnemy(enemy="howler"),)),
    )
}

MORE = replace(
    PACK,
    id="fixture-more",
    skills={**PACK.skills, **SKILLS},
    classes={**PACK.classes, **CLASSES},
    enemies={**PACK.enemies, **ENEMIES},
    encounters={**PACK.encounters, **ENCOUNTERS},
)
CTX = RulesContext(pack=MORE)
# The scout (speed 3, front row) and the mage (speed 9, back row).
PARTY = (Member(cls="scout"), Member(cls="mage"))


def start(seed: int = 1, encounter: str = "slimes", party=PARTY, **options) -> LabyrinthState:
    """A battle of the extended pack just set up."""
    return harness.start(seed, encounter, party, ctx=CTX, **options)


def when(state: LabyrinthState, *commands):
    """Decide and apply ``commands`` in turn; the final state and every event."""
    return harness.when(state, *commands, ctx=CTX)


def decision(state: LabyrinthState) -> Decision:
    return Decision(state, CTX, on_critical=trigger)


def legal(state: LabyrinthState):
    return legal_commands(state, CTX)


def seed_for(want: tuple[int, ...], limit: int = 200000) -> int:
    """The first seed whose first faces (counter 0 on) are ``want``: for
    rolls made during setup, before a test can move the counter."""
    for seed in range(limit):
        if faces_at(seed, 0, len(want)) == want:
            return seed
    raise AssertionError(f"no seed gives {want}")


def not_ones(state: LabyrinthState) -> int:
    """A counter from the state's on whose next two faces are not both 1 (no fumble)."""
    counter = state.rng
    while faces_at(state.seed, counter, 2) == (1, 1):
        counter += 1
    return counter
