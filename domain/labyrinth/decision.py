"""A decision in progress: the events a command produces so far and the
state they lead to. Randomness only through ``roll`` and ``pick``, derived
from (seed, counter) by ``domain.kernel.rng``; the caller writes the
outcome and its counter into an event, and ``evolve`` moves the counter on."""

from __future__ import annotations

from collections.abc import Callable

from dataclasses import dataclass

from domain.kernel import rng
from domain.kernel.errors import RuleViolation

from .catalog import Pack
from msgspec.structs import replace

from .event_base import Rolled
from .events import LabyrinthEvent
from .evolve import evolve
from .state import LabyrinthState
from .vocab import DIE


class NeedReaction(Exception):
    """Raised where a step needs a choice made by hand that has not been
    given yet: a passive action against an attack roll on ``who``
    (``ask_passives``), or (``kind`` "fp") the FP ``who`` spends on its
    ``check`` (``ask_fp``). The step being resolved is set aside and the
    question asked (``reactions.py``). ``kind`` "faces": ``who``'s roll of
    ``dice`` D6 under ``rule`` waits for the faces typed off real dice."""

    def __init__(
        self,
        who: str,
        attacker: str = "",
        mode: str = "",
        skills: tuple[str, ...] = (),
        kind: str = "passive",
        check: str = "",
        dice: int = 0,
        rule: str = "",
    ) -> None:
        super().__init__(f"{who} is asked: {kind} {check or attacker}")
        self.who, self.attacker, self.mode, self.skills = who, attacker, mode, skills
        self.kind, self.check, self.dice, self.rule = kind, check, dice, rule


@dataclass(frozen=True)
class Boost:
    """What ``who`` spends on the first check of its Main action (``fp``'s
    rules; kept here, where the decision carries it)."""

    who: str
    dice: int = 0
    reroll: bool = False


@dataclass(frozen=True)
class RulesContext:
    """What the rules read besides the state: the content pack."""

    pack: Pack


class Decision:
    """Collects events and keeps the state they produce."""

    def __init__(
        self,
        state: LabyrinthState | None,
        ctx: RulesContext,
        on_critical: Callable[[Decision, str, str], None] | None = None,
    ) -> None:
        # None only while setup decides, until its first event: every other rule reads a
        # battle set up, and typing the state Optional would put a check into each of them
        self.state: LabyrinthState = state  # type: ignore[assignment]
        self.ctx = ctx
        # What a critical sets off at once (CRIT-3): given by the caller, so the
        # attack roll need not import the skills that a critical may run.
        self.on_critical = on_critical
        self.pack = ctx.pack
        self.events: list[LabyrinthEvent] = []
        # Who has had the first action check of the current Main action: FP
        # from 1s comes only from that one (facts: Fills FUMBLE-2).
        self.fp_given: set[str] = set()
        # An on-critical skill is triggering: its own criticals trigger nothing (CRIT-3, no chain).
        self.triggering = False
        # FP a PC committed to the first check of its Main action, until rolled.
        self.boost: Boost | None = None
        # Answers given by hand for the step being resolved (``state.Answer``), in the order asked,
        # and how many are used.
        self.answers: tuple = ()
        self.asked = 0
        # Faces the command gave for its first roll (``--faces``, physical dice), until rolled.
        self.carried: tuple[int, ...] | None = None

    def emit(self, event: LabyrinthEvent) -> None:
        if isinstance(event, Rolled) and self.state.options.physical_dice:
            # with physical dice every D6 of the battle is typed (``roll``): marked once, here
            event = replace(event, typed=True)
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, n: int, *, who: str = "", rule: str = "", what: str = "") -> tuple[tuple[int, ...], int]:
        """``n`` D6 faces (1 to 6) at the current counter, and that counter.
        With physical dice the faces are those typed for this roll (``who``
        rolls them for ``what``, under ``rule``), asked for if not given yet."""
        counter = self.state.rng
        if self.state.options.physical_dice:
            return self.typed(n, who, rule, what), counter
        return faces_at(self.state.seed, counter, n), counter

    def more(self, faces: tuple[int, ...], n: int, *, who: str = "", rule: str = "", what: str = "") -> tuple[int, ...]:
        """``faces`` and ``n`` more dice after them: from the same counter,
        further on (so a log rolled before reads the same), or typed."""
        if self.state.options.physical_dice:
            return faces + self.typed(n, who, rule, what)
        return faces_at(self.state.seed, self.state.rng, len(faces) + n)

    def typed(self, n: int, who: str, rule: str, what: str) -> tuple[int, ...]:
        """The next faces typed for a roll of ``n`` dice (checked against the
        question when they were given, ``rules.py``), or ``NeedReaction``."""
        if n <= 0:
            return ()
        if self.carried is not None:
            faces, self.carried = self.carried, None
        elif self.asked >= len(self.answers):
            raise NeedReaction(
                who or self.state.acting or self.state.side(True)[0].id, kind="faces", check=what, dice=n, rule=rule
            )
        else:
            faces = tuple(self.answers[self.asked].faces)
            self.asked += 1
        # faces a command carried (``--faces`` on attack, skill) are checked here, at their roll
        if len(faces) != n:
            raise RuleViolation(rule, f"the roll ({what}) is {n} D6: type {n} faces, not {len(faces)}")
        wrong = [f for f in faces if not 1 <= f <= DIE]
        if wrong:
            raise RuleViolation(rule, f"a D6 shows 1 to {DIE}, not {wrong[0]}")
        return faces

    def pick(self, among: tuple[str, ...]) -> tuple[str, int]:
        """One of ``among``, uniformly, at the current counter, and that counter."""
        counter = self.state.rng
        return among[pick_at(self.state.seed, counter, len(among))], counter

    def fp_for(self, who: str, faces: tuple[int, ...]) -> int:
        """FP gained from this check's 1s: once per Main action per character."""
        if who in self.fp_given:
            return 0
        self.fp_given.add(who)
        return faces.count(1)


def faces_at(seed: int, counter: int, n: int) -> tuple[int, ...]:
    """The ``n`` D6 faces the RNG gives from ``counter`` on (verify uses it too)."""
    return tuple(rng.draw(seed, counter + i, DIE) + 1 for i in range(n))


def pick_at(seed: int, counter: int, n: int) -> int:
    """The index of a uniform pick among ``n`` at ``counter``."""
    return rng.draw(seed, counter, n)
