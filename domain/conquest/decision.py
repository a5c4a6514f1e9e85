"""A decision in progress: the events a command produces so far and the
state they lead to. The RNG is touched only through ``roll``, which derives
faces from (seed, counter); the caller writes faces and counter into the
event, and ``evolve`` moves the counter on."""

from __future__ import annotations

from domain.kernel import rng

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


def faces_at(seed: int, counter: int, n: int) -> tuple[int, ...]:
    """The ``n`` D6 faces the RNG gives from ``counter`` on (verify uses it too)."""
    return tuple(rng.draw(seed, counter + i, DIE) + 1 for i in range(n))
