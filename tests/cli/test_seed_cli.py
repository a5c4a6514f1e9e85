"""The command line is the host's: it shows the seed of its games, says
the commitment, and `rk verify` says what became of it: not yet revealed
while the game goes on, revealed and matching once it ended, and where a
forged reveal fails (issue 21, point 1)."""

from __future__ import annotations

import random

import msgspec

from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle
from domain.kernel.portable.chain import link

SEED = 5550123456789
NEW = (
    "new",
    "conquest",
    "--scenario",
    "border-clash",
    "--army",
    "saltmarch",
    "--army",
    "cinderpact",
    "--seed",
    str(SEED),
)


def test_the_host_at_the_command_line_sees_its_seed_and_the_commitment(rk, store):
    started = rk(*NEW).stdout
    assert str(SEED) in started
    log = " ".join(rk("log", "--no-pager").stdout.split())  # as words: lines wrap at 80 columns
    assert f"--seed {SEED}" in log and f"seed {SEED};" in log, log
    said = " ".join(rk("verify").stdout.split())
    assert said.startswith("ok:") and "not yet revealed" in said and "(sha256:" in said, said
    first = msgspec.json.decode(rk("log", "--json").stdout)[0]
    assert first["event"]["commitment"].startswith("sha256:") and first["event"]["command"]["seed"] == SEED


def _ended_log() -> bytes:
    with GameApp("memory") as app:
        from domain.kernel.surface import surface_of

        setup = next(s for s in surface_of("conquest").setups if s.name == "conquest")
        request = msgspec.convert({**setup.examples[0], "seed": SEED, "name": "q1"}, setup.request)
        battle_id = setup.start(app, request).battle.state.battle_id
        rnd = random.Random(3)
        while legal := app.legal(battle_id):
            app.execute(battle_id, rnd.choice(legal))
        return export_battle(app, battle_id)


def test_rk_verify_says_an_ended_games_reveal_matches_and_where_a_forged_one_fails(rk, tmp_path, store):
    data = _ended_log()
    good = tmp_path / "ended.jsonl"
    good.write_bytes(data)
    said = " ".join(rk("verify", str(good)).stdout.split())
    assert "no divergence" in said and "matches the commitment" in said, said

    lines = [msgspec.json.decode(t) for t in data.splitlines()]
    at = next(n for n, obj in enumerate(lines) if (obj.get("data") or {}).get("revealed"))
    lines[at]["data"]["revealed"]["seed"] = 7  # a seed of the forger's choice
    previous = ""
    for obj in lines:  # every hash made good again
        if obj.get("end"):
            obj["last_hash"] = previous
        obj["hash"] = previous = link(previous, obj)
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"\n".join(msgspec.json.encode(obj) for obj in lines) + b"\n")
    result = rk("verify", str(forged), code=None)
    said = " ".join(result.stdout.split())
    assert result.code == 1, said
    assert said.startswith(f"line {at + 1}, command c") and ": SEED-1: expected a seed and salt that hash" in said, said
    assert "does not match the commitment" in said, said
