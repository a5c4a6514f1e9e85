"""The read models (``projections.views``) as tables: whatever rows a view
returns are shown with their field names as columns, so a view can grow a
field without the command line changing (a delve's enemy pool rows have a
``tile``, DELVE-4, so `rk pool` shows that column only for a delve)."""

from __future__ import annotations

import re
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from domain.kernel.commandlog import LAST_COMMAND

from . import pager
from .lines import BOLD, PLAIN, UNDONE, Entry, events, layout
from .progress import progress
from .session import Session


def show(s: Session, view: str, page: bool = False) -> None:
    """Print the rows of ``projections.views.<view>(app, battle)``, after
    catching the views up with a progress display on stderr (the first
    read of a long log takes a while). With ``page``, long text goes
    through a pager (``cli.pager``)."""
    from projections import views  # here, not at the top: only the views' commands need the read models
    with progress("reading the log into the read models", total=views.behind(s.app), json=s.json) as advance:
        views.catch_up(s.app, progress=advance)
    rows = getattr(views, view)(s.app, s.battle_id)
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("(nothing yet)")
        return
    if view == "audit":
        console = s.out.console
        pager.write(audit_lines(rows, console.width, console.color_system is not None), page=page)
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
        out.add_row(*(Note(cells[name][i]) if name == "note" else Text(cells[name][i]) for name in shown))
    return out


# Where a note may break: after a clause's mark, or before an operator, so
# that a term ("party size 2", "level 1") stays on one line.
_NOTE_GAP = re.compile(r"(?<=[,;:]) +(?=\S)| +(?=[=x+-] )")


class Note:
    """A rich renderable: a pool note wrapped between its phrases and the
    terms of its sum ("EP = XP 2 x party size 2 ⏎ = 4" never splits "size
    2"); a phrase wider than the cell breaks between its words."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pieces = _NOTE_GAP.split(text)

    def __rich_measure__(self, console, options) -> Measurement:
        longest_word = max((cell_len(w) for w in self.text.split()), default=0)
        return Measurement(min(longest_word, options.max_width), min(cell_len(self.text), options.max_width))

    def __rich_console__(self, console, options):
        yield Text("\n".join(self.lines(options.max_width)), overflow="fold")

    def lines(self, width: int) -> list[str]:
        """The note's lines at ``width`` columns."""
        lines: list[str] = []
        for phrase in self.pieces:
            words = phrase.split(" ") if cell_len(phrase) > width else [phrase]
            for i, word in enumerate(words):
                # a phrase too wide for a line starts one of its own
                joins = lines and (i > 0 or len(words) == 1)
                if joins and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
                    lines[-1] += " " + word
                else:
                    lines.append(word)
        return lines or [""]


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


def audit_lines(rows: list[Any], width: int = 80, styled: bool = False) -> list[str]:
    """``AuditLine``s narrated as `rk log` does, as lines of ``width``:
    ``v<version> <RULE-ID>: what happened``, one entry per event; an event
    of another stream than the game's (an adventurer, a delve) names it in
    brackets, events of an undone command are struck through and marked
    with the version of the undo, and an undo names the command it reverted
    as typed, with its events. Notification ids, command ids and timestamps
    are left to ``--json``."""
    game = next((r.stream for r in rows if r.event == "CommandIssued"), None)
    undos = {r.command_id: r.version for r in rows if r.event == "CommandUndone"}
    words = _undone_commands(rows, game)
    entries = []
    for r in rows:
        text = f"[{r.stream}] " if r.stream != game else ""
        text += f"{r.rule}: {r.text}" if r.rule else r.text
        if r.event == "CommandUndone":
            text = text.replace(LAST_COMMAND, words.get(r.command_id, LAST_COMMAND), 1)
        if r.undone:
            at = undos.get(r.undone_by)
            text += (f" (undone at v{at}" if at else " (undone") + (", forced)" if r.forced else ")")
        heading = r.event in ("CommandIssued", "CommandUndone")
        entries.append(Entry(f"v{r.version}", text, style=UNDONE if r.undone else (BOLD if heading else PLAIN),
                             mark="↶" if r.undone else " "))
    undone = {r.command_id for r in rows if r.undone}
    footer = f"↶ marks the events of {len(undone)} undone command(s)" if undone else ""
    return layout(entries, width, styled, footer=footer, right=False)


def _undone_commands(rows: list[Any], game: str | None) -> dict[str, str]:
    """What each undo reverted, by the undo's command id: the command as
    typed and the versions of its events in the game's stream
    (``rk move b2 (events 12-13)``)."""
    typed: dict[str, str] = {}
    versions: dict[str, list[int]] = {}
    for r in rows:
        if r.undone and r.stream == game:
            if r.event == "CommandIssued":
                typed[r.undone_by] = r.text
            versions.setdefault(r.undone_by, []).append(r.version)
    out = {}
    for undo, words in typed.items():
        first, last = min(versions[undo]), max(versions[undo])
        out[undo] = f"{words} ({events(first, last)})"
    return out


def track_table(rows: list[Any]) -> RenderableType:
    """``TrackRow``s as a player reads them: per adventurer (named on their
    first row), the track left to right with each die as the player knows
    it (``#5 Cinder Bolt``), its kind, the face shown (as rolled, 1 to 6)
    and what that face means; a status die shows its status. Hero and die
    ids are left to ``--json``."""
    out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 2, 0, 0), header_style="bold")
    out.add_column("adventurer", no_wrap=True, overflow="fold")
    out.add_column("position", justify="right", no_wrap=True)
    out.add_column("die", no_wrap=True)
    out.add_column("kind", no_wrap=True)
    out.add_column("face", justify="right", no_wrap=True)
    longest_word = max((len(w) for r in rows for w in _track_shows(r).split()), default=0)
    out.add_column("shows", min_width=longest_word)
    previous = None
    for r in rows:
        out.add_row(Text(r.hero_name if r.hero != previous else ""), str(r.position),
                    Text(f"#{r.uid} {r.die_name}" if r.kind == "skill" else ""),
                    r.kind.replace("-", " "), str(r.face + 1) if r.face >= 0 else "", Text(_track_shows(r)))
        previous = r.hero
    return out


def _track_shows(row: Any) -> str:
    return row.shown or row.status


_RENDERERS = {"enemy_pool": pool_table, "cooldown_track": track_table}


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
