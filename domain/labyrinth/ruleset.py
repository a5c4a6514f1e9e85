"""The labyrinth ruleset's entry point for the kernel: one ``Ruleset``
subclass whose instance ``domain/labyrinth/__init__.py`` registers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.messages import Event
from domain.kernel.ruleset import GivesUp, Outcome, RandomCheck, Ruleset, Seat, Summary

from . import events as ev
from . import narrate, rules, seats
from .catalog import Pack
from .citations import cited_rule
from .commands import LabyrinthCommand, StartFromPosition, StartLabyrinth
from .decision import RulesContext, faces_at, pick_at
from .flow import waits_for
from .state import LabyrinthState
from .vocab import RULES_VERSION, Side


class LabyrinthRuleset(Ruleset[LabyrinthState, LabyrinthCommand, RulesContext, Pack, ev.LabyrinthEvent]):
    """An Etrian Odyssey-style labyrinth battle (NSSQ's battle chapter)."""

    name = "labyrinth"
    title = "Labyrinth TRPG battle"
    rules_version = RULES_VERSION
    game_kind = "battle"
    round_field = "turn"
    state_type = LabyrinthState
    command_type = LabyrinthCommand
    event_base = ev.LabyrinthEvent
    issued = ev.CommandIssued
    undone = ev.CommandUndone
    snapshot_topic = "labyrinth.snapshot.Game"
    aggregates = ()
    setup_commands = (StartLabyrinth, StartFromPosition)
    positioned = ev.PositionTaken

    def pack(self) -> Pack:
        from .packs import starter_pack  # written alongside; imported only when a game needs it

        return starter_pack()

    def load_pack(self, files: Mapping[str, bytes]) -> Pack:
        from .packs import parse_pack

        return parse_pack(files)

    def context(self, pack: Pack, state: LabyrinthState) -> RulesContext:
        if (pack.id, pack.hash) != (state.pack_id, state.pack_hash):
            raise NotFound(
                f"battle {state.battle_id} was played with pack {state.pack_id} "
                f"({state.pack_hash[:8]}), not {pack.id} ({pack.hash[:8]})"
            )
        return RulesContext(pack=pack)

    def setup_context(self, pack: Pack, command: LabyrinthCommand) -> RulesContext:
        if not isinstance(command, StartLabyrinth):  # the kernel asks only for its setup_commands
            raise MalformedCommand("only a StartLabyrinth sets a labyrinth battle up")
        if command.encounter not in pack.encounters:
            raise NotFound(f"no encounter {command.encounter!r} in pack {pack.id}")
        return RulesContext(pack=pack)

    # The pure function itself: replay calls it per event. It takes the labyrinth's events
    # only, where the kernel's Ruleset (not generic in its events) says Event.
    evolve = staticmethod(rules.evolve)

    def decide(self, state: Any, command: Any, ctx: RulesContext) -> Outcome:
        return Outcome(events=[*rules.decide(state, command, ctx)])

    def legal_commands(self, state: Any, ctx: RulesContext) -> list[Any]:
        return rules.legal_commands(state, ctx)

    def gives_up(self, state: Any, ctx: RulesContext, command: Any, legal: Sequence[Any]) -> tuple[GivesUp, ...]:
        """WAIT-1, STANDBY-6: Full defense gives up the Main-phase action."""
        from .commands import FullDefense

        if isinstance(command, FullDefense):
            return (GivesUp("your action in the Main phase (Waiting)", "WAIT-1"),)
        return ()

    def reveals(self, event: Event) -> bool:
        return isinstance(event, (ev.Rolled, ev.Picked)) and bool(getattr(event, "faces", True))

    def check_random(self, state: Any, event: Event) -> RandomCheck | None:
        if isinstance(event, ev.Rolled) and not event.typed:  # typed faces come off the table's dice
            expected = faces_at(state.seed, state.rng, len(event.faces))
            if event.counter != state.rng or tuple(event.faces) != expected:
                return RandomCheck(
                    expected=f"counter {state.rng}: faces {list(expected)}",
                    found=f"counter {event.counter}: faces {list(event.faces)}",
                )
        elif isinstance(event, ev.Picked):
            index = pick_at(state.seed, state.rng, len(event.among)) if event.among else -1
            pick = event.among[index] if index >= 0 else ""
            if event.counter != state.rng or event.chosen != pick:
                return RandomCheck(
                    expected=f"counter {state.rng}: {pick}", found=f"counter {event.counter}: {event.chosen}"
                )
        return None

    def describe_event(self, event: Event, state: Any, pack: Any) -> str:
        rule = cited_rule(event)
        text = narrate.describe_event(event, state)
        return f"{rule}: {text}" if rule else text

    def cited_rule(self, event: Event) -> str:
        return cited_rule(event)

    def summary(self, state: LabyrinthState) -> Summary:
        party = ", ".join(c.name for c in state.combatants if c.side is Side.PC)
        if state.termination is not None:  # the battle is over (``state.over``)
            return Summary(round=state.turn, where=state.termination.value, who=party, setup=state.encounter, over=True)
        waiting = waits_for(state)
        where = f"turn {state.turn} {state.phase.value}" + (
            f", {waiting} to act" if waiting not in ("", "standby") else ""
        )
        return Summary(round=state.turn, where=where, who=party, setup=state.encounter)

    def check_position(self, state: LabyrinthState, others: Any, pack: Pack) -> list[Any]:
        """Content ids, HP and TP, places in the rows, the side's size (``position``)."""
        from .position import flaws

        return flaws(state, pack)

    def seats(self, state: LabyrinthState) -> tuple[Seat, ...]:
        return seats.seats(state)

    def actor(self, state: LabyrinthState, command: Any) -> str | None:
        return seats.actor(state, command)


RULESET = LabyrinthRuleset()
RULESETS = (RULESET,)
