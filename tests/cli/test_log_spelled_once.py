"""`rk log` spells each distinct command once (``cli.history._Scan._given``,
issue 25, eighth pass): the line it keeps for a command is the one
``given`` says of it, for every command of every golden log, seen once or
again, redone or not, however few lines it keeps."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import msgspec
import pytest

from cli import history
from domain.kernel.commandlog import CommandIssued
from domain.kernel.games import GameApp
from domain.kernel.narration import given
from domain.kernel.portable import import_log

LOGS = Path(__file__).resolve().parents[2] / "logs"
GOLDEN = sorted(p.name for p in LOGS.glob("*.jsonl"))


@pytest.mark.parametrize("name", GOLDEN)
@pytest.mark.parametrize("kept", [1, 2, history.SPELLINGS_KEPT])
def test_each_command_is_spelled_as_given_says(monkeypatch, name, kept):
    monkeypatch.setattr(history, "SPELLINGS_KEPT", kept)
    app = GameApp(store="memory")
    data = (LOGS / name).read_bytes()
    import_log(app, data)
    battle_id = msgspec.json.decode(data.split(b"\n", 1)[0])["battle_id"]
    rs = app.ruleset(battle_id)
    issued = [env.event for _, env in app.notifications() if isinstance(env.event, CommandIssued)]
    assert issued
    # each again, and again as redone (its line says so) under another id
    issued += [msgspec.structs.replace(e, command_id=str(uuid4())) for e in issued]
    issued += [msgspec.structs.replace(e, redo_of=e.redo_of or "c1") for e in issued]
    scan = history._Scan(uuid4())
    assert [scan._given(rs, e) for e in issued] == [given(rs, e) for e in issued]
