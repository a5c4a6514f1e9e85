"""`rk audit`: the audit read model (``projections.views.audit``), one
line per event as `rk log` narrates it, undone commands marked. The read
models a ruleset registers are shown by its own queries (`rk track`...)."""

from __future__ import annotations

from typing import Any


from domain.kernel.commandlog import LAST_COMMAND

from . import pager
from .lines import BOLD, PLAIN, UNDONE, Entry, events, layout
from .progress import progress
from .session import Session
from .settled import settled


def show(s: Session, view: str, page: bool = False) -> None:
    """Print the audit of the session's game (``view``: "audit"), after
    catching the views up with a progress display on stderr (the first
    read of a long log takes a while). With ``page``, long text goes
    through a pager (``cli.pager``)."""
    with settled():  # a long game's read: what was made before it is not walked again and again
        _show(s, view, page)


def _show(s: Session, view: str, page: bool) -> None:
    from projections import views  # here, not at the top: only the views' commands need the read models

    # Only the audit's own read model: the others catch up when they are read.
    with progress(
        "reading the log into the read models", total=views.behind(s.app, views.AUDIT), json=s.json
    ) as advance:
        rows = views.audit(s.app, s.battle_id, progress=advance)
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("(nothing yet)")
        return
    console = s.out.console
    pager.write(audit_lines(rows, console.width, console.color_system is not None), page=page)


def audit_lines(rows: list[Any], width: int = 80, styled: bool = False) -> list[str]:
    """``AuditLine``s narrated as `rk log` does, as lines of ``width``:
    ``v<version> <RULE-ID>: what happened``, one entry per event; an event
    of another stream than the game's (an adventurer, a delve) names it in
    brackets, events of an undone command are struck through and marked
    with the version of the undo, and an undo names the command it reverted
    as typed, with its events. Notification ids, command ids and timestamps
    are left to ``--json``."""
    game = next((r.stream for r in rows if r.event == "CommandIssued"), None)
    undos, words, undone = _undos(rows, game)
    entries = []
    headings = ("CommandIssued", "CommandUndone")
    for r in rows:
        text = f"{r.rule}: {r.text}" if r.rule else r.text
        if r.stream != game:
            text = f"[{r.stream}] {text}"
        if r.event == "CommandUndone":
            text = text.replace(LAST_COMMAND, words.get(r.command_id, LAST_COMMAND), 1)
        if r.undone:
            at = undos.get(r.undone_by)
            text += (f" (undone at v{at}" if at else " (undone") + (", forced)" if r.forced else ")")
            entries.append(Entry(f"v{r.version}", text, UNDONE, "↶"))
        else:
            entries.append(Entry(f"v{r.version}", text, BOLD if r.event in headings else PLAIN))
    footer = f"↶ marks the events of {len(undone)} undone command(s)" if undone else ""
    return layout(entries, width, styled, footer=footer, right=False)


def _undos(rows: list[Any], game: str | None) -> tuple[dict[str, int], dict[str, str], set[str]]:
    """In one pass over the rows: the version of each undo, by its command
    id; what each undo reverted, by the same id: the command as typed and
    the versions of its events in the game's stream (``rk move b2 (events
    12-13)``); and the ids of the undone commands."""
    undos: dict[str, int] = {}
    typed: dict[str, str] = {}
    versions: dict[str, list[int]] = {}
    undone: set[str] = set()
    for r in rows:
        if r.event == "CommandUndone":
            undos[r.command_id] = r.version
        if r.undone:
            undone.add(r.command_id)
            if r.stream == game:
                if r.event == "CommandIssued":
                    typed[r.undone_by] = r.text
                versions.setdefault(r.undone_by, []).append(r.version)
    words = {}
    for undo, said in typed.items():
        first, last = min(versions[undo]), max(versions[undo])
        words[undo] = f"{said} ({events(first, last)})"
    return undos, words, undone
