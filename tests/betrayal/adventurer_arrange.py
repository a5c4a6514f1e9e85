"""Small arrangements shared by the adventurer rules tests (test_rules_*.py):
put a foe at a given range of a hero, swap its chip, add a second foe, give a
hero exact dice, and restart the turn so its start positions (Stealth) match
the arranged map."""

from __future__ import annotations

from scenario import Scenario

from domain.betrayal.battle.state import DieKind, Foe, OwnedDie, StatusMark, TrackDie
from domain.betrayal.vocab import Status
from domain.kernel.hexes import Hex

LIGHT = TrackDie(DieKind.LIGHT_FATIGUE)
OVER = TrackDie(DieKind.OVERFATIGUE)


def skill(uid: int, face: int = -1) -> TrackDie:
    """A skill die on a cooldown track."""
    return TrackDie(DieKind.SKILL, uid, face)


def status_die(status: Status) -> TrackDie:
    """A status die on an adventurer's cooldown track."""
    return TrackDie(DieKind.STATUS, 0, -1, status)


def mark(status: Status, uid: int, owner: str = "ysolda") -> StatusMark:
    """A status skill die of ``owner`` sitting on an enemy."""
    return StatusMark(status, owner, uid)


def dice(*ids: str) -> tuple[OwnedDie, ...]:
    """Owned skill dice numbered 1, 2, ... in the order given."""
    return tuple(OwnedDie(i + 1, die) for i, die in enumerate(ids))


def chip(given: Scenario, enemy: str) -> dict:
    """Foe fields for ``enemy``'s chip side at full HP."""
    e = given.ctx.enemy(enemy)
    return dict(enemy=enemy, level=e.level, hp=e.hp, max_hp=e.hp, quest=e.quest)


def occupied(given: Scenario) -> set[Hex]:
    s = given.state
    return {u.pos for u in (*s.heroes, *s.foes) if u.pos is not None}


def hexes_at(given: Scenario, origin: Hex, k: int) -> list[Hex]:
    """Free passable hexes at range ``k`` of ``origin`` that it can see, in
    reading order."""
    board = given.ctx.board
    taken = occupied(given)
    return [
        h
        for h in board.all_hexes()
        if board.passable(h) and h not in taken and board.range_distance(origin, h) == k and board.sees(origin, h)
    ]


def restart_turn(given: Scenario) -> Scenario:
    """The current turn's start positions become the arranged positions."""
    s = given.state
    positions = tuple((u.id, u.pos) for u in (*s.heroes, *s.foes) if u.pos is not None)
    return given.with_turn(start_positions=positions)


def foe_at(
    given: Scenario, k: int, foe: str = "e1", hero: str = "ysolda", enemy: str | None = None, **changes
) -> Scenario:
    """``foe`` on the first free hex at range ``k`` of ``hero`` (in sight),
    optionally showing ``enemy``'s chip; the turn restarts there."""
    freed = given.with_foe(foe, pos=None)
    h = hexes_at(freed, given.state.hero(hero).pos, k)[0]
    fields = chip(given, enemy) if enemy else {}
    fields.update(changes)
    return restart_turn(freed.with_foe(foe, pos=h, **fields))


def add_foe(given: Scenario, foe: str, enemy: str, pos: Hex, **changes) -> Scenario:
    """A further enemy on ``pos``; the turn restarts."""
    fields = chip(given, enemy)
    fields.update(changes)
    new = Foe(id=foe, pos=pos, **fields)
    return restart_turn(given.with_state(foes=given.state.foes + (new,)))


def only_foe(given: Scenario, k: int, enemy: str, **changes) -> Scenario:
    """Every other enemy gone; e1 shows ``enemy`` at range ``k`` of Ysolda."""
    return foe_at(given.without_foes("e1"), k, enemy=enemy, **changes)
