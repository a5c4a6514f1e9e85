"""One contract every registered ruleset keeps, run over the registry (a
ruleset added under domain/ is held to it without a line here):

- it declares a verb for every command it takes, and each command it lists
  as legal reads back from the line its grammar writes;
- every setup it declares starts a game from each of its examples, and
  random legal play from there, with undos and redos, holds through the
  kernel: replay equals live, undo restores the state exactly, redo rolls
  the same, loads at every version equal what was seen, export then import
  then export is the identity (``kernel_play.CheckedGame``);
- its golden logs verify against today's rules.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest
from kernel_play import Player, play_checked

from domain.kernel import ruleset as registry
from domain.kernel.games import GameApp
from domain.kernel.portable import verify_log
from domain.kernel.surface import surfaces

SEEDS = range(3)
LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*.jsonl"))


def _examples() -> list[Any]:
    return [pytest.param(surface, setup, example, seed, id=f"{setup.name}-{n}-seed{seed}")
            for surface in surfaces() for setup in surface.setups
            for n, example in enumerate(setup.examples) for seed in SEEDS]


def test_every_ruleset_declares_a_surface_with_a_setup_and_an_example():
    declared = {s.ruleset for s in surfaces()}
    assert {rs.name for rs in registry.all_rulesets()} == declared
    for surface in surfaces():
        assert surface.setups, surface.ruleset
        assert any(setup.examples for setup in surface.setups), surface.ruleset


@pytest.mark.parametrize("surface", surfaces(), ids=lambda s: s.ruleset)
def test_every_command_a_ruleset_takes_has_a_verb(surface: Any):
    rs = registry.load(surface.ruleset)
    commands = get_args(rs.command_type) or (rs.command_type,)
    setups = tuple(cls for setup in surface.setups for cls in setup.makes)
    missing = [cls.__name__ for cls in commands
               if not issubclass(cls, setups + rs.setup_commands) and surface.grammar.verb_for(cls) is None]
    assert missing == []


def _player(surface: Any, setup: Any, example: dict[str, Any]) -> Player:
    rs = registry.load(surface.ruleset)
    grammar = surface.grammar

    def start(app: GameApp, battle_id: str, rnd: random.Random) -> Any:
        fields = {**example, "name": battle_id}
        if _has(setup, "seed"):
            fields["seed"] = rnd.randrange(2**31)
        request = msgspec.convert(fields, setup.request)
        return setup.start(app, request)

    def choose(state: Any, ctx: Any, rnd: random.Random) -> Any:
        legal = rs.legal_commands(state, ctx)
        for command in legal:  # each listed command reads back from its line
            assert grammar.parse(grammar.spell(command)) == command, grammar.spell(command)
        return rnd.choice(legal)

    return Player(surface.ruleset, start, choose)


def _has(setup: Any, field: str) -> bool:
    return any(f.name == field for f in msgspec.structs.fields(setup.request))


@pytest.mark.parametrize("surface, setup, example, seed", _examples())
def test_random_legal_play_from_every_example_holds_through_the_kernel(surface, setup, example, seed):
    rnd = random.Random(seed)
    with GameApp("memory") as app:
        game = play_checked(app, _player(surface, setup, example), f"contract-{seed}", rnd)
        game.check_portable()


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_golden_log_verifies_against_todays_rules(path: Path):
    report = verify_log(path.read_bytes())
    assert report.ok, report.summary()


MOVES = 60  # commands of random play per game in the open-command contract


@pytest.mark.parametrize("surface, setup, example", [
    pytest.param(surface, setup, example, id=f"{setup.name}-{n}")
    for surface in surfaces() for setup in surface.setups for n, example in enumerate(setup.examples)])
def test_legal_gives_open_commands_whose_every_choice_reads_back(surface, setup, example):
    """Issue 20: ``legal`` answers which commands are open and each
    parameter's domain. Over random play from every example: every command
    the rules list is one an open command gives (its domains admit it);
    random choices from every open command's domains make a line that the
    grammar reads back as a command of that verb; and the open list names
    each verb no more often than the finished one does."""
    rnd = random.Random(20)
    grammar = surface.grammar
    with GameApp("memory") as app:
        fields = {**example, "name": "open-1"}
        if _has(setup, "seed"):
            fields["seed"] = 5
        setup.start(app, msgspec.convert(fields, setup.request))
        for _ in range(MOVES):
            game, finished, opens = app.open_legal("open-1")
            if not finished:
                break
            for command in finished:
                assert any(o.admits(command) for o in opens), grammar.spell(command)
            assert len(opens) <= len(finished)
            for o in opens:
                assert o.text().startswith(f"rk {o.verb.name}")
                for _ in range(3):
                    line = o.line(o.choose(rnd))
                    made = grammar.parse(line)
                    assert type(made) is o.cls, line
                if o.fixed:
                    assert grammar.parse(o.line({})) == o.example
            app.execute("open-1", rnd.choice(finished))
