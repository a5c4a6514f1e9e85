"""What the store remembers: a battle's whole log, the list of battles, an
adventurer between battles."""

from __future__ import annotations

import re

from rich import box
from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from domain.betrayal.application import adventurer as find_adventurer
from domain.kernel.commandlog import CommandIssued, CommandUndone

from .board import HERO
from .game import event_json
from .output import printable
from .session import Session


def log(s: Session) -> None:
    """Every event, narrated against the state just before it. Events of a
    command that was later undone are marked, and each undo names the
    command it reverted."""
    rs = s.ruleset
    envelopes = s.app.stream(s.battle_id)
    undone = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
    commands = {e.event.command_id: e.event.command for e in envelopes if isinstance(e.event, CommandIssued)}
    pack = s.app.pack_of(rs)
    state = None
    rows = []
    written = _companion_events(s, rs)
    for i, env in enumerate(envelopes):
        event = env.event
        text = rs.describe_event(event, state, pack)
        if isinstance(event, CommandUndone) and event.command_id in commands:
            text += f" (it was: rk {rs.describe_command(commands[event.command_id])})"
        rows.append({
            "version": env.originator_version, "command_id": env.command_id,
            "undone": env.command_id in undone, "command": isinstance(event, CommandIssued),
            "text": text, "event": event_json(event),
        })
        state = event.restored if isinstance(event, CommandUndone) else (
            state if isinstance(event, CommandIssued) else rs.evolve(state, event))
        if i + 1 == len(envelopes) or envelopes[i + 1].command_id != env.command_id:
            # the command's events in its companion streams (a delve's Delve) follow its own
            for kind, other in written.pop(env.command_id, ()):
                rows.append({
                    "version": other.originator_version, "command_id": other.command_id, "stream": kind,
                    "undone": other.command_id in undone, "command": False,
                    "text": rs.describe_event(other.event, state, pack), "event": event_json(other.event),
                })
    if s.json:
        s.out.emit(rows)
        return
    table = Table(box=None, show_header=True, header_style="dim", pad_edge=False, padding=(0, 1, 0, 0))
    table.add_column("v", justify="right", style="dim", no_wrap=True)
    table.add_column("cmd", style="dim", no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("what happened")
    for r in rows:
        heading = r["command"] or r["event"]["type"] == "CommandUndone"
        style = "strike dim" if r["undone"] else ("bold" if heading else "")
        other = r.get("stream")  # a companion stream's event: its own version, named by its kind
        table.add_row(f"{other[0]}{r['version']}" if other else str(r["version"]), r["command_id"],
                      "↶" if r["undone"] else "",
                      Text(("" if heading else "  ") + (f"[{other}] " if other else "") + r["text"], style=style))
    s.out.print(table)
    if undone:
        s.out.print(Text(f"↶ marks the events of {len(undone)} undone command(s)", style="dim"))


def _companion_events(s: Session, rs) -> dict[str, list]:
    """The envelopes of the game's companion streams (``Ruleset.companions``),
    by the id of the command that wrote them."""
    out: dict[str, list] = {}
    for kind, stream in rs.companions(s.app.battle(s.battle_id).state):
        for env in s.app.events(stream):
            out.setdefault(env.command_id, []).append((kind, env))
    return out


def battles(s: Session) -> None:
    """The games of the store, every ruleset together, oldest first, with
    where each stands."""
    # A read model keeps each game's summary, updated event by event: listing
    # costs one read of it, not a replay of every game.
    from projections.views import battles as battle_rows

    import msgspec

    rows = [msgspec.structs.asdict(r) for r in battle_rows(s.app)]
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("No battles yet: start one with `rk new clash` or `rk new conquest` (or try `rk demo`).")
        return
    cells = [[printable(str(r[k])) for k in ("battle", "ruleset", "setup", "round", "phase", "who", "version")]
             for r in rows]
    s.out.print(simple_table(BATTLE_COLUMNS, cells, s.out.console.width))


_ODD_SPACE = re.compile(r"[^\S ]")
BATTLE_COLUMNS = (("battle", "left"), ("game", "left"), ("setup", "left"), ("round", "right"),
                  ("where", "left"), ("who", "left"), ("events", "right"))


def simple_table(columns: tuple[tuple[str, str], ...], cells: list[list[str]], width: int) -> RenderableType:
    """The rich table of ``cells`` (a SIMPLE_HEAD box, no edge padding). When
    every row fits on one line within ``width``, the same lines are written
    straight away: rich measures and wraps every cell, which at a thousand
    rows costs far more than reading them."""
    widths = [max([cell_len(name)] + [cell_len(row[i]) for row in cells]) for i, (name, _) in enumerate(columns)]
    total = 2 + sum(widths) + 3 * (len(columns) - 1)
    # Rich trims and breaks at whitespace: cells with any but inner spaces go to rich.
    if not cells or total > width or any(c != c.strip() or _ODD_SPACE.search(c) for row in cells for c in row):
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for name, justify in columns:
            table.add_column(name, justify=justify)
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


def adventurer(s: Session, name: str) -> None:
    """An adventurer's sheet as the campaign keeps it."""
    a = find_adventurer(s.app, name)
    if s.json:
        s.out.emit(a)
        return
    pack = s.app.pack_of("betrayal")
    dice = {uid: pack.dice[d].name if d in pack.dice else d for uid, d in a.dice}
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    race = pack.races.get(a.race)
    table.add_row("race", race.name if race else a.race)
    table.add_row("skill lines", ", ".join(a.lines) or "—")
    table.add_row("HP", f"{a.hp}/{a.max_hp}")
    table.add_row("Sta/Mag/Cool", f"{a.stamina} / {a.magicka} / {a.cooldown}")
    table.add_row("Tenacity", str(a.tenacity))
    table.add_row("dice", ", ".join(f"#{uid} {n}" for uid, n in dice.items()))
    track = []
    for t in a.track:
        if t.kind.value == "skill":
            track.append(f"#{t.uid} {dice.get(t.uid, '?')}" + (f" face {t.face + 1}" if t.face >= 0 else ""))
        elif t.status is not None:
            track.append(f"status {t.status.value}")
        else:
            track.append(t.kind.value.replace("-", " "))
    table.add_row("track", ", ".join(track) or "—")
    table.add_row("battles", ", ".join(a.battles) or "—")
    s.out.print(Text(a.name, style=HERO), table)
