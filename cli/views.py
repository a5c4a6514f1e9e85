"""The read models (``projections.views``) as tables: whatever rows a view
returns are shown with their field names as columns, so a view can grow a
field without the command line changing (a delve's enemy pool rows have a
``tile``, DELVE-4, so `rk pool` shows that column only for a delve)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import RenderableType
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
    s.out.print(table(rows, s.out.console.width))


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
