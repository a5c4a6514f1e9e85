"""`rk demo`: a short clash played from setup to the end by a simple bot,
one line per command, with an undo and a redo shown on the way.

It runs on the ordinary store (the default SQLite file unless told
otherwise), under a fresh battle id and with adventurers whose names carry
that id's number, so running it again never collides with an earlier run
and every battle it plays can be looked at afterwards (`rk log`). It
never becomes the current battle (``cli.current``): whatever was current
before stays so, and `rk use demo-N` picks the demo.
"""

from __future__ import annotations

import random

from rich.text import Text

from domain.betrayal import commands as c
from domain.betrayal import events as ev
from domain.betrayal.application import PartySpec, Result, adventurer, new_clash
from domain.betrayal.bots import greedy_choice
from domain.betrayal.catalog import Pack
from domain.betrayal.evolve import evolve
from domain.betrayal.state import BattleState, Phase
from domain.betrayal.vocab import BattleForm
from domain.kernel.errors import NotFound
from domain.kernel.hexes import label

from domain.betrayal.names import unit_name
from domain.betrayal.view_map import board
from domain.betrayal.views import header

from .current import chosen_battle, current_or_none, remember
from .document import renderables
from .game import show
from .phrases import Phrases
from .session import Session

SETUP = "waystone-crossing"
XP = 2  # EP 4 for two adventurers: a few enemies, a few rounds
MAX_COMMANDS = 200  # a bot's battle ends long before; this only guards the loop
WIDTH = 98


def run(s: Session, seed: int) -> None:
    app = s.app
    kept = current_or_none(app)
    if kept is not None and chosen_battle(app) != kept:
        remember(app, kept)  # the battle in hand stays current, though the demo is newer
    number = _free_number(app)
    battle_id = f"demo-{number}"
    party = [
        PartySpec(f"Ysolda-{number}", "nord", ("one-hand-shield", "heavy-armor"), BattleForm.LIGHT),
        PartySpec(f"Tarn-{number}", "dark-elf", ("bow", "destruction-staff"), BattleForm.RANGED),
    ]
    result = new_clash(app, setup=SETUP, party=party, xp=XP, seed=seed, battle_id=battle_id)
    state = result.battle.state
    ctx = app.rules_context(battle_id)  # a clash: its context never changes during play
    width = max(len(h.name) for h in state.heroes)
    played: list[dict] = []
    spell = app.ruleset(battle_id).describe_command  # commands as `rk` takes them
    s.out.print(*renderables((header(state, ctx), board(state, ctx))), "")

    bot = random.Random(seed)
    shown_undo = False
    while state.phase is not Phase.ENDED and len(played) < MAX_COMMANDS:
        command = greedy_choice(state, ctx, bot)
        result = app.execute(battle_id, command)
        _line(s, state, spell(command), result, width)
        played.append({"command_id": result.command_id, "rk": f"rk {spell(command)}"})
        if not shown_undo and isinstance(command, c.Move):
            shown_undo = True
            mover = state.turn.hero
            undone = app.undo(battle_id)
            back = label(undone.battle.state.hero(mover).pos)
            s.out.print(Text(f"{'':{width + 4}} rk undo → {state.hero(mover).name} is back on {back}", style="yellow"))
            result = app.redo(battle_id)
            s.out.print(Text(f"{'':{width + 4}} rk redo → the move again", style="yellow"))
        state = result.battle.state

    s.out.print("")
    show(s, result.battle, full=False)
    if s.json:
        s.out.emit({"battle": battle_id, "commands": played, "outcome": state.outcome,
                    "reason": state.ended_reason, "state": state})
        return
    still = f"; commands still act on {app.find_battle(kept).name} (rk use {battle_id} to change that)" if kept else ""
    s.out.print(Phrases(Text(f"Battle {battle_id} is kept in the store: rk log --battle {battle_id},"
                             f" rk verify --battle {battle_id}{still}", style="dim")))


def _free_number(app) -> int:
    """The next battle number whose demo battle and adventurers are all new."""
    taken = {b.battle_id for b in app.battles()}
    number = 1 + sum(1 for battle in taken if battle.startswith("demo-"))
    while f"demo-{number}" in taken or _exists(app, f"Ysolda-{number}") or _exists(app, f"Tarn-{number}"):
        number += 1
    return number


def _exists(app, name: str) -> bool:
    try:
        adventurer(app, name)
    except NotFound:
        return False
    return True


def _line(s: Session, before: BattleState, typed: str, result: Result, width: int) -> None:
    """``R2 Tarn-3   rk engage ... → what came of it``, on one line
    (``typed``: the command as `rk` takes it)."""
    who = before.hero(before.turn.hero).name if before.turn else "party"
    head = f"R{before.round:<2} {who:<{width}} rk {typed}"
    outcome = _outcome(before, result, s.app.pack_of("betrayal"))
    text = head + (f" → {outcome}" if outcome else "")
    if len(text) > WIDTH:
        text = text[: WIDTH - 1] + "…"
    s.out.print(text)


def _outcome(state: BattleState, result: Result, pack: Pack) -> str:
    """The few events worth a glance: rolls, damage, defeats, enemy moves,
    a new round, the end."""
    parts: list[str] = []
    for event in result.events:
        if isinstance(event, ev.DiceRolled):
            who = "" if state.pending and state.pending.hero == event.unit else f"{event.unit} "
            parts.append(f"{who}rolled " + ",".join(str(r.face + 1) for r in event.dice))
        elif isinstance(event, ev.DamageDealt):
            lost = event.to_hp + event.to_bonus
            hurt = f"-{lost} ({event.hp} HP)" if lost else "unhurt"
            parts.append(f"{_short(state, pack, event.target)} {hurt}")
        elif isinstance(event, ev.UnitDefeated):
            parts.append(f"{_short(state, pack, event.unit)} defeated")
        elif isinstance(event, ev.EnemyMoved):
            parts.append(f"{event.foe} to {label(event.path[-1])}")
        elif isinstance(event, ev.RoundStarted):
            parts.append(f"round {event.round}")
        elif isinstance(event, ev.BattleEnded):
            parts.append(event.outcome.value.upper())
        state = evolve(state, event)
    return ", ".join(parts)


def _short(state: BattleState, pack: Pack, unit: str) -> str:
    """An adventurer's name or an enemy's id: enough on a one-line summary."""
    return unit_name(state, pack, unit).split(" ")[0]
