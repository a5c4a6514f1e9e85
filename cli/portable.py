"""Portable battle logs on the command line: export, import, verify, and
the keys to sign them with (DESIGN: Logs). The work is done by
``domain.kernel.portable`` (and ``domain.kernel.signing``); this module
reads and writes files and reports. Logs are streamed: a long battle's log
is never held in memory whole. On a terminal, and without --json, long
operations show their progress on stderr (``cli.progress``)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from domain.kernel import portable
from domain.kernel.errors import MalformedCommand

from .battle_names import called
from domain.kernel.stores.current_battle import remember
from .paths import CannotWrite, check_writable, writing
from .progress import progress, wanted
from .session import Session


def export(s: Session, output: str | None, sign: str | None = None, alone: bool = False) -> None:
    """Write the battle's log to ``output``, or to stdout; ``sign``: a
    private key file (``rk keygen``) to sign it with. A game that leads a
    group (a campaign) writes the group log, with every game of the group
    (its battles), unless ``alone``."""
    target = check_writable(output, "the log") if output else None
    battle_id = s.battle_id
    key = _private(sign)
    grouped = bool(s.app.ruleset(battle_id).group_kind) and not alone
    write = portable.write_group_log if grouped else portable.write_log
    if output and target is not None:
        # Written beside the target and renamed: a failed export never
        # leaves half a log under the name asked for.
        with writing(output, "the log"):
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
        try:
            with writing(output, "the log"):
                with os.fdopen(fd, "wb") as f, progress("exporting", None, json=s.json) as advance:
                    lines = write(s.app, battle_id, f, sign=key, progress=advance)
                    size = f.tell()
                os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        games = _group(s, battle_id) if grouped else [battle_id]
        if s.json:
            s.out.emit(
                {
                    "battle": battle_id,
                    "file": output,
                    "lines": lines,
                    "bytes": size,
                    "signed": key is not None,
                    "games": games,
                }
            )
        else:
            s.out.print(f"Exported {_what(s, games)}: {lines} lines to {output}" + (" (signed)" if key else ""))
        return
    sys.stdout.flush()
    write(s.app, battle_id, sys.stdout.buffer, sign=key)
    sys.stdout.buffer.flush()


def import_log(s: Session, file: str) -> None:
    """Import a log and make its battle the current one, as `rk new` does;
    LogError (line and reason) if it is refused, and then nothing was
    written."""
    with _source(file) as source, progress("importing", _lines_of(source, s.json, passes=2), json=s.json) as advance:
        battle_id = portable.import_log(s.app, source, progress=advance)
    if s.app.ruleset(battle_id).group_kind and not s.app.ruleset(battle_id).battles:
        return _imported_group(s, battle_id, file)
    chosen = remember(s.app, battle_id)
    if s.json:
        s.out.emit({"battle": battle_id, "file": file, "chosen": chosen})
    elif chosen:
        s.out.print(f"Imported battle {battle_id} from {file}: it is the current battle now.")
    else:
        s.out.print(f"Imported battle {battle_id} from {file} (see `rk status --battle {battle_id}`)")


def _imported_group(s: Session, lead: str, file: str) -> None:
    """What a group log's import brought: its lead game and every other,
    the newest battle among them made the current one."""
    games = _group(s, lead)
    battles = [g for g in games if s.app.ruleset(g).battles]
    chosen = remember(s.app, battles[-1]) if battles else False
    if s.json:
        s.out.emit({"battle": lead, "file": file, "games": games, "chosen": chosen})
        return
    s.out.print(
        f"Imported {_what(s, games)} from {file}"
        + (f"; {called(s.app, battles[-1])} is the current battle now." if chosen else ".")
    )


def _group(s: Session, lead: str) -> list[str]:
    from domain.kernel.portable.group import group_of

    return group_of(s.app, lead)


def _what(s: Session, games: list[str]) -> str:
    """``campaign saga with 2 battles (w1, w2)``: a group log's games in words."""
    lead = s.app.ruleset(games[0])
    if len(games) == 1 and not lead.group_kind:
        return called(s.app, games[0])
    others = [called(s.app, g) for g in games[1:]]
    return f"{lead.group_kind} {called(s.app, games[0])} with {len(others)} game(s)" + (
        f" ({', '.join(others)})" if others else ""
    )


def verify(s: Session, file: str | None, key: str | None = None) -> None:
    """Verify a log file, or the stored battle; exit 1 on a divergence.
    ``key``: the public key (hex, or a file holding it) the log must be
    signed with."""
    import typer

    public = _public(key)
    if file:
        with (
            _source(file, seekable=False) as source,
            progress("verifying", _lines_of(source, s.json), json=s.json) as advance,
        ):
            report = portable.verify_log(source, key=public, progress=advance)
    else:
        with progress("verifying", None, json=s.json) as advance:
            # A game that leads others (a campaign) is verified with them, as it exports.
            whole = portable.verify_group if s.app.ruleset(s.battle_id).group_kind else portable.verify_battle
            report = whole(s.app, s.battle_id, key=public, progress=advance)
    if s.json:
        s.out.emit(report)
    else:
        s.out.print(report.summary())
    if not report.ok:
        raise typer.Exit(1)


def keygen(s: Session, output: str) -> None:
    """Make a signing key: the private key to ``output`` (0600, never
    overwritten), the public key to ``output``.pub and stdout."""
    from domain.kernel import signing

    check_writable(output, "the private key")
    check_writable(output + ".pub", "the public key")
    if Path(output + ".pub").exists():
        raise CannotWrite(f"{output}.pub exists; keys are never overwritten")
    with writing(output, "the private key"):
        public = signing.generate(output)
    with writing(output + ".pub", "the public key"):
        Path(output + ".pub").write_text(public + "\n")
    if s.json:
        s.out.emit({"private_key": output, "public_key": public, "public_key_file": output + ".pub"})
    else:
        s.out.print(f"Private key written to {output} (keep it secret); public key, in {output}.pub:\n{public}")


def _private(path: str | None):
    if not path:
        return None
    from domain.kernel import signing

    return signing.load_private(path)


def _public(key: str | None) -> str | None:
    if not key:
        return None
    from domain.kernel import signing

    return signing.read_public(key)


@contextmanager
def _source(file: str, *, seekable: bool = True) -> Iterator[str | BinaryIO]:
    """A log to read: its path, or stdin for "-" (copied to a temporary
    file when it must be read twice, as an import does)."""
    if file != "-":
        if not Path(file).is_file():
            try:
                Path(file).open("rb").close()
            except OSError as e:
                raise MalformedCommand(f"cannot read {file}: {e.strerror or e}") from None
            raise MalformedCommand(f"cannot read {file}: not a file")
        yield file
        return
    if not seekable:
        yield sys.stdin.buffer
        return
    with tempfile.TemporaryFile() as spool:
        while chunk := sys.stdin.buffer.read(1 << 20):
            spool.write(chunk)
        spool.seek(0)
        yield spool


def _lines_of(source: str | BinaryIO, json: bool, passes: int = 1) -> int | None:
    """How many lines a progress display counts to for ``source`` read
    ``passes`` times: counted only when a display would be seen, and only
    in a file that can be read again (None: a display without an end)."""
    if not wanted(json):
        return None
    try:
        with open(source, "rb") if isinstance(source, str) else _rewound(source) as f:
            return passes * sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except (OSError, ValueError):  # a pipe cannot be read twice
        return None


@contextmanager
def _rewound(f: BinaryIO) -> Iterator[BinaryIO]:
    """``f`` from where it stands, put back there afterwards."""
    start = f.tell()
    try:
        yield f
    finally:
        f.seek(start)
