"""Item 6, size: bytes per event in the store (the ``state`` column of the
battle stream's rows; the whole file over every row) and in the exported
JSON Lines log, each also as a ratio to the stored event bytes."""

from __future__ import annotations

import os
import sqlite3

from domain.betrayal.battle.application import BetrayalApp

from .measure import Row
from .streams import Built


def size_rows(built: Built) -> list[Row]:
    con = sqlite3.connect(built.path)
    n, state_bytes = con.execute(
        "SELECT count(*), sum(length(state)) FROM stored_events WHERE originator_id=?", (built.stream_id.hex,)
    ).fetchone()
    all_rows = con.execute("SELECT count(*) FROM stored_events").fetchone()[0]
    snapshot_bytes = con.execute("SELECT coalesce(sum(length(state)), 0) FROM stored_snapshots").fetchone()[0]
    con.close()
    per_event = state_bytes / n
    file_bytes = os.path.getsize(built.path)
    size = f"{built.events:,} ev"
    rows = [
        Row(
            "size: stored event JSON",
            size,
            f"{per_event:.0f} B/ev",
            "-",
            note="the state column of the battle stream's rows",
            data={"events": n, "state_bytes": state_bytes, "bytes_per_event": per_event},
        ),
        Row(
            "size: store file",
            size,
            f"{file_bytes / all_rows:.0f} B/ev",
            f"{per_event:.0f} B/ev",
            ratio=file_bytes / all_rows / per_event,
            note=f"file / all {all_rows:,} rows; snapshots hold {snapshot_bytes / file_bytes:.0%} of it",
            data={
                "rows": all_rows,
                "file_bytes": file_bytes,
                "bytes_per_row": file_bytes / all_rows,
                "snapshot_bytes": snapshot_bytes,
            },
        ),
    ]
    exported = export_bytes(built)
    if exported is None:
        rows.append(
            Row(
                "size: JSONL export",
                size,
                "-",
                f"{per_event:.0f} B/ev",
                note="domain.kernel.portable.export_battle is not there yet",
            )
        )
    else:
        lines = exported.count(b"\n") - 1 if exported.endswith(b"\n") else exported.count(b"\n")
        per_line = (len(exported) - exported.index(b"\n") - 1) / lines
        rows.append(
            Row(
                "size: JSONL export",
                size,
                f"{per_line:.0f} B/ev",
                f"{per_event:.0f} B/ev",
                ratio=per_line / per_event,
                note=f"{lines:,} event lines (battle and party streams), header excluded",
                data={"export_bytes": len(exported), "export_lines": lines, "bytes_per_line": per_line},
            )
        )
    return rows


def export_bytes(built: Built) -> bytes | None:
    try:
        from domain.kernel.portable import export_battle
    except ImportError:
        return None
    with BetrayalApp(f"sqlite:{built.path}") as app:
        return export_battle(app, built.battle_id)
