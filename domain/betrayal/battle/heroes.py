"""Reading and changing an adventurer's dice during a decision: where each
skill die is, putting dice on the cooldown track, statuses on the track."""

from __future__ import annotations

from domain.betrayal.packs.catalog import SkillDie
from domain.betrayal.vocab import Effect, Status

from . import events as ev
from . import track as tracks
from .decision import Decision
from .state import DieKind, Hero, TrackDie


def die_of(d: Decision, hero: Hero, uid: int) -> SkillDie:
    """The content die behind one of the hero's skill dice."""
    for owned in hero.dice:
        if owned.uid == uid:
            return d.ctx.die(owned.die)
    raise KeyError(uid)


def placed_on_foes(d: Decision, hero_id: str) -> set[int]:
    """Uids of the hero's status dice sitting on enemies (STATUS-1)."""
    return {m.uid for f in d.state.foes for m in f.marks if m.owner == hero_id}


def available_dice(d: Decision, hero: Hero) -> list[int]:
    """Uids of skill dice on the mat, free to gather: not on the track
    (TRACK-5), not Drained (DRAINED-2), not in an active slot, not on a foe."""
    busy = {t.uid for t in hero.track if t.kind is DieKind.SKILL}
    busy.update(a.uid for a in hero.active if a.kind is DieKind.SKILL)
    busy.update(hero.drained)
    busy.update(placed_on_foes(d, hero.id))
    return [o.uid for o in hero.dice if o.uid not in busy]


def statuses(hero: Hero) -> frozenset[Status]:
    """An adventurer's status effects live on its track (STATUS-6)."""
    return tracks.statuses(hero.track)


def ward(d: Decision, hero: Hero) -> int:
    """Damage prevented per instance by track-ability ward dice (TRACK-11)."""
    total = 0
    for t in hero.track:
        if t.kind is DieKind.SKILL and t.face >= 0:
            face = die_of(d, hero, t.uid).faces[t.face]
            if face.effect is Effect.WARD and not face.tenacity:
                total += face.amount
    return total


def exhaust(d: Decision, hero_id: str, uid: int, face: int, rule: str) -> None:
    """Put one of the hero's skill dice on its cooldown track (TRACK-1)."""
    hero = d.state.hero(hero_id)
    placed = tracks.place(hero.track, TrackDie(DieKind.SKILL, uid, face))
    d.emit(
        ev.DieExhausted(
            hero=hero_id,
            uid=uid,
            face=face,
            rule=rule,
            track=placed.track,
            drained=hero.drained + placed.drained,
        )
    )


def gain_fatigue(d: Decision, hero_id: str, kind: DieKind, count: int, rule: str) -> None:
    """Add ``count`` fatigue dice to the track, one at a time (TRACK-3)."""
    hero = d.state.hero(hero_id)
    placed = tracks.place_all(hero.track, [TrackDie(kind)] * count)
    d.emit(
        ev.FatigueGained(
            hero=hero_id,
            kind=kind,
            count=count,
            rule=rule,
            track=placed.track,
            drained=hero.drained + placed.drained,
        )
    )


def gain_status(d: Decision, hero_id: str, status: Status) -> None:
    """A status die lands on the track, or refreshes a duplicate (TRACK-10)."""
    hero = d.state.hero(hero_id)
    placed = tracks.place(hero.track, TrackDie(DieKind.STATUS, 0, -1, status))
    d.emit(
        ev.HeroStatusGained(
            hero=hero_id,
            status=status,
            refreshed=placed.refreshed,
            track=placed.track,
            drained=hero.drained + placed.drained,
        )
    )


def lose_status(d: Decision, hero_id: str, status: Status, rule: str) -> None:
    """Take a status die off the track to the supply (e.g. Daze at end of turn)."""
    hero = d.state.hero(hero_id)
    new_track, removed = tracks.remove_status(hero.track, status)
    if removed is not None:
        d.emit(ev.HeroStatusLost(hero=hero_id, status=status, rule=rule, track=new_track))


def empty_active(d: Decision, hero_id: str, rule: str) -> None:
    """Every active die is removed and exhausted (ACTIVE-7, ACTIVE-9c/9d,
    CLEANUP-4a)."""
    hero = d.state.hero(hero_id)
    if not hero.active:
        return
    d.emit(ev.ActiveChanged(hero=hero_id, active=(), rule=rule))
    for a in hero.active:
        if a.kind is DieKind.SKILL:
            exhaust(d, hero_id, a.uid, a.face, rule)
        else:
            gain_fatigue(d, hero_id, a.kind, 1, rule)
