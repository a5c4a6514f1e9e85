"""Why an enemy moved where it did and designated whom (ENEMY-5, ENEMY-6a
to ENEMY-6g, EMOVE-1 to EMOVE-10).

``explain`` replays one enemy's decision from the state it was taken in,
through the very functions its turn runs (``enemies.turn.outlook``, ``enemies.turn.plan``,
``enemies.turn.targets``), and reads what they compared: the candidates with
their HP, range and sight, the hexes weighed and the target each brings
into range, the nearest hostile unit, the targets designated. Each step
names the rule it applies; a tie names the rule that leaves the choice to
the party and the documented default that made it (RULES-COVERAGE.md,
"Defaults"). Nothing is stored: an explanation is derived from the log
whenever it is asked for, so it holds for any version of a battle.
``enemies.explain_text`` narrates one.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from domain.kernel.hexes import Hex, sort_hexes

from domain.betrayal.vocab import Priority

from ..board import Board
from ..context import RulesContext
from ..state import BattleState
from .targeting import Candidate, MovePlan, blocked_hexes, can_target, eligible, rank, standing
from .turn import ENEMY_MOVE, Outlook, outlook, plan, targets


class Default(str, Enum):
    """The documented defaults that break a tie the rules leave to the party."""

    TURN_ORDER = "turn-order"  # ENEMY-6b, ENEMY-6g: adventurers in turn order, then enemies by number
    READING_ORDER = "reading-order"  # EMOVE-8: canonical hex order, row then column
    DIRECTION_ORDER = "direction-order"  # facts "toward": the first shortest route in direction order
    PRIORITY_ORDER = "priority-order"  # EMOVE-10: the unit the priority icon ranks first
    FEWER_STEPS = "fewer-steps"  # EMOVE-10: fewer steps, then reading order


class Tie(msgspec.Struct, frozen=True):
    """Units or hexes equal on what ``rule`` compares, which leaves the
    choice to the party; ``default`` chose the first of ``among``."""

    rule: str
    default: Default
    among: tuple[str | Hex, ...]


class Seen(msgspec.Struct, frozen=True):
    """A candidate as seen from one hex: its HP (bonus HP excluded), its
    range from there (None: no route), whether it is in sight, and whether
    it may be targeted (ENEMY-6a: in range and sight)."""

    unit: str
    hex: Hex
    hp: int
    range: int | None
    sight: bool
    targetable: bool


class Sizing(msgspec.Struct, frozen=True, tag="sizing"):
    """ENEMY-6a: the priority icon, range and target value (0: all) the
    enemy acts with, Blind's changes (STATUS-1), the adventurers Stealth
    hides, and its candidates from its start hex in priority order."""

    rule: str
    at: Hex
    priority: Priority
    reach: int
    count: int
    blind: bool
    hidden: tuple[str, ...]
    candidates: tuple[Seen, ...]


class Stay(msgspec.Struct, frozen=True, tag="stay"):
    """EMOVE-1, ENEMY-5a: a candidate is already targetable: no move."""

    rule: str
    unit: str
    range: int


class Option(msgspec.Struct, frozen=True):
    """A nearest hex with a target (EMOVE-2): the first candidate in priority
    order it brings into range, that unit's HP and place in the order (0
    first), and how many candidates it brings into range (EMOVE-9: never
    counted)."""

    hex: Hex
    target: str
    hp: int
    rank: int
    reaches: int


class Destinations(msgspec.Struct, frozen=True, tag="destinations"):
    """EMOVE-2, EMOVE-7, EMOVE-8: the nearest empty hexes from which a
    candidate is in range and sight, ``distance`` steps away, in reading
    order; the one chosen; a tie between best targets of equal priority
    (``target_tie``) and between hexes with the same best target
    (``tie``)."""

    rule: str
    distance: int
    options: tuple[Option, ...]
    goal: Hex
    target_tie: Tie | None
    tie: Tie | None


class Route(msgspec.Struct, frozen=True, tag="route"):
    """EMOVE-3 to EMOVE-5: the route through empty hexes, start included,
    the hexes moved this turn, whether it arrived (and stopped), and a tie
    between equal routes that end this turn on different hexes."""

    rule: str
    route: tuple[Hex, ...]
    path: tuple[Hex, ...]
    arrived: bool
    tie: Tie | None


class Approach(msgspec.Struct, frozen=True, tag="approach"):
    """EMOVE-10: no hex brings a target into range. The range to each
    hostile unit, the nearest one and a tie among the nearest; each hex it
    may end on with its range to that unit and the steps taken; the hex
    chosen (its start: it stays), a tie among the nearest hexes, the
    hexes moved."""

    rule: str
    ranges: tuple[tuple[str, int], ...]
    unit: str
    unit_tie: Tie | None
    hexes: tuple[tuple[Hex, int, int], ...]
    end: Hex
    end_tie: Tie | None
    path: tuple[Hex, ...]


class Stuck(msgspec.Struct, frozen=True, tag="stuck"):
    """EMOVE-10 with no hostile unit that any route reaches: no move."""

    rule: str


class Designation(msgspec.Struct, frozen=True, tag="designation"):
    """ENEMY-6a to ENEMY-6g: every candidate seen from where the enemy
    stands, in priority order; the targets designated, in resolution order;
    the target value (0: all); ties that decided who was designated
    (ENEMY-6b) or hit first (ENEMY-6g)."""

    rule: str
    at: Hex
    seen: tuple[Seen, ...]
    chosen: tuple[str, ...]
    count: int
    ties: tuple[Tie, ...]


Step = Sizing | Stay | Destinations | Route | Approach | Stuck | Designation


class Explanation(msgspec.Struct, frozen=True):
    """One enemy's decision: where it started, the hexes it moved through,
    whom it designated, and the steps that led there."""

    foe: str
    enemy: str
    round: int
    start: Hex
    path: tuple[Hex, ...]
    targets: tuple[str, ...]
    steps: tuple[Step, ...]


def explain(state: BattleState, ctx: RulesContext, foe_id: str) -> Explanation:
    """Why enemy ``foe_id`` moves and designates as it does in ``state``:
    the state its turn decides in, after its start of turn (ENEMY-4)."""
    board = ctx.board
    seen = outlook(state, ctx, foe_id)
    move = plan(board, seen)
    end = move.path[-1] if move.path else seen.start
    chosen = targets(board, seen, end)
    steps = [_sizing(board, seen), *_movement(board, seen, move), _designation(board, seen, end, chosen)]
    return Explanation(
        foe=foe_id,
        enemy=state.foe(foe_id).enemy,
        round=state.round,
        start=seen.start,
        path=move.path,
        targets=tuple(c.id for c in chosen),
        steps=tuple(steps),
    )


def _looks(board: Board, frm: Hex, reach: int, units: list[Candidate]) -> tuple[Seen, ...]:
    return tuple(
        Seen(
            c.id,
            c.pos,
            c.hp,
            board.range_distance(c.pos, frm),
            board.sees(frm, c.pos),
            can_target(board, frm, c.pos, reach),
        )
        for c in units
    )


def _sizing(board: Board, seen: Outlook) -> Sizing:
    ranked = rank(seen.candidates, seen.priority)
    return Sizing(
        rule="ENEMY-6a",
        at=seen.start,
        priority=seen.priority,
        reach=seen.reach,
        count=seen.count,
        blind=seen.blind,
        hidden=seen.hidden,
        candidates=_looks(board, seen.start, seen.reach, ranked),
    )


def _movement(board: Board, seen: Outlook, move: MovePlan) -> list[Step]:
    if move.in_range is not None:
        c = move.in_range
        return [Stay(rule="EMOVE-1", unit=c.id, range=board.range_distance(c.pos, seen.start) or 0)]
    if move.goal is not None:
        return [_destinations(board, seen, move), _route(board, seen, move)]
    if move.approach is None:
        return [Stuck(rule="EMOVE-10")]
    return [_approach(seen, move)]


def _destinations(board: Board, seen: Outlook, move: MovePlan) -> Destinations:
    ranked = rank(seen.candidates, seen.priority)
    options = tuple(
        Option(
            d.hex, d.target.id, d.target.hp, d.rank, sum(can_target(board, d.hex, c.pos, seen.reach) for c in ranked)
        )
        for d in move.destinations
    )
    goal = next(d for d in move.destinations if d.hex == move.goal)
    # Another hex's best target of equal priority lost on the ranking's order (EMOVE-7 tied).
    level = standing(goal.target, seen.priority)
    rivals = dict.fromkeys(
        d.target.id
        for d in move.destinations
        if d.target.id != goal.target.id and standing(d.target, seen.priority) == level
    )
    target_tie = Tie("EMOVE-8", Default.TURN_ORDER, (goal.target.id, *rivals)) if rivals else None
    best = [d.hex for d in move.destinations if d.rank == goal.rank]
    tie = Tie("EMOVE-8", Default.READING_ORDER, tuple(best)) if len(best) > 1 else None
    return Destinations(
        rule="EMOVE-2", distance=move.distance, options=options, goal=goal.hex, target_tie=target_tie, tie=tie
    )


def _route(board: Board, seen: Outlook, move: MovePlan) -> Route:
    steps = len(move.route) - 1
    arrived = steps <= ENEMY_MOVE
    tie = None
    if not arrived:  # where equal routes would leave it this turn
        blocked = blocked_hexes(seen.start, seen.occupied, seen.candidates, seen.hostiles or seen.candidates)
        moved = len(move.path)
        out = board.reachable(seen.start, blocked, moved)
        back = board.reachable(move.route[-1], blocked, steps - moved)
        ends = [h for h, d in out.items() if d == moved and back.get(h) == steps - moved]
        if len(ends) > 1:
            end = move.path[-1]
            tie = Tie("EMOVE-4", Default.DIRECTION_ORDER, (end, *sort_hexes(h for h in ends if h != end)))
    rule = "EMOVE-5" if arrived else "EMOVE-4"
    return Route(rule=rule, route=move.route, path=move.path, arrived=arrived, tie=tie)


def _approach(seen: Outlook, move: MovePlan) -> Approach:
    a = move.approach
    assert a is not None
    nearest = min(d for _, d in a.ranges)
    equal = tuple(c.id for c, d in a.ranges if d == nearest)  # in priority order, as min takes them
    unit_tie = Tie("EMOVE-10", Default.PRIORITY_ORDER, equal) if len(equal) > 1 else None
    end_tie = None
    if a.end != seen.start:
        closest = min(d for _, d, _ in a.hexes)
        level = sorted((h for h in a.hexes if h[1] == closest), key=lambda h: h[2])  # stable: reading order kept
        if len(level) > 1:
            end_tie = Tie("EMOVE-10", Default.FEWER_STEPS, tuple(h for h, _, _ in level))
    return Approach(
        rule="EMOVE-10",
        ranges=tuple((c.id, d) for c, d in a.ranges),
        unit=a.unit.id,
        unit_tie=unit_tie,
        hexes=a.hexes,
        end=a.end,
        end_tie=end_tie,
        path=move.path,
    )


def _designation(board: Board, seen: Outlook, at: Hex, chosen: list[Candidate]) -> Designation:
    ranked = rank(seen.candidates, seen.priority)
    picked = {c.id for c in chosen}
    ties = []
    groups: dict[int, list[Candidate]] = {}
    for c in eligible(board, at, seen.reach, seen.priority, seen.candidates):
        groups.setdefault(standing(c, seen.priority), []).append(c)
    for group in groups.values():
        ids = tuple(c.id for c in group)
        inside = tuple(i for i in ids if i in picked)
        if len(inside) < len(ids) and inside:  # the tie decided who is designated
            ties.append(Tie("ENEMY-6b", Default.TURN_ORDER, ids))
        if len(inside) > 1:  # designated together: the tie decided who is hit first
            ties.append(Tie("ENEMY-6g", Default.TURN_ORDER, inside))
    return Designation(
        rule="ENEMY-6a",
        at=at,
        seen=_looks(board, at, seen.reach, ranked),
        chosen=tuple(c.id for c in chosen),
        count=seen.count,
        ties=tuple(ties),
    )
