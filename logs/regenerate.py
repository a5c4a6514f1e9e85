"""Regenerate the golden battle logs in this folder by real play.

Each log is a battle played through the kernel's ``GameApp`` on a memory
store by a ruleset's greedy bot (``domain.<ruleset>.bots``) with fixed
seeds, then exported. Play is deterministic; only the timestamps (and so
the hashes) change from one regeneration to the next.

    .venv/bin/python logs/regenerate.py          # from the project root
    .venv/bin/pytest tests/golden --regen-golden  # the same, through pytest
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from domain.betrayal.application import BetrayalApp, PartySpec, Result
from domain.betrayal.bots import greedy_choice
from domain.betrayal.commands import Engage, Move
from domain.betrayal.events import DiceRolled
from domain.betrayal.state import Outcome, Phase
from domain.conquest import bots as conquest_bots
from domain.conquest import events as conquest_events
from domain.conquest.commands import StartConquest
from domain.conquest.vocab import Termination
from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle

LOGS = Path(__file__).resolve().parent
PARTY = ("Ysolda:nord", "Tarn:dark-elf")
MAX_COMMANDS = 300  # a bot battle that runs longer is a bug, not a fixture


def _clash(app: BetrayalApp, battle_id: str, setup: str, xp: int, seed: int) -> None:
    app.new_clash(setup=setup, party=[PartySpec.parse(p) for p in PARTY], xp=xp, seed=seed,
                  battle_id=battle_id)


def _ended(app: BetrayalApp, battle_id: str) -> bool:
    return app.battle(battle_id).state.phase is Phase.ENDED


def _next(app: BetrayalApp, battle_id: str, rnd: random.Random) -> Result:
    """Let the greedy bot give the next command."""
    state = app.battle(battle_id).state
    return app.execute(battle_id, greedy_choice(state, app.context(state), rnd))


def play_out(app: BetrayalApp, battle_id: str, rnd: random.Random) -> None:
    for _ in range(MAX_COMMANDS):
        if _ended(app, battle_id):
            return
        _next(app, battle_id, rnd)
    raise RuntimeError(f"{battle_id} did not end in {MAX_COMMANDS} commands")


def won_waystone_crossing(app: BetrayalApp) -> str:
    """Greedy play that wins (seed 2, XP 2: four enemies, five rounds)."""
    battle_id = "golden-won-waystone-crossing"
    _clash(app, battle_id, "waystone-crossing", xp=2, seed=2)
    play_out(app, battle_id, random.Random(2))
    return _expect(app, battle_id, Outcome.SUCCESS)


def lost_fallen_watchtower(app: BetrayalApp) -> str:
    """Greedy play that loses (seed 4, XP 2: the party falls in round 5)."""
    battle_id = "golden-lost-fallen-watchtower"
    _clash(app, battle_id, "fallen-watchtower", xp=2, seed=4)
    play_out(app, battle_id, random.Random(4))
    return _expect(app, battle_id, Outcome.FAILURE)


def undo_cinder_rite(app: BetrayalApp) -> str:
    """Greedy play with undo and redo in it: a move undone and redone, a
    roll undone by force and redone (the same faces come back), a move
    undone and replaced by a new command, two commands undone in a row and
    redone in turn, and
    the battle's last command (which wrote to the adventurers) undone by
    force and redone."""
    battle_id = "golden-undo-cinder-rite"
    _clash(app, battle_id, "cinder-rite", xp=1, seed=1)
    rnd = random.Random(1)
    moves = rolls = 0
    for _ in range(MAX_COMMANDS):
        if _ended(app, battle_id):
            break
        result = _next(app, battle_id, rnd)
        cmd = app.battle(battle_id).done[-1].command
        if _ended(app, battle_id):
            _undo_and_redo(app, battle_id, result)
        elif isinstance(cmd, Move):
            moves += 1
            if moves == 1:
                app.undo(battle_id)
                app.redo(battle_id)
            elif moves == 2:
                app.undo(battle_id)  # the bot then gives a new command: the redo is gone
            elif moves == 3:  # two back (the second by force: it ended a turn
                app.undo(battle_id)  # with enemy rolls), then both forward
                app.undo(battle_id, force=True)
                app.redo(battle_id)
                app.redo(battle_id)
        elif isinstance(cmd, Engage) and cmd.dice:
            rolls += 1
            if rolls == 1:
                _undo_and_redo(app, battle_id, result)
    else:
        raise RuntimeError(f"{battle_id} did not end in {MAX_COMMANDS} commands")
    return battle_id


def _undo_and_redo(app: BetrayalApp, battle_id: str, result: Result) -> None:
    """Undo the last command (by force: it revealed randomness) and redo it;
    the RNG counter came back, so the redo rolls the same faces."""
    app.undo(battle_id, force=True)
    again = app.redo(battle_id)
    if _rolls(again) != _rolls(result):
        raise RuntimeError("a redo rolled other faces than the undone command")


def _rolls(result: Result) -> list[DiceRolled]:
    return [e for e in result.events if isinstance(e, DiceRolled)]


def _expect(app: BetrayalApp, battle_id: str, outcome: Outcome) -> str:
    got = app.battle(battle_id).state.outcome
    if got is not outcome:
        raise RuntimeError(f"{battle_id} ended in {got}, not {outcome}: the rules changed; pick another seed")
    return battle_id


# --- Conquest -----------------------------------------------------------------------

CONQUEST_ARMIES = ("saltmarch", "cinderpact")
MAX_CONQUEST_COMMANDS = 1000


def _conquest(app: GameApp, battle_id: str, scenario: str, seed: int) -> None:
    app.start("conquest", StartConquest(battle_id=battle_id, scenario=scenario, armies=CONQUEST_ARMIES,
                                        seed=seed), battle_id=battle_id)


def _conquest_next(app: GameApp, battle_id: str) -> Result:
    rs = app.ruleset(battle_id)
    state = app.battle(battle_id).state
    return app.execute(battle_id, conquest_bots.greedy_choice(state, rs.context(app.pack_of(rs), state)))


def _conquest_over(app: GameApp, battle_id: str) -> bool:
    return app.battle(battle_id).state.result is not None


def _conquest_play_out(app: GameApp, battle_id: str) -> None:
    for _ in range(MAX_CONQUEST_COMMANDS):
        if _conquest_over(app, battle_id):
            return
        _conquest_next(app, battle_id)
    raise RuntimeError(f"{battle_id} did not end in {MAX_CONQUEST_COMMANDS} commands")


def _conquest_expect(app: GameApp, battle_id: str, termination: Termination) -> str:
    got = app.battle(battle_id).state.result.termination
    if got is not termination:
        raise RuntimeError(f"{battle_id} ended by {got}, not {termination}: the rules changed; pick another seed")
    return battle_id


def conquest_wipe_out(app: GameApp) -> str:
    """Greedy play decided by wipe-out (border-clash, seed 2, round 4)."""
    battle_id = "golden-conquest-wipe-out"
    _conquest(app, battle_id, "border-clash", seed=2)
    _conquest_play_out(app, battle_id)
    return _conquest_expect(app, battle_id, Termination.WIPE_OUT)


def conquest_round_limit(app: GameApp) -> str:
    """Greedy play that runs to the scenario's round limit (border-clash, seed 3, 10 rounds)."""
    battle_id = "golden-conquest-round-limit"
    _conquest(app, battle_id, "border-clash", seed=3)
    _conquest_play_out(app, battle_id)
    return _conquest_expect(app, battle_id, Termination.ROUND_LIMIT)


def conquest_undo(app: GameApp) -> str:
    """Greedy play with undo and redo in it (hold-the-ford, seed 1): each of
    the first three rolls (Reinforcement and roll-off) undone by force and
    redone (the same faces come back), a command without randomness undone
    and replaced, and the command that ended the battle undone and redone."""
    battle_id = "golden-conquest-undo"
    _conquest(app, battle_id, "hold-the-ford", seed=1)
    rolls = replaced = 0
    for _ in range(MAX_CONQUEST_COMMANDS):
        if _conquest_over(app, battle_id):
            break
        result = _conquest_next(app, battle_id)
        rolled = [e for e in result.events
                  if isinstance(e, (conquest_events.ReinforcementsRolled, conquest_events.SupremacyRolled))]
        if _conquest_over(app, battle_id) or (rolled and rolls < 3):
            rolls += bool(rolled)
            app.undo(battle_id, force=app.battle(battle_id).done[-1].random)
            again = app.redo(battle_id)
            if again.events[1:] != result.events[1:]:
                raise RuntimeError("a redo gave other events than the undone command")
        elif not app.battle(battle_id).done[-1].random and not replaced:
            replaced += 1
            app.undo(battle_id)  # the bot gives the same or another command: the redo is gone
    else:
        raise RuntimeError(f"{battle_id} did not end in {MAX_CONQUEST_COMMANDS} commands")
    return battle_id


GOLDEN: dict[str, Callable[[GameApp], str]] = {
    "won-waystone-crossing.jsonl": won_waystone_crossing,
    "lost-fallen-watchtower.jsonl": lost_fallen_watchtower,
    "undo-cinder-rite.jsonl": undo_cinder_rite,
    "conquest-wipe-out.jsonl": conquest_wipe_out,
    "conquest-round-limit.jsonl": conquest_round_limit,
    "conquest-undo.jsonl": conquest_undo,
}


def regenerate(folder: Path = LOGS) -> dict[str, bytes]:
    """Play every golden battle (each in its own memory store) and write its log."""
    written = {}
    for name, build in GOLDEN.items():
        app = BetrayalApp(store="memory")  # a GameApp, with Betrayal's verbs as methods
        data = export_battle(app, build(app))
        (folder / name).write_bytes(data)
        written[name] = data
    return written


def main() -> None:
    for name, data in regenerate().items():
        events = data.count(b"\n") - 1  # one line per event after the header
        print(f"{name}: {events} events, {len(data)} bytes, {len(data) // max(events, 1)} bytes per event")


if __name__ == "__main__":
    sys.exit(main())
