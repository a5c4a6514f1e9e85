"""Verifying a log: one pass over its lines that re-decides every command
with the current rules of its ruleset (``redecide``), checks what undos
restore (``undo``), the other streams' lines (``history``) and how the
log ends (``trailer``), and reports the first place the log and the
rules part ways."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from domain.kernel import fairness
from domain.kernel.commandlog import CommandIssued, CommandUndone, Game, fold
from domain.kernel.errors import LogError
from domain.kernel.games import GameApp
from domain.kernel.portable.chain import state_digest
from domain.kernel.portable.diff import Divergence, Found, divergence, reason
from domain.kernel.portable.export import export_lines
from domain.kernel.portable.history import OtherStreams
from domain.kernel.portable.parse import Source, opened, read_lines
from domain.kernel.portable.progress import Progress, ticking
from domain.kernel.portable.reader import ChainBroken, Entry, Reader
from domain.kernel.portable.redecide import Referee, Step
from domain.kernel.portable.trailer import check_end
from domain.kernel.portable.undo import check_undone
from domain.kernel.ruleset import Ruleset

# The state attributes the header repeats (the ruleset contract).
_STATE_KEYS = ("battle_id", "rules_version", "pack_id", "pack_hash")
# Game states kept whole for the wording of an UNDO divergence (a digest of
# every other one is kept: an undo is checked against it).
_RECENT_STATES = 16


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of verifying a log: ``ok`` when nothing diverges.
    ``signed_by``: the public key (hex) whose signature over the log
    checked, "" when it is not signed."""

    ok: bool
    lines: int
    commands: int
    divergence: Divergence | None = None
    signed_by: str = ""
    seed: str = ""  # what became of the commitment to the seed (``domain.kernel.fairness``)

    def summary(self) -> str:
        """One or two lines a person can read."""
        if self.divergence is None:
            signed = f"; signed by key {self.signed_by}" if self.signed_by else "; not signed"
            seed = f"\n  {self.seed}" if self.seed else ""
            return f"ok: {self.lines} lines, {self.commands} commands checked, no divergence{signed}{seed}"
        d = self.divergence
        where = f"line {d.line}"
        if d.command_id:
            where += f", command {d.command_id}" + (f" ({d.command})" if d.command else "")
        return f"{where}: {d.rule}: expected {d.expected},\n  found {d.found}"


def verify_battle(app: GameApp, battle_id: str, *, key: str | None = None,
                  progress: Progress | None = None) -> Report:
    """Verify a stored game through its export (so exactly what a log
    would hold is checked), with the packs ``app`` uses, streaming.
    ``progress`` is told of the lines as they are checked (``portable.progress``)."""
    rs = app.ruleset(battle_id)
    pack = app.pack_for(rs, app.battle(battle_id).state)  # the game's own, by the hash its setup recorded
    lines = enumerate(ticking(export_lines(app, battle_id), progress), start=1)
    return Check(pack, key=key).run(lines)


def verify_log(data: Source, pack: Any = None, *, key: str | None = None,
               progress: Progress | None = None) -> Report:
    """Replay a log through the current rules of its ruleset, one line at a
    time, and report the first divergence: a malformed line (FORMAT), a
    broken hash chain (CHAIN: a line edited, deleted, moved or repeated, at
    the first line that does not chain), another content pack (PACK), a
    command the rules now refuse (its rule ID) or decide otherwise, a die
    face or draw the RNG would not give (RNG), a setup whose adventurers or
    party the rules would not make (SETUP), a line of another stream the
    rules would not write (HISTORY), an undo that does not restore the
    earlier state (UNDO), a write to another stream that is not the
    command's (WRITE), a log that ends without its trailer (CUT) or whose
    trailer does not close it (TRAILER), a final state digest that differs
    (DIGEST), and a signature that does not check (SIGNATURE). ``key``: the
    public key (hex) the log must be signed with. ``pack`` defaults to the
    ruleset's own. ``data``: bytes, a path or a binary file. ``progress``
    is told of the lines as they are checked (``portable.progress``)."""
    with opened(data) as f:
        return Check(pack, key=key).run(ticking(read_lines(f), progress))


def _unreadable(error: LogError) -> Divergence:
    """A line that cannot be read, or does not chain from the line before,
    ends verification."""
    if isinstance(error, ChainBroken):
        return error.divergence
    return divergence(error.line, None, "FORMAT", "a well-formed log line", error.reason)


class Check:
    """Verifies a log in one pass over its lines, holding only the command
    being checked, the game so far, a digest of the game after each command
    (what an undo must restore) and the other streams' states (``history``).

    A command's lines are checked once its last line is read (the next
    command, a line of no command, or the trailer). Within a command the
    divergence on the earliest line is reported; a command's lines all come
    after the previous command's, so the first command that diverges holds
    the log's first divergence. A line that does not chain from the one
    before ends the pass: the command it would close is not judged, the
    break is. With ``strict`` (import) a problem raises LogError instead:
    a line that cannot be read with the reader's words, any divergence
    (a broken chain too) as its rule and words. ``pack_of(ruleset,
    pack_hash)`` finds the pack the header names when none is given (None,
    or no ``pack_of``: the ruleset's own); ``on_header`` is called with
    the ruleset and the header once the header is read (import refuses a
    log whose streams exist).
    """

    def __init__(self, pack: Any, *, strict: bool = False, key: str | None = None,
                 pack_of: Callable[[Ruleset, str], Any] | None = None,
                 on_header: Callable[[Ruleset, dict[str, Any]], None] | None = None) -> None:
        self.pack = pack
        self.strict = strict
        self.key = key
        self.pack_of = pack_of
        self.on_header = on_header
        self.reader = Reader()
        self.rs: Ruleset | None = None
        # ``referee`` and ``others`` are set when the setup's line opens the
        # game (``_setup_opens``); every line that reads them comes after it.
        self.referee: Referee
        self.others: OtherStreams
        self.commands = 0
        self.game: Game | None = None
        self.group: list[Entry] = []  # the game-stream lines of the command being read
        self.writes: list[Entry] = []  # its lines in other streams, after them
        self.closed = True  # no command is open to take writes
        self.digests: dict[int, str] = {0: state_digest(None)}
        self.recent: OrderedDict[int, Any] = OrderedDict()
        self.trailer: dict[str, Any] | None = None
        self.setup_name = ""
        self.signed_by = ""
        self.seed = SeedCheck()

    # -- the pass --------------------------------------------------------------

    def run(self, lines: Iterable[tuple[int, bytes]]) -> Report:
        try:
            try:
                for n, item in self.reader.read(lines):
                    if n == 1:
                        self._header()
                    elif isinstance(item, Entry):
                        self._entry(item)
                    elif item is not None:
                        self.trailer = item
                        self._close()
                if self.reader.lines == 0:
                    raise LogError(1, "the log is empty")
                self._end()
            except LogError as e:
                if self.strict:
                    raise
                return self._report(_unreadable(e))
        except Found as f:
            if self.strict:
                raise LogError(f.divergence.line, reason(f.divergence)) from None
            return self._report(f.divergence)
        return self._report(None)

    def _report(self, found: Divergence | None) -> Report:
        return Report(ok=found is None, lines=self.reader.lines, commands=self.commands, divergence=found,
                      signed_by=self.signed_by if found is None else "",
                      seed=self.seed.words() if found is None and self.rs is not None else "")

    def _header(self) -> None:
        header, rs = self.reader.header, self.reader.ruleset
        assert rs is not None
        self.rs = rs
        if self.pack is None:
            found = self.pack_of(rs, header["pack_hash"]) if self.pack_of is not None else None
            self.pack = found if found is not None else rs.pack()
        if header["pack_hash"] not in rs.pack_hashes(self.pack):
            if self.strict:
                raise LogError(1, f"the log was played with pack {header['pack_id']} ({header['pack_hash']}),"
                                  f" not the loaded pack {self.pack.id} ({self.pack.hash})")
            raise Found(divergence(1, None, "PACK", f"pack {self.pack.id} ({self.pack.hash}), the one loaded",
                                   f"pack {header['pack_id']} ({header['pack_hash']}):"
                                   " the log cannot be re-decided"))
        self.others = OtherStreams(rs, self.pack, self.reader.streams)
        self.referee = Referee(rs, self.pack, self.others.companion)
        if self.on_header is not None:
            self.on_header(rs, header)

    def _entry(self, entry: Entry) -> None:
        rs = self.rs
        assert rs is not None
        if entry.stream == rs.game_kind:
            if isinstance(entry.event, (CommandIssued, CommandUndone)):
                self.commands += 1
                self._close()
                if self.game is None:
                    self._setup_opens(entry)
                self.group, self.writes, self.closed = [entry], [], False
            elif self.closed or self.writes:
                if self.game is None and not self.group:
                    self._setup_opens(entry)
                raise Found(divergence(entry.line, None, "LOG", "a game event right after its command's"
                                       " other game events", "a game event outside its command's run of lines"))
            else:
                self.group.append(entry)
        elif not self.closed and entry.envelope.command_id == self.group[0].envelope.command_id:
            self.writes.append(entry)
        elif self.game is None and not self.group:
            self.others.hold(entry)
        else:
            self._close()
            self.others.other(entry)

    def _setup_opens(self, first: Entry) -> None:
        """The game stream must open with a setup command."""
        rs = self.rs
        assert rs is not None
        if not (isinstance(first.event, CommandIssued) and isinstance(first.event.command, rs.setup_commands)):
            setups = " or ".join(c.__name__ for c in rs.setup_commands)
            raise LogError(first.line, f"the {rs.game_kind} stream must open with the {setups} command")

    def _end(self) -> None:
        rs = self.rs
        assert rs is not None
        if self.game is None and not self.group:
            raise LogError(self.reader.lines + (0 if self.trailer else 1),
                           f"the {rs.game_kind} stream is missing or has no setup")
        self.signed_by = check_end(self.reader, self.trailer, self.game, self.key)

    # -- one command -------------------------------------------------------------

    def _close(self) -> None:
        """Check the command just read, all its lines."""
        group, writes = self.group, self.writes
        self.group, self.writes, self.closed = [], [], True
        if not group:
            return
        rs = self.rs
        assert rs is not None
        before = self.game
        prelude: list[Entry] = []
        if before is None:
            prelude = self.others.split_pending(group[0])
        try:
            after = fold(rs, before, [e.envelope for e in group])
        except Exception as e:  # noqa: BLE001 - a log's events may be anything
            after, error = None, f"the game cannot replay this command's events: {e!r}"
        else:
            error = "the game has no state after this command"
        if before is None:
            if after is None:
                raise LogError(group[0].line, f"the setup does not replay: {error}")
            self._check_setup_state(group, after)
        if after is None:
            raise Found(divergence(group[0].line, None, "REPLAY", "events that replay", error))
        step = Step(group, before, after, writes)
        found = [d for d in (self.others.check_prelude(step, prelude, self.referee.label), self._check_command(step),
                             self.others.replay_writes(step, self.referee.spell),
                             self.seed.check(rs, step, self.referee.label)) if d is not None]
        if found:
            raise Found(min(found, key=lambda d: d.line))  # min() keeps the first of a tie
        self.game = after
        self.digests[after.version] = state_digest(after.state)
        self.recent[after.version] = after.state
        if len(self.recent) > _RECENT_STATES:
            self.recent.popitem(last=False)

    def _check_setup_state(self, group: list[Entry], after: Game) -> None:
        """The setup's outcome is the game the header names."""
        header = self.reader.header
        for key in _STATE_KEYS:
            if getattr(after.state, key, None) != header[key]:
                raise LogError(group[-1].line, f"the setup's {key} {getattr(after.state, key, None)!r}"
                                               f" is not the header's {header[key]!r}")
        command = group[0].event.command
        self.setup_name = str(getattr(command, "setup", "") or getattr(command, "scenario", ""))

    def _check_command(self, step: Step) -> Divergence | None:
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
            return divergence(head.line, None, "LOG", f"command id {expected_id!r}"
                              " (c or u and the version of its first line)",
                              f"command id {head.envelope.command_id!r}")
        return None


class SeedCheck:
    """The commitment to a game's seed against its reveal
    (``domain.kernel.fairness``): the setup's commitment must be the hash
    of the seed the game was set up with and its salt (SEED-1); the command
    that ends the game reveals the seed and salt (SEED-2), which must hash
    to the commitment (SEED-1) and be the seed every roll and draw derived
    from (SEED-2); no other command reveals it."""

    def __init__(self) -> None:
        self.commitment = ""
        self.committed_at = 0
        self.revealed_at = 0

    def check(self, rs: Ruleset, step: Step, label: Callable[[CommandIssued], Any]) -> Divergence | None:
        head = step.group[0]
        issued = head.event
        if not isinstance(issued, CommandIssued):
            if self.revealed_at and step.after is not None and not rs.summary(step.after.state).over:
                self.revealed_at = 0  # a forced undo took the end back: the game goes on, with its seed known
            return None
        if not (self.commitment or issued.commitment or issued.salt or issued.revealed):
            return None  # a game set up before seeds were committed
        line, name = head.line, _Lazy(label, issued)  # spelled only for a divergence
        if step.before is None:
            return self._setup(step, issued, line, name)
        if issued.commitment or issued.salt:
            return divergence(line, name(), fairness.COMMITTED, "a commitment in the setup's line only",
                              f"commitment {issued.commitment!r} on a later command")
        ended = rs.summary(step.after.state).over and not rs.summary(step.before.state).over
        reveal = issued.revealed
        if reveal is None:
            if ended and self.commitment:
                return divergence(line, name(), fairness.REVEALED, "the seed and salt revealed with the command"
                                  " that ends the game", "no reveal")
            return None
        if not ended:
            return divergence(line, name(), fairness.REVEALED, "a reveal only with the command that ends the game",
                              f"seed {reveal.seed} revealed while the game goes on")
        if not self.commitment:
            return divergence(line, name(), fairness.COMMITTED, "a reveal only of a seed committed at the setup",
                              f"seed {reveal.seed} revealed, no commitment at the setup")
        if not fairness.matches(self.commitment, reveal.seed, reveal.salt):
            hashed = _hashed(reveal.seed, reveal.salt)
            return divergence(line, name(), fairness.COMMITTED,
                              f"a seed and salt that hash to the commitment of line {self.committed_at},"
                              f" {self.commitment}",
                              f"seed {reveal.seed} with salt {reveal.salt!r}, which hash to {hashed}: the reveal"
                              " does not match the commitment")
        used = fairness.seed_of(step.before.state)
        if reveal.seed != used:
            return divergence(line, name(), fairness.REVEALED, f"seed {used}, the one every roll and draw derived"
                              " from", f"seed {reveal.seed} revealed")
        self.revealed_at = line
        return None

    def _setup(self, step: Step, issued: CommandIssued, line: int, name: Any) -> Divergence | None:
        if issued.revealed is not None:
            return divergence(line, name(), fairness.REVEALED, "no reveal at the setup", "a reveal at the setup")
        if not issued.commitment and not issued.salt:
            return None  # set up before seeds were committed
        seed = fairness.seed_of(step.after.state)
        if seed is None or not fairness.matches(issued.commitment, seed, issued.salt):
            return divergence(line, name(), fairness.COMMITTED, "a commitment that is the hash of the game's seed"
                              " and the salt beside it",
                              f"commitment {issued.commitment!r}, but seed {seed} with salt {issued.salt!r}"
                              f" hash to {_hashed(seed, issued.salt)}")
        self.commitment, self.committed_at = issued.commitment, line
        return None

    def words(self) -> str:
        """What verification found of the seed, in a line."""
        if not self.commitment:
            return "seed: no commitment (a game set up before seeds were committed)"
        if not self.revealed_at:
            return (f"seed: committed at line {self.committed_at} ({fairness.short(self.commitment)}),"
                    " not yet revealed: the game goes on")
        return (f"seed: revealed at line {self.revealed_at}; it matches the commitment of line"
                f" {self.committed_at} ({fairness.short(self.commitment)}) and every roll and draw derived from it")


class _Lazy:
    """A command's label, spelled when first asked for."""

    def __init__(self, label: Callable[[CommandIssued], Any], issued: CommandIssued) -> None:
        self.label, self.issued = label, issued

    def __call__(self) -> Any:
        return self.label(self.issued)


def _hashed(seed: Any, salt: Any) -> str:
    try:
        return fairness.commit(int(seed), str(salt))
    except (ValueError, TypeError, OverflowError):
        return "nothing (not a seed and a salt of hex digits)"
