"""The Conquest ruleset's entry point for the kernel: one ``Ruleset``
subclass whose instance ``domain/conquest/__init__.py`` registers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.messages import Event
from domain.kernel.ruleset import GivesUp, Outcome, RandomCheck, Ruleset, Summary

from . import seats
from . import events as ev
from . import narrate, rules
from .catalog import Pack
from .citations import cited_rule
from .commands import ConquestCommand, StartConquest, StartFromPosition
from .context import RulesContext, context_for
from .decision import faces_at
from .packs import parse_pack, starter_pack
from .state import ConquestState
from .vocab import RULES_VERSION, Phase


class ConquestRuleset(Ruleset[ConquestState, ConquestCommand, RulesContext, Pack, ev.ConquestEvent]):
    """Conquest: The Last Argument of Kings, the round sequence."""

    name = "conquest"
    title = "Conquest: The Last Argument of Kings"
    rules_version = RULES_VERSION
    game_kind = "battle"
    state_type = ConquestState
    command_type = ConquestCommand
    event_base = ev.ConquestEvent
    issued = ev.CommandIssued
    undone = ev.CommandUndone
    snapshot_topic = "conquest.snapshot.Game"
    aggregates = ()
    setup_commands = (StartConquest, StartFromPosition)
    positioned = ev.PositionTaken

    def pack(self) -> Pack:
        return starter_pack()

    def load_pack(self, files: Mapping[str, bytes]) -> Pack:
        return parse_pack(files)

    def context(self, pack: Pack, state: ConquestState) -> RulesContext:
        if (pack.id, pack.hash) != (state.pack_id, state.pack_hash):
            raise NotFound(
                f"battle {state.battle_id} was played with pack {state.pack_id} "
                f"({state.pack_hash[:8]}), not {pack.id} ({pack.hash[:8]})"
            )
        return context_for(pack, state.scenario)

    def setup_context(self, pack: Pack, command: ConquestCommand) -> RulesContext:
        if not isinstance(command, StartConquest):  # the kernel asks only for its setup_commands
            raise MalformedCommand("only a StartConquest sets a Conquest battle up")
        if command.scenario not in pack.scenarios:
            raise NotFound(f"no scenario {command.scenario!r} in pack {pack.id}")
        return context_for(pack, command.scenario)

    # The pure function itself, not a method around it: replay calls it per event. It takes
    # Conquest's events only, where the kernel's Ruleset (not generic in its events) says Event.
    evolve = staticmethod(rules.evolve)

    def decide(self, state: Any, command: Any, ctx: RulesContext) -> Outcome:
        return Outcome(events=[*rules.decide(state, command, ctx)])  # Conquest writes only its game stream

    def legal_commands(self, state: Any, ctx: RulesContext) -> list[Any]:
        return rules.legal_commands(state, ctx)

    def gives_up(self, state: Any, ctx: RulesContext, command: Any, legal: Sequence[Any]) -> tuple[GivesUp, ...]:
        """ACT-13: ending an activation early gives up its second action;
        VICTORY-2: surrendering gives the opponent the battle."""
        from .commands import EndActivation, Surrender

        if isinstance(command, EndActivation) and state.activation is not None:
            return (GivesUp(f"{state.activation.regiment}'s second action", "ACT-13"),)
        if isinstance(command, Surrender):
            return (GivesUp("the battle: the opponent wins", "VICTORY-2"),)
        return ()

    def reveals(self, event: Event) -> bool:
        return isinstance(event, (ev.ReinforcementsRolled, ev.SupremacyRolled, ev.CardDrawn))

    def check_random(self, state: Any, event: Event) -> RandomCheck | None:
        if not isinstance(event, (ev.ReinforcementsRolled, ev.SupremacyRolled)) or event.typed:
            return None
        expected = faces_at(state.seed, state.rng, len(event.faces))
        if event.counter != state.rng or tuple(event.faces) != expected:
            return RandomCheck(
                expected=f"counter {state.rng}: faces {list(expected)}",
                found=f"counter {event.counter}: faces {list(event.faces)}",
            )
        return None

    def describe_event(self, event: Event, state: Any, pack: Any) -> str:
        rule = cited_rule(event)
        text = narrate.describe_event(event, state)
        if not rule:
            return text
        # The rule leads the line; the narration need not cite it again at its end.
        text = text.removesuffix(f" ({rule})").replace(f", {rule})", ")").replace(f"({rule}, ", "(")
        return f"{rule}: {text}"

    def cited_rule(self, event: Event) -> str:
        return cited_rule(event)

    def check_position(self, state: ConquestState, others: Any, pack: Pack) -> list[Any]:
        """Armies and entries, stands, Command Stacks, links (``position``)."""
        from .position import flaws

        return flaws(state, pack)

    def seats(self, state: ConquestState) -> tuple:
        return seats.seats(state)

    def actor(self, state: ConquestState, command: Any) -> str | None:
        return seats.actor(state, command)

    def seen_by(self, state: ConquestState, seat: str | None) -> ConquestState:
        return seats.seen_by(state, seat)

    def hides(self, command: Any) -> bool:
        return seats.hides(command)

    def summary(self, state: ConquestState) -> Summary:
        armies = f"{state.sides[0].army} v {state.sides[1].army}"
        if state.phase is Phase.OVER:
            return Summary(
                round=state.round, where=state.final_result().reason, who=armies, setup=state.scenario, over=True
            )
        return Summary(round=state.round, where=f"{state.phase.value} phase", who=armies, setup=state.scenario)


RULESET = ConquestRuleset()
RULESETS = (RULESET,)
