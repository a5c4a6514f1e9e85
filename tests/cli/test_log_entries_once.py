"""Issue 25, ninth pass: the text log's entries are made in one loop
(``cli.history._entries``: read, noted, told, marked and indented as each
event comes, each event class's part found once), and the narrator tells
most events through the ruleset's ``teller`` looked up once. Its entries
are the ones the events ``_narrated`` tells (as ``--json`` does) make
under the marking rules of the text log, for random plays with undos and
redos and for a delve, whose companion stream's events follow the command
that wrote them; the narrator's line and fold are the ruleset's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli import history
from cli.lines import BOLD, PLAIN, UNDONE
from cli.session import Defaults
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.games import GameApp
from domain.kernel.narration import Narrator
from domain.kernel.portable import import_log
from domain.kernel.ruleset import Ruleset
from betrayal_undoing import play_undoing

ROOT = Path(__file__).resolve().parents[2]
BATTLE = "entries-once"


def _expected(narrated: Any, undone: set[str]) -> list[tuple[str, str, str, str, int]]:
    """The entries as the text log made them from ``_narrated`` before this pass."""
    out = []
    for kind, env, text in narrated:
        heading = isinstance(env.event, (CommandIssued, CommandUndone))
        if env.command_id in undone:
            style, mark, indent = UNDONE, "↶", 0 if heading else 2
        elif heading:
            style, mark, indent = BOLD, " ", 0
        else:
            style, mark, indent = PLAIN, " ", 2
        if kind:
            out.append((f"{kind[:1]}{env.originator_version}", f"[{kind}] {text}", style, mark, indent))
        else:
            out.append((str(env.originator_version), text, style, mark, indent))
    return out


def _both(rk: Any, store: str, battle: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    """The text log's entries, and those ``_narrated``'s events make."""
    made: dict[str, Any] = {}

    def kept(entries: Any, *args: Any, **kwargs: Any) -> list[str]:
        made["entries"] = list(entries)
        return []

    monkeypatch.setattr(history, "layout_lines", kept)
    on_it = rk.on(Defaults(store=store))
    on_it("log", "--battle", battle, "--no-pager")
    with GameApp(store=store) as app:

        class _Session:  # what ``_Scan.of`` and ``_narrated`` read of a session
            def __init__(self) -> None:
                self.app, self.battle_id, self.game_id = app, battle, battle
                self.ruleset = app.ruleset(battle)

        session: Any = _Session()
        scan = history._Scan.of(session, session.ruleset)
        narrated = list(history._narrated(session, session.ruleset, scan))
        expected = _expected(narrated, scan.undone)
    return made["entries"], expected


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_the_entries_are_those_of_the_events_told_whole(rk, tmp_path, monkeypatch, seed) -> None:
    path = tmp_path / f"entries-{seed}.sqlite"
    with BetrayalApp(f"sqlite:{path}") as app:
        play_undoing(app, BATTLE, commands=60, seed=seed, undo=0.33, again=0.3)
    entries, expected = _both(rk, f"sqlite:{path}", BATTLE, monkeypatch)
    assert sum(e[2] == UNDONE for e in expected) > 5  # undone commands marked
    assert entries == expected


def test_a_delves_entries_follow_its_commands_as_before(rk, tmp_path, monkeypatch) -> None:
    path = tmp_path / "delve.sqlite"
    with GameApp(store=f"sqlite:{path}") as app:
        battle = import_log(app, ROOT / "logs" / "delve-shortage.jsonl")
    entries, expected = _both(rk, f"sqlite:{path}", battle, monkeypatch)
    assert any(label[:1].isalpha() for label, *_ in expected)  # the Delve stream's events, named by kind
    assert entries == expected


def test_the_narrator_tells_and_folds_as_the_ruleset_does(tmp_path) -> None:
    path = tmp_path / "told.sqlite"
    with BetrayalApp(f"sqlite:{path}") as app:
        play_undoing(app, BATTLE, commands=40, seed=2, undo=0.2, again=0.3)
    with GameApp(store=f"sqlite:{path}") as app:
        rs = app.ruleset(BATTLE)
        pack = app.pack_for(rs, app.battle(BATTLE).state)
        narrator, state, told = Narrator(rs, pack), None, 0
        for event in (env.event for env in app.events(rs.game_stream(BATTLE))):
            if not isinstance(event, (CommandIssued, CommandUndone)):
                assert narrator(event) == rs.describe_event(event, state, pack)
                told += 1
            else:
                narrator(event)
            state = event.restored if isinstance(event, CommandUndone) else rs.evolve(state, event)
            assert narrator.state == state
    assert told > 100


def test_a_rulesets_teller_is_its_describe_event() -> None:
    from domain.betrayal.battle import narrate
    from domain.betrayal.battle.ruleset import BETRAYAL

    assert BETRAYAL.teller() is narrate.describe

    class Plain(Ruleset):  # a ruleset that overrides describe_event alone
        def describe_event(self, event: Any, state: Any, pack: Any) -> str:
            return "told"

    assert Plain().teller()(object(), None, None) == "told"
