"""The Betrayal application: the one place that reaches the event store.

Its methods are the commands and queries of the command line and, later, the
server: set up a clash, execute a command, undo and redo, read a battle. Each
command's events, in every stream it touches, are saved in one transaction.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import NAMESPACE_URL, UUID, uuid5

from domain.kernel.application import EventSourcedApp, projector
from domain.kernel.envelope import Envelope, register_state, wrap
from domain.kernel.errors import MalformedCommand, NotFound, RuleViolation
from domain.kernel.messages import Event

from . import adventurer as adv
from . import events as ev
from .catalog import Pack
from .commands import BattleCommand, StartClash
from .context import RulesContext, context_for
from .evolve import replay
from .history import SNAPSHOT_TOPIC, Battle, project
from .packs import starter_pack
from .rules import decide, legal_commands
from .state import BattleState
from .vocab import BattleForm, Difficulty

ADVENTURER_SNAPSHOT = "betrayal.snapshot.Adventurer"
register_state(ADVENTURER_SNAPSHOT, adv.AdventurerState)


class BattleRegistered(Event, frozen=True, kw_only=True):
    """The battle index: one event per battle, in creation order."""

    TOPIC = "betrayal.BattleRegistered"
    battle_id: str
    setup: str


def battle_stream(battle_id: str) -> UUID:
    """The stream id of a battle: derived from its id, so no index is needed to find it."""
    return uuid5(NAMESPACE_URL, f"rulekeeper:betrayal:battle:{battle_id}")


def adventurer_stream(name: str) -> UUID:
    """Adventurers are found by name, case-insensitively."""
    return uuid5(NAMESPACE_URL, f"rulekeeper:betrayal:adventurer:{name.strip().lower()}")


INDEX_STREAM = uuid5(NAMESPACE_URL, "rulekeeper:betrayal:index")


@dataclass(frozen=True)
class PartySpec:
    """One party member on the command line: an existing adventurer by name,
    or a new one with a race and optional starting lines and battle form."""

    name: str
    race: str | None = None
    lines: tuple[str, ...] = ()
    form: BattleForm = BattleForm.LIGHT

    @classmethod
    def parse(cls, text: str) -> PartySpec:
        """``Name``, ``Name:race``, ``Name:race:line+line`` or with a 4th
        part, the battle form (``Tarn:dark-elf:bow+heavy-armor:ranged``)."""
        parts = [p.strip() for p in text.split(":")]
        if not parts[0] or len(parts) > 4:
            raise MalformedCommand(f"party member {text!r}: write Name[:race[:line+line[:form]]]")
        lines = tuple(x for x in parts[2].split("+") if x) if len(parts) > 2 else ()
        try:
            form = BattleForm(parts[3]) if len(parts) > 3 and parts[3] else BattleForm.LIGHT
        except ValueError:
            forms = ", ".join(f.value for f in BattleForm)
            raise MalformedCommand(f"party member {text!r}: battle form must be one of {forms}") from None
        return cls(parts[0], parts[1] if len(parts) > 1 and parts[1] else None, lines, form)


@dataclass(frozen=True)
class Result:
    """What a command did: its id, the events it produced, the state after."""

    command_id: str
    events: list[Event]
    battle: Battle


class BetrayalApp(EventSourcedApp):
    """Battles and adventurers of the Betrayal ruleset in one event store."""

    name = "rulekeeper"
    is_snapshotting_enabled = True
    snapshot_every = 150
    adventurer_snapshot_every = 50
    cached_battles = 64

    def __init__(self, store: str | None = None, env: dict[str, str] | None = None, pack: Pack | None = None):
        super().__init__(store=store, env=env)
        self.pack = pack or starter_pack()
        self._latest: OrderedDict[str, Battle] = OrderedDict()

    # -- queries -----------------------------------------------------------------

    def battle(self, battle_id: str, version: int | None = None) -> Battle:
        """The battle now, or at ``version``. The latest state of recently
        used battles is kept and fast-forwarded with whatever was appended
        since (by this process or another), one indexed read."""
        if version is None and battle_id in self._latest:
            cached = self._latest[battle_id]
            newer = self.events(battle_stream(battle_id), gt=cached.version)
            if newer:
                cached = project(cached, newer)
            self._remember(battle_id, cached)
            return cached
        try:
            found = self.load(battle_stream(battle_id), project, version)
        except NotFound:
            raise NotFound(f"no battle {battle_id!r}") from None
        if version is None:
            self._remember(battle_id, found)
        return found

    def _remember(self, battle_id: str, battle: Battle) -> None:
        self._latest[battle_id] = battle
        self._latest.move_to_end(battle_id)
        while len(self._latest) > self.cached_battles:
            self._latest.popitem(last=False)

    def context(self, state: BattleState) -> RulesContext:
        if state.pack_hash != self.pack.hash:
            raise NotFound(f"battle {state.battle_id} was played with pack {state.pack_id} ({state.pack_hash}); that pack is not loaded")
        return context_for(self.pack, state.setup)

    def legal(self, battle_id: str) -> list[BattleCommand]:
        state = self.battle(battle_id).state
        return legal_commands(state, self.context(state))

    def adventurer(self, name: str, version: int | None = None) -> adv.AdventurerState:
        try:
            return self.load(adventurer_stream(name), projector(adv.evolve_adventurer), version)
        except NotFound:
            raise NotFound(f"no adventurer named {name!r}") from None

    def battles(self) -> list[BattleRegistered]:
        """Every battle in creation order."""
        return [e.event for e in self.events(INDEX_STREAM)]

    def registration(self, battle_id: str, setup: str, command_id: str) -> list[Envelope]:
        """The battle-index entry to append with a new battle's events."""
        last = self.events.last(INDEX_STREAM)
        after = last.originator_version if last else 0
        return wrap(INDEX_STREAM, after, [BattleRegistered(battle_id=battle_id, setup=setup)], command_id)

    def latest_battle(self) -> str:
        """The battle created last: what a command acts on by default. Reads
        only the index's newest event, so it costs the same however many
        battles the store holds."""
        last = self.events.last(INDEX_STREAM)
        if last is None:
            raise NotFound("there is no battle yet: start one with `rk new`")
        return last.event.battle_id

    def stream(self, battle_id: str) -> list[Envelope]:
        return self.events(battle_stream(battle_id))

    # -- commands ----------------------------------------------------------------

    def new_clash(
        self, *, setup: str, party: Sequence[PartySpec], xp: int, seed: int,
        battle_id: str | None = None, difficulty: Difficulty = Difficulty.ADEPT,
        physical_dice: bool = False, placements: tuple = (),
    ) -> Result:
        """Set up a clash; new adventurers in ``party`` are created in the
        same transaction."""
        battle_id = battle_id or f"b{seed}-{self.max_notification_id() + 1}"
        stream = battle_stream(battle_id)
        if self.events(stream, lte=1):
            raise MalformedCommand(f"battle {battle_id!r} already exists")
        envelopes: list[Envelope] = []
        members = []
        for spec in party:
            state, created = self._join(spec)
            if created is not None:
                envelopes += wrap(adventurer_stream(spec.name), 0, [created], "c1")
            members.append(adv.member(state, spec.form))
        cmd = StartClash(
            battle_id=battle_id, setup=setup, party=tuple(members), xp=xp, seed=seed,
            difficulty=difficulty, physical_dice=physical_dice, placements=tuple(placements),
        )
        if setup not in self.pack.setups:
            raise MalformedCommand(f"no setup {setup!r}; choose one of {', '.join(self.pack.setups)}")
        produced = decide(None, cmd, context_for(self.pack, setup))
        issued = ev.CommandIssued(command_id="c1", command=cmd)
        envelopes += wrap(stream, 0, [issued, *produced], "c1")
        envelopes += self.registration(battle_id, setup, "c1")
        self.append(envelopes)
        return Result("c1", [issued, *produced], self.battle(battle_id))

    def _join(self, spec: PartySpec) -> tuple[adv.AdventurerState, Event | None]:
        try:
            existing = self.adventurer(spec.name)
        except NotFound:
            existing = None
        if existing is not None:
            if spec.race and spec.race != existing.race:
                raise MalformedCommand(f"an adventurer named {existing.name} already exists ({existing.race}); pick another name")
            return existing, None
        if not spec.race:
            raise MalformedCommand(f"no adventurer named {spec.name!r}; give a race to create one (Name:race)")
        created = adv.create(self.pack, str(adventurer_stream(spec.name)), spec.name, spec.race, spec.lines)
        return created.state, created

    def execute(self, battle_id: str, command: BattleCommand, *, redo_of: str = "") -> Result:
        """Decide ``command`` against the battle and save what it produced.
        Refused commands raise and write nothing."""
        battle = self.battle(battle_id)
        state = battle.state
        produced = decide(state, command, self.context(state))
        command_id = f"c{battle.version + 1}"
        written: list[_Written] = []
        if any(isinstance(e, ev.BattleEnded) for e in produced):
            final = replay(produced, state)  # write each adventurer's result back
            written = [self._write(UUID(h.adventurer_id), adv.concluded(final, h), command_id) for h in final.heroes]
        issued = ev.CommandIssued(
            command_id=command_id, command=command, redo_of=redo_of,
            touched=tuple((str(w.stream), w.version_before) for w in written),
        )
        result = self._commit(battle_id, battle, [issued, *produced], command_id, written)
        return Result(command_id, [issued, *produced], result)

    def undo(self, battle_id: str, *, force: bool = False) -> Result:
        """Revert the last command in every stream it touched (DESIGN: Undo).
        A command that revealed a roll or a draw is a barrier: ``force``."""
        battle = self.battle(battle_id)
        if not battle.done or isinstance(battle.done[-1].command, StartClash):
            raise RuleViolation("UNDO-1", "there is nothing to undo (the setup itself cannot be undone; start a new battle)")
        last = battle.done[-1]
        if last.random and not force:
            raise RuleViolation("UNDO-2", f"{type(last.command).__name__} revealed dice or a draw; undo it with --force (the audit marks it)")
        restored = self.battle(battle_id, version=last.version_before).state
        command_id = f"u{battle.version + 1}"
        undone = ev.CommandUndone(command_id=last.command_id, restored=restored, forced=last.random)
        written = [
            self._write(UUID(sid), adv.AdventurerRestored(
                command_id=last.command_id, restored=self.adventurer_state_at(UUID(sid), version_before),
            ), command_id)
            for sid, version_before in last.touched
        ]
        result = self._commit(battle_id, battle, [undone], command_id, written)
        return Result(command_id, [undone], result)

    def _write(self, stream: UUID, event: Event, command_id: str) -> _Written:
        """One event for an adventurer stream, with the state it leads to."""
        version, state = self.load(stream, _versioned_adventurer)
        envelope = wrap(stream, version, [event], command_id)[0]
        return _Written(stream, version, envelope, adv.evolve_adventurer(state, event))

    def _commit(self, battle_id: str, battle: Battle, events: list[Event], command_id: str,
                written: list[_Written]) -> Battle:
        """Save a command's events in every stream at once, then fold them
        into the battle already in hand rather than reading it back."""
        own = wrap(battle_stream(battle_id), battle.version, events, command_id)
        self.append(own + [w.envelope for w in written])
        result = project(battle, own)
        self._remember(battle_id, result)
        if result.version // self.snapshot_every > battle.version // self.snapshot_every:
            self.save_snapshot(battle_stream(battle_id), result.version, result, SNAPSHOT_TOPIC)
        for w in written:
            if (w.version_before + 1) % self.adventurer_snapshot_every == 0:
                self.save_snapshot(w.stream, w.version_before + 1, w.state, ADVENTURER_SNAPSHOT)
        return result

    def redo(self, battle_id: str) -> Result:
        """Re-apply the most recently undone command, while nothing new was
        done since. The RNG counter came back with the undo, so the same
        command rolls the same faces."""
        battle = self.battle(battle_id)
        if not battle.undone:
            raise RuleViolation("REDO-1", "there is nothing to redo")
        last = battle.undone[-1]
        return self.execute(battle_id, last.command, redo_of=last.command_id)

    def adventurer_state_at(self, stream: UUID, version: int) -> adv.AdventurerState:
        return self.load(stream, projector(adv.evolve_adventurer), version)


@dataclass(frozen=True)
class _Written:
    """An event a command writes to another stream (an adventurer's)."""

    stream: UUID
    version_before: int
    envelope: Envelope
    state: adv.AdventurerState


def _versioned_adventurer(state, items):
    """Project an adventurer stream to (version, state)."""
    version, current = (state if state else (0, None))
    for item in items:
        version = item.originator_version
        current = item.state if not isinstance(item, Envelope) else adv.evolve_adventurer(current, item.event)
    return None if current is None else (version, current)


