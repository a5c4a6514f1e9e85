"""Betrayal as the kernel sees it: one ``Ruleset`` that hands over its rules.

Everything game-agnostic (the command log, undo and redo, the index,
snapshots, the portable log) is the kernel's; this module only says which
of Betrayal's types and functions play each part. Its one piece of logic is
the write-back: a command that ends the battle also writes each party
member's result to that adventurer's stream (CLEANUP-3b, CLEANUP-4c).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel import rng
from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.messages import Event
from domain.kernel.ruleset import Aggregate, GivesUp, Outcome, Problem, RandomCheck, Ruleset, Summary, Write

from domain.betrayal import RULES_VERSION
from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.adventurer import events as campaign_events
from domain.betrayal.delve import aggregate as dv
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.packs.load import parse_pack, starter_pack
from domain.betrayal.vocab import DELVE_OBJECTIVES

from . import seats
from . import events as ev
from .citations import cited_rule
from .commands import BattleCommand, StartClash, StartDelve, StartDungeon, StartFromPosition
from .context import RulesContext, context_for
from .evolve import evolve
from .state import BattleState, Phase

ADVENTURERS = Aggregate(
    kind="adventurer",
    event_base=adv.AdventurerEvent,
    state_type=adv.AdventurerState,
    evolve=adv.evolve_adventurer,
    restored=lambda command_id, state: adv.AdventurerRestored(command_id=command_id, restored=state),
    snapshot_topic="betrayal.snapshot.Adventurer",
    snapshot_every=50,
    key=lambda name: name.strip().lower(),  # adventurers are found by name, in any case
    name_of=lambda event: event.state.name if isinstance(event, adv.AdventurerCreated) else None,
)


DELVES = Aggregate(
    kind="delve",
    event_base=dv.DelveEvent,
    state_type=dv.DelveState,
    evolve=dv.evolve_delve,
    restored=lambda command_id, state: dv.DelveRestored(command_id=command_id, restored=state),
    snapshot_topic="betrayal.snapshot.Delve",
    snapshot_every=50,
    key=lambda battle_id: battle_id,  # one delve per delve battle, named by the battle
    name_of=lambda event: event.state.battle_id if isinstance(event, dv.DelveBegun) else None,
)


# What a battle waits for, as `rk battles` and the lobby say it (never a phase's id).
_WAITS = {
    Phase.ADVENTURER_TURN: "an adventurer's turn",
    Phase.ENGAGE_RESOLVE: "dice to resolve",
    Phase.COMPANION_TURN: "a companion's turn",
    Phase.ENEMY_ROLL: "an enemy's roll to type",
    Phase.DEFEND: "a defense to choose",
    Phase.END_OF_ROUND: "the end of a round",
    Phase.ENDED: "over",
}


class Betrayal(Ruleset[BattleState, BattleCommand, RulesContext, Pack, ev.BattleEvent]):
    """The Elder Scrolls: Betrayal of the Second Era: clash battles and the
    adventurers who fight them."""

    name = "betrayal"
    title = "Betrayal of the Second Era"
    rules_version = RULES_VERSION
    game_kind = "battle"
    state_type = BattleState
    command_type = BattleCommand
    event_base = ev.BattleEvent
    issued = ev.CommandIssued
    undone = ev.CommandUndone
    snapshot_topic = "betrayal.snapshot.Battle"
    aggregates = (ADVENTURERS, DELVES)
    setup_commands = (StartClash, StartDelve, StartFromPosition)  # StartDungeon is a StartClash
    positioned = ev.PositionTaken
    position_hexes = frozenset({"pos", "hex", "origin", "spent", "start_positions"})

    def pack(self) -> Pack:
        return starter_pack()

    def load_pack(self, files: Mapping[str, bytes]) -> Pack:
        return parse_pack(files)

    def pack_hashes(self, pack: Pack) -> tuple[str, ...]:
        """A clash records the hash of the core files, a delve or a dungeon
        that of every file (the delve content too)."""
        return tuple(h for h in (pack.hash, pack.delve_hash, pack.campaign_hash) if h)

    def context(self, pack: Pack, state: BattleState) -> RulesContext:
        clash = state.setup in pack.setups
        # A party with campaign content records the hash of every file (setup.recorded_hash).
        if state.pack_hash not in ((pack.hash if clash else pack.delve_hash), pack.campaign_hash):
            raise NotFound(
                f"battle {state.battle_id} was played with pack {state.pack_id} ({state.pack_hash});"
                " that pack is not loaded"
            )
        if state.setup in pack.delves:
            return RulesContext(pack, state.setup)  # its Delve joins it (``joined``)
        return context_for(pack, state.setup)

    def setup_context(self, pack: Pack, command: BattleCommand) -> RulesContext:
        """The context of a setup command (the kernel hands it only those:
        ``setup_commands``)."""
        if not isinstance(command, (StartClash, StartDelve)):
            raise MalformedCommand("that command does not set up a battle: `rk new --help` lists the setups")
        if isinstance(command, StartDelve):
            if command.delve not in pack.delves:
                raise MalformedCommand(f"no delve {command.delve!r}; choose one of {', '.join(pack.delves)}")
            return RulesContext(pack, command.delve)
        setups = pack.dungeons if isinstance(command, StartDungeon) else pack.setups
        if command.setup not in setups:
            what = "dungeon" if isinstance(command, StartDungeon) else "setup"
            raise MalformedCommand(f"no {what} {command.setup!r}; choose one of {', '.join(setups)}")
        return context_for(pack, command.setup)

    def companions(self, state: BattleState, command: object = None) -> tuple[tuple[str, UUID], ...]:
        """A delve battle's rules read its Delve (the map, the deck, the skyshards)."""
        if state.objective in DELVE_OBJECTIVES:
            return ((DELVES.kind, self.stream_of(DELVES.kind, state.battle_id)),)
        return ()

    def joined(self, ctx: RulesContext, companions: Mapping[str, Any]) -> RulesContext:
        return ctx.with_delve(companions.get(DELVES.kind))

    # The pure function itself, not a method around it: replay calls it per event.
    evolve = staticmethod(evolve)

    def decide(self, state: BattleState | None, command: BattleCommand, ctx: RulesContext) -> Outcome:
        from .dispatch import decision  # the engine, imported when a command is decided: reads never pay for it

        d = decision(state, command, ctx)
        produced = d.events
        battle_id = d.state.battle_id  # a setup's own BattleStarted named it
        writes: list[Write] = []
        if d.delve_events:
            writes.append(Write(DELVES.kind, self.stream_of(DELVES.kind, battle_id), tuple(d.delve_events)))
        if state is None and isinstance(command, (StartClash, StartDelve)):
            # BETWEEN-1: a campaign's adventurers are in this battle until it ends.
            joined = (campaign_events.BattleJoined(battle_id=battle_id),)
            writes += [Write(ADVENTURERS.kind, UUID(m.adventurer_id), joined) for m in command.party if m.class_id]
        final = d.state  # the events folded as they were decided
        if any(isinstance(e, ev.BattleEnded) for e in produced):
            writes += [Write(ADVENTURERS.kind, UUID(h.adventurer_id), adv.concluded(final, h)) for h in final.heroes]
        return Outcome([*produced], tuple(writes), final if produced else None)

    def legal_commands(self, state: BattleState, ctx: RulesContext) -> list[BattleCommand]:
        from .legal import legal_commands

        return legal_commands(state, ctx)

    def gives_up(
        self, state: BattleState, ctx: RulesContext, command: BattleCommand, legal: Sequence[BattleCommand]
    ) -> tuple[GivesUp, ...]:
        """MOVE-3, EXPLORE-3, TURN-6: what a Move, an Engage, an Explore or
        ending the turn gives up (``gives_up``)."""
        from .gives_up import gives_up

        return gives_up(state, command, legal)

    def reveals(self, event: Event) -> bool:
        """A roll or a draw shows players an outcome they did not know."""
        return isinstance(
            event, (ev.DiceRolled, ev.Explored, ev.LockpickTested, ev.DiceRerolled, ev.ClassDiceRerolled)
        ) or (isinstance(event, ev.EnemyPlaced) and event.draw >= 0)

    def check_random(self, state: BattleState | None, event: Event) -> RandomCheck | None:
        if state is None:
            return None
        if isinstance(event, ev.DiceRolled) and not event.typed:
            expected = [rng.draw(state.seed, event.counter + i, 6) + 1 for i in range(len(event.dice))]
            faces = [d.face + 1 for d in event.dice]
            if faces != expected:
                return RandomCheck(
                    f"DiceRolled faces {expected} from seed {state.seed} counter {event.counter}", str(faces)
                )
            return _check_counter(state, "DiceRolled", event.counter)
        if isinstance(event, (ev.DiceRerolled, ev.ClassDiceRerolled)) and not event.typed:
            # A reroll draws one new face per die rerolled, in order, from its counter (0-based faces).
            expected = [rng.draw(state.seed, event.counter + n, 6) + 1 for n in range(len(event.positions))]
            faces = [event.dice[i].face + 1 for i in event.positions]
            if faces != expected:
                return RandomCheck(
                    f"{type(event).__name__} faces {expected} from seed {state.seed} counter {event.counter}",
                    str(faces),
                )
            return _check_counter(state, type(event).__name__, event.counter)
        if isinstance(event, ev.EnemyPlaced) and event.draw >= 0:
            return _check_counter(state, "EnemyPlaced draw", event.draw)
        if isinstance(event, ev.LockpickTested):
            attempts = tuple(
                tuple(rng.draw(state.seed, event.counter + 3 * i + j, 6) + 1 for j in range(len(a)))
                for i, a in enumerate(event.attempts)
            )
            if attempts != event.attempts:
                return RandomCheck(
                    f"lockpick dice {list(attempts)} from seed {state.seed} counter {event.counter}",
                    str(list(event.attempts)),
                )
            return _check_counter(state, "LockpickTested", event.counter)
        return None

    def describe_event(self, event: Event, state: BattleState | None, pack: Pack | None) -> str:
        return _narrator()(event, state, pack)

    def teller(self) -> Callable[[Event, BattleState | None, Pack | None], str]:
        """``narrate.describe`` itself, which ``describe_event`` hands each event to."""
        return _narrator()

    def cited_rule(self, event: Event) -> str:
        return cited_rule(event)

    def seats(self, state: BattleState) -> tuple:
        return seats.seats(state)

    def actor(self, state: BattleState, command: Any) -> str | None:
        return seats.actor(state, command)

    def check_position(self, state: BattleState, others: Sequence[Any], pack: Pack) -> list[Any]:
        """Content ids, HP, places on the board, dice and skyshards (``position``)."""
        from .position import flaws

        return flaws(state, others, pack)

    def read_models(self) -> tuple[type, ...]:
        """The cooldown track, the enemy pool, the skyshards, the adventurers
        and their XP ledgers (``read_models``)."""
        from domain.betrayal.read_models import read_models

        return read_models()

    def summary(self, state: BattleState) -> Summary:
        outcome = state.outcome
        return Summary(
            round=state.round,
            where=outcome.value if outcome is not None else _WAITS[state.phase],
            who=", ".join(h.name for h in state.heroes),
            setup=state.setup,
            over=outcome is not None,
        )

    def related_streams(self, state: BattleState) -> dict[UUID, str]:
        streams = {UUID(h.adventurer_id): f"{ADVENTURERS.kind}:{h.name}" for h in state.heroes}
        for kind, stream in self.companions(state):
            streams[stream] = f"{kind}:{state.battle_id}"
        return streams

    def check_setup(
        self, command: BattleCommand, prelude: dict[UUID, list[Event]], before: dict[UUID, object], pack: Pack
    ) -> Problem | None:
        """Each adventurer created for the battle is what ``adventurer.create``
        gives for its own name, race and lines (no stat of its own making),
        and each party member joins as ``adventurer.member`` makes it from
        the adventurer as stored (no stat carried in but its own)."""
        states = dict(before)
        for stream, events in prelude.items():
            for event in events:
                if not isinstance(event, adv.AdventurerCreated):
                    return Problem("only new adventurers written before the setup", type(event).__name__, stream)
                problem = self._check_created(stream, event, states.get(stream), pack)
                if problem:
                    return problem
                states[stream] = event.state
        if not isinstance(command, (StartClash, StartDelve)):
            return Problem("a setup command (a clash, a dungeon or a delve)", type(command).__name__)
        for m in command.party:
            try:
                state = states.get(UUID(m.adventurer_id))
            except ValueError:
                state = None
            if not isinstance(state, adv.AdventurerState):
                return Problem(
                    f"party member {m.name}: an adventurer of this log, stored before the setup",
                    f"no adventurer {m.adventurer_id} before the setup",
                )
            expected = adv.member(state, m.form, pack)
            if expected != m:
                name, want, got = _first_field(expected, m)
                return Problem(f"party member {m.name} as stored: {name} = {want}", f"{name} = {got}")
        return None

    def check_other(self, kind: str, stream: UUID, event: Event, state: object, pack: Pack) -> Problem | None:
        """An adventurer's creation from before this battle is re-derived as
        at setup; a result another battle wrote back can only be held to
        the adventurer (hit points within 0 to its maximum)."""
        if isinstance(event, adv.AdventurerCreated):
            return self._check_created(stream, event, state, pack)
        if isinstance(event, adv.BattleConcluded):
            if not isinstance(state, adv.AdventurerState):
                return Problem("a result written back to an adventurer that exists", "no adventurer yet", stream)
            if not 0 <= event.hp <= state.max_hp:
                return Problem(f"{state.name}: hp from 0 to {state.max_hp}", f"hp = {event.hp}", stream)
        return None

    def _check_created(self, stream: UUID, event: adv.AdventurerCreated, state: object, pack: Pack) -> Problem | None:
        s = event.state
        if state is not None:
            return Problem(f"{s.name}: a new adventurer", "an adventurer created again over one that exists", stream)
        if self.stream_of(ADVENTURERS.kind, s.name) != stream:
            return Problem(f"{s.name}: created in the stream of its name", f"created in stream {stream}", stream)
        try:
            again = adv.create(pack, str(stream), s.name, s.race, s.lines)
        except MalformedCommand as e:
            return Problem(f"{s.name}: an adventurer the rules can create", str(e), stream)
        if again != event:
            name, want, got = _first_field(again.state, s)
            return Problem(f"{s.name} as the rules create a {s.race}: {name} = {want}", f"{name} = {got}", stream)
        return None


def _first_field(expected: msgspec.Struct, found: msgspec.Struct) -> tuple[str, object, object]:
    """The first field where two structs of one type differ."""
    for name in expected.__struct_fields__:
        a, b = getattr(expected, name), getattr(found, name, None)
        if a != b:
            return name, a, b
    return "(a field)", expected, found


def _check_counter(state: BattleState, what: str, counter: int) -> RandomCheck | None:
    # The counter lives in the state: each outcome takes the next one, so a
    # counter skipped or used twice is an edit (after a forced undo the
    # restored state brings the counter back, which is why this compares
    # with the state and not with the last counter seen).
    if counter == state.rng:
        return None
    return RandomCheck(f"{what} at counter {state.rng} (seed {state.seed})", f"counter {counter}")


BETRAYAL = Betrayal()


@lru_cache(maxsize=1)
def _narrator() -> Callable[[Event, BattleState | None, Pack | None], str]:
    """``narrate.describe``, imported when an event is first told (`rk
    status` never pays for it) and found once: an import statement run for
    each event of a long log was a few per cent of `rk log`."""
    from .narrate import describe

    return describe
