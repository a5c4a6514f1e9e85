"""One game of a log as a verifying pass replays it: its rules and pack,
the game so far, a digest of it after each command (what an undo must
restore), the last few states whole, and its seed's commitment. A log
holds one game; a group log (``portable.group``) several, whose commands
interleave and who share the other streams."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from domain.kernel.commandlog import CommandIssued, Game, fold
from domain.kernel.errors import LogError
from domain.kernel.portable.chain import state_digest
from domain.kernel.portable.diff import Found, divergence
from domain.kernel.portable.history import OtherStreams
from domain.kernel.portable.reader import Entry
from domain.kernel.portable.redecide import Referee, Step
from domain.kernel.portable.seed import SeedCheck
from domain.kernel.portable.undo import check_undone
from domain.kernel.ruleset import Ruleset

# The state attributes the header repeats (the ruleset contract).
STATE_KEYS = ("battle_id", "rules_version", "pack_id", "pack_hash")
# Game states kept whole for the wording of an UNDO divergence (a digest of
# every other one is kept: an undo is checked against it).
RECENT_STATES = 16


class Play:
    """One game of a log: ``entry`` is what the header says of it (a
    group log's ``games`` entry), ``label`` its id in a group log ("" in a
    game's own log, where divergences need not say which game)."""

    def __init__(self, rs: Ruleset, pack: Any, entry: dict[str, Any], others: OtherStreams, label: str) -> None:
        self.rs = rs
        self.pack = pack
        self.entry = entry
        self.others = others
        self.label = label
        self.referee = Referee(rs, pack, others.companion, prefix=f"{label}: " if label else "")
        self.game: Game | None = None
        # Each version's digest as its 16 bytes (not 32 hex digits): verify
        # keeps one per version of every game, for the undos still to come.
        self.digests: dict[int, bytes] = {0: bytes.fromhex(state_digest(None))}
        self.recent: OrderedDict[int, Any] = OrderedDict()
        self.seed = SeedCheck()
        self.setup_name = ""

    @property
    def of(self) -> str:
        """`` of game ID`` in a group log, for messages."""
        return f" of game {self.label}" if self.label else ""

    def setup_opens(self, first: Entry) -> None:
        """The game stream must open with a setup command."""
        rs = self.rs
        if not (isinstance(first.event, CommandIssued) and isinstance(first.event.command, rs.setup_commands)):
            setups = " or ".join(c.__name__ for c in rs.setup_commands)
            raise LogError(first.line, f"the {rs.game_kind} stream{self.of} must open with the {setups} command")

    def close(self, group: list[Entry], writes: list[Entry], prelude: list[Entry]) -> None:
        """Check one command of the game, all its lines: ``prelude`` holds
        the lines a setup wrote before its own."""
        rs = self.rs
        before = self.game
        try:
            after = fold(rs, before, [e.envelope for e in group])
        except Exception as e:  # noqa: BLE001 - a log's events may be anything
            after, error = None, f"the game cannot replay this command's events: {e!r}"
        else:
            error = "the game has no state after this command"
        if before is None:
            if after is None:
                raise LogError(group[0].line, f"the setup{self.of} does not replay: {error}")
            self._check_setup_state(group, after)
        if after is None:
            raise Found(divergence(group[0].line, None, "REPLAY", "events that replay", error))
        step = Step(group, before, after, writes)
        label = self.referee.label
        found = [
            d
            for d in (
                self.others.check_prelude(step, prelude, label),
                self._check_command(step),
                self.others.replay_writes(step, self.referee.spell),
                self.seed.check(rs, step, label),
            )
            if d is not None
        ]
        if found:
            raise Found(min(found, key=lambda d: d.line))  # min() keeps the first of a tie
        self.game = after
        self.digests[after.version] = bytes.fromhex(state_digest(after.state))
        self.recent[after.version] = after.state
        if len(self.recent) > RECENT_STATES:
            self.recent.popitem(last=False)

    def _check_setup_state(self, group: list[Entry], after: Game) -> None:
        """The setup's outcome is the game the header names."""
        for key in STATE_KEYS:
            if getattr(after.state, key, None) != self.entry[key]:
                raise LogError(
                    group[-1].line,
                    f"the setup's {key} {getattr(after.state, key, None)!r} is not the header's {self.entry[key]!r}",
                )
        command = group[0].event.command
        self.setup_name = str(getattr(command, "setup", "") or getattr(command, "scenario", ""))

    def _check_command(self, step: Step) -> Any:
        head = step.group[0]
        if isinstance(head.event, CommandIssued):
            found = self.referee.check_issued(step)
        else:
            found = check_undone(step, self.referee.spell, self.digests, self.recent)
        if found:
            return found
        # Ids are given by the application (c or u and the version of the
        # command's first line): one edited by hand is an edit.
        expected_id = ("c" if isinstance(head.event, CommandIssued) else "u") + str(head.envelope.originator_version)
        if head.envelope.command_id != expected_id:
            return divergence(
                head.line,
                None,
                "LOG",
                f"command id {expected_id!r} (c or u and the version of its first line)",
                f"command id {head.envelope.command_id!r}",
            )
        return None

    def check_digest(self) -> None:
        """In a group log: the game replays to the digest its entry names."""
        assert self.game is not None
        digest = state_digest(self.game.state)
        if digest != self.entry["final_state_digest"]:
            raise Found(
                divergence(
                    1,
                    None,
                    "DIGEST",
                    f"final_state_digest {digest} of game {self.label} (its replayed final state)",
                    self.entry["final_state_digest"],
                )
            )
