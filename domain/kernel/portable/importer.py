"""Importing a log: everything verify checks is checked first, in one
streaming pass; then the log is read again and appended, in one
transaction, as recorded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO
from uuid import UUID

from domain.kernel import ruleset as registry
from domain.kernel.envelope import Envelope, wrap
from domain.kernel.battle_index import check_name
from domain.kernel.errors import LogError, MalformedCommand
from domain.kernel.games import INDEX_STREAM, BattleRenamed, GameApp, GameRegistered
from domain.kernel.messages import Event
from domain.kernel.portable.parse import Source, opened, read_lines
from domain.kernel.portable.progress import Progress, ticking
from domain.kernel.portable.reader import Entry, Reader
from domain.kernel.portable.verify import Check
from domain.kernel.ruleset import Ruleset


def import_log(app: GameApp, data: Source, *, progress: Progress | None = None) -> str:
    """Import a log into ``app``'s store and return the battle id.

    A group log (``portable.group``) brings every game it holds, each
    with its name; the lead game's id is returned. Everything
    ``verify_log`` checks is checked first, in a streaming pass
    (each line, the hash chain, the trailer, every command re-decided with
    the loaded pack, every write and undo, the final state, a signature if
    there is one), and that none of the log's streams exists yet; LogError
    names the first problem and nothing is written. Then a second pass
    appends the events as recorded (stream ids, versions, times, command
    ids) with the game's index entry, in one transaction. ``data``: bytes,
    a path, or a seekable binary file. ``progress`` is told of the lines as
    they are read, in both passes (``portable.progress``): twice the lines.
    """
    with opened(data) as f:
        start = f.tell() if not isinstance(data, (bytes, bytearray, memoryview)) else 0
        check = Check(
            None,
            strict=True,
            pack_of=lambda rs, h: app.pack_by_hash(rs, h) or app.pack_of(rs),
            on_header=lambda rs, header: check_new_streams(app, rs, header),
        )
        check.run(ticking(read_lines(f), progress))
        assert check.rs is not None and check.reader.ruleset is not None
        header, last = check.reader.header, check.reader.previous
        f.seek(start)
        index = app.events.last(INDEX_STREAM)
        entry = wrap(INDEX_STREAM, index.originator_version if index else 0, list(_registered(check)), "import")
        batches = _batches(f, last, entry, progress=progress)
        append_batches = getattr(app, "append_batches", None)
        if append_batches is not None:
            append_batches(batches)  # one transaction: a LogError from the generator rolls it all back
        else:
            app.append([e for batch in batches for e in batch])
    return header["battle_id"]


def _registered(check: Check) -> Iterator[Event]:
    """The index's entries for the log's games: each registered, and in a
    group log called by the name it had (``portable.group``)."""
    for play in check.plays.values():
        battle_id = play.entry["battle_id"]
        yield GameRegistered(battle_id=battle_id, ruleset=play.rs.name, setup=play.setup_name)
        name = play.entry.get("name", battle_id)
        if name != battle_id:
            yield BattleRenamed(battle_id=battle_id, name=name)


def _batches(
    f: BinaryIO, last_hash: str, index: list[Envelope], size: int = 1000, progress: Progress | None = None
) -> Iterator[list[Envelope]]:
    """The log's envelopes read again, ``size`` at a time, then the index
    entry. The hash chain is followed again and must end where the
    checking pass ended: a file changed in between is refused (LogError,
    raised before the last batch, so nothing is committed)."""
    reader = Reader()
    batch: list[Envelope] = []
    for _, item in reader.read(ticking(read_lines(f), progress)):
        if isinstance(item, Entry):
            batch.append(item.envelope)
            if len(batch) == size:
                yield batch
                batch = []
    if reader.previous != last_hash:
        raise LogError(reader.lines, "the file changed while it was being imported")
    yield batch + index


def check_new_streams(app: GameApp, rs: Ruleset, header: dict[str, Any]) -> None:
    """None of the log's streams, nor a battle of its id in another
    ruleset, exists in ``app``'s store yet, nor (a group log's) a game of
    one of its names: an import never merges."""
    for sid, name in header["streams"].items():
        if app.events(UUID(sid), lte=1):
            raise LogError(
                1, f"stream {sid} ({name}) already exists in this store; importing never merges into existing streams"
            )
    games = header.get("games") or [{"battle_id": header["battle_id"], "ruleset": rs.name}]
    for game in games:
        battle_id = game["battle_id"]
        for other in registry.all_rulesets():
            if other.name != game["ruleset"] and app.events(other.game_stream(battle_id), lte=1):
                raise LogError(1, f"a {other.title} battle {battle_id!r} already exists in this store")
        if "games" not in header:
            continue  # a game's own log: its id is checked above
        try:
            check_name(game["name"], "game name")
        except MalformedCommand as e:
            raise LogError(1, f"game {battle_id!r}: {e}") from None
        for name in {battle_id, game["name"]}:
            holder = app.index().holder(name)
            if holder is not None:
                raise LogError(
                    1,
                    f"the name {name!r} of game {battle_id!r} is taken in this store by"
                    f" {holder.battle_id!r}; importing never merges",
                )
