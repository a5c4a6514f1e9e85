"""Portable battle logs on the command line: export, import, verify
(DESIGN: Logs). The work is done by ``domain.kernel.portable``; this
module reads and writes files and reports."""

from __future__ import annotations

import sys
from pathlib import Path

from domain.kernel.errors import MalformedCommand

from .session import Session


def _portable():
    try:
        from domain.kernel import portable
    except ImportError as e:  # the module is being written alongside the CLI
        raise MalformedCommand(f"portable logs are not available in this build ({e})") from None
    return portable


def export(s: Session, output: str | None) -> None:
    """Write the battle's log to ``output``, or to stdout."""
    battle_id = s.battle_id
    data = _portable().export_battle(s.app, battle_id)
    if output:
        Path(output).write_bytes(data)
        lines = data.count(b"\n")
        if s.json:
            s.out.emit({"battle": battle_id, "file": output, "lines": lines, "bytes": len(data)})
        else:
            s.out.print(f"Exported {battle_id}: {lines} lines to {output}")
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def import_log(s: Session, file: str) -> None:
    """Import a log; LogError (line and reason) if it is refused."""
    data = _read(file)
    battle_id = _portable().import_log(s.app, data)
    if s.json:
        s.out.emit({"battle": battle_id, "file": file})
    else:
        s.out.print(f"Imported battle {battle_id} from {file} (see `rk status --battle {battle_id}`)")


def verify(s: Session, file: str | None) -> None:
    """Verify a log file, or the stored battle; exit 1 on a divergence."""
    import typer

    portable = _portable()
    if file:
        report = portable.verify_log(_read(file))
    else:
        report = portable.verify_battle(s.app, s.battle_id)
    if s.json:
        s.out.emit(report)
    else:
        s.out.print(report.summary())
    if not report.ok:
        raise typer.Exit(1)


def _read(file: str) -> bytes:
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as e:
        raise MalformedCommand(f"cannot read {file}: {e.strerror or e}") from None
