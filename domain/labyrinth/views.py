"""A labyrinth battle as a table sees it on a screen: where the battle
stands and whose decision it is, how it was set up, then both sides row by
row, front then back, each left to right, with HP, TP, FP, ailments and
binds with their depth, buffs and debuffs with the turns they have left,
Waiting and Full defense (``rk status``; after a command, the first lines).

Everything fits 80 columns: a side is a table whose last column (the
conditions) wraps between its items.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.surface.document import Block, Column, Lines, Table, Tone

from .flow import waits_for
from .options import option_text, passive_mode
from .standby import awaiting
from .state import ActiveBuff, Combatant, Declaration, LabyrinthState, Options
from .stats import stats
from .targeting import cannot_act
from .vocab import BUFF_NAMES, NO_DEPTH, Buff, Phase, Row, Side

ELEMENTAL = (Buff.ELEMENT, Buff.RESIST, Buff.WEAK)  # their ● is an element, not an amount
WINDOWS = {"fastest": " (fastest window: a fastest skill, or rk hold)", "delayed": " (its delayed action)"}
SIDES = (("Party", True), ("Enemies", False))
PASSIVE_OPTIONS = ("ask_passives", "auto_passives")  # shown as "passives: ask|auto|off"


# --- what the surface asks of a ruleset ---------------------------------------------------


def status(seen: Any) -> tuple[Block, ...]:
    """Where the battle stands, the setup, then the party and the Enemies."""
    state: LabyrinthState = seen.state
    blocks: list[Block] = [header(state, seen.name, seen.pack), Lines((setup_line(state),))]
    for title, pc in SIDES:
        blocks += side(state, seen.pack, title, pc)
    return tuple(blocks)


def compact(seen: Any) -> tuple[Block, ...]:
    """The short view after a command: turn, phase and who is awaited."""
    return (header(seen.state, seen.name, seen.pack),)


def extra(seen: Any) -> dict[str, Any]:
    """What `rk status --json` adds: who the battle waits for (``standby``,
    a PC's id, ``gm`` or ""), whose Standby declarations are awaited (PCs,
    and under the GM Enemies with a Standby skill), the acting one's window
    ("fastest", "delayed" or "") and the Main order still to act."""
    state: LabyrinthState = seen.state
    standby = state.phase is Phase.STANDBY and not state.over
    return {
        "waits_for": waits_for(state),
        "awaiting": [c.id for c in awaiting(state, seen.pack)] if standby else [],
        "acting": state.acting,
        "window": state.window,
        "queue": list(state.queue),
    }


def legal_note(state: LabyrinthState, commands: list[Any]) -> str:
    """Nothing: every choice a listing holds is a line of its own (FP spent
    with --fp and --reroll is in each verb's help)."""
    return ""


def typed_faces(state: LabyrinthState) -> bool:
    """With physical dice the table types every roll's faces: a listing writes ``F``."""
    return state.options.physical_dice


# --- the header ---------------------------------------------------------------------------


def header(state: LabyrinthState, name: str | None = None, pack: Any = None) -> Lines:
    """Where the battle stands: turn, phase and whose decision, on a line;
    in the Main phase a second line with who is still to act. With the
    ``pack``, the GM's Standby declarations for Enemies are counted too."""
    name = name or state.battle_id
    if state.termination is not None:  # the battle is over (``state.over``)
        drops = f"; drops: {', '.join(state.drops)}" if state.drops else ""
        return Lines((f"Battle {name} is over after turn {state.turn}: {state.termination.value}{drops}",), strong=True)
    lines = [f"{name}: turn {state.turn}, {state.phase.value.capitalize()} phase; {_doing(state, pack)}"]
    if state.phase is Phase.MAIN:
        later = [
            ("fastest window", state.fastest),
            ("then", state.queue),
            ("delayed", tuple(x.who for x in state.delayed)),
        ]
        told = [f"{what}: " + ", ".join(_who(state.get(i)) for i in ids if state.find(i)) for what, ids in later if ids]
        if told:
            lines.append("  " + "; ".join(told))
    return Lines(tuple(lines))


def _doing(state: LabyrinthState, pack: Any) -> str:
    """Whose decision the battle waits for, and how it is given."""
    who = waits_for(state)
    q = state.question
    if q is not None and q.kind == "faces":  # physical dice: the table types the roll's faces
        return (
            f"{_who(state.get(q.who))}'s roll ({q.check}, {q.rule}) waits for its faces: "
            f"rk roll --faces {','.join('F' * q.dice)}"
        )
    if q is not None and q.kind == "fp":  # FP on a Suppression defense roll (FUMBLE-2, ask_fp)
        return (
            f"{_who(state.get(q.who))}'s Suppression defense roll ({q.check}): FP to spend? "
            f"rk spend {q.who} N [--reroll]"
        )
    if q is not None:  # a passive action chosen by hand (PASSIVE-1 .. PASSIVE-3): the question says it all
        by = "the GM chooses " if who == "gm" else ""
        return (
            f"{by}{_who(state.get(q.who))}'s passive against {_who(state.get(q.attacker))}'s attack roll: "
            f"rk react {q.who} {'|'.join(q.skills)}|none"
        )
    if who == "standby":
        return f"declarations awaited from {', '.join(_who(c) for c in awaiting(state, pack))}"
    if who == "gm":
        doing = f"the GM chooses {_who(state.get(state.acting))}'s action (rk enemy)"
    elif who:
        doing = f"{_who(state.get(who))} to act"
    else:
        return "no one to act"
    return doing + (WINDOWS.get(state.window, f" ({state.window})") if state.window else "")


def setup_line(state: LabyrinthState) -> str:
    """The encounter, the seed, how passives are chosen (PASSIVE-2) and the
    table options that differ from the defaults."""
    o, default = state.options, Options()
    changed = [
        f"{f.name}={option_text(getattr(o, f.name))}"
        for f in msgspec.structs.fields(Options)
        if getattr(o, f.name) != getattr(default, f.name) and f.name not in PASSIVE_OPTIONS
    ]
    return f"encounter {state.encounter}  ·  seed {state.seed}  ·  passives: {passive_mode(o)}  ·  options: " + (
        ", ".join(changed) if changed else "the defaults"
    )


def _who(c: Combatant) -> str:
    return f"{c.id} {c.name}"


# --- a side -------------------------------------------------------------------------------


def side(state: LabyrinthState, pack: Any, title: str, pc: bool) -> tuple[Block, ...]:
    """The party's (``pc``) or the Enemies' table under ``title``: front
    row then back row, each left to right; the acting combatant stands
    out, one out of the fight is dimmed."""
    columns = tuple(
        Column(name, align="right" if name in ("HP", "TP", "FP") else "left", wrap=name == "name")
        for name in ("row", "id", "name", "HP", "TP", "FP")
    ) + (Column("conditions", min_width=16),)
    rows: list[tuple[str, ...]] = []
    tones: list[Tone] = []
    members = tuple(c for c in state.side(pc) if not c.vanished)  # a token gone is no longer drawn
    for row in Row:
        for n, c in enumerate(sorted((c for c in members if c.row is row), key=lambda c: (c.order, c.roster))):
            now = stats(c, pack)
            tp = f"{c.tp}/{now.max_tp}" if now.max_tp or c.tp else "—"
            rows.append(
                (
                    row.value if n == 0 else "",
                    c.id,
                    c.name,
                    f"{c.hp_shown}/{now.max_hp}",
                    tp,
                    str(c.fp) if c.side is Side.PC else "—",
                    ", ".join(conditions(state, c, pack)) or "—",
                )
            )
            tones.append("strong" if c.id == state.acting and not state.over else "dim" if c.down else "")
    if not members:
        rows.append(("", "", "(no one)", "", "", "", ""))
        tones.append("dim")
    return (
        Lines((((title, "strong"),),)),
        Table(columns, tuple(rows), edge=False, row_tones=tuple(tones)),
        Lines(("",)),
    )


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
    """A buff as the rules name it (BUFF-ELEMENT to BUFF-WEAK): ``Physical
    attack up 2 (3 turns)``, ``Element grant fire (1 turn)``, ``Pursuit p2
    (2 turns)``."""
    what = BUFF_NAMES[b.kind]
    if b.kind in ELEMENTAL and b.element is not None:
        what += f" {b.element.value}"
    elif b.kind is Buff.CHASE and b.target:
        what += f" {b.target}"
    elif b.amount:
        what += f" {b.amount}"
    return f"{what} ({b.turns} turn{'s' if b.turns != 1 else ''})"
