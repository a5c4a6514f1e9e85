"""The battle narrator finds each event class's handler once
(``narrate._told``, issue 25, eighth pass) and says what ``singledispatch``
says: for every event of every Betrayal golden log, against the state
just before it and without one, and again after another handler is
registered."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.betrayal.battle import narrate
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.portable import import_log
from domain.betrayal.battle.ruleset import BETRAYAL

LOGS = Path(__file__).resolve().parents[2] / "logs"
BETRAYAL_LOGS = sorted(
    p.name for p in LOGS.glob("*.jsonl") if not p.name.startswith(("conquest", "labyrinth", "dungeon-sentinel"))
)


def _events(name: str) -> list:
    app = BetrayalApp(store="memory")
    import_log(app, (LOGS / name).read_bytes())
    return [env.event for _, env in app.notifications()]


@pytest.mark.parametrize("name", BETRAYAL_LOGS)
def test_each_event_is_told_as_singledispatch_tells_it(name):
    state = None
    pack = narrate._starter()
    told = 0
    for event in _events(name):
        if isinstance(event, (CommandIssued, CommandUndone)):
            state = event.restored if isinstance(event, CommandUndone) else state
            continue
        if isinstance(event, BETRAYAL.event_base):
            assert narrate.describe(event, state, pack) == narrate._describe(event, state, pack)
            told += 1
            state = BETRAYAL.evolve(state, event)
        assert narrate.describe(event, None, pack) == narrate._describe(event, None, pack)
    assert told or name.startswith("campaign")  # a campaign log holds its own events


def test_a_handler_registered_after_an_event_was_told_is_the_one_used():
    class Odd:  # no event of any ruleset (no event registry holds it): this test's alone
        pass

    assert narrate.describe(Odd(), None) == "Odd"  # no handler of its own: the default
    narrate._describe.register(Odd)(lambda event, state, pack: "odd told")
    assert narrate.describe(Odd(), None) == "odd told"
