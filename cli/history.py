"""What the store remembers: a battle's whole log, the list of battles, an
adventurer between battles."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from domain.betrayal import events as ev
from domain.betrayal.evolve import evolve
from domain.kernel.errors import NotFound

from .battle import event_json
from .board import HERO
from .narrate import describe
from .session import Session
from .spell import spell


def log(s: Session) -> None:
    """Every event, narrated against the state just before it. Events of a
    command that was later undone are marked, and each undo names the
    command it reverted."""
    envelopes = s.app.stream(s.battle_id)
    undone = {e.event.command_id for e in envelopes if isinstance(e.event, ev.CommandUndone)}
    commands = {e.event.command_id: e.event.command for e in envelopes if isinstance(e.event, ev.CommandIssued)}
    pack = s.app.pack
    state = None
    rows = []
    for env in envelopes:
        event = env.event
        text = describe(event, state, pack)
        if isinstance(event, ev.CommandUndone) and event.command_id in commands:
            text += f" (it was: rk {spell(commands[event.command_id])})"
        rows.append({
            "version": env.originator_version, "command_id": env.command_id,
            "undone": env.command_id in undone, "command": isinstance(event, ev.CommandIssued),
            "text": text, "event": event_json(event),
        })
        state = evolve(state, event)
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
        table.add_row(str(r["version"]), r["command_id"], "↶" if r["undone"] else "",
                      Text(("" if heading else "  ") + r["text"], style=style))
    s.out.print(table)
    if undone:
        s.out.print(Text(f"↶ marks the events of {len(undone)} undone command(s)", style="dim"))


def battles(s: Session) -> None:
    """The battles of the store, with the round, the phase or outcome."""
    app = s.app
    rows = []
    for registered in app.battles():
        try:
            battle = app.battle(registered.battle_id)
        except NotFound:
            continue
        st = battle.state
        rows.append({
            "battle": st.battle_id, "setup": st.setup, "round": st.round, "phase": st.phase.value,
            "outcome": st.outcome.value if st.outcome else None,
            "party": [h.name for h in st.heroes], "version": battle.version,
        })
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("No battles yet: start one with `rk new clash` (or try `rk demo`).")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify in (("battle", "left"), ("setup", "left"), ("round", "right"),
                          ("where", "left"), ("party", "left"), ("events", "right")):
        table.add_column(name, justify=justify)
    for r in rows:
        where = r["outcome"] or r["phase"]
        table.add_row(r["battle"], r["setup"], str(r["round"]), where, ", ".join(r["party"]), str(r["version"]))
    s.out.print(table)


def adventurer(s: Session, name: str) -> None:
    """An adventurer's sheet as the campaign keeps it."""
    a = s.app.adventurer(name)
    if s.json:
        s.out.emit(a)
        return
    pack = s.app.pack
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
