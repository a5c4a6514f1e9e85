"""A decision in progress: the events a command produces so far, and the
state they lead to. Rules call ``emit`` and read ``state``; the RNG is only
touched through ``roll`` and ``pick``, which derive outcomes from
(seed, counter) and leave the counter in the events they feed."""

from __future__ import annotations

from domain.kernel import rng
from domain.kernel.errors import MalformedCommand, RuleViolation

from domain.betrayal.delve.aggregate import DelveEvent, DelveState, Pending, draw_counter, evolve_delve

from .context import RulesContext
from .events import BattleEvent
from .evolve import evolve
from .state import BattleState, Hero


class Decision:
    """Collects events and keeps the state they produce."""

    def __init__(self, state: BattleState | None, ctx: RulesContext) -> None:
        # None only before the setup command's first event; every rule past setup reads a state.
        self.state: BattleState = state  # type: ignore[assignment]
        self.ctx = ctx
        self.events: list[BattleEvent] = []
        self.delve_events: list[DelveEvent] = []  # for the Delve stream of a delve battle

    def emit(self, event: BattleEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    @property
    def delve(self) -> DelveState | None:
        """The delve as the events so far leave it (None outside delves)."""
        return self.ctx.delve

    @property
    def in_delve(self) -> DelveState:
        """The delve, for a rule that only runs in one (a rule outside a
        delve reads ``delve``, None there)."""
        delve = self.ctx.delve
        if delve is None:
            raise MalformedCommand("this can only be done in a delve")
        return delve

    @property
    def tile_waiting(self) -> Pending:
        """The drawn tile waiting to be connected (EXPLORATION-9)."""
        pending = self.in_delve.pending
        if pending is None:
            raise RuleViolation("EXPLORATION-9", "no tile is waiting to be connected")
        return pending

    def emit_delve(self, event: DelveEvent) -> None:
        """An event for the Delve stream; the context follows it, so the
        board grows as soon as a tile is placed."""
        self.delve_events.append(event)
        self.ctx = self.ctx.with_delve(evolve_delve(self.ctx.delve, event))

    def draw(self, choices: int) -> tuple[int, int]:
        """One outcome in [0, choices) on the delve's own counter, and the
        draw index it used (``delve.draw_counter``)."""
        n = self.in_delve.draws
        return rng.draw(self.state.seed, draw_counter(n), choices), n

    def roll(self, n: int, sides: int = 6) -> tuple[list[int], int]:
        """``n`` outcomes from the battle's seed at the current counter; the
        caller writes them (and the counter) into a DiceRolled event."""
        counter = self.state.rng
        outcomes, _ = rng.draws(self.state.seed, counter, sides, n)
        return outcomes, counter

    def user(self, hero_id: str | None, what: str) -> Hero:
        """The adventurer a command names to use ``what`` (an ability, an
        item), or the one whose turn it is; MalformedCommand otherwise."""
        s = self.state
        if hero_id is None:
            if s.turn is None:
                raise MalformedCommand(f"name the adventurer who uses the {what}")
            return s.hero(s.turn.hero)
        try:
            return s.hero(hero_id)
        except KeyError:
            raise MalformedCommand(f"no adventurer {hero_id!r} in this battle") from None

    def pick(self, choices: int) -> tuple[int, int]:
        """One outcome in [0, choices) and the counter it used."""
        counter = self.state.rng
        return rng.draw(self.state.seed, counter, choices), counter
