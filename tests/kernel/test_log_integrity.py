"""Logs that can be trusted: a log that settles a dispute cannot be forged
by re-chaining its hashes, cut unnoticed, imported when verify rejects it,
or used to exhaust memory; a signed log shows who made it; exporting a
small battle costs the same in a big store.

Logs are edited as lists of JSON objects and re-chained (hashes and the
trailer recomputed, as anyone can without a key) by ``forge``.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.bots import greedy_choice
from domain.betrayal.battle.state import Phase
from domain.kernel.portable import importer
from domain.kernel.commandlog import fold
from domain.kernel.errors import LogError
from domain.kernel.portable import (
    MAX_LINE_BYTES,
    export_battle,
    import_log,
    read_log,
    state_digest,
    verify_battle,
    verify_log,
    write_log,
)

LOGS = Path(__file__).resolve().parents[2] / "logs"
WON = LOGS / "won-waystone-crossing.jsonl"
LONG = LOGS / "conquest-round-limit.jsonl"


# ------------------------------------------------------------------ helpers


def objects(data: bytes) -> list[dict]:
    return [msgspec.json.decode(raw) for raw in data.splitlines()]


def forge(objs: list[dict], *, digest: bool = False) -> bytes:
    """Re-chain every hash and re-make the trailer, as the format says;
    with ``digest``, also recompute the final state digest from the forged
    game stream (no key is needed for any of it)."""
    if digest:
        unsigned = _chain(objs)
        log = read_log(unsigned)
        game = fold(log.ruleset, None, [e.envelope for e in log.battle])
        objs[0]["final_state_digest"] = state_digest(game.state)
    return _chain(objs)


def _chain(objs: list[dict]) -> bytes:
    previous, out = "", []
    for obj in objs:
        if "end" in obj:
            obj.update(
                n=len(objs),
                events=len(objs) - 2,
                last_hash=previous,
                final_state_digest=objs[0]["final_state_digest"],
                signature=None,
            )
        body = {k: v for k, v in obj.items() if k != "hash"}
        obj["hash"] = previous = hashlib.blake2b(
            previous.encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
        ).hexdigest()
        out.append(msgspec.json.encode(obj))
    return b"\n".join(out) + b"\n"


def first(objs: list[dict], type_: str, **where) -> int:
    for i, obj in enumerate(objs):
        if obj.get("type") == type_ and all(obj["data"].get(k) == v for k, v in where.items()):
            return i
    raise AssertionError(f"no {type_} line")


def refused(data, app: BetrayalApp | None = None) -> LogError:
    """Import, expecting a refusal that wrote nothing at all."""
    app = app or BetrayalApp(store="memory")
    before = app.max_notification_id()
    with pytest.raises(LogError) as caught:
        import_log(app, data)
    assert app.max_notification_id() == before
    return caught.value


def play(app: BetrayalApp, battle_id: str, commands: int, seed: int = 3) -> None:
    rnd = random.Random(seed)
    for _ in range(commands):
        state = app.battle(battle_id).state
        if state.phase is Phase.ENDED:
            return
        app.execute(battle_id, greedy_choice(state, app.context(state), rnd))


def inflated(monkeypatch, what: str) -> bytes:
    """A battle really played and exported, whose Nord was given max HP 9
    and stamina 5 at creation (``what="create"``) or only as she joined the
    battle (``what="member"``): every other line is what the rules decide."""
    real_create, real_member = adv.create, adv.member

    def create(pack, adventurer_id, name, race, lines=()):
        made = real_create(pack, adventurer_id, name, race, lines)
        if race != "nord":
            return made
        return adv.AdventurerCreated(state=msgspec.structs.replace(made.state, hp=9, max_hp=9, stamina=5))

    def member(state, form=adv.BattleForm.LIGHT, pack=None):
        m = real_member(state, form, pack)
        return msgspec.structs.replace(m, hp=9, max_hp=9, stamina=5) if state.race == "nord" else m

    monkeypatch.setattr(adv, what, create if what == "create" else member)
    app = BetrayalApp(store="memory")
    app.new_clash(
        setup="waystone-crossing",
        party=[PartySpec("Ysolda", "nord"), PartySpec("Tarn", "dark-elf")],
        xp=2,
        seed=2,
        battle_id="forged",
    )
    monkeypatch.undo()  # the rest is played by the rules
    play(app, "forged", 25)
    return export_battle(app, "forged")


# ------------------------------------------- 1. everything re-decided


def test_a_forged_adventurer_creation_does_not_verify_or_import(monkeypatch):
    data = inflated(monkeypatch, "create")
    d = verify_log(data).divergence
    objs = objects(data)
    line = first(objs, "betrayal.AdventurerCreated") + 1
    assert d is not None and (d.line, d.rule) == (line, "SETUP"), d
    assert "hp = " in d.expected and d.found == "hp = 9"
    assert refused(data).line == line


def test_a_party_member_joining_with_stats_not_its_own_does_not_verify(monkeypatch):
    data = inflated(monkeypatch, "member")
    d = verify_log(data).divergence
    setup = first(objects(data), "betrayal.CommandIssued") + 1
    assert d is not None and (d.line, d.rule) == (setup, "SETUP"), d
    assert "Ysolda" in d.expected and d.found == "hp = 9"


def test_an_adventurer_history_line_is_re_derived_too():
    # Tarn's second battle: his creation (in the first) is history in this log.
    app = BetrayalApp(store="memory")
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Tarn", "dark-elf")], xp=1, seed=1, battle_id="one")
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Tarn")], xp=1, seed=1, battle_id="two")
    data = export_battle(app, "two")
    assert verify_log(data).ok
    objs = objects(data)
    i = first(objs, "betrayal.AdventurerCreated")
    objs[i]["data"]["state"]["stamina"] += 3
    cmd = first(objs, "betrayal.CommandIssued")
    objs[cmd]["data"]["command"]["party"][0]["stamina"] += 3
    d = verify_log(forge(objs, digest=True)).divergence
    # Battle one's creation of Tarn ends just where battle two's setup begins,
    # so it reads as the setup's prelude (SETUP) or as history (HISTORY): re-derived either way.
    assert d.line == i + 1 and d.rule in ("SETUP", "HISTORY") and d.found == "stamina = 5", d


# ------------------------------------------------------------ 2. cut logs


def test_a_cut_log_is_reported_as_cut_at_its_last_line():
    data = WON.read_bytes()
    cut = b"".join(data.splitlines(keepends=True)[:-2])  # head -n -2
    d = verify_log(cut).divergence
    assert d is not None and (d.rule, d.line) == ("CUT", cut.count(b"\n")), d
    assert refused(cut).line == cut.count(b"\n")


def test_a_trailer_that_does_not_close_the_log_is_reported():
    objs = objects(WON.read_bytes())
    data = _chain(objs)
    objs = objects(data)
    objs[-1]["events"] -= 1
    body = {k: v for k, v in objs[-1].items() if k != "hash"}
    objs[-1]["hash"] = hashlib.blake2b(
        objs[-2]["hash"].encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
    ).hexdigest()
    d = verify_log(b"\n".join(msgspec.json.encode(o) for o in objs) + b"\n").divergence
    assert (d.line, d.rule) == (len(objs), "TRAILER")


def test_a_line_after_the_trailer_is_refused():
    data = WON.read_bytes()
    extra = data + data.splitlines(keepends=True)[3]
    assert verify_log(extra).divergence.rule == "FORMAT"
    assert refused(extra).line == data.count(b"\n") + 1


# ------------------------------------- 3. import refuses what verify rejects


def _edits() -> dict[str, bytes]:
    won = WON.read_bytes()
    edits = {}
    objs = objects(won)
    i = first(objs, "betrayal.DiceRolled", typed=False)
    objs[i]["data"]["dice"][0][2] = (objs[i]["data"]["dice"][0][2] + 1) % 6
    edits["die face"] = forge(objs)
    objs = objects(won)
    objs[0]["final_state_digest"] = "0" * 32
    edits["final digest"] = forge(objs)
    objs = objects(won)
    i = [k for k, o in enumerate(objs) if o.get("type") == "betrayal.CommandIssued"][3]
    objs[i]["command"] = "c999"
    edits["command id"] = forge(objs)
    objs = objects(won)
    objs[0]["rules_version"] = "betrayal-0.0"
    objs[first(objs, "betrayal.BattleStarted")]["data"]["rules_version"] = "betrayal-0.0"
    edits["rules version"] = forge(objs)
    edits["cut to 60 lines"] = b"".join(won.splitlines(keepends=True)[:60])
    return edits


@pytest.mark.parametrize("edit", ["die face", "final digest", "command id", "rules version", "cut to 60 lines"])
def test_import_refuses_what_verify_rejects(edit):
    data = _edits()[edit]
    report = verify_log(data)
    assert not report.ok
    error = refused(data)
    assert error.line == report.divergence.line and report.divergence.rule in error.reason


def test_import_writes_in_one_call_of_append_batches_when_the_store_has_it():
    app = BetrayalApp(store="memory")
    calls = []
    real = app.append_batches

    def append_batches(batches):
        calls.append(0)

        def counted():
            for batch in batches:
                calls[-1] += len(batch)
                yield batch

        return real(counted())

    app.append_batches = append_batches
    battle_id = import_log(app, WON.read_bytes())
    assert calls == [WON.read_bytes().count(b"\n") - 2 + 1]  # every event and the index entry
    assert export_battle(app, battle_id) == WON.read_bytes()


def test_a_file_changed_between_the_check_and_the_write_is_refused(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(WON.read_bytes())
    app = BetrayalApp(store="memory")
    real = importer._batches

    def swapped(f, last_hash, index, size=1000, progress=None):
        f.seek(0)
        objs = objects(f.read())
        objs[5]["time"] = objs[5]["time"][:-2] + ("1Z" if objs[5]["time"][-2] != "1" else "2Z")
        return real(io.BytesIO(_chain(objs)), last_hash, index, size, progress)

    importer._batches = swapped
    try:
        with pytest.raises(LogError, match="changed"):
            import_log(app, path)
    finally:
        importer._batches = real
    assert app.max_notification_id() == 0


# --------------------------------------------------------- 4. signed logs


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    from domain.kernel import signing

    folder = tmp_path_factory.mktemp("keys")
    mine, other = folder / "mine", folder / "other"
    return signing.generate(mine), signing.load_private(mine), signing.generate(other)


@pytest.fixture(scope="module")
def signed(keys) -> bytes:
    app = BetrayalApp(store="memory")
    import_log(app, WON.read_bytes())
    return export_battle(app, "golden-won-waystone-crossing", sign=keys[1])


def test_a_signed_log_verifies_with_its_key(keys, signed):
    report = verify_log(signed, key=keys[0])
    assert report.ok and report.signed_by == keys[0], report.summary()
    assert "signed by key" in report.summary()
    assert signed.splitlines()[:-1] == WON.read_bytes().splitlines()[:-1]  # only the trailer differs


def test_a_signed_log_imports_and_exports_again_unsigned(signed):
    app = BetrayalApp(store="memory")
    import_log(app, signed)
    assert export_battle(app, "golden-won-waystone-crossing") == WON.read_bytes()


def test_another_key_a_missing_signature_and_a_forged_log_are_reported(keys, signed):
    assert verify_log(signed, key=keys[2]).divergence.rule == "SIGNATURE"
    d = verify_log(WON.read_bytes(), key=keys[0]).divergence
    assert (d.rule, d.found) == ("SIGNATURE", "the log is not signed")
    # Re-chained after an edit, the signature no longer covers the log.
    objs = objects(signed)
    signature = objs[-1]["signature"]
    objs[0]["final_state_digest"] = "0" * 32
    objs[first(objs, "betrayal.HeroMoved")]["time"] = objs[1]["time"]
    data = _chain(objs)
    objs = objects(data)
    objs[-1]["signature"] = signature
    body = {k: v for k, v in objs[-1].items() if k != "hash"}
    objs[-1]["hash"] = hashlib.blake2b(
        objs[-2]["hash"].encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
    ).hexdigest()
    forged = b"\n".join(msgspec.json.encode(o) for o in objs) + b"\n"
    d = verify_log(forged).divergence
    assert d.rule in ("SIGNATURE", "DIGEST")
    objs[0]["final_state_digest"] = objects(signed)[0]["final_state_digest"]
    objs[-1]["final_state_digest"] = objs[0]["final_state_digest"]
    d = verify_log(_rechain_keep_signature(objs)).divergence
    assert (d.line, d.rule) == (len(objs), "SIGNATURE"), d


def _rechain_keep_signature(objs: list[dict]) -> bytes:
    previous, out = "", []
    for obj in objs:
        if "end" in obj:
            obj["last_hash"] = previous
        body = {k: v for k, v in obj.items() if k != "hash"}
        obj["hash"] = previous = hashlib.blake2b(
            previous.encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
        ).hexdigest()
        out.append(msgspec.json.encode(obj))
    return b"\n".join(out) + b"\n"


def test_keygen_writes_a_private_key_only_its_owner_reads(rk, tmp_path):
    key = tmp_path / "signing"
    result = rk("keygen", "-o", str(key))
    assert key.stat().st_mode & 0o777 == 0o600
    public = (tmp_path / "signing.pub").read_text().strip()
    assert len(public) == 64 and public in result.stdout + result.stderr
    rk("keygen", "-o", str(key), code=1)  # never overwritten


def test_the_command_line_does_not_import_cryptography_to_start():
    import subprocess
    import sys

    code = "import sys, cli.main, domain.kernel.portable; print('cryptography' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# --------------------------------------------------------- 5. line limits


def test_deeply_nested_brackets_are_refused_naming_the_line():
    lines = WON.read_bytes().splitlines(keepends=True)
    data = b"".join(lines[:3]) + b"[" * 200_000 + b"]" * 200_000 + b"\n" + b"".join(lines[4:])
    d = verify_log(data).divergence
    assert (d.line, d.rule) == (4, "FORMAT") and "nested deeper" in d.found
    assert refused(data).line == 4


def test_an_over_long_line_is_refused_without_reading_it_whole():
    lines = WON.read_bytes().splitlines(keepends=True)
    data = b"".join(lines[:2]) + b'{"n":' + b" " * (3 * MAX_LINE_BYTES) + b"3}\n" + b"".join(lines[3:])

    class Watched(io.BytesIO):
        largest = 0

        def readline(self, size=-1):
            line = super().readline(size)
            Watched.largest = max(Watched.largest, len(line))
            return line

    d = verify_log(Watched(data)).divergence
    assert (d.line, d.rule) == (3, "FORMAT") and "longer than" in d.found
    assert Watched.largest <= MAX_LINE_BYTES + 2
    assert refused(Watched(data)).line == 3


# ------------------------------------------- 16. export reads its streams


@pytest.mark.parametrize("store", ["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_export_reads_only_the_battle_s_streams(store, tmp_path, request):
    if store == "postgresql":
        name = request.getfixturevalue("postgres_app_name")
        app = type(name, (BetrayalApp,), {"name": name})(request.getfixturevalue("postgres_store"))
    else:
        app = BetrayalApp(store="memory" if store == "memory" else f"sqlite:{tmp_path / 'big.sqlite'}")
    for n in range(3):
        app.new_clash(
            setup="waystone-crossing", party=[PartySpec(f"Other{n}", "nord")], xp=1, seed=n, battle_id=f"other{n}"
        )
        play(app, f"other{n}", 10)
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ysolda", "nord")], xp=1, seed=5, battle_id="mine")
    play(app, "mine", 5)
    play(app, "other0", 10)
    mine = [
        env
        for _, env in app.notifications()
        if env.originator_id
        in {app.ruleset("mine").game_stream("mine"), *app.ruleset("mine").related_streams(app.battle("mine").state)}
    ]
    data = export_battle(app, "mine")
    assert objects(data)[1]["stream"] == str(mine[0].originator_id)
    assert len(objects(data)) == len(mine) + 2

    def no_full_scan(*args, **kwargs):
        raise AssertionError("export read the whole notification log")

    app.recorder.select_notifications = no_full_scan
    assert export_battle(app, "mine") == data
    assert verify_log(data).ok


# ------------------------------------------------ 17. bounded memory


_MEASURE_PEAKS = """
import io, json, sys, tracemalloc
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.portable import import_log, verify_log, write_log
path = sys.argv[1]
assert verify_log(path).ok  # first, so that the rulesets it imports are not counted
warm = BetrayalApp(store="memory")  # and the decoders an export makes once per process
write_log(warm, import_log(warm, path), io.BytesIO())
warm.close()
tracemalloc.start()
assert verify_log(path).ok
_, verify_peak = tracemalloc.get_traced_memory()
tracemalloc.reset_peak()
app = BetrayalApp(store="memory")
battle_id = import_log(app, path)
_, import_peak = tracemalloc.get_traced_memory()
tracemalloc.reset_peak()
out = io.BytesIO()
write_log(app, battle_id, out)
_, export_peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
sys.stdout.buffer.write(json.dumps([verify_peak, import_peak, export_peak]).encode() + b"\\n")
sys.stdout.buffer.write(out.getvalue())
"""


def test_verify_and_import_hold_one_command_not_the_log(tmp_path):
    # Measured in a process of its own: tracemalloc counts every thread's
    # allocations, and a test before this one in the same worker may leave a
    # server's or a listener's thread running.
    path = tmp_path / "long.jsonl"
    path.write_bytes(LONG.read_bytes())
    size = path.stat().st_size
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE_PEAKS, str(path)],
        capture_output=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    first, _, exported = done.stdout.partition(b"\n")
    verify_peak, import_peak, export_peak = json.loads(first)
    assert exported == LONG.read_bytes()
    # The whole log decoded would take several times its size.
    assert verify_peak < size, (verify_peak, size)
    # Export loads the game itself (its final digest heads the log): an
    # imported game has no snapshots, so that load reads its stream.
    assert export_peak < 5 * size, (export_peak, size)
    assert import_peak < 5 * size, (import_peak, size)  # the memory store itself holds the events


# ------------------------------------------------------------ 18. progress


def test_export_verify_and_import_tell_their_progress_as_they_go(tmp_path):
    lines = LONG.read_bytes().count(b"\n")
    told: dict[str, list[int]] = {"verify": [], "import": [], "export": []}
    assert verify_log(LONG, progress=told["verify"].append).ok
    app = BetrayalApp(store="memory")
    battle_id = import_log(app, LONG, progress=told["import"].append)
    with open(tmp_path / "again.jsonl", "wb") as out:
        assert write_log(app, battle_id, out, progress=told["export"].append) == lines
    assert verify_battle(app, battle_id, progress=told.setdefault("stored", []).append).ok
    # every line once (import reads the log twice: to check it, then to append it)
    assert {what: sum(calls) for what, calls in told.items()} == {
        "verify": lines,
        "import": 2 * lines,
        "export": lines,
        "stored": lines,
    }
    assert min(len(calls) for calls in told.values()) > 1  # told as it goes, not once at the end
