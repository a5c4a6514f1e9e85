"""Conquest on the command line: its verbs (set up a battle, choose
arrivals, order the stack, roll off, draw cards, march, charge, strike, end
the round) and its views (the round and phase, both players' Command Stacks
and Reinforcement Lines, every Regiment), as ``cli.game`` asks of a ruleset.

The command line is one seat at the table, so a Command Stack is shown in
order only to the player whose decision is awaited; the opponent's is a
count (CMD-4 lets a player look through their own stack, never the other's).
"""

from __future__ import annotations

import secrets
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from domain.conquest import commands as c
from domain.conquest.catalog import AUTO, NO
from domain.conquest.packs import starter_pack
from domain.conquest.state import ConquestState, Regiment
from domain.conquest.vocab import SIDES, Phase, RegimentClass, Where
from domain.kernel.commandlog import Game
from domain.kernel.errors import MalformedCommand

from . import parse
from .battle_names import called, started
from .game import act, narration, result_json
from .output import printable
from .phrases import Phrases
from .session import Session

RULESET = "conquest"


# --- setting up ---------------------------------------------------------------------


def new_conquest(s: Session, *, scenario: str, armies: list[str], seed: int | None, physical_dice: bool,
                 warlords: list[str], assignments: list[str]) -> None:
    """Set up a battle and show it."""
    if len(armies) != 2:
        raise MalformedCommand(f"name two armies, the first player's then the second's (--army twice), not {len(armies)}")
    seed = seed if seed is not None else secrets.randbelow(2**31)
    if not 0 <= seed < 2**63:
        raise MalformedCommand("--seed must be a whole number from 0 to 2^63-1")
    chosen = ["", ""]
    for text in warlords:
        side, _, who = text.partition(":")
        chosen[_side(side, "--warlord")] = who.strip()
    pairs = []
    for text in assignments:
        character, _, regiment = text.partition(":")
        if not character.strip() or not regiment.strip():
            raise MalformedCommand(f"--assign {text!r}: write CHARACTER:REGIMENT, e.g. ac1:a3")
        pairs.append((character.strip(), regiment.strip()))
    battle_id = s.battle or s.app.new_battle_id(scenario)
    command = c.StartConquest(
        battle_id=battle_id, scenario=scenario, armies=(armies[0].strip(), armies[1].strip()), seed=seed,
        physical_dice=physical_dice, warlords=(chosen[0], chosen[1]), assignments=tuple(pairs),
    )
    result = s.app.start(RULESET, command, battle_id=battle_id)
    started(s, battle_id)
    if s.json:
        s.out.emit(result_json(s, result, None))
        return
    for line in narration(s, result, None):
        s.out.print("  " + line)
    show_status(s, result.battle)


def scenarios(s: Session) -> None:
    """The scenarios of the starter pack."""
    pack = starter_pack()
    rows = [{"id": sc.id, "name": sc.name, "rounds": sc.rounds, "depth": sc.depth, "score_from": sc.score_from,
             "vp_per_round": sc.vp_per_round, "vp_to_win": sc.vp_to_win} for sc in pack.scenarios.values()]
    if s.json:
        s.out.emit(rows)
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("scenario", "name", "rounds", "depth", "VP from round", "VP a round", "VP to win"):
        table.add_column(name)
    for r in rows:
        table.add_row(r["id"], r["name"], str(r["rounds"]), f"{r['depth']}\"", str(r["score_from"]),
                      str(r["vp_per_round"]), str(r["vp_to_win"] or "—"))
    s.out.print(table)
    cells = {NO: "—", AUTO: "auto"}
    table = Table(title="Reinforcement Table (a D6 roll equal or under succeeds)", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    for name in ("round", *(k.value for k in RegimentClass)):
        table.add_column(name)
    for i, row in enumerate(pack.reinforcement, start=1):
        last = i == len(pack.reinforcement)
        table.add_row(f"{i}+" if last else str(i), *(cells.get(v, f"≤ {v}") for v in row))
    s.out.print(table)


def armies(s: Session) -> None:
    """The army lists of the starter pack."""
    pack = starter_pack()
    if s.json:
        s.out.emit(list(pack.armies.values()))
        return
    for army in pack.armies.values():
        # The entry id is what content and logs name a Regiment by: never cut
        # it; the prose columns wrap between words instead (80 columns).
        table = Table(title=f"{army.id}: {army.name}", box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
        table.add_column("entry", no_wrap=True)
        table.add_column("name", min_width=9)
        table.add_column("kind", min_width=9)
        for name in ("stands", "march", "volley"):  # march: its March / its depth
            table.add_column(name, no_wrap=True, justify="right")
        table.add_column("draw events", min_width=10)
        for r in army.regiments:
            name = f"{r.name} ×{r.count}" if r.count > 1 else r.name  # how many the list holds
            table.add_row(r.id, name, f"{r.type} {r.cls.value}", str(r.stands), f"{r.march}\"/{r.depth}\"",
                          f"{r.volley}\"" if r.volley else "—", ", ".join(r.draw_events) or "—")
        for ch in army.characters:
            role = "Warlord" if ch.id == army.warlord else "Character"
            abilities = ", ".join(pack.abilities[a].name for a in ch.abilities)
            table.add_row(ch.id, f"{ch.name} ({role})", ch.type, "—", "—", "—",
                          ", ".join([*ch.draw_events, *( [f"ability: {abilities}"] if abilities else [])]) or "—")
        s.out.print(table)


# --- playing ------------------------------------------------------------------------


def choose_arrival(s: Session, regiment: str | None, faces: str | None) -> None:
    act(s, c.ChooseArrival(regiment=(regiment or "").strip(), faces=_faces(faces, "--faces")))


def pick_arrivals(s: Session, regiments: str) -> None:
    act(s, c.PickArrivals(regiments=_ids(regiments, "--regiments")))


def order_stack(s: Session, cards: str) -> None:
    act(s, c.OrderStack(cards=_ids(cards, "--cards")))


def roll_off(s: Session, faces: str | None) -> None:
    typed = _faces(faces, "--faces")
    if typed is not None and len(typed) != 2:
        raise MalformedCommand("--faces: type both players' faces, e.g. 3,5")
    act(s, c.RollOff(faces=typed))  # type: ignore[arg-type]


def choose_first_player(s: Session, first: bool) -> None:
    act(s, c.ChooseFirstPlayer(first=first))


def declare_ability(s: Session, use: bool) -> None:
    act(s, c.DeclareAbility(use=use))


def draw_card(s: Session, regiment: str | None) -> None:
    act(s, c.DrawCard(regiment=(regiment or "").strip()))


def resolve_draw_event(s: Session, event: str | None, target: str | None, inches: int) -> None:
    act(s, c.ResolveDrawEvent(event=(event or "").strip(), target=(target or "").strip(), inches=_inches(inches)))


def march(s: Session, regiment: str, inches: int, side_edge: int) -> None:
    act(s, c.March(regiment=regiment.strip(), inches=_inches(inches), side_edge=_inches(side_edge)))


def charge(s: Session, regiment: str, target: str, inches: int) -> None:
    act(s, c.Charge(regiment=regiment.strip(), target=target.strip(), inches=_inches(inches)))


def strike(s: Session, kind: str, regiment: str, target: str, removed: int) -> None:
    """A Volley or a Clash, with the stands the players say it removed."""
    if not 0 <= removed < 1000:
        raise MalformedCommand("--removed counts stands: 0 or more")
    command = {"Volley": c.Volley, "Clash": c.Clash}[kind]
    act(s, command(regiment=regiment.strip(), target=target.strip(), removed=removed))


def regiment_action(s: Session, kind: str, regiment: str) -> None:
    """Withdraw or Reform."""
    act(s, {"Withdraw": c.Withdraw, "Reform": c.Reform}[kind](regiment=regiment.strip()))


def end_activation(s: Session) -> None:
    act(s, c.EndActivation())


def end_round(s: Session, vp: str) -> None:
    scored = parse.numbers(vp, "--vp", low=0, high=1000)
    if len(scored) != 2:
        raise MalformedCommand("--vp: the points of both players, e.g. 2,0")
    act(s, c.EndRound(vp=(scored[0], scored[1])))


def surrender(s: Session, side: str) -> None:
    act(s, c.Surrender(side=_side(side, "--side")))


def _side(text: str, option: str) -> int:
    key = text.strip().lower()
    for i, name in enumerate(SIDES):
        if key in (str(i), name):
            return i
    raise MalformedCommand(f"{option}: {text!r} is not a player: 0 or a (the first), 1 or b (the second)")


def _ids(text: str, option: str) -> tuple[str, ...]:
    ids = tuple(x.strip() for x in text.split(",") if x.strip())
    if not ids:
        raise MalformedCommand(f"{option}: name at least one, separated by commas")
    return ids


def _faces(text: str | None, option: str) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(parse.numbers(text, option, low=1, high=6))


def _inches(n: int) -> int:
    if not 0 <= n <= 1000:
        raise MalformedCommand("distances are whole inches from 0 to 1000")
    return n


# --- views ----------------------------------------------------------------------------


def show_status(s: Session, game: Game) -> None:
    """The round, the phase, whose decision, both players and every Regiment."""
    state: ConquestState = game.state
    s.out.print(Phrases(_header(state, called(s.app, state.battle_id))))
    for side in (0, 1):
        s.out.print(_side_table(state, side))


def show_compact(s: Session, state: ConquestState) -> None:
    """The short view after a command: where the round stands and who decides."""
    s.out.print(Phrases(_header(state, called(s.app, state.battle_id))))


def legal_lines(s: Session, state: ConquestState, commands: list[Any]) -> list[str]:
    """Each legal command as the `rk` line that gives it."""
    if not commands:
        return [f"nothing: {_header(state).plain}"]
    rs = s.app.ruleset(state.battle_id)
    lines = [f"rk {rs.describe_command(cmd)}" for cmd in commands]
    if state.physical_dice and any(getattr(cmd, "faces", None) for cmd in commands):
        lines.append("(--faces: type the faces the dice show, 1 to 6)")
    return lines


def _header(state: ConquestState, name: str | None = None) -> Text:
    """Where the battle stands, on a line; ``name``: the battle as
    ``cli.battle_names.called`` shows it (default its id)."""
    name = name or state.battle_id
    vp = f"VP {state.sides[0].vp}–{state.sides[1].vp}"
    if state.phase is Phase.OVER and state.result is not None:
        winner = "a draw" if state.result.winner < 0 else f"player {SIDES[state.result.winner]} wins"
        return Text(f"Battle {name} is over after round {state.round}: {winner} "
                    f"({state.result.reason}); {vp}", style="bold")
    step = "" if state.step.value == "none" else f", {state.step.value}"
    doing = ""
    if state.activation is not None:
        a = state.activation
        doing = f"; {a.regiment} is active ({len(a.performed)} action(s) done)"
    return Text(f"{name}: round {state.round}, {state.phase.value} phase{step}; "
                f"player {SIDES[state.turn]} to decide (First Player: {SIDES[state.first]}); {vp}{doing}")


def _side_table(state: ConquestState, side: int) -> Group:
    """A player's line (army, Reinforcement Line, stack, Warlord), then a
    row per Regiment: a joined Character on a line of its own under its
    Regiment's name, so that neither name is split."""
    own = state.sides[side]
    if own.stack:
        # CMD-4: only the player deciding now sees their own stack in order.
        stack = ", ".join(own.stack) if side == state.turn else f"{len(own.stack)} card(s), face down"
    else:
        stack = "empty"
    warlord = state.warlord(side)
    title = (f"player {SIDES[side]}: {printable(own.army)}  ·  Reinforcement Line {own.line}\"  ·  "
             f"stack: {stack}" + (f"  ·  Warlord {printable(warlord.name)}" if warlord else ""))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)  # no edges: it fits 80 columns
    for name in ("id", "Regiment", "class", "stands", "where", "march", "contact", "this round"):
        table.add_column(name, no_wrap=name in ("id", "Regiment", "class", "stands", "march"))
    characters = {ch.regiment: ch for ch in state.characters if ch.side == side}
    for r in state.side_regiments(side):
        joined = characters.get(r.id)
        name = printable(r.name) + (f"\n+ {printable(joined.name)}" if joined else "")
        table.add_row(r.id, name, r.cls.value, str(r.stands), _where(r), f"{r.march}\"",
                      ", ".join(state.in_contact(r.id)) or "—",
                      ("activated; " if r.activated else "") + (", ".join(a.value for a in r.actions) or "—"))
    return Group(Phrases(Text(title)), table, Text(""))


def _where(r: Regiment) -> str:
    if r.where is Where.FIELD:
        return f"field, front {r.front}\"" + (" (partly on)" if r.partly_on else "")
    return r.where.value
