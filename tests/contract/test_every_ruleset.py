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
# the golden logs written before seeds were committed (a regenerated log commits to its seed)
UNCOMMITTED = [p for p in LOGS if b'"commitment"' not in p.read_bytes()]


def _examples() -> list[Any]:
    return [
        pytest.param(surface, setup, example, seed, id=f"{setup.name}-{n}-seed{seed}")
        for surface in surfaces()
        for setup in surface.setups
        for n, example in enumerate(setup.examples)
        for seed in SEEDS
    ]


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
    missing = [
        cls.__name__
        for cls in commands
        if not issubclass(cls, setups + rs.setup_commands) and surface.grammar.verb_for(cls) is None
    ]
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


@pytest.mark.parametrize(
    "surface, setup, example",
    [
        pytest.param(surface, setup, example, id=f"{setup.name}-{n}")
        for surface in surfaces()
        for setup in surface.setups
        for n, example in enumerate(setup.examples)
    ],
)
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


def _first_examples() -> list[Any]:
    return [
        pytest.param(surface, setup, setup.examples[0], id=f"{setup.name}")
        for surface in surfaces()
        for setup in surface.setups
        if setup.examples
    ]


@pytest.mark.parametrize("surface, setup, example", _first_examples())
def test_every_ruleset_commits_to_its_seed_and_reveals_it_as_its_game_ends(surface, setup, example):
    """Issue 21, point 1, for every ruleset through the kernel alone: the
    setup's first event commits to the seed (salted), the command that ends
    the game reveals it, undoing that command needs force, replay equals
    live all along, and verification says what became of the commitment."""
    from domain.kernel import fairness
    from domain.kernel.commandlog import CommandIssued, fold
    from domain.kernel.errors import RuleViolation
    from domain.kernel.portable import export_battle

    rs = registry.load(surface.ruleset)
    rnd = random.Random(5)
    with GameApp("memory") as app:
        started = _player(surface, setup, example).start(app, "sealed", rnd)
        battle_id = started.battle.state.battle_id
        first = app.stream(battle_id)[0].event
        seed = started.battle.state.seed
        assert isinstance(first, CommandIssued) and first.commitment == fairness.commit(seed, first.salt)
        assert first.revealed is None and len(first.salt) == 2 * fairness.SALT_BYTES
        live = started.battle
        for _ in range(3000):
            legal = app.legal(battle_id)
            if not legal:
                break
            result = app.execute(battle_id, rnd.choice(legal))
            live = result.battle
            assert (result.events[0].revealed is not None) == rs.summary(live.state).over
        assert fold(rs, None, app.stream(battle_id)) == live == app.battle(battle_id)  # replay equals live
        report = verify_log(export_battle(app, battle_id))
        assert report.ok, report.summary()
        if not rs.summary(live.state).over:
            assert "not yet revealed" in report.seed, report.seed
            return
        ending = app.stream(battle_id)[live.done[-1].version_before].event
        assert ending.revealed == fairness.Reveal(seed=seed, salt=first.salt)
        assert "matches the commitment" in report.seed, report.seed
        with pytest.raises(RuleViolation) as refused:
            app.undo(battle_id)  # the dice are known now: as past a roll, only with force
        assert refused.value.rule == "UNDO-2"
        app.undo(battle_id, force=True)
        assert fold(rs, None, app.stream(battle_id)) == app.battle(battle_id)
        assert verify_log(export_battle(app, battle_id)).ok


@pytest.mark.parametrize("path", UNCOMMITTED, ids=[p.stem for p in UNCOMMITTED])
def test_a_golden_log_from_before_seeds_were_committed_verifies_with_no_commitment(path: Path):
    report = verify_log(path.read_bytes())
    assert report.ok and report.seed.startswith("seed: no commitment"), report.summary()
