"""How the stores in this folder were made, once, at commit ccb8bb6 (before
domain/betrayal/ was split into sub-packages), and are never to be made
again: they are stores "written before", so that a test can open them with
the current code. Each is a SQLite file a golden log was imported into
(plus, in battle.sqlite, the demo played live), with a snapshot of each
game (and of the delve in delve.sqlite) a few events before its end, so
reading them goes through the snapshot topics too; expected.json holds, per
game, what that code read from it: the final state's digest, the length
and BLAKE2b of its export, and its stream version.

    .venv/bin/python tests/betrayal/old_stores/make.py   # (at ccb8bb6 only)
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
STORES = {
    "battle.sqlite": ["won-waystone-crossing.jsonl"],
    "delve.sqlite": ["delve-shortage.jsonl"],
    "undo.sqlite": ["undo-cinder-rite.jsonl"],
    "campaign.sqlite": ["campaign-two-battles.jsonl"],
}


def main() -> None:
    rk = str(ROOT / ".venv" / "bin" / "rk")
    for name, logs in STORES.items():
        path = HERE / name
        assert not path.exists(), f"{path} exists: these stores are made once"
        env = dict(os.environ, RULEKEEPER_STORE=str(path), RULEKEEPER_HOME=str(HERE / ".home"))
        for log in logs:
            subprocess.run([rk, "import", str(ROOT / "logs" / log)], check=True, env=env)
        if name == "battle.sqlite":
            subprocess.run([rk, "demo"], check=True, env=env, stdout=subprocess.DEVNULL)
    sys.path.insert(0, str(ROOT))
    from domain.kernel.games import GameApp
    from domain.kernel.portable import export_battle, state_digest

    from domain.betrayal.application import delve_stream

    for name in STORES:  # a snapshot of each game a few events before its end
        app = GameApp(store=str(HERE / name))
        for entry in app.battles():
            rs = app.ruleset(entry.battle_id)
            version = app.battle(entry.battle_id).version - 5
            app.save_snapshot(
                rs.game_stream(entry.battle_id), version, app.battle(entry.battle_id, version), rs.snapshot_topic
            )
            if name == "delve.sqlite":
                delves = next(k for k in rs.aggregates if k.snapshot_topic.endswith("Delve"))
                stream = delve_stream(entry.battle_id)
                version = len(app.events(stream)) - 3
                app.save_snapshot(stream, version, app.state_of(delves, stream, version), delves.snapshot_topic)

    expected = {}
    for name in STORES:
        app = GameApp(store=str(HERE / name))
        games = {}
        for entry in app.battles():
            game = app.battle(entry.battle_id)
            data = export_battle(app, entry.battle_id)
            games[entry.battle_id] = {
                "digest": state_digest(game.state),
                "export_bytes": len(data),
                "export_blake2b": hashlib.blake2b(data).hexdigest(),
            }
        expected[name] = games
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
