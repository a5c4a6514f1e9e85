"""The one narration of a game: each event as a line, folded as it goes.

Every ruleset's log reads the same way: what a player gave, as the line
that gives it (``rk march a1 --inches 6``), then what happened, each event
under the rule it applies (``ARRIVE-2: a1 marches 6"...``), as the
ruleset's narrator (``Ruleset.describe_event``) says it. An undo is the
kernel's own (UNDO-1, UNDO-2: our rule IDs), said the same way for every
ruleset. `rk log`, `rk audit`, a command's answer and the server's log and
live feed all narrate through ``Narrator``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import fairness
from domain.kernel.commandlog import LAST_COMMAND, CommandIssued, CommandUndone
from domain.kernel.position.messages import PositionTaken

UNDONE = "UNDO-1"  # undo the last command (RULES-COVERAGE.md: the kernel's own rule IDs)
FORCED = "UNDO-2"  # past a command that revealed dice or a draw, with force
_STAND_IN = (1 << 63) - 1  # the seed a command is spelled with where its reader may not see it


def given(rs: Any, event: CommandIssued) -> str:
    """The line of a command as given: ``rk`` and the words that give it."""
    return f"rk {rs.describe_command(event.command)}" + (" (redone)" if event.redo_of else "")


def seed_words(event: CommandIssued, commitment: bool = False) -> str:
    """What a command's line adds about the seed (``domain.kernel.fairness``):
    the seed and salt the command that ended the game revealed; with
    ``commitment``, the setup's commitment (where the line hides the seed:
    what its reader can check the reveal against)."""
    if event.commitment:
        return f" · {fairness.committed_words(event.commitment)}" if commitment else ""
    if event.revealed is not None:
        return f" · {fairness.revealed_words(event.revealed)}"
    return ""


def undone(event: CommandUndone, words: str = LAST_COMMAND, state: Any = None, rs: Any = None) -> str:
    """The line of an undo: the command it reverted (``words``, as given),
    and where the game is back to."""
    back = 0
    if rs is not None and event.restored is not None:
        back = rs.summary(event.restored).round
    return undone_words(event.forced, back, words)


def undone_words(forced: bool, back: int, words: str = LAST_COMMAND) -> str:
    """``undone``'s line from what it reads of the undo: whether it was
    forced and the round it goes back to (0: none said)."""
    where = f"; back to round {back}" if back else ""
    if forced:
        return f"{FORCED}: {words} is reverted with force, past the dice or draw it revealed{where}"
    return f"{UNDONE}: {words} is reverted{where}"


def cited(rs: Any, event: Any) -> str:
    """The rule an event's line leads with ("" when none does)."""
    if isinstance(event, CommandUndone):
        return FORCED if event.forced else UNDONE
    if isinstance(event, CommandIssued):
        return ""
    return rs.cited_rule(event)


def line(rs: Any, pack: Any, event: Any, state: Any, words: str = LAST_COMMAND) -> str:
    """One readable line for ``event`` of a game of ``rs`` in ``state`` (the
    state just before it, or None where none is at hand, as in the audit)."""
    if isinstance(event, CommandIssued):
        return given(rs, event) + seed_words(event)
    if isinstance(event, CommandUndone):
        return undone(event, words, state, rs)
    if isinstance(event, PositionTaken):
        return taken(rs, event)
    return rs.describe_event(event, state, pack)


def taken(rs: Any, event: PositionTaken) -> str:
    """The line of a game set up from a position: where it stands."""
    at = rs.summary(event.state)
    return f"Set up from a position: round {at.round}, {at.where}."


def placed(rs: Any, stream: Any, state: Any) -> str:
    """The line of another stream a position puts where it says (its
    aggregate's restore event, which is no undo there): ``Ysolda, as the
    position has it``."""
    _, _, name = rs.position_streams(state).get(stream, "stream:").partition(":")
    return f"{name or stream}, as the position has it"


_TOLD: dict[type, bool] = {}  # whether events of a class are the ruleset's to tell (``Narrator``)


class Narrator:
    """Narrates a game's events in order, folding each into ``state`` (the
    game just before the next one). ``words(command_id)``: how an undo
    names the command it reverted (default: "the last command").
    ``hidden(command, state)``: whether a command says what the rules hide
    from the one reading (SEAT-5): it is then named by its verb alone.
    ``secret_seed``: the reader is not the host and the game goes on, so
    the seed is shown as ``(hidden)`` wherever a line would say it
    (``domain.kernel.fairness``). ``spelled(event)``: a command's line as
    given (``given``) where the caller has it already, or None."""

    def __init__(
        self,
        rs: Any,
        pack: Any,
        state: Any = None,
        words: Callable[[str], str] | None = None,
        hidden: Callable[[Any, Any], bool] | None = None,
        *,
        secret_seed: bool = False,
        spelled: Callable[[CommandIssued], str | None] | None = None,
    ) -> None:
        self.rs = rs
        self.pack = pack
        self.state = state
        self.words = words
        self.hidden = hidden
        self.secret_seed = secret_seed
        self.spelled = spelled
        # Looked up once, not for every event of a long log.
        self._tell = rs.teller()
        self._evolve = rs.evolve

    def __call__(self, event: Any) -> str:
        """``event``'s line, then the state moves past it."""
        cls = type(event)
        told = _TOLD.get(cls)
        if told is None:
            told = _TOLD[cls] = not issubclass(cls, (CommandIssued, CommandUndone, PositionTaken))
        if told and not self.secret_seed:  # most events: told by the ruleset's narrator, then folded
            state = self.state
            text = self._tell(event, state, self.pack)
            self.state = self._evolve(state, event)
            return text
        rs, state = self.rs, self.state
        if isinstance(event, CommandIssued):
            if self.hidden is not None and self.hidden(event.command, state):
                text = f"rk {rs.describe_command(event.command).split(' ')[0]} (hidden from you)"
            elif self.secret_seed and fairness.seed_of(event.command) is not None:
                # Spelled with a stand-in seed (a command's grammar writes a number), then worded.
                stand_in = msgspec.structs.replace(
                    event, command=msgspec.structs.replace(event.command, seed=_STAND_IN)
                )
                text = given(rs, stand_in).replace(str(_STAND_IN), fairness.HIDDEN)
            else:
                text = (self.spelled(event) if self.spelled is not None else None) or given(rs, event)
            text += seed_words(event, commitment=self.secret_seed)
        elif isinstance(event, CommandUndone):
            words = self.words(event.command_id) if self.words is not None else LAST_COMMAND
            text = undone(event, words, state, rs)
            self.state = event.restored
        elif isinstance(event, PositionTaken):
            text = taken(rs, event)
            self.state = rs.evolve(state, event)
        else:
            shown = fairness.hide_seed(event) if self.secret_seed else event
            text = rs.describe_event(shown, fairness.hide_seed(state) if self.secret_seed else state, self.pack)
            self.state = rs.evolve(state, event)
        return text
