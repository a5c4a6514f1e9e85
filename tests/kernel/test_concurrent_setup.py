"""Issue 21, point 11: games set up at once, by several writers on one
store, all succeed. Every new game takes the shared index's next version;
a conflict there is retried at the index's new end, never shown. Two
writers setting up the SAME game still see one win and one refused."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from uuid import uuid4

import msgspec
import pytest

from domain.kernel.errors import RulekeeperError
from domain.kernel.games import GameApp
from domain.kernel.surface import surfaces

WRITERS = 8


# A ruleset whose setups write only the game's own stream and the index (a
# Betrayal setup may also create adventurers, which two setups can share).
RULESET = "conquest"


def _setup_request(name: str) -> tuple[Any, Any]:
    """The first example of the ruleset's first setup, named ``name``."""
    surface = next(s for s in surfaces() if s.ruleset == RULESET)
    setup = surface.setups[0]
    example = next(e for s in surface.setups for e in s.examples if s is setup)
    return setup, msgspec.convert({**example, "name": name}, setup.request)


def _set_up_at_once(store: str, names: list[str]) -> list[tuple[str, object]]:
    apps = [GameApp(store=store) for _ in names]
    for app in apps:
        app.battles()  # each writer has read the index before any of them writes
    barrier = threading.Barrier(len(names))
    outcome: list[tuple[str, object]] = []

    def set_up(app: GameApp, name: str) -> None:
        setup, request = _setup_request(name)
        barrier.wait()
        try:
            setup.start(app, request)
            outcome.append((name, "ok"))
        except RulekeeperError as e:
            outcome.append((name, e))

    threads = [threading.Thread(target=set_up, args=(app, name)) for app, name in zip(apps, names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for app in apps:
        app.close()
    return outcome


def _stores(tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return f"sqlite:{tmp_path / 'shared.sqlite'}"
    return request.getfixturevalue("postgres_store")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_setting(tmp_path: Path, request: pytest.FixtureRequest) -> str:
    return _stores(tmp_path, request)


def test_different_games_set_up_at_once_all_succeed(store_setting: str) -> None:
    names = [f"at-once-{uuid4().hex[:8]}-{n}" for n in range(WRITERS)]
    outcome = _set_up_at_once(store_setting, names)
    assert sorted(outcome, key=str) == sorted(((name, "ok") for name in names), key=str)
    with GameApp(store=store_setting) as app:
        listed = {g.battle_id for g in app.battles()}
        assert set(names) <= listed
        for name in names:
            assert app.battle(name).version >= 1


def test_the_same_game_set_up_twice_at_once_is_set_up_once(store_setting: str) -> None:
    name = f"twice-{uuid4().hex[:8]}"
    outcome = _set_up_at_once(store_setting, [name, name])
    results = [result for _, result in outcome]
    assert len(results) == 2 and results.count("ok") == 1, results
    refused = next(r for r in results if r != "ok")
    assert "already exists" in str(refused) or "taken" in str(refused), refused
    with GameApp(store=store_setting) as app:
        assert [g.battle_id for g in app.battles()].count(name) == 1


def test_a_game_set_up_between_two_retries_is_named_not_a_conflict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interleaving CI met on PostgreSQL: the first attempt loses the
    index to another game; before the retry reads the index again, a game
    of the SAME id is set up. The retry's conflict is then on the game's own
    stream while the index looks unmoved: it must read "already exists",
    never "the battle moved on"."""
    store = f"sqlite:{tmp_path / 'shared.sqlite'}"
    name = f"between-{uuid4().hex[:8]}"
    other, same = GameApp(store=store), GameApp(store=store)
    app = GameApp(store=store)
    app.battles()
    real_append = app.append
    calls = {"append": 0}

    def append_after_another_game(envelopes: Any) -> int:
        calls["append"] += 1
        if calls["append"] == 1:
            setup, request = _setup_request(f"other-{uuid4().hex[:8]}")
            setup.start(other, request)  # takes the index version this attempt read
        return real_append(envelopes)

    def sleep_while_the_same_game_is_set_up(_: float) -> None:
        setup, request = _setup_request(name)
        setup.start(same, request)

    monkeypatch.setattr(app, "append", append_after_another_game)
    monkeypatch.setattr("domain.kernel.game_writes.time.sleep", sleep_while_the_same_game_is_set_up)
    setup, request = _setup_request(name)
    with pytest.raises(RulekeeperError, match="already exists|taken"):
        setup.start(app, request)
    assert calls["append"] == 2
    for a in (other, same, app):
        a.close()
    with GameApp(store=store) as reader:
        assert [g.battle_id for g in reader.battles()].count(name) == 1
