"""The read models (``projections.views``) as tables: whatever rows a view
returns are shown with their field names as columns, so a view can grow a
field without the command line changing (a delve's enemy pool rows have a
``tile``, DELVE-4, so `rk pool` shows that column only for a delve)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from domain.kernel.errors import MalformedCommand

from .session import Session


def show(s: Session, view: str) -> None:
    """Print the rows of ``projections.views.<view>(app, battle)``."""
    try:
        from projections import views
    except ImportError as e:  # the views are being written alongside the CLI
        raise MalformedCommand(f"the read models are not available in this build ({e})") from None
    rows = getattr(views, view)(s.app, s.battle_id)
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("(nothing yet)")
        return
    render = _RENDERERS.get(view)
    s.out.print(render(rows) if render is not None else table(rows, s.out.console.width))


def pool_table(rows: list[Any]) -> RenderableType:
    """``PoolRow``s as a player reads them: one row per EP computed, enemy
    drawn and pool closed, with its rule; the note wraps inside its cell.
    The RNG draw counter and the quest flag are left to ``--json``."""
    columns = {  # header: (cell of one row, wraps)
        "tile": (lambda r: r.tile, False),
        "kind": (lambda r: r.kind if r.kind != "none" else "", False),
        "rule": (lambda r: r.rule, True),
        "#": (lambda r: str(r.number) if r.kind in ("draw", "quest") else "", False),
        "foe": (lambda r: r.foe, False),
        "hex": (lambda r: r.hex, False),
        "enemy": (lambda r: r.name or r.enemy, True),
        "level": (lambda r: str(r.level) if r.kind in ("draw", "quest") else "", False),
        "EP left": (_ep_left, False),
        "note": (_pool_note, True),
    }
    cells = {name: [cell(r) for r in rows] for name, (cell, _) in columns.items()}
    out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=0, header_style="bold")
    shown = [name for name in columns if any(cells[name])]
    for name in shown:
        wraps = columns[name][1]
        longest_word = max((len(w) for c in cells[name] for w in c.split()), default=0)
        out.add_column(name, justify="right" if name in ("#", "level", "EP left") else "left",
                       no_wrap=not wraps, overflow="fold", ratio=1 if name == "note" else None,
                       min_width=longest_word if wraps else None)  # a rule ID is never split
    for i, row in enumerate(rows):
        out.add_row(*(Text(cells[name][i]) for name in shown))
    return out


def _ep_left(row: Any) -> str:
    if row.kind in ("ep", "draw"):
        return str(row.ep_left)
    if row.kind in ("spent", "discarded"):
        return "0"
    return ""  # a quest unit is outside the EP (EP-8); no pool yet


def _pool_note(row: Any) -> str:
    if row.kind == "discarded" and row.discarded:
        return f"{row.discarded} EP discarded: {row.note}" if row.note else f"{row.discarded} EP discarded"
    return row.note


def audit_lines(rows: list[Any]) -> RenderableType:
    """``AuditLine``s narrated as `rk log` does: ``v<version> <RULE-ID>: what
    happened``, one entry per event; an event of another stream than the
    game's (an adventurer, a delve) names it in brackets, and events of an
    undone command are struck through and marked. Notification ids, command
    ids and timestamps are left to ``--json``."""
    game = next((r.stream for r in rows if r.event == "CommandIssued"), None)
    out = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1, 0, 0))
    out.add_column("v", no_wrap=True, style="dim")
    out.add_column("what happened", overflow="fold")
    undone = set()
    for r in rows:
        heading = r.event in ("CommandIssued", "CommandUndone")
        text = Text(style="strike dim" if r.undone else ("bold" if heading else ""))
        if r.stream != game:
            text.append(f"[{r.stream}] ")
        text.append(f"{r.rule}: {r.text}" if r.rule else r.text)
        if r.undone:
            undone.add(r.command_id)
            text.append(f" ↶ undone by {r.undone_by}" + (", forced" if r.forced else ""), style="dim")
        out.add_row(f"v{r.version}", text)
    if not undone:
        return out
    note = Text(f"↶ marks the events of {len(undone)} undone command(s)", style="dim")
    return Group(out, note)


_RENDERERS = {"enemy_pool": pool_table, "audit": audit_lines}


SHORT = 20  # a column this narrow never wraps


def table(rows: list[Any], width: int = 100) -> RenderableType:
    """Rows of msgspec Structs (or dataclasses), one column per field;
    columns empty in every row are left out. When the short columns alone
    would not fit in ``width``, each row becomes one line of
    ``field value`` pairs instead, which wraps gracefully."""
    dicts = [_fields(r) for r in rows]
    columns = [c for c in dicts[0] if any(_cell(d.get(c)) for d in dicts)]
    cells = [[_cell(d.get(c)) for c in columns] for d in dicts]
    widest = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    if sum(min(w, SHORT) for w in widest) + 3 * len(columns) > width:
        return _records(columns, cells)
    out = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, w in zip(columns, widest):
        out.add_column(name.replace("_", " "), no_wrap=w <= SHORT, min_width=min(w, SHORT))
    for row in cells:
        out.add_row(*row)
    return out


def _records(columns: list[str], cells: list[list[str]]) -> Text:
    out = Text()
    for row in cells:
        for name, value in zip(columns, row):
            if value:
                out.append(name.replace("_", " ") + " ", style="dim")
                out.append(value + "  ")
        out.append("\n")
    return out


def _fields(row: Any) -> dict[str, Any]:
    import dataclasses

    import msgspec

    if isinstance(row, msgspec.Struct):
        return msgspec.structs.asdict(row)
    if dataclasses.is_dataclass(row):
        return {f.name: getattr(row, f.name) for f in dataclasses.fields(row)}
    return {"value": row}


def _cell(value: Any) -> str:
    """A value as a short cell: times as the time of day, lists joined."""
    import datetime
    import enum

    import msgspec

    if value is None or value == "" or value is False:
        return ""
    if value is True:
        return "yes"
    if isinstance(value, datetime.datetime):
        return value.strftime("%H:%M:%S")
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v) for v in value) if not all(isinstance(v, int) for v in value) else ",".join(map(str, value))
    if isinstance(value, msgspec.Struct):
        return _cell(msgspec.to_builtins(value))
    if isinstance(value, dict):
        return ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
    return str(value)
