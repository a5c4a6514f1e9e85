"""The cooldown track (TRACK-1 to TRACK-12, RECOVER-1 to RECOVER-5) as pure
functions.

A track is a ``tuple[TrackDie, ...]``, leftmost die first. Because it is a
tuple there are never gaps: removing a die and sliding the rest left
(TRACK-6, COOLDOWN-3) is just building a shorter tuple. Every function
returns new values and never changes its inputs.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.betrayal.vocab import Status

from .state import DieKind, TrackDie

Track = tuple[TrackDie, ...]

TRACK_LIMIT = 13  # TRACK-8

OVERFATIGUE = TrackDie(DieKind.OVERFATIGUE)


class Placement(msgspec.Struct, frozen=True, kw_only=True):
    """What placing dice did: the new ``track``; uids of skill dice that were
    Drained (TRACK-9a, TRACK-9c); fatigue and status dice ``returned`` to the
    supply; whether the track ``overflowed`` (TRACK-9) and whether a duplicate
    status was ``refreshed`` (TRACK-10)."""

    track: Track
    drained: tuple[int, ...] = ()
    returned: tuple[TrackDie, ...] = ()
    overflowed: bool = False
    refreshed: bool = False


class Recovery(msgspec.Struct, frozen=True, kw_only=True):
    """What a Recovery step did: the new ``track``; uids of skill dice
    ``recovered`` (RECOVER-2); Light fatigue and status dice ``discarded``
    (RECOVER-3, RECOVER-5); how many Overfatigue dice went round to the end
    of the queue (RECOVER-4)."""

    track: Track
    recovered: tuple[int, ...] = ()
    discarded: tuple[TrackDie, ...] = ()
    replaced_overfatigue: int = 0


def place(track: Track, die: TrackDie) -> Placement:
    """Add ``die`` at the end of the queue (TRACK-3).

    A status die whose status is already on the track refreshes that die
    instead (TRACK-10, STATUS-8). On a full track (TRACK-8) the die overflows
    (TRACK-9).
    """
    if die.kind is DieKind.STATUS:
        if die.status is None:
            raise ValueError("a status die must name its status")
        index = _status_index(track, die.status)
        if index is not None:
            return _refresh(track, index)
    if len(track) >= TRACK_LIMIT:
        return _overflow(track, die)
    return Placement(track=(*track, die))


def place_all(track: Track, dice: Iterable[TrackDie]) -> Placement:
    """Place ``dice`` one at a time in the order given (TRACK-3, TRACK-4: the
    player chooses the order, the caller passes it)."""
    drained: list[int] = []
    returned: list[TrackDie] = []
    overflowed = refreshed = False
    for die in dice:
        step = place(track, die)
        track = step.track
        drained.extend(step.drained)
        returned.extend(step.returned)
        overflowed = overflowed or step.overflowed
        refreshed = refreshed or step.refreshed
    return Placement(
        track=track,
        drained=tuple(drained),
        returned=tuple(returned),
        overflowed=overflowed,
        refreshed=refreshed,
    )


def recover(track: Track, cooldown: int) -> Recovery:
    """The Recovery step (RECOVER-1 to RECOVER-5, COOLDOWN-2, COOLDOWN-3,
    TRACK-2, TRACK-6).

    Removes ``cooldown`` dice from the left, one at a time. Skill dice are
    recovered, Light fatigue and status dice discarded, and Overfatigue goes
    back at the end of the queue. Facts default: the full count is always
    removed, and each die leaves at most once per step, so a re-placed
    Overfatigue is not taken again even when ``cooldown`` exceeds the dice.
    """
    if cooldown < 0:
        raise ValueError(f"cooldown cannot be negative: {cooldown}")
    taken = min(cooldown, len(track))
    recovered: list[int] = []
    discarded: list[TrackDie] = []
    cycled: list[TrackDie] = []
    for die in track[:taken]:
        if die.kind is DieKind.SKILL:
            recovered.append(die.uid)
        elif die.kind is DieKind.OVERFATIGUE:
            cycled.append(die)
        else:
            discarded.append(die)
    # Each Overfatigue lands right after the last die at its removal; the
    # later removals all come from the left, so they end up after the rest.
    return Recovery(
        track=(*track[taken:], *cycled),
        recovered=tuple(recovered),
        discarded=tuple(discarded),
        replaced_overfatigue=len(cycled),
    )


def remove(track: Track, index: int) -> Track:
    """Take out the die at ``index`` and slide the rest left (TRACK-6)."""
    if not 0 <= index < len(track):
        raise IndexError(f"no die at {index} on a track of {len(track)}")
    return track[:index] + track[index + 1 :]


def remove_status(track: Track, status: Status) -> tuple[Track, TrackDie | None]:
    """Take the ``status`` die off the track, sliding left (TRACK-6, STATUS-6:
    an adventurer's status lasts until its die leaves the track). Returns the
    new track and the removed die, or the same track and None."""
    index = _status_index(track, status)
    if index is None:
        return track, None
    return remove(track, index), track[index]


def statuses(track: Track) -> frozenset[Status]:
    """The status effects an adventurer has: those on its track (STATUS-6)."""
    return frozenset(die.status for die in track if die.kind is DieKind.STATUS and die.status is not None)


def count(track: Track, kind: DieKind) -> int:
    """How many dice of ``kind`` are on the track."""
    return sum(1 for die in track if die.kind is kind)


def is_on_track(track: Track, uid: int) -> bool:
    """True when skill die ``uid`` is on the track, so it cannot be used
    (TRACK-5)."""
    return any(die.kind is DieKind.SKILL and die.uid == uid for die in track)


def _status_index(track: Track, status: Status) -> int | None:
    for index, die in enumerate(track):
        if die.kind is DieKind.STATUS and die.status is status:
            return index
    return None


def _refresh(track: Track, index: int) -> Placement:
    """TRACK-10: move the existing status die to the end of the queue. Nothing
    is added, so this never overflows, even on a full track."""
    return Placement(track=(*remove(track, index), track[index]), refreshed=True)


def _overflow(track: Track, die: TrackDie) -> Placement:
    """TRACK-9: the incoming die leaves (9a), then the rightmost die that is
    not Overfatigue becomes Overfatigue (9b) and the die it replaced leaves
    too (9c). Facts default: on a track of only Overfatigue, 9b does nothing."""
    leaving = [die]
    index = _rightmost_not_overfatigue(track)
    if index is not None:
        leaving.append(track[index])
        track = (*track[:index], OVERFATIGUE, *track[index + 1 :])
    drained, returned = _dispose(leaving)
    return Placement(track=track, drained=drained, returned=returned, overflowed=True)


def _rightmost_not_overfatigue(track: Track) -> int | None:
    for index in range(len(track) - 1, -1, -1):
        if track[index].kind is not DieKind.OVERFATIGUE:
            return index
    return None


def _dispose(dice: list[TrackDie]) -> tuple[tuple[int, ...], tuple[TrackDie, ...]]:
    """Split dice leaving by overflow: skill dice are Drained, fatigue and
    status dice go back to the supply (TRACK-9a, TRACK-9c; DRAINED-4: only
    skill dice can be drained)."""
    drained = tuple(d.uid for d in dice if d.kind is DieKind.SKILL)
    returned = tuple(d for d in dice if d.kind is not DieKind.SKILL)
    return drained, returned
