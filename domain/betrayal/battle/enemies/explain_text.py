"""An enemy's decision (``explain.Explanation``) in words: one line per
finding, each under the rule it applies, units by name and hexes by label
(``c4``), as `rk why` prints them."""

from __future__ import annotations

from functools import singledispatch

from domain.kernel.hexes import label

from domain.betrayal.packs.catalog import Pack
from domain.betrayal.vocab import Priority

from ..names import unit_name
from ..state import BattleState
from . import explain as x
from .turn import ENEMY_MOVE

DEFAULTS = {  # RULES-COVERAGE.md, "Defaults where the source leaves the choice to the party"
    x.Default.TURN_ORDER: "adventurers in turn order, then other enemies by number",
    x.Default.READING_ORDER: "reading order (row, then column)",
    x.Default.DIRECTION_ORDER: "the first route in the fixed direction order",
    x.Default.PRIORITY_ORDER: "the one its priority icon ranks first, then turn order",
    x.Default.FEWER_STEPS: "fewer steps, then reading order",
}
ICONS = {Priority.STRONGEST: "strongest (most HP first)", Priority.WEAKEST: "weakest (fewest HP first)"}

Line = tuple[str, str]  # (rule ID, what it decided)
MOVES: Line = ("EMOVE-1", "No candidate is in range and sight, so it looks for where to move (ENEMY-5a).")


def lines(why: x.Explanation, state: BattleState, pack: Pack) -> list[Line]:
    """The narrated steps of ``why``; ``state`` names the units."""
    names = _Names(state, pack)
    out: list[Line] = []
    for step in why.steps:
        said = _step(step, names)
        if isinstance(step, x.Designation) and not why.path:
            said = said[1:] if step.seen else said  # it sees what the candidates line showed
        out += said
    return out


def summary(why: x.Explanation, state: BattleState, pack: Pack) -> str:
    """One line: what the enemy did, e.g. ``e2 Road Lookout moved b3 → d4
    and designated Ysolda``."""
    names = _Names(state, pack)
    moved = f"moved {_route((why.start, *why.path))}" if why.path else f"stayed on {label(why.start)}"
    struck = f"designated {names.join(why.targets)}" if why.targets else "designated nobody"
    return f"{names(why.foe)} {moved} and {struck}"


class _Names:
    def __init__(self, state: BattleState, pack: Pack) -> None:
        self.state, self.pack = state, pack

    def __call__(self, unit: str) -> str:
        return unit_name(self.state, self.pack, unit)

    def join(self, units) -> str:
        return _and([self(u) for u in units])

    def tied(self, tie: x.Tie) -> str:
        hexes = isinstance(tie.among[0], tuple)  # hex labels look like enemy ids (e1): say which
        things = [label(t) if isinstance(t, tuple) else self(t) for t in tie.among]
        return (
            f"{'Hexes ' if hexes else ''}{_and(things)} tie, which the party would settle; our default, "
            f"{DEFAULTS[tie.default]}, picks {things[0]}."
        )


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _route(hexes) -> str:
    return " → ".join(label(h) for h in hexes)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('x') else 's'}"


def _look(s: x.Seen, names: _Names) -> str:
    where = "no route" if s.range is None else f"range {s.range}"
    why_not = "" if s.targetable else (", out of sight" if not s.sight else ", out of range")
    return f"{names(s.unit)} {s.hp} HP, {where}{why_not}"


@singledispatch
def _step(step, names: _Names) -> list[Line]:
    raise TypeError(f"no words for {type(step).__name__}")


@_step.register
def _(s: x.Sizing, names: _Names) -> list[Line]:
    value = "every unit in range" if s.count == 0 else _plural(s.count, "target")
    out = [(s.rule, f"Priority {ICONS.get(s.priority, s.priority.value)}, range {s.reach}, {value}.")]
    if s.blind:
        out.append(
            ("STATUS-1", "It is Blind: range 1, one target, the strongest, and every other unit counts as opposing.")
        )
    if s.hidden:
        out.append(("STATUS-1", f"{names.join(s.hidden)}: in Stealth and not adjacent, so not a candidate."))
    if s.candidates:
        seen = "; ".join(_look(c, names) for c in s.candidates)
        out.append((s.rule, f"Candidates from {label(s.at)}, in priority order: {seen}."))
    else:
        out.append((s.rule, "It has no candidate to designate."))
    return out


@_step.register
def _(s: x.Stay, names: _Names) -> list[Line]:
    return [(s.rule, f"{names(s.unit)} is already in range ({s.range}) and sight: it does not move (ENEMY-5a).")]


@_step.register
def _(s: x.Destinations, names: _Names) -> list[Line]:
    options = ", ".join(f"{label(o.hex)} ({names(o.target)} {o.hp} HP)" for o in s.options)
    out = [
        MOVES,
        (
            s.rule,
            f"Nearest empty hexes from which a candidate is in range and sight, "
            f"{_plural(s.distance, 'step')} away: {options}.",
        ),
    ]
    chosen = next(o for o in s.options if o.hex == s.goal)
    others = sorted(
        {o.target for o in s.options if o.target != chosen.target},
        key=lambda t: next(o.rank for o in s.options if o.target == t),
    )
    if others:
        out.append(("EMOVE-7", f"By its priority icon {names(chosen.target)} ranks above {names.join(others)}."))
    if s.target_tie is not None:
        out.append((s.target_tie.rule, names.tied(s.target_tie)))
    if s.tie is not None:
        out.append((s.tie.rule, names.tied(s.tie)))
    more = [o for o in s.options if o.reaches > chosen.reaches]
    if more:
        out.append(
            (
                "EMOVE-9",
                f"How many targets a hex brings into range does not count: "
                f"{_and([label(o.hex) for o in more])} would reach more.",
            )
        )
    out.append(("EMOVE-7", f"It heads for {label(s.goal)}."))
    return out


@_step.register
def _(s: x.Route, names: _Names) -> list[Line]:
    length = len(s.route) - 1
    out = [("EMOVE-3", f"Shortest route through empty hexes: {_route(s.route)} ({_plural(length, 'step')}).")]
    if s.arrived:
        out.append((s.rule, f"It reaches {label(s.route[-1])} and stops there."))
    else:
        out.append(
            (
                s.rule,
                f"Out of reach this turn: it moves {_plural(len(s.path), 'hex')} toward it, to {label(s.path[-1])}.",
            )
        )
    if s.tie is not None:
        out.append((s.tie.rule, "Equal routes would end this turn on different hexes. " + names.tied(s.tie)))
    return out


@_step.register
def _(s: x.Approach, names: _Names) -> list[Line]:
    ranges = "; ".join(f"{names(u)} range {d}" for u, d in s.ranges)
    out = [
        MOVES,
        (
            s.rule,
            f"No empty hex it can reach brings a candidate into range and sight: it "
            f"approaches the nearest hostile unit. {ranges}.",
        ),
    ]
    if s.unit_tie is not None:
        out.append((s.unit_tie.rule, names.tied(s.unit_tie)))
    within = _plural(ENEMY_MOVE, "hex")
    if not s.path:
        here = next(d for _, d, n in s.hexes if n == 0)
        out.append(
            (
                s.rule,
                f"No hex within {within} comes nearer to {names(s.unit)} than where it "
                f"stands (range {here}): it stays.",
            )
        )
        return out
    d, n = next((d, n) for h, d, n in s.hexes if h == s.end)
    out.append(
        (
            s.rule,
            f"Within {within}, {label(s.end)} comes nearest to {names(s.unit)} "
            f"(range {d}, {_plural(n, 'step')}): it moves there.",
        )
    )
    if s.end_tie is not None:
        out.append((s.end_tie.rule, names.tied(s.end_tie)))
    return out


@_step.register
def _(s: x.Stuck, names: _Names) -> list[Line]:
    return [
        MOVES,
        (s.rule, "No candidate can be brought into range and no hostile unit can be reached: it does not move."),
    ]


@_step.register
def _(s: x.Designation, names: _Names) -> list[Line]:
    out = []
    if s.seen:
        out.append((s.rule, f"From {label(s.at)}: " + "; ".join(_look(c, names) for c in s.seen) + "."))
    value = "every unit in range" if s.count == 0 else f"up to {_plural(s.count, 'target')}"
    if not s.chosen:
        out.append((s.rule, "Nobody is in range and sight: it does not engage."))
        return out
    out.append((s.rule, f"It designates {names.join(s.chosen)} ({value})."))
    for tie in s.ties:
        out.append((tie.rule, names.tied(tie)))
    if len(s.chosen) > 1:
        out.append(("ENEMY-6f", f"Damage resolves in that order: {names.join(s.chosen)}."))
    return out
