"""A decision in progress: the events a command produces so far and the
state they lead to. The RNG is touched only through ``roll``, which derives
faces from (seed, counter); the caller writes faces and counter into the
event, and ``evolve`` moves the counter on."""

from __future__ import annotations

from domain.kernel import rng
from domain.kernel.errors import RuleViolation

from .context import RulesContext
from .events import ConquestEvent
from .evolve import evolve
from .state import ConquestState
from .vocab import DIE


class Decision:
    """Collects events and keeps the state they produce."""

    def __init__(self, state: ConquestState | None, ctx: RulesContext) -> None:
        # None only while setup decides, until its first event: every other rule reads a
        # battle set up, and typing the state Optional would put a check into each of them
        self.state: ConquestState = state  # type: ignore[assignment]
        self.ctx = ctx
        self.events: list[ConquestEvent] = []

    def emit(self, event: ConquestEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, n: int) -> tuple[tuple[int, ...], int]:
        """``n`` D6 faces (1 to 6) at the current counter, and that counter."""
        counter = self.state.rng
        return faces_at(self.state.seed, counter, n), counter


def typed_faces(
    state: ConquestState, faces: tuple[int, ...] | None, n: int, rule: str, what: str
) -> tuple[int, ...] | None:
    """The faces the table typed off physical dice for a roll of ``n`` D6
    under ``rule`` (``what``: the roll, in the players' words), checked:
    exactly ``n`` of them, each 1 to 6. None when the battle rolls its own
    dice (then no faces may be typed). Refused with ``rule`` otherwise."""
    if not state.physical_dice:
        if faces is not None:
            raise RuleViolation(rule, "this battle rolls its own dice: faces are typed only with --physical-dice")
        return None
    if faces is None or len(faces) != n:
        given = "none" if faces is None else str(len(faces))
        raise RuleViolation(rule, f"physical dice: type the {n} face(s) of {what}, not {given}")
    wrong = [f for f in faces if not 1 <= f <= DIE]
    if wrong:
        raise RuleViolation(rule, f"physical dice: a D6 shows 1 to {DIE}, not {wrong[0]}")
    return tuple(faces)


def faces_at(seed: int, counter: int, n: int) -> tuple[int, ...]:
    """The ``n`` D6 faces the RNG gives from ``counter`` on (verify uses it too)."""
    return tuple(rng.draw(seed, counter + i, DIE) + 1 for i in range(n))
