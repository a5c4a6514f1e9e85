"""Verifying a log: one pass over its lines that re-decides every command
with the current rules of its ruleset (``redecide``), checks what undos
restore (``undo``), the other streams' lines (``history``) and how the
log ends (``trailer``), and reports the first place the log and the
rules part ways. A group log's games (``group``: a campaign with its
battles) are replayed side by side in the same pass (``play``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from domain.kernel.commandlog import CommandIssued, CommandUndone, Game
from domain.kernel.errors import LogError
from domain.kernel.games import GameApp
from domain.kernel.portable.chain import state_digest
from domain.kernel.portable.diff import Divergence, Found, divergence, reason
from domain.kernel.portable.export import export_lines
from domain.kernel.portable.history import OtherStreams
from domain.kernel.portable.play import Play
from domain.kernel.portable.parse import Source, opened, read_lines
from domain.kernel.portable.progress import Progress, ticking
from domain.kernel.portable.reader import ChainBroken, Entry, Reader
from domain.kernel.portable.trailer import check_end
from domain.kernel.ruleset import Ruleset


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


def verify_battle(app: GameApp, battle_id: str, *, key: str | None = None, progress: Progress | None = None) -> Report:
    """Verify a stored game through its export (so exactly what a log
    would hold is checked), with the packs ``app`` uses, streaming.
    ``progress`` is told of the lines as they are checked (``portable.progress``)."""
    rs = app.ruleset(battle_id)
    pack = app.pack_for(rs, app.battle(battle_id).state)  # the game's own, by the hash its setup recorded
    lines = enumerate(ticking(export_lines(app, battle_id), progress), start=1)
    return Check(pack, key=key).run(lines)


def verify_group(app: GameApp, lead_id: str, *, key: str | None = None, progress: Progress | None = None) -> Report:
    """Verify a stored group of games (a campaign with its battles) through
    its group log (``portable.group``), streaming."""
    from domain.kernel.portable.export import group_lines

    lines = enumerate(ticking(group_lines(app, lead_id), progress), start=1)
    return Check(None, key=key, pack_of=lambda rs, h: app.pack_by_hash(rs, h) or app.pack_of(rs)).run(lines)


def verify_log(data: Source, pack: Any = None, *, key: str | None = None, progress: Progress | None = None) -> Report:
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
    being checked, each game so far (``Play``: a log holds one game, a
    group log several), a digest of each game after each command (what an
    undo must restore) and the other streams' states (``history``).

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

    Lines of other streams outside any command wait until the next line
    that is not one of them: if it sets a game up, the run just before it
    with its command id is that setup's prelude, and the rest is history.
    """

    def __init__(
        self,
        pack: Any,
        *,
        strict: bool = False,
        key: str | None = None,
        pack_of: Callable[[Ruleset, str], Any] | None = None,
        on_header: Callable[[Ruleset, dict[str, Any]], None] | None = None,
    ) -> None:
        self.pack = pack
        self.strict = strict
        self.key = key
        self.pack_of = pack_of
        self.on_header = on_header
        self.reader = Reader()
        self.rs: Ruleset | None = None  # the (lead) game's ruleset
        self.plays: dict[str, Play] = {}  # game stream id -> its game, in the header's order
        self.history: dict[str, list[Any]] = {}  # shared by the games: they write the same streams
        self.commands = 0
        self.play: Play | None = None  # the game of the command being read
        self.group: list[Entry] = []  # the game-stream lines of the command being read
        self.writes: list[Entry] = []  # its lines in other streams, after them
        self.closed = True  # no command is open to take writes
        self.pending: list[Entry] = []  # other streams' lines outside any command, not judged yet
        self.trailer: dict[str, Any] | None = None
        self.signed_by = ""

    @property
    def lead(self) -> Play:
        """The log's game (a group log's lead game: the header's)."""
        assert self.rs is not None
        return self.plays[str(self.rs.game_stream(self.reader.header["battle_id"]))]

    @property
    def game(self) -> Game | None:
        """The (lead) game as replayed so far."""
        return self.lead.game if self.plays else None

    @property
    def setup_name(self) -> str:
        """The setup the (lead) game was set up with, once its setup is read."""
        return self.lead.setup_name if self.plays else ""

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
                        self._flush()
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
        seed = ""
        if found is None and self.plays:
            words = [(p.label, p.seed.words()) for p in self.plays.values()]
            seed = words[0][1] if len(words) == 1 else "\n  ".join(f"{who}: {w}" for who, w in words)
        return Report(
            ok=found is None,
            lines=self.reader.lines,
            commands=self.commands,
            divergence=found,
            signed_by=self.signed_by if found is None else "",
            seed=seed,
        )

    def _header(self) -> None:
        header, rs = self.reader.header, self.reader.ruleset
        assert rs is not None
        self.rs = rs
        if "games" in header:
            from domain.kernel.portable import group

            for game_id, (game_rs, entry) in group.check_games(header, rs).items():
                self._add(game_rs, entry, game_id)
        else:
            self._add(rs, header, "")
        if self.on_header is not None:
            self.on_header(rs, header)

    def _add(self, rs: Ruleset, entry: dict[str, Any], label: str) -> None:
        """One game of the log, as the header (or its ``games``) names it."""
        pack = self.pack
        if pack is None:
            found = self.pack_of(rs, entry["pack_hash"]) if self.pack_of is not None else None
            pack = found if found is not None else rs.pack()
        if entry["pack_hash"] not in rs.pack_hashes(pack):
            if self.strict:
                raise LogError(
                    1,
                    f"the log was played with pack {entry['pack_id']} ({entry['pack_hash']}),"
                    f" not the loaded pack {pack.id} ({pack.hash})",
                )
            raise Found(
                divergence(
                    1,
                    None,
                    "PACK",
                    f"pack {pack.id} ({pack.hash}), the one loaded",
                    f"pack {entry['pack_id']} ({entry['pack_hash']}): the log cannot be re-decided",
                )
            )
        others = OtherStreams(rs, pack, self.reader.streams, self.history)
        play = Play(rs, pack, entry, others, label)
        self.plays[str(rs.game_stream(entry["battle_id"]))] = play

    def _entry(self, entry: Entry) -> None:
        play = self.plays.get(str(entry.envelope.originator_id))
        if play is not None:
            if isinstance(entry.event, (CommandIssued, CommandUndone)):
                self.commands += 1
                self._close()
                self._flush(entry if play.game is None else None)
                if play.game is None:
                    play.setup_opens(entry)
                if self.play is not None and self.play is not play:
                    # Another game's turn: the one before keeps its digests, not its
                    # last states whole, so a long campaign holds one game's.
                    self.play.recent.clear()
                self.play, self.group, self.writes, self.closed = play, [entry], [], False
            elif self.closed or self.writes or self.play is not play:
                if play.game is None and not (self.play is play and self.group):
                    play.setup_opens(entry)
                self._flush()
                raise Found(
                    divergence(
                        entry.line,
                        None,
                        "LOG",
                        "a game event right after its command's other game events",
                        "a game event outside its command's run of lines",
                    )
                )
            else:
                self.group.append(entry)
        elif (
            not self.closed
            and entry.envelope.command_id == self.group[0].envelope.command_id
            and not self._next_prelude(entry)
        ):
            self.writes.append(entry)
        else:
            self._close()
            self.pending.append(entry)

    def _close(self) -> None:
        """Check the command just read, all its lines (``Play.close``); a
        setup takes the lines held just before it as its prelude."""
        group, writes, play = self.group, self.writes, self.play
        self.group, self.writes, self.closed = [], [], True
        if group and play is not None:
            prelude: list[Entry] = []
            if play.game is None:
                prelude, self.pending = self.pending, []
            play.close(group, writes, prelude)

    def _next_prelude(self, entry: Entry) -> bool:
        """Whether a line of the open command's id is, in a group log, the
        start of the next game's setup prelude instead: the open command is
        a setup too (setups share their id) and did not write that stream."""
        if len(self.plays) < 2 or self.play is None or self.play.game is not None:
            return False
        issued = self.group[0].event
        touched = {sid for sid, _ in getattr(issued, "touched", ())}
        return str(entry.envelope.originator_id) not in touched

    def _flush(self, setup: Entry | None = None) -> None:
        """Judge the lines outside any command read so far: as history, but
        for the prelude of ``setup`` (the run of its id just before it),
        which its game keeps to check with the setup."""
        pending, self.pending = self.pending, []
        if setup is not None:
            cut = len(pending)
            while cut and pending[cut - 1].envelope.command_id == setup.envelope.command_id:
                cut -= 1
            pending, self.pending = pending[:cut], pending[cut:]
        for entry in pending:
            self._others_of(entry).other(entry)

    def _others_of(self, entry: Entry) -> OtherStreams:
        """The other streams of the game whose ruleset knows ``entry``'s stream."""
        kind = entry.stream.partition(":")[0]
        for play in self.plays.values():
            if kind in {a.kind for a in play.rs.aggregates}:
                return play.others
        return self.lead.others

    def _end(self) -> None:
        from domain.kernel.portable import group

        if not self.plays:
            raise LogError(1, "the log has no header")
        grouped = "games" in self.reader.header
        if grouped and self.trailer is None:
            check_end(self.reader, None, "", self.key)  # a group log cut short: the cut, not the games it lost
        for play in self.plays.values():
            if play.game is None:
                raise LogError(
                    self.reader.lines + (0 if self.trailer else 1),
                    f"the {play.rs.game_kind} stream{play.of} is missing or has no setup",
                )
        if not grouped:
            final = state_digest(self.lead.game.state)  # type: ignore[union-attr]
        else:
            for play in self.plays.values():
                play.check_digest()
            final = group.group_digest([state_digest(p.game.state) for p in self.plays.values()])  # type: ignore[union-attr]
        self.signed_by = check_end(self.reader, self.trailer, final, self.key)
