"""The Adventurer aggregate: lives for a campaign. Created from a race and
starting skill lines; each battle copies it in and writes its result back as
one event (DESIGN: a battle owns its adventurers' in-battle state)."""

from __future__ import annotations

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.messages import Event
from domain.kernel.names import check_name

from domain.betrayal.battle.commands import Member
from domain.betrayal.battle.state import BattleState, Hero, Outcome, Termination, TrackDie
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.vocab import Attaches, BattleForm

from . import events as campaign_events
from .state import AdventurerEvent, AdventurerState, MatRow

__all__ = [
    "AdventurerCreated",
    "AdventurerEvent",
    "AdventurerRestored",
    "AdventurerState",
    "BattleConcluded",
    "MatRow",
    "concluded",
    "create",
    "evolve_adventurer",
    "member",
]


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
    if isinstance(event, (AdventurerCreated, campaign_events.AdventurerRecruited)):  # a battle's or a campaign's
        return event.state
    if isinstance(event, AdventurerRestored):
        return event.restored
    state = _created(state, event)
    if isinstance(event, BattleConcluded):
        return msgspec.structs.replace(
            state,
            hp=event.hp,
            tenacity=event.tenacity,
            track=event.track,
            battles=state.battles + (event.battle_id,),
            fighting="",
        )
    return campaign_events.evolve(state, event)


def _created(state: AdventurerState | None, event: Event) -> AdventurerState:
    """The adventurer an event after its creation applies to. The rules
    begin every stream with its creation (AdventurerCreated for a battle,
    AdventurerRecruited for a campaign); a log whose stream does not cannot
    be replayed (ValueError: its verifier names the line)."""
    if state is None:
        raise ValueError(f"{type(event).__name__} before the adventurer was created")
    return state


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
    return AdventurerCreated(
        state=AdventurerState(
            adventurer_id=adventurer_id,
            name=name.strip(),
            race=race,
            lines=lines,
            dice=tuple((i + 1, die) for i, die in enumerate(dice)),
            hp=r.health,
            max_hp=r.health,
            stamina=r.stamina,
            magicka=r.magicka,
            cooldown=r.cooldown,
        )
    )


def weapons(state: AdventurerState, pack: Pack | None) -> int:
    """How many Weapon items the adventurer holds, ready or packed (RACE-NORD
    counts the whole inventory)."""
    if pack is None:
        return 0
    return sum(1 for i in state.items if i in pack.gear and str(pack.gear[i].kind) == "weapon")


def member(state: AdventurerState, form: BattleForm = BattleForm.LIGHT, pack: Pack | None = None) -> Member:
    """The adventurer as it joins a battle (``pack`` tells its Weapons apart,
    and its Enchantments still attached to it: ENCHANT-3, one laid on a
    Clash tile stays with that battle's tile, our default)."""
    return Member(
        adventurer_id=state.adventurer_id,
        name=state.name,
        race=state.race,
        hp=state.hp,
        max_hp=state.max_hp,
        stamina=state.stamina,
        magicka=state.magicka,
        cooldown=state.cooldown,
        tenacity=state.tenacity,
        dice=state.dice,
        form=form,
        track=tuple((t.kind.value, t.uid, t.face, t.status.value if t.status else "") for t in state.track),
        class_id=state.class_id,
        master=state.master,
        ready=state.ready,
        packed=state.packed,
        weapons=weapons(state, pack),
        expended=tuple(i for i in state.expended if i in state.ready),
        fighting=state.fighting,
        enchantments=tuple(
            i
            for i in state.enchantments
            if pack is None or i not in pack.gear or pack.gear[i].attaches != Attaches.CLASH_TILE.value
        ),
        companions=state.companions,
    )


def concluded(battle: BattleState, hero: Hero) -> tuple[Event, ...]:
    """What a finished battle writes back to one adventurer: its result, and
    what became of its ready items if any changed (a battle of a party
    without items writes the result alone, as before items existed)."""
    result: tuple[Event, ...] = (
        BattleConcluded(
            battle_id=battle.battle_id,
            outcome=battle.final_outcome,
            hp=hero.hp,
            tenacity=hero.tenacity,
            track=hero.track,
        ),
    )
    attached = _newly_attached(hero)
    if hero.discarded or hero.expended or hero.stowed or hero.readied or attached:
        result += (
            campaign_events.ItemsReturned(
                battle_id=battle.battle_id,
                expended=hero.expended,
                discarded=hero.discarded,
                stowed=hero.stowed,
                readied=hero.readied,
                attached=attached,
            ),
        )
    kept = companions_kept(battle, hero)
    if kept is not None:
        result += (campaign_events.CompanionsKept(battle_id=battle.battle_id, companions=kept),)
    if hero.class_id and battle.termination is Termination.PARTY_DEFEATED:
        # END-1c: a campaign's adventurer (one with a class, as BattleJoined has it) carries the wipe-out
        # to its next End of Day; one made for a battle alone writes its result as it always did.
        result += (campaign_events.PartyFell(battle_id=battle.battle_id),)
    if hero.promotion:  # met in this battle (a Master counts nothing): earned, or turned already (ADVANCE-16)
        result += (
            campaign_events.ClassPromoted(class_id=hero.class_id)
            if hero.master
            else campaign_events.PromotionEarned(battle_id=battle.battle_id),
        )
    return result


def companions_kept(battle: BattleState, hero: Hero) -> tuple[str, ...] | None:
    """CLEANUP-3c: the permanent companion chips ``hero`` controls after the
    battle, when they differ from those it brought (None: unchanged). A
    defeated companion leaves for good; one that left the map with a
    fallen party was not defeated, so it stays (facts §2)."""
    mine = [a for a in battle.companions if a.controller == hero.id]
    brought = tuple(a.chip for a in mine if a.carried)
    kept = tuple(a.chip for a in mine if a.permanent and not a.defeated)
    return None if kept == brought else kept


def _newly_attached(hero: Hero) -> tuple[str, ...]:
    """The Enchantments attached in this battle: not those it carried in
    from an earlier one, which its stream holds already (ENCHANT-3)."""
    left = list(item for item, _ in hero.attached)
    for item in hero.carried_in:
        if item in left:
            left.remove(item)
    return tuple(left)
