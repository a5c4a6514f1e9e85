"""Conquest played through the kernel's application, as Betrayal is: random
legal play over many seeds with undo and redo (no crash, no dead end, every
game ends, replay equals live, undo exact, redo the same), loads at every
version, export then import the identity, on memory, SQLite and PostgreSQL;
and a store holding both games lists them together."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from tiers import quick_first
from kernel_play import Player, play_checked
from postgres_tables import drop_postgres_tables

from domain.conquest.bots import greedy_choice, random_choice
from domain.conquest.commands import StartConquest
from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, verify_battle

ARMIES = ("saltmarch", "cinderpact")
SCENARIOS = ("border-clash", "hold-the-ford")


def start(app: GameApp, battle_id: str, rnd: random.Random):
    armies = ARMIES if rnd.random() < 0.5 else ARMIES[::-1]
    return app.start(
        "conquest",
        StartConquest(
            battle_id=battle_id,
            scenario=rnd.choice(SCENARIOS),
            armies=armies,
            seed=rnd.randrange(2**31),
        ),
        battle_id=battle_id,
    )


RANDOM = Player("conquest", start, random_choice)
GREEDY = Player("conquest", start, lambda state, ctx, rnd: greedy_choice(state, ctx))


class Snapshotting(GameApp):
    """Snapshots every 20 events, so that loads go through snapshot + tail."""

    name = "rulekeeper"
    snapshot_every = 20


@pytest.mark.parametrize("seed", quick_first(range(40), 8))  # seeds 0 and 4 greedy, the rest random
def test_random_conquest_games_hold_through_the_kernel(seed: int) -> None:
    rnd = random.Random(seed)
    with Snapshotting("memory") as app:
        game = play_checked(app, RANDOM if seed % 4 else GREEDY, f"q{seed}", rnd)
        assert game.over
        game.check_portable()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def app_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[type[GameApp], str]]:
    """An application class and a store setting; PostgreSQL gets fresh tables."""
    if request.param == "sqlite":
        yield Snapshotting, f"sqlite:{tmp_path / 'games.sqlite'}"
        return
    setting = request.getfixturevalue("postgres_store")
    app_class = type(f"Conquest{uuid4().hex[:12]}", (Snapshotting,), {"name": f"Conquest{uuid4().hex[:12]}"})
    yield app_class, setting
    drop_postgres_tables(setting, app_class.name)


@pytest.mark.parametrize("seed", quick_first(range(3), 1))
def test_conquest_on_a_real_store_matches_memory(app_store, seed: int) -> None:
    app_class, setting = app_store
    with app_class(setting) as app:
        game = play_checked(app, RANDOM, f"q{seed}", random.Random(seed))
        with app_class(setting) as again:  # a new connection loads the same, at every version
            game.check_store(again, versions=40)
    with Snapshotting("memory") as memory:
        twin = play_checked(memory, RANDOM, f"q{seed}", random.Random(seed))
        assert twin.live == game.live


def test_a_store_with_both_games_lists_them_together_and_each_verifies() -> None:
    from domain.betrayal.battle.application import PartySpec, new_clash

    with GameApp("memory") as app:
        new_clash(app, setup="waystone-crossing", party=[PartySpec("Ysolda", "nord")], xp=1, seed=3, battle_id="clash")
        play_checked(app, GREEDY, "border", random.Random(5))
        listed = [(g.battle_id, g.ruleset) for g in app.battles()]
        assert listed == [("clash", "betrayal"), ("border", "conquest")]
        assert app.latest_battle() == "border"
        for battle_id, ruleset in listed:
            assert app.ruleset(battle_id).name == ruleset
            assert verify_battle(app, battle_id).ok
            header = export_battle(app, battle_id).split(b"\n", 1)[0]
            assert f'"ruleset":"{ruleset}"'.encode() in header


def test_a_battle_id_is_unique_across_rulesets() -> None:
    from domain.kernel.errors import MalformedCommand

    with GameApp("memory") as app:
        start(app, "same", random.Random(1))
        with pytest.raises(MalformedCommand, match="already exists"):
            start(app, "same", random.Random(2))


@pytest.mark.rule("ROUND-1")
def test_a_second_setup_of_a_battle_is_refused_by_its_rule_and_writes_nothing() -> None:
    from domain.kernel.errors import RuleViolation

    with GameApp("memory") as app:
        start(app, "once", random.Random(1))
        setup = app.battle("once").done[0].command
        before = app.max_notification_id()
        with pytest.raises(RuleViolation) as caught:
            app.execute("once", setup)
        assert caught.value.rule == "ROUND-1"
        assert app.max_notification_id() == before
