"""A dropped log settled in public (the dispute page, ``POST /api/dispute``):
verify's verdict against today's rules, and the game the log tells, step
by step, each game event narrated with the board its ruleset declares
(``Surface.board``) as it stood after that event.

Nothing is stored and no token is read: the log is replayed into an
in-memory application of its own, made for the request and dropped with
it, so the answer holds nothing the log does not (a log holds every
secret of its game: the board is drawn whole, the seed as the log says
it). The replay reads the lines as they are (``Reader(chained=False)``),
past the place verify rejects them, so the page shows what the log
claims there too; it ends at the first line that cannot be read or an
event the rules cannot apply, and says why (``stopped``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel.commandlog import LAST_COMMAND, CommandIssued, CommandUndone, Game, fold
from domain.kernel.envelope import Envelope
from domain.kernel.errors import LogError
from domain.kernel.games import GameApp
from domain.kernel.narration import Narrator, given
from domain.kernel.ruleset import Ruleset

from . import tables
from .wire import VerifyAnswer

PAGE = 200  # steps whose boards one answer holds: a long game's boards come a page at a time


class DisputeStep(msgspec.Struct, kw_only=True):
    """One event of the game's stream: its version, the log's line that
    holds it, its narrated line; ``command``: a command as given;
    ``undone``: a command later undone."""

    version: int
    line: int
    text: str
    command: bool
    undone: bool = False


class DisputeAnswer(msgspec.Struct, kw_only=True):
    """A dropped log settled: verify's ``verdict``; the game's id, ruleset
    and title as its header names them; every ``steps`` the log tells;
    ``boards``, the board after each step from step ``first`` on (at most
    ``PAGE``; null: the same as the step before, or no board at all when
    the ruleset draws none); ``next``: the ``start`` of the next page of
    boards (null: none); ``divergence_step``: the step the verdict's
    divergence is at (the first at or after its line; null: none);
    ``stopped``: why the steps end before the log does ("" if they do not)."""

    verdict: VerifyAnswer
    game: str
    ruleset: str
    title: str
    steps: list[DisputeStep]
    first: int
    boards: list[Any]
    next: int | None
    divergence_step: int | None
    stopped: str


def settle(data: bytes, start: int = 0) -> DisputeAnswer:
    """Verify ``data`` (a whole log's bytes) and replay it, with the boards
    of steps ``start`` to ``start + PAGE``."""
    from domain.kernel import portable

    answer = tables.verdict(portable.verify_log(bytes(data)))  # the verdict as `/api/verify` words it
    replay = _Replay(bytes(data))
    try:
        steps, boards = replay.run(max(0, start), PAGE)
    except Exception as e:  # noqa: BLE001 - a log no replay can read still has its verdict
        steps, boards = [], []
        replay.stopped = f"the log cannot be replayed: {type(e).__name__}: {str(e)[:160]}"
    d = answer.divergence
    at = None
    if d is not None and steps:
        at = next((i for i, s in enumerate(steps) if s.line >= d["line"]), len(steps) - 1)
    end = max(0, start) + len(boards)
    return DisputeAnswer(
        verdict=answer,
        game=replay.battle_id,
        ruleset=replay.rs.name if replay.rs else "",
        title=replay.rs.title if replay.rs else "",
        steps=steps,
        first=max(0, start),
        boards=boards,
        next=end if end < len(steps) else None,
        divergence_step=at,
        stopped=replay.stopped,
    )


class _Replay:
    """A log read into an in-memory application of its own, then its game
    stream stepped through."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.app = GameApp(store="memory")
        self.rs: Ruleset | None = None
        self.battle_id = ""
        self.stopped = ""
        self.lines: dict[tuple[str, int], int] = {}  # (stream, version) -> its line in the log

    def run(self, start: int, count: int) -> tuple[list[DisputeStep], list[Any]]:
        """Every step, and the boards of steps ``start`` to ``start + count``."""
        self._load()
        if self.rs is None:
            return [], []
        rs = self.rs
        stream = rs.game_stream(self.battle_id)
        envelopes = self.app.events(stream)
        undone = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
        steps: list[DisputeStep] = []
        boards: list[Any] = []
        board = self._drawer(rs)
        issued: dict[int, CommandIssued] = {}  # a command by its version, spelled when an undo names it

        def words(command_id: str) -> str:
            event = issued.get(_version_of(command_id))
            return given(rs, event).removesuffix(" (redone)") if event is not None else LAST_COMMAND

        narrator = Narrator(rs, self.app.pack_of(rs), None, words=words)
        game: Game | None = None
        last: bytes | None = None
        for i, env in enumerate(envelopes):
            v = env.originator_version
            try:
                text = narrator(env.event)
                game = fold(rs, game, [env])
                if i >= start and i < start + count:
                    drawn = (
                        msgspec.json.encode(board(game, v))
                        if board is not None and game is not None and game.state is not None
                        else b"null"
                    )
                    boards.append(None if drawn == last else msgspec.json.decode(drawn))
                    last = drawn
            except Exception as e:  # noqa: BLE001 - a forged event the rules cannot apply ends the replay
                line = self.lines.get((str(stream), v), 0)
                self.stopped = f"line {line} (version {v}) cannot be replayed: {type(e).__name__}: {str(e)[:160]}"
                break
            if isinstance(env.event, CommandIssued):
                issued[v] = env.event
            steps.append(
                DisputeStep(
                    version=v,
                    line=self.lines.get((str(stream), v), 0),
                    text=text,
                    command=isinstance(env.event, CommandIssued),
                    undone=env.command_id in undone,
                )
            )
        return steps, boards

    def _drawer(self, rs: Ruleset) -> Callable[[Game, int], Any] | None:
        """The ruleset's board of the game as it stood at a version, or None."""
        from domain.kernel.surface import surface_of
        from domain.kernel.surface.declared import Seen

        try:
            draw = surface_of(rs.name).board
        except KeyError:
            return None
        if draw is None:
            return None
        app, battle_id, pack = self.app, self.battle_id, self.app.pack_of(rs)

        def board(game: Game, version: int) -> Any:
            return draw(
                Seen(
                    app=app,
                    state=game.state,
                    version=version,
                    name=battle_id,
                    pack=pack,
                    context=lambda: app.rules_context(battle_id, version),
                )
            )

        return board

    def _load(self) -> None:
        """The log's lines into the application, as far as they can be read."""
        from domain.kernel.portable.parse import opened, read_lines
        from domain.kernel.portable.reader import Entry, Reader

        reader = Reader(chained=False)
        envelopes: list[Envelope] = []
        try:
            with opened(self.data) as f:
                for _, item in reader.read(read_lines(f)):
                    if isinstance(item, Entry):
                        envelopes.append(item.envelope)
                        self.lines[(str(item.envelope.originator_id), item.envelope.originator_version)] = item.line
        except LogError as e:
            self.stopped = f"line {e.line} cannot be read: {e.reason}"
        if reader.ruleset is None:
            return
        self.rs, self.battle_id = reader.ruleset, str(reader.header.get("battle_id", ""))
        self.app.append(envelopes)  # the streams the header names, each once, versions in order (the reader's checks)


def _version_of(command_id: str) -> int:
    try:
        return int(command_id[1:])
    except ValueError:
        return 0
