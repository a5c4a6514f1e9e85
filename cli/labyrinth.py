"""The labyrinth battle's views on the command line, as ``cli.game`` asks of
a ruleset: the full status (both sides row by row, front then back, in
their left-to-right order, with HP, TP, FP, ailments and binds with their
depth, buffs and debuffs with the turns they have left, Waiting and Full
defense), the compact view after a command, and each legal command as the
`rk` line that gives it (the verbs are ``cli.labyrinth_verbs``').

Everything drawn fits 80 columns: a side is a table whose last column (the
conditions) wraps between its items.
"""

from __future__ import annotations

from typing import Any

import msgspec
from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from domain.kernel.commandlog import Game
from domain.labyrinth.flow import waits_for
from domain.labyrinth.standby import awaiting
from domain.labyrinth.options import passive_mode
from domain.labyrinth.state import ActiveBuff, Combatant, Declaration, LabyrinthState, Options
from domain.labyrinth.stats import stats
from domain.labyrinth.targeting import cannot_act
from domain.labyrinth.vocab import NO_DEPTH, Buff, Phase, Row, Side

from .battle_names import called
from .output import printable
from .phrases import Phrases
from .session import Session

ELEMENTAL = (Buff.ELEMENT, Buff.RESIST, Buff.WEAK)  # their ● is an element, not an amount
WINDOWS = {"fastest": " (fastest window: a fastest skill, or rk hold)", "delayed": " (its delayed action)"}


# --- what cli.game asks of a ruleset ---------------------------------------------------


def show_status(s: Session, game: Game) -> None:
    """Where the battle stands, the setup, then the party and the Enemies."""
    state: LabyrinthState = game.state
    pack = _pack(s, state)
    for line in header(state, called(s.app, state.battle_id), pack):
        s.out.print(Phrases(line))
    s.out.print(Phrases(Text(setup_line(state))))
    for title, pc in (("Party", True), ("Enemies", False)):
        s.out.print(side_table(state, pack, title, pc))


def show_compact(s: Session, state: LabyrinthState) -> None:
    """The short view after a command: turn, phase and who is awaited."""
    for line in header(state, called(s.app, state.battle_id), _pack(s, state)):
        s.out.print(Phrases(line))


def legal_lines(s: Session, state: LabyrinthState, commands: list[Any]) -> list[str]:
    """Each legal command as the `rk` line that gives it."""
    if not commands:
        return [f"nothing: {header(state)[0].plain}"]
    rs = s.app.ruleset(state.battle_id)
    return [f"rk {rs.describe_command(cmd)}" for cmd in commands]


def status_json(s: Session, game: Game) -> dict[str, Any]:
    """What `rk status --json` adds: who the battle waits for (``standby``,
    a PC's id, ``gm`` or ""), whose Standby declarations are awaited (PCs,
    and under the GM Enemies with a Standby skill), the acting one's window
    ("fastest", "delayed" or "") and the Main order still to act."""
    state: LabyrinthState = game.state
    return {"waits_for": waits_for(state), "awaiting": [c.id for c in awaiting(state, _pack(s, state))]
            if state.phase is Phase.STANDBY and not state.over else [], "acting": state.acting,
            "window": state.window, "queue": list(state.queue)}


def _pack(s: Session, state: LabyrinthState) -> Any:
    return s.app.pack_of(s.app.ruleset(state.battle_id))


# --- the header ------------------------------------------------------------------------


def header(state: LabyrinthState, name: str | None = None, pack: Any = None) -> list[Text]:
    """Where the battle stands: turn, phase and whose decision, on a line;
    in the Main phase a second line with who is still to act. With the
    ``pack``, the GM's Standby declarations for Enemies are counted too."""
    name = name or state.battle_id
    if state.over:
        drops = f"; drops: {', '.join(printable(d) for d in state.drops)}" if state.drops else ""
        return [Text(f"Battle {name} is over after turn {state.turn}: {state.termination.value}{drops}",
                     style="bold")]
    who = waits_for(state)
    q = state.question
    if q is not None and q.kind == "fp":  # FP on a Suppression defense roll (FUMBLE-2, ask_fp)
        doing = (f"{_who(state.get(q.who))}'s Suppression defense roll ({q.check}): FP to spend? "
                 f"rk spend {q.who} N [--reroll]")
        who = ""
    elif q is not None:  # a passive action chosen by hand (PASSIVE-1 .. PASSIVE-3)
        by = "the GM chooses " if who == "gm" else ""
        doing = (f"{by}{_who(state.get(q.who))}'s passive against {_who(state.get(q.attacker))}'s attack roll: "
                 f"rk react {q.who} {'|'.join(q.skills)}|none")
        who = ""  # the question says it all: no window
    elif who == "standby":
        awaited = ", ".join(_who(c) for c in awaiting(state, pack))
        doing = f"declarations awaited from {awaited}"
    elif who == "gm":
        doing = f"the GM chooses {_who(state.get(state.acting))}'s action (rk enemy)"
    elif who:
        doing = f"{_who(state.get(who))} to act"
    else:
        doing = "no one to act"
    if who and who != "standby" and state.window:
        doing += WINDOWS.get(state.window, f" ({state.window})")
    lines = [Text(f"{name}: turn {state.turn}, {state.phase.value.capitalize()} phase; {doing}")]
    if state.phase is Phase.MAIN:
        later = [("fastest window", state.fastest), ("then", state.queue),
                 ("delayed", tuple(x.who for x in state.delayed))]
        told = [f"{what}: " + ", ".join(_who(state.get(i)) for i in ids if state.find(i)) for what, ids in later if ids]
        if told:
            lines.append(Text("  " + "; ".join(told)))
    return lines


def setup_line(state: LabyrinthState) -> str:
    """The encounter, the seed, how passives are chosen (PASSIVE-2) and the
    table options that differ from the defaults."""
    o, default = state.options, Options()
    passives = passive_mode(o)
    changed = [f"{f.name}={_option(getattr(o, f.name))}" for f in msgspec.structs.fields(Options)
               if getattr(o, f.name) != getattr(default, f.name) and f.name not in ("ask_passives", "auto_passives")]
    return (f"encounter {printable(state.encounter)}  ·  seed {state.seed}  ·  passives: {passives}  ·  options: "
            + (", ".join(changed) if changed else "the defaults"))


def _option(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


def _who(c: Combatant) -> str:
    return f"{c.id} {printable(c.name)}"


# --- a side ----------------------------------------------------------------------------


def side_table(state: LabyrinthState, pack: Any, title: str, pc: bool) -> Group:
    """The party's (``pc``) or the Enemies' table under ``title``: front
    row then back row, each left to right, the acting combatant in bold."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for column in ("row", "id", "name", "HP", "TP", "FP"):
        table.add_column(column, no_wrap=column != "name", justify="right" if column in ("HP", "TP", "FP") else "left")
    table.add_column("conditions", min_width=16)
    side = tuple(c for c in state.side(pc) if not c.vanished)  # a token gone is no longer drawn
    for row in Row:
        members = sorted((c for c in side if c.row is row), key=lambda c: (c.order, c.roster))
        for n, c in enumerate(members):
            now = stats(c, pack)
            tp = f"{c.tp}/{now.max_tp}" if now.max_tp or c.tp else "—"
            acting = c.id == state.acting and not state.over
            table.add_row(row.value if n == 0 else "", c.id, printable(c.name), f"{c.hp}/{now.max_hp}", tp,
                          str(c.fp) if c.side is Side.PC else "—", ", ".join(conditions(state, c, pack)) or "—",
                          style="bold" if acting else None)
    if not side:
        table.add_row("", "", "(no one)", "", "", "", "")
    return Group(Text(title, style="bold"), table, Text(""))


def conditions(state: LabyrinthState, c: Combatant, pack: Any = None) -> list[str]:
    """What is true of ``c`` now, as short phrases: out of the fight, whose
    turn, Standby declaration, Waiting and Full defense, ailments and binds
    with their depth, buffs and debuffs with their turns left. With the
    ``pack``, an Enemy whose Standby declaration the GM owes says so."""
    out = []
    if c.hp <= 0:
        out.append("incapacitated")
    if not state.over:
        out += _turn_state(state, c, pack)
    if c.full_defense:
        out.append("Full defense")
    if c.waiting:
        out.append("Waiting")
    if c.inactive and c.hp > 0:
        out.append("lost this turn")
    if c.confused:
        out.append("confused")
    if c.placer:
        out.append(f"token of {c.placer}" + (f" to turn {c.expires}" if c.expires else ""))
    elif c.side is Side.NPC:
        out.append("allied NPC")  # on the party's side, acting by the seeded policy
    if c.link:
        out.append(f"link {c.link}")
    if c.unknown:
        out.append("not identified")
    if c.rare and c.spotted:  # an unspotted rare variant shows as its sheet (facts: Fills ENEMY-3)
        out.append("rare")
    if not c.unknown:  # its "Weakness" skills, known and in force once Identified
        out += [f"weak {attr} -{amount}" for attr, amount in c.base.weak.items()]
    out += [a.kind if a.kind in NO_DEPTH else f"{a.kind} (depth {a.depth})" for a in c.ailments]
    out += [f"{b.kind} bind (depth {b.depth})" for b in c.binds]
    out += [buff_text(b) for b in c.buffs]
    return out


def _turn_state(state: LabyrinthState, c: Combatant, pack: Any = None) -> list[str]:
    if state.phase is Phase.STANDBY:
        declared = state.declared(c.id)
        if declared is not None:
            return [f"declared {declaration_text(declared)}"]
        if any(a.id == c.id for a in awaiting(state, pack)):
            return ["to declare"]
        reason = cannot_act(state, c)[0]
        return [reason.removeprefix("is ")] if reason and c.hp > 0 else []
    if c.id == state.acting:
        return ["acting"]
    if c.acted:
        return ["acted"]
    return []


def declaration_text(x: Declaration) -> str:
    """A Standby declaration in the words of its verb."""
    if x.action == "move":
        return f"move {x.row} {x.order}" if x.order else f"move {x.row}"
    if x.action == "skill":
        return f"{x.skill}" + (f" on {x.target}" if x.target else "")
    if x.action == "escape" and (x.fp or x.reroll):  # FP committed to its Escape check (FUMBLE-2)
        return "escape" + (f" +{x.fp} FP" if x.fp else "") + (" (reroll)" if x.reroll else "")
    return {"defend": "Full defense"}.get(x.action, x.action)


def buff_text(b: ActiveBuff) -> str:
    """``patk-up 2 (3 turns)``, ``element fire (1 turn)``, ``chase p2 (2 turns)``."""
    what = b.kind.value
    if b.kind in ELEMENTAL and b.element is not None:
        what += f" {b.element.value}"
    elif b.kind is Buff.CHASE and b.target:
        what += f" {b.target}"
    elif b.amount:
        what += f" {b.amount}"
    return f"{what} ({b.turns} turn{'s' if b.turns != 1 else ''})"
