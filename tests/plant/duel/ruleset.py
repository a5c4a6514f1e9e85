"""The duel's entry point for the kernel: ``RULESETS``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from domain.kernel.errors import NotFound
from domain.kernel.ruleset import Outcome, RandomCheck, Ruleset, Summary

from . import events as ev
from . import narrate, rules, seats
from .commands import DuelCommand, StartDuel
from .evolve import evolve
from .state import DuelState
from .vocab import NAMES, RULES_VERSION


@dataclass(frozen=True)
class Pack:
    """The duel has no content to load: its pack only names the rules it was
    played with, so a log says which."""

    id: str
    hash: str


PACK = Pack(id="duel-basic", hash=hashlib.sha256(f"duel-basic:{RULES_VERSION}".encode()).hexdigest())


class DuelRuleset(Ruleset):
    """Duel: two pawns, a hex board, one hidden card each."""

    name = "duel"
    title = "Duel"
    rules_version = RULES_VERSION
    game_kind = "battle"
    state_type = DuelState
    command_type = DuelCommand
    event_base = ev.DuelEvent
    issued = ev.CommandIssued
    undone = ev.CommandUndone
    snapshot_topic = "duel.snapshot.Game"
    setup_commands = (StartDuel,)

    def pack(self) -> Pack:
        return PACK

    def context(self, pack: Pack, state: DuelState) -> Pack:
        if (pack.id, pack.hash) != (state.pack_id, state.pack_hash):
            raise NotFound(f"duel {state.battle_id} was played with pack {state.pack_id}, not {pack.id}")
        return pack

    def setup_context(self, pack: Pack, command: StartDuel) -> Pack:
        return pack

    evolve = staticmethod(evolve)  # type: ignore[assignment]

    def decide(self, state: Any, command: Any, ctx: Pack) -> Outcome:
        return Outcome(events=rules.decide(state, command, ctx))

    def legal_commands(self, state: Any, ctx: Pack) -> list[Any]:
        return rules.legal_commands(state, ctx)

    def reveals(self, event: Any) -> bool:
        return isinstance(event, ev.StrikeRolled)

    def check_random(self, state: Any, event: Any) -> RandomCheck | None:
        if not isinstance(event, ev.StrikeRolled):
            return None
        expected = rules.roll(state.seed, state.rng)
        if (event.counter, event.face) != (state.rng, expected):
            return RandomCheck(
                expected=f"counter {state.rng}: face {expected}", found=f"counter {event.counter}: face {event.face}"
            )
        return None

    def describe_event(self, event: Any, state: Any, pack: Any) -> str:
        return narrate.describe_event(event)

    def cited_rule(self, event: Any) -> str:
        return narrate.cited_rule(event)

    def summary(self, state: DuelState) -> Summary:
        who = f"{NAMES[0]} v {NAMES[1]}"
        setup = f"{state.width} wide"
        if state.over:
            return Summary(round=state.round, where=state.reason, who=who, setup=setup, over=True)
        return Summary(round=state.round, where=f"{NAMES[state.turn]} to act", who=who, setup=setup)

    def seats(self, state: DuelState) -> tuple:
        return seats.seats(state)

    def actor(self, state: DuelState, command: Any) -> str | None:
        return seats.actor(state, command)

    def seen_by(self, state: DuelState, seat: str | None) -> DuelState:
        return seats.seen_by(state, seat)

    def hides(self, command: Any) -> bool:
        return seats.hides(command)


RULESET = DuelRuleset()
RULESETS = (RULESET,)
