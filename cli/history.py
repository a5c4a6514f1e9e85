"""What the store remembers: a battle's whole log, the list of battles, an
adventurer between battles, the list of adventurers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from rich import box
from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from domain.betrayal.application import adventurer as find_adventurer
from domain.kernel.commandlog import LAST_COMMAND, CommandIssued, CommandUndone

from . import pager
from .document import STYLES
from .game import event_json
from .lines import BOLD, PLAIN, UNDONE, Entry, events, layout
from .output import printable
from .phrases import Phrases
from .session import Session


def log(s: Session, page: bool = True) -> None:
    """Every event, narrated against the state just before it and numbered
    by its version (the numbers `rk status --at` takes). Events of a command
    later undone are marked, and each undo says what it reverted in the
    game's words: the command as typed and the events it had written.
    Command ids are left to ``--json``. Long output goes through a pager
    (``page``; see ``cli.pager``)."""
    rs = s.ruleset
    envelopes = s.app.stream(s.battle_id)
    undone = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
    narrated = _narrated(s, rs, envelopes, _command_words(rs, envelopes))
    if s.json:
        s.out.emit([{
            "version": env.originator_version, "command_id": env.command_id, **({"stream": kind} if kind else {}),
            "undone": env.command_id in undone, "command": isinstance(env.event, CommandIssued),
            "text": text, "event": event_json(env.event),
        } for kind, env, text in narrated])
        return
    entries = []
    for kind, env, text in narrated:
        heading = isinstance(env.event, (CommandIssued, CommandUndone))
        gone = env.command_id in undone
        entries.append(Entry(
            # a companion stream's event: its own version, named by its kind
            label=f"{kind[:1]}{env.originator_version}", text=f"[{kind}] {text}" if kind else text,
            style=UNDONE if gone else (BOLD if heading else PLAIN), mark="↶" if gone else " ",
            indent=0 if heading else 2,
        ))
    footer = f"↶ marks the events of {len(undone)} undone command(s)" if undone else ""
    console = s.out.console
    pager.write(layout(entries, console.width, console.color_system is not None,
                       header=("v", "what happened"), footer=footer), page=page)


def _narrated(s: Session, rs, envelopes: list, words: dict[str, str]) -> Iterator[tuple[str, Any, str]]:
    """``(companion kind or "", envelope, text)`` for every event of the game
    and of its companion streams, each narrated against the state just
    before it (folded once, as the log goes); an undo names the command it
    reverted with ``words``."""
    pack = s.app.pack_of(rs)
    written = _companion_events(s, rs, envelopes)
    state = None
    last = len(envelopes) - 1
    for i, env in enumerate(envelopes):
        event = env.event
        text = rs.describe_event(event, state, pack)
        if isinstance(event, CommandUndone):
            text = text.replace(LAST_COMMAND, words.get(event.command_id, LAST_COMMAND), 1)
            state = event.restored
        elif not isinstance(event, CommandIssued):
            state = rs.evolve(state, event)
        yield "", env, text
        if i == last or envelopes[i + 1].command_id != env.command_id:
            # the command's events in its companion streams (a delve's Delve) follow its own
            for kind, other in written.pop(env.command_id, ()):
                yield kind, other, rs.describe_written(other.event, other.originator_id, state, pack)


def _command_words(rs, envelopes: list) -> dict[str, str]:
    """Each command of the stream as a player knows it, by its id: as typed,
    and the events it wrote (``rk move b2 (events 12-13)``)."""
    typed: dict[str, str] = {}
    versions: dict[str, tuple[int, int]] = {}
    for env in envelopes:
        if isinstance(env.event, CommandIssued):
            typed[env.command_id] = f"rk {rs.describe_command(env.event.command)}"
        first = versions.get(env.command_id, (env.originator_version,))[0]
        versions[env.command_id] = (first, env.originator_version)
    return {command: f"{words} ({events(*versions[command])})" for command, words in typed.items()}


def _companion_events(s: Session, rs, envelopes: list) -> dict[str, list]:
    """The envelopes the game's commands wrote to its companion streams
    (``Ruleset.companions``), by the id of the command that wrote them. A
    stream may hold other games' events too (an adventurer's battles and its
    campaign), so each command's own are found from where it says it wrote
    (``touched``); an undo wrote where the command it undid had."""
    kinds = {stream: kind for kind, stream in rs.companions(s.app.battle(s.battle_id).state)}
    stored = {stream: s.app.events(stream) for stream in kinds}  # each stream read once, versions from 1
    touched: dict[str, tuple] = {}
    out: dict[str, list] = {}
    for env in envelopes:
        event = env.event
        if isinstance(event, CommandIssued):
            touched[event.command_id] = event.touched
            streams, together = event.touched, True
        elif isinstance(event, CommandUndone):
            streams, together = touched.get(event.command_id, ()), False
        else:
            continue
        for sid, before in streams:
            stream = UUID(sid)
            if stream not in kinds:
                continue
            for other in stored[stream][before:]:
                if other.command_id == env.command_id:
                    out.setdefault(env.command_id, []).append((kinds[stream], other))
                elif together:  # a command's writes are together, right after ``before``
                    break
    return out


def battles(s: Session, all_: bool = False) -> None:
    """The games of the store, every ruleset together, oldest first, with
    where each stands; the current one marked (``cli.current``), deleted
    ones only with ``all_``."""
    # A read model keeps each game's summary, updated event by event: listing
    # costs one read of it, not a replay of every game.
    from projections.views import battles as battle_rows

    import msgspec

    from .current import chosen_battle

    from domain.kernel import ruleset as registry

    rows = [msgspec.structs.asdict(r) for r in battle_rows(s.app) if registry.load(r.ruleset).battles]
    live = [r["battle"] for r in rows if not r["deleted"]]
    chosen = chosen_battle(s.app)
    current = chosen if chosen in live else (live[-1] if live else None)
    hidden = 0 if all_ else len(rows) - len(live)
    rows = [r | {"current": r["battle"] == current} for r in rows if all_ or not r["deleted"]]
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print(f"No battles: {hidden} deleted (`rk battles --all` lists them, `rk restore NAME`)." if hidden else
                    "No battles yet: start one with `rk new clash` or `rk new conquest` (or try `rk demo`).")
        return
    cells = [["*" if r["current"] else "x" if r["deleted"] else "",
              *(printable(str(r[k])) for k in ("name", "setup", "round", "phase", "who"))] for r in rows]
    columns, width, wrap = BATTLE_COLUMNS, s.out.console.width, ("where", "who")
    if least_width(columns, cells, wrap) > width:  # the setup goes first: a default name says it
        columns, cells = columns[:2] + columns[3:], [row[:2] + row[3:] for row in cells]
    s.out.print(simple_table(columns, cells, width, wrap=wrap))
    notes = ["* current (`rk use NAME` picks another)"] if current else []
    if any(r["deleted"] for r in rows):
        notes.append("x deleted (`rk restore NAME`)")
    if hidden:
        notes.append(f"{hidden} deleted not shown (`rk battles --all`)")
    s.out.print(Text("; ".join(notes), style="dim"))


_ODD_SPACE = re.compile(r"[^\S ]")
# Game and event count are left to --json: at 80 columns the rest fits.
BATTLE_COLUMNS = (("", "left"), ("battle", "left"), ("setup", "left"), ("round", "right"),
                  ("where", "left"), ("who", "left"))


def simple_table(columns: tuple[tuple[str, str], ...], cells: list[list[str]], width: int,
                 wrap: tuple[str, ...] | None = None) -> RenderableType:
    """The rich table of ``cells`` (a SIMPLE_HEAD box, no edge padding). When
    every row fits on one line within ``width``, the same lines are written
    straight away: rich measures and wraps every cell, which at a thousand
    rows costs far more than reading them. ``wrap`` names the columns that
    may wrap when the table is too wide (the others only if it still is,
    broken rather than cut); None lets rich wrap any."""
    widths = [max([cell_len(name)] + [cell_len(row[i]) for row in cells]) for i, (name, _) in enumerate(columns)]
    total = 2 + sum(widths) + 3 * (len(columns) - 1)
    # Rich trims and breaks at whitespace: cells with any but inner spaces go to rich.
    if not cells or total > width or any(c != c.strip() or _ODD_SPACE.search(c) or _zero_width(c)
                                         for row in cells for c in row):
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        least = _least_widths(columns, cells, wrap) if wrap is not None else None
        if least is not None and 2 + sum(least) + 3 * (len(columns) - 1) > width:
            least = None  # too narrow even so: rich shares the width out and folds what must be
        for i, (name, justify) in enumerate(columns):
            if wrap is None:
                table.add_column(name, justify=justify)
            else:
                table.add_column(name, justify=justify, overflow="fold", min_width=least[i] if least else None)
        for row in cells:
            table.add_row(*(Text(c) for c in row))
        return table

    def line(row: list[str]) -> str:
        return " " + "   ".join(
            (" " * (w - cell_len(c)) + c) if justify == "right" else (c + " " * (w - cell_len(c)))
            for c, w, (_, justify) in zip(row, widths, columns)) + " "

    out = Text(" " * total + "\n")
    out.append(line([name for name, _ in columns]), style="bold")
    out.append("\n " + "─" * (total - 2) + " \n")
    out.append("\n".join(line(row) for row in cells))
    out.append("\n" + " " * total)
    return out


def _zero_width(text: str) -> bool:
    """Whether ``text`` holds a character that takes no cell (a Hangul
    filler, a combining mark): rich's table drops or joins such characters,
    so only rich lays those cells out."""
    return not text.isascii() and any(cell_len(ch) == 0 for ch in text)


def least_width(columns: tuple[tuple[str, str], ...], cells: list[list[str]], wrap: tuple[str, ...]) -> int:
    """The narrowest ``simple_table(columns, cells, width, wrap)`` breaks
    no word at."""
    return 2 + sum(_least_widths(columns, cells, wrap)) + 3 * (len(columns) - 1)


def _least_widths(columns: tuple[tuple[str, str], ...], cells: list[list[str]], wrap: tuple[str, ...]) -> list[int]:
    """How narrow each column may get: a column in ``wrap`` down to its
    longest word ("adventurer-turn" is never broken), any other not at all."""
    return [max([cell_len(name)] + [cell_len(w) for row in cells for w in row[i].split(" ")]) if name in wrap
            else max([cell_len(name)] + [cell_len(row[i]) for row in cells])
            for i, (name, _) in enumerate(columns)]


def adventurer(s: Session, name: str) -> None:
    """An adventurer's sheet as the campaign keeps it."""
    a = find_adventurer(s.app, name)
    if s.json:
        s.out.emit(a)
        return
    pack = s.app.pack_of("betrayal")
    dice = {uid: (pack.dice[d].name + (f" (level {pack.dice[d].level})" if pack.dice[d].level > 1 else ""))
            if d in pack.dice else d for uid, d in a.dice}
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    race = pack.races.get(a.race)
    table.add_row("race", race.name if race else a.race)
    table.add_row("skill lines", ", ".join(a.lines) or "—")
    table.add_row("HP", f"{a.hp}/{a.max_hp}")
    table.add_row("Sta/Mag/Cool", f"{a.stamina} / {a.magicka} / {a.cooldown}")
    table.add_row("Tenacity", str(a.tenacity))
    # A list breaks between its items, never inside "#6 Brace".
    table.add_row("dice", Phrases(", ".join(f"#{uid} {n}" for uid, n in dice.items()), hang=0))
    track = []
    for t in a.track:
        if t.kind.value == "skill":
            track.append(f"#{t.uid} {dice.get(t.uid, '?')}" + (f" face {t.face + 1}" if t.face >= 0 else ""))
        elif t.status is not None:
            track.append(f"status {t.status.value}")
        else:
            track.append(t.kind.value.replace("-", " "))
    table.add_row("track", Phrases(", ".join(track) or "—", hang=0))
    names = _battle_names(s)
    table.add_row("battles", Phrases(", ".join(printable(names.get(b, b)) + _outcome(s, b) for b in a.battles)
                                     or "—", hang=0))
    if a.hp <= 0:
        table.add_row("", "defeated: cannot join a battle (HEALTH-5) until a rest heals it (rk rest)")
    if a.campaign or a.class_id:
        from .sheet import sheet_rows

        table.add_row("campaign", a.campaign or "—")
        for label, value in sheet_rows(s, a):
            table.add_row(label, Phrases(value, hang=0))
    s.out.print(Text(a.name, style=STYLES["ally"]), table)


def _outcome(s: Session, battle_id: str) -> str:
    """`` (success)`` or `` (failure)`` for a battle this store holds; "" for
    one it does not (an adventurer imported with its campaign alone)."""
    from domain.kernel.errors import NotFound

    try:
        outcome = getattr(s.app.battle(battle_id).state, "outcome", None)
    except NotFound:
        return ""
    return f" ({outcome.value})" if outcome is not None else ""


def adventurers(s: Session) -> None:
    """Every Betrayal adventurer of the store, oldest first: race, HP, the
    battles fought, the last one and how it ended, whether they can fight
    (an adventurer at 0 HP cannot join a battle, HEALTH-5; one in a battle
    not ended cannot join another, BETWEEN-1)."""
    from projections.views import adventurers as adventurer_rows

    import msgspec

    names = _battle_names(s)
    rows = [msgspec.structs.asdict(r) | {"last_name": names.get(r.last_battle, r.last_battle),
                                         "can_fight": r.hp > 0 and not r.fighting}
            for r in adventurer_rows(s.app)]
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("No adventurers yet: `rk new clash --party Name:race ...` creates them (see `rk races`).")
        return
    races = s.app.pack_of("betrayal").races
    cells = [[printable(r["name"]), races[r["race"]].name if r["race"] in races else printable(r["race"]),
              f"{r['hp']}/{r['max_hp']}", str(r["battles"]),
              printable(f"{r['last_name']}: {r['last_outcome']}") if r["last_battle"] else "—",
              "yes" if r["can_fight"] else
              f"no: in {printable(names.get(r['fighting'], r['fighting']))}" if r["fighting"] else "no: 0 HP"]
             for r in rows]
    s.out.print(simple_table(ADVENTURER_COLUMNS, cells, s.out.console.width, wrap=("last battle",)))


ADVENTURER_COLUMNS = (("adventurer", "left"), ("race", "left"), ("HP", "right"), ("battles", "right"),
                      ("last battle", "left"), ("can fight", "left"))


def _battle_names(s: Session) -> dict[str, str]:
    """Each battle's name in this store, by id (renamed ones differ)."""
    return {e.battle_id: e.name for e in s.app.index().entries(deleted=True) if e.name != e.battle_id}
