"""The Adventurer aggregate: lives for a campaign. Created from a race and
starting skill lines; each battle copies it in and writes its result back as
one event (DESIGN: a battle owns its adventurers' in-battle state)."""

from __future__ import annotations

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.messages import Event
from domain.kernel.names import check_name

from .catalog import Pack
from .commands import Member
from .state import BattleState, Hero, Outcome, TrackDie
from .vocab import BattleForm


class AdventurerState(msgspec.Struct, frozen=True, kw_only=True):
    """What an adventurer carries from battle to battle."""

    adventurer_id: str
    name: str
    race: str
    lines: tuple[str, ...]
    dice: tuple[tuple[int, str], ...]  # (uid, die id)
    hp: int
    max_hp: int
    stamina: int
    magicka: int
    cooldown: int
    tenacity: int = 0
    track: tuple[TrackDie, ...] = ()  # carried over (CLEANUP-4c, TRACK-7)
    battles: tuple[str, ...] = ()


class AdventurerEvent(Event, frozen=True, kw_only=True):
    """Base of events in an adventurer stream."""


class AdventurerCreated(AdventurerEvent, frozen=True, kw_only=True):
    """A new adventurer with its race stats and starting dice."""

    TOPIC = "betrayal.AdventurerCreated"
    state: AdventurerState


class BattleConcluded(AdventurerEvent, frozen=True, kw_only=True):
    """A battle wrote its result back (CLEANUP-3b: the chip returns with its
    remaining HP; CLEANUP-4c: the cooldown track stays)."""

    TOPIC = "betrayal.BattleConcluded"
    battle_id: str
    outcome: Outcome
    hp: int
    tenacity: int
    track: tuple[TrackDie, ...]


class AdventurerRestored(AdventurerEvent, frozen=True, kw_only=True):
    """Undo of a command that had written to this adventurer."""

    TOPIC = "betrayal.AdventurerRestored"
    command_id: str
    restored: AdventurerState


def evolve_adventurer(state: AdventurerState | None, event: Event) -> AdventurerState:
    """The adventurer after ``event`` (the Adventurer aggregate's evolve)."""
    if isinstance(event, AdventurerCreated):
        return event.state
    if isinstance(event, BattleConcluded):
        return msgspec.structs.replace(
            state, hp=event.hp, tenacity=event.tenacity, track=event.track,
            battles=state.battles + (event.battle_id,),
        )
    if isinstance(event, AdventurerRestored):
        return event.restored
    return state  # CommandIssued and other bookkeeping


def create(pack: Pack, adventurer_id: str, name: str, race: str, lines: tuple[str, ...] = ()) -> AdventurerCreated:
    """A new adventurer: the race's stats (facts: HEALTH-1), its Combat dice
    (COMBAT-2) and the starting dice of each chosen skill line."""
    if not name.strip():
        raise MalformedCommand("an adventurer needs a name")
    check_name(name, "adventurer name")
    if race not in pack.races:
        raise MalformedCommand(f"no race {race!r}; choose one of {', '.join(sorted(pack.races))}")
    lines = tuple(lines) or pack.default_lines
    for line in lines:
        if line not in pack.lines or not pack.lines[line].starter:
            starters = sorted(k for k, v in pack.lines.items() if v.starter)
            raise MalformedCommand(f"no starting skill line {line!r}; choose from {', '.join(starters)}")
    r = pack.races[race]
    dice: list[str] = ["combat"] * r.combat_dice
    for line in lines:
        dice += list(pack.lines[line].start_dice)
    return AdventurerCreated(state=AdventurerState(
        adventurer_id=adventurer_id, name=name.strip(), race=race, lines=lines,
        dice=tuple((i + 1, die) for i, die in enumerate(dice)),
        hp=r.health, max_hp=r.health, stamina=r.stamina, magicka=r.magicka, cooldown=r.cooldown,
    ))


def member(state: AdventurerState, form: BattleForm = BattleForm.LIGHT) -> Member:
    """The adventurer as it joins a battle."""
    return Member(
        adventurer_id=state.adventurer_id, name=state.name, race=state.race,
        hp=state.hp, max_hp=state.max_hp, stamina=state.stamina, magicka=state.magicka,
        cooldown=state.cooldown, tenacity=state.tenacity, dice=state.dice, form=form,
        track=tuple((t.kind.value, t.uid, t.face, t.status.value if t.status else "") for t in state.track),
    )


def concluded(battle: BattleState, hero: Hero) -> BattleConcluded:
    """The result a finished battle writes back to one adventurer."""
    return BattleConcluded(
        battle_id=battle.battle_id, outcome=battle.outcome, hp=hero.hp,
        tenacity=hero.tenacity, track=hero.track,
    )
