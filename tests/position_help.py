"""Positions for tests: a golden game's position, a position edited by
hand, and the refusal of one (issue 23). A refused position writes
nothing: ``refusal`` checks the store is as empty after as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.kernel import ruleset as registry
from domain.kernel.games import GameApp
from domain.kernel.portable import import_log
from domain.kernel.position.at import position_text
from domain.kernel.position.document import PositionRefused
from domain.kernel.position.messages import StartFromPosition

LOGS = Path(__file__).resolve().parents[1] / "logs"


def golden_position(log: str, version: int | None = None) -> tuple[str, str, str]:
    """(ruleset, battle id, position text) of golden log ``log``'s game at
    ``version`` (None: its end)."""
    with GameApp("memory") as app:
        battle_id = import_log(app, (LOGS / log).read_bytes())
        return app.ruleset(battle_id).name, battle_id, position_text(app, battle_id, version)


def changed(text: str, old: str, new: str, after: str = "") -> tuple[str, int]:
    """``text`` with the first ``old`` (after the first ``after``) made
    ``new``, and the 1-based line where it was."""
    start = text.index(after) if after else 0
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old) :], text.count("\n", 0, at) + 1


def refusal(ruleset: str, battle_id: str, text: str) -> PositionRefused:
    """The refusal of starting ``text``; nothing is written."""
    with GameApp("memory") as app:
        with pytest.raises(PositionRefused) as refused:
            app.start(ruleset, StartFromPosition(position=text), battle_id=battle_id)
        assert app.battles() == []
        assert app.events.last(registry.load(ruleset).game_stream(battle_id)) is None
    return refused.value
