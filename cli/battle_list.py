"""`rk battles`: the games of a store, every ruleset together, read from
the list of games' read model (``projections.battles``).

A module of its own, apart from the log's (``cli.history``), so that the
listing imports only what it shows: the read model, the table and the
choice of the current battle, not the narration of events."""

from __future__ import annotations

from typing import Any

from domain.kernel import ruleset as registry

from .output import printable
from .session import Session
from .tables import least_width, simple_table, table_lines

# Game and event count are left to --json: at 80 columns the rest fits.
BATTLE_COLUMNS = (
    ("", "left"),
    ("battle", "left"),
    ("setup", "left"),
    ("round", "right"),
    ("where", "left"),
    ("who", "left"),
)


def battles(s: Session, all_: bool = False) -> None:
    """The games of the store, every ruleset together, oldest first, with
    where each stands; the current one marked (``domain.kernel.stores.current_battle``), deleted
    ones only with ``all_``."""
    # A read model keeps each game's summary, updated event by event: listing
    # costs one read of it, not a replay of every game.
    from domain.kernel.stores.current_battle import chosen_battle
    from projections import views

    listed: dict[str, bool] = {}  # whether each ruleset's games are battles, looked up once per ruleset

    def shown(ruleset: str) -> bool:
        if ruleset not in listed:
            listed[ruleset] = registry.load(ruleset).battles
        return listed[ruleset]

    store = _store(s)
    try:
        rows = [r for r in views.battles(store) if shown(r.ruleset)]
        chosen = chosen_battle(store)
    finally:
        if isinstance(store, views.StoreHead):
            views.close_views(store)  # the application it made, if any, is the session's to close
    live = [r.battle for r in rows if not r.deleted]
    current = chosen if chosen in live else (live[-1] if live else None)
    hidden = 0 if all_ else len(rows) - len(live)
    rows = [r for r in rows if all_ or not r.deleted]
    if s.json:
        import msgspec

        s.out.emit([msgspec.structs.asdict(r) | {"current": r.battle == current} for r in rows])
        return
    if not rows:
        s.out.print(
            f"No battles: {hidden} deleted (`rk battles --all` lists them, `rk restore NAME`)."
            if hidden
            else "No battles yet: start one with `rk new` (`rk new --help` lists the setups; or try `rk demo`)."
        )
        return
    cells = [
        [
            "*" if r.battle == current else "x" if r.deleted else "",
            *(printable(str(value)) for value in (r.name, r.setup, r.round, r.phase, r.who)),
        ]
        for r in rows
    ]
    columns: tuple[tuple[str, str], ...] = BATTLE_COLUMNS
    width, wrap = s.out.console.width, ("where", "who")
    lines = table_lines(columns, cells, width)  # every row on one line: written as it is laid out
    if lines is not None:
        s.out.lines(lines)
    else:
        if least_width(columns, cells, wrap) > width:  # the setup goes first: a default name says it
            columns, cells = columns[:2] + columns[3:], [row[:2] + row[3:] for row in cells]
        s.out.print(simple_table(columns, cells, width, wrap=wrap))
    notes = ["* current (`rk use NAME` picks another)"] if current else []
    if any(r.deleted for r in rows):
        notes.append("x deleted (`rk restore NAME`)")
    if hidden:
        notes.append(f"{hidden} deleted not shown (`rk battles --all`)")
    note = "; ".join(notes)
    if note.isascii() and note.isprintable() and len(note) <= width:
        s.out.lines([(note, "dim")])  # one line, as rich prints the Text below when it fits
    else:
        from rich.text import Text

        s.out.print(Text(note, style="dim"))


def _store(s: Session) -> Any:
    """What the listing reads the store through: the application a shell
    keeps open; else, on an SQLite file, a ``projections.views.StoreHead``,
    which makes the application only if the views have events to read."""
    from projections import views

    if s.store not in s.defaults.apps and (s.store, "read") not in s.defaults.apps:
        found = views.head(s.store, lambda: s.app)
        if found is not None:
            return found
    return s.app
