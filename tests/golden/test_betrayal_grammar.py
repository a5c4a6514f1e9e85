"""Every command of the Betrayal golden logs, written as the `rk` line that
gives it (``rk log``, ``rk audit``, ``rk undo``), reads back as the same
command: ``parse(spell(c)) == c`` through the battles' one grammar
(``domain.betrayal.surface``). A setup command reads back as the request
that sets the same battle up, whose line is the same line again."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.surface import BATTLE_SURFACE
from domain.kernel.commandlog import CommandIssued
from domain.kernel.portable import import_log
from domain.kernel.surface import NEW, parse, spell

LOGS = Path(__file__).resolve().parents[2] / "logs"
GRAMMAR = BATTLE_SURFACE.grammar


def battle_commands(data: bytes) -> list:
    """The commands a log's game was given, if it is a Betrayal battle."""
    app = BetrayalApp(store="memory")
    battle_id = import_log(app, data)
    if app.ruleset(battle_id).name != BATTLE_SURFACE.ruleset:
        return []
    return [e.event.command for e in app.stream(battle_id) if isinstance(e.event, CommandIssued)]


COMMANDS = {path.name: battle_commands(path.read_bytes()) for path in sorted(LOGS.glob("*.jsonl"))}


def test_the_golden_logs_hold_betrayal_battles():
    assert sum(1 for commands in COMMANDS.values() if commands) >= 7


@pytest.mark.parametrize("name", [name for name, commands in COMMANDS.items() if commands])
def test_every_command_of_a_golden_log_reads_back_from_its_line(name):
    setup, *play = COMMANDS[name]
    for command in play:
        line = GRAMMAR.spell(command)
        assert GRAMMAR.parse(line) == command, line
        assert GRAMMAR.parse(shlex.split(line)) == command, line  # as the shell splits it
    line = GRAMMAR.spell(setup)
    words = shlex.split(line)
    assert words[0] == NEW
    found = BATTLE_SURFACE.setup(words[1])
    assert found is not None and type(setup) in found.makes, line
    request = parse(found.verb, words[2:])
    assert spell(found.verb, request) == line
    assert [m.name for m in request.party] == [m.name for m in setup.party]
    assert (request.xp, request.seed, request.difficulty, request.physical_dice, request.placements) == (
        setup.xp,
        setup.seed,
        setup.difficulty,
        setup.physical_dice,
        setup.placements,
    )


def test_a_setup_is_written_as_rk_new_writes_it():
    setups = {type(c).__name__: GRAMMAR.spell(c) for commands in COMMANDS.values() for c in commands[:1]}
    assert setups["StartClash"].startswith("new clash --setup ")
    assert setups["StartDungeon"].startswith("new dungeon --setup sentinel-vault --party Ysolda --party Tarn")
    assert setups["StartDelve"].startswith("new delve --delve ")
