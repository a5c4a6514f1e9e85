"""Export, import and verify of portable battle logs (DESIGN: Logs).

Logs are edited here as lists of JSON objects; ``write`` re-chains the
hashes with its own implementation of the format's rule, so a test can make
an edit that only the semantic checks can catch.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from pathlib import Path

import msgspec
import pytest

from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.bots import random_choice
from domain.betrayal.packs.load import PACK_FILES, parse_pack
from domain.kernel.portable import (
    Report,
    export_battle,
    import_log,
    read_log,
    state_digest,
    verify_battle,
    verify_log,
)
from domain.betrayal.battle.state import Phase
from domain.kernel.errors import LogError

WON = Path(__file__).resolve().parents[2] / "logs" / "won-waystone-crossing.jsonl"
UNDO = Path(__file__).resolve().parents[2] / "logs" / "undo-cinder-rite.jsonl"


# ------------------------------------------------------------------ helpers


def lines(data: bytes) -> list[dict]:
    return [msgspec.json.decode(raw) for raw in data.splitlines()]


def write(objs: list, rechain: bool = True) -> bytes:
    """Lines back to bytes; with ``rechain`` every hash is recomputed as the
    format says: BLAKE2b-128(previous hex + sorted canonical JSON), and the
    trailer is made to match (as anyone forging a log can, without a key)."""
    previous, out = "", []
    for obj in objs:
        if rechain and isinstance(obj, dict) and "end" in obj:
            obj.update(last_hash=previous, events=len(objs) - 2, final_state_digest=objs[0]["final_state_digest"])
        if rechain and isinstance(obj, dict) and "hash" in obj:
            body = {k: v for k, v in obj.items() if k != "hash"}
            obj["hash"] = hashlib.blake2b(
                previous.encode() + msgspec.json.encode(body, order="sorted"),
                digest_size=16,
            ).hexdigest()
        previous = obj.get("hash", "") if isinstance(obj, dict) else ""
        out.append(obj if isinstance(obj, bytes) else msgspec.json.encode(obj))
    return b"\n".join(out) + b"\n"


def first(objs: list[dict], type_: str, **where) -> int:
    """Index of the first line of ``type_`` whose data has the given values."""
    for i, obj in enumerate(objs):
        if obj.get("type") == type_ and all(obj["data"].get(k) == v for k, v in where.items()):
            return i
    raise AssertionError(f"no {type_} line")


def refused(data: bytes, app: BetrayalApp | None = None) -> LogError:
    """Import ``data`` into an empty store, expecting a refusal; check that
    nothing at all was written."""
    app = app or BetrayalApp(store="memory")
    before = app.max_notification_id()
    with pytest.raises(LogError) as caught:
        import_log(app, data)
    assert app.max_notification_id() == before
    return caught.value


@pytest.fixture(scope="module")
def won() -> bytes:
    return WON.read_bytes()


@pytest.fixture(scope="module")
def played() -> tuple[BetrayalApp, str]:
    """A battle played by the random bot right here, with an undo in it."""
    app = BetrayalApp(store="memory")
    app.new_clash(
        setup="fallen-watchtower",
        party=[PartySpec("Ysolda", "nord"), PartySpec("Tarn", "dark-elf")],
        xp=2,
        seed=11,
        battle_id="played",
    )
    rnd = random.Random(11)
    for n in range(300):
        state = app.battle("played").state
        if state.phase is Phase.ENDED:
            break
        app.execute("played", random_choice(state, app.context(state), rnd))
        if n == 5:
            app.undo("played", force=True)
    return app, "played"


# ----------------------------------------------------------- round trips


def test_export_import_export_is_byte_identical(played):
    app, battle_id = played
    data = export_battle(app, battle_id)
    target = BetrayalApp(store="memory")
    assert import_log(target, data) == battle_id
    assert export_battle(target, battle_id) == data
    assert target.battle(battle_id) == app.battle(battle_id)


def test_import_registers_the_battle_in_the_index(won):
    app = BetrayalApp(store="memory")
    battle_id = import_log(app, won)
    assert [b.battle_id for b in app.battles()] == [battle_id]
    assert app.latest_battle() == battle_id


def test_the_header_names_streams_and_the_final_state(played):
    app, battle_id = played
    head = lines(export_battle(app, battle_id))[0]
    assert head["format"] == "rulekeeper-log/2" and head["battle_id"] == battle_id
    assert sorted(head["streams"].values()) == ["adventurer:Tarn", "adventurer:Ysolda", "battle"]
    assert head["final_state_digest"] == state_digest(app.battle(battle_id).state)


def test_times_keep_their_microseconds(won):
    times = [obj["time"] for obj in lines(won)[1:-1]]
    assert all(len(t) == 27 and t.endswith("Z") for t in times)


# ------------------------------------------------------ refused imports


def test_not_json_is_refused_naming_the_line(won):
    objs = lines(won)
    objs[4] = b"{not json"
    error = refused(write(objs, rechain=False))
    assert error.line == 5 and "not JSON" in error.reason


def test_a_line_that_is_not_an_object_is_refused(won):
    objs = lines(won)
    objs[2] = b"[1, 2]"
    error = refused(write(objs, rechain=False))
    assert error.line == 3 and "not a JSON object" in error.reason


def test_a_missing_key_is_refused(won):
    objs = lines(won)
    del objs[3]["time"]
    error = refused(write(objs))
    assert error.line == 4 and "missing" in error.reason and "time" in error.reason


def test_an_extra_key_is_refused(won):
    objs = lines(won)
    objs[0]["comment"] = "hello"
    error = refused(write(objs))
    assert error.line == 1 and "unexpected" in error.reason and "comment" in error.reason


def test_another_format_version_is_refused(won):
    objs = lines(won)
    objs[0]["format"] = "rulekeeper-log/9"
    error = refused(write(objs))
    assert error.line == 1 and "rulekeeper-log/9" in error.reason


def test_an_unknown_event_type_is_refused(won):
    objs = lines(won)
    i = first(objs, "betrayal.HeroMoved")
    objs[i]["type"] = "betrayal.HeroTeleported"
    error = refused(write(objs))
    assert error.line == i + 1 and "unknown event type" in error.reason


def test_data_that_does_not_decode_into_the_event_is_refused(won):
    objs = lines(won)
    i = first(objs, "betrayal.DiceRolled")
    objs[i]["data"]["counter"] = "12"
    error = refused(write(objs))
    assert error.line == i + 1 and "DiceRolled" in error.reason and "counter" in error.reason


def test_data_with_a_field_the_event_lacks_is_refused(won):
    objs = lines(won)
    i = first(objs, "betrayal.DiceRolled")
    objs[i]["data"]["loaded"] = True
    error = refused(write(objs))
    assert error.line == i + 1 and "loaded" in error.reason


def test_a_broken_hash_chain_is_refused_at_the_edited_line(won):
    objs = lines(won)
    i = first(objs, "betrayal.DamageDealt")
    objs[i]["data"]["amount"] += 1
    error = refused(write(objs, rechain=False))
    assert error.line == i + 1 and "hash chain" in error.reason


def test_versions_must_run_from_one_without_a_gap(won):
    objs = lines(won)
    i = first(objs, "betrayal.HeroMoved")
    objs[i]["version"] += 1
    error = refused(write(objs))
    assert error.line == i + 1 and "version" in error.reason


def test_a_stream_not_named_in_the_header_is_refused(won):
    objs = lines(won)
    objs[5]["stream"] = str(uuid.uuid4())
    error = refused(write(objs))
    assert error.line == 6 and "not named in the header" in error.reason


def test_a_time_not_in_the_format_is_refused(won):
    objs = lines(won)
    objs[5]["time"] = objs[5]["time"].replace("Z", "+00:00")
    error = refused(write(objs))
    assert error.line == 6 and "time" in error.reason


def test_a_log_of_another_content_pack_is_refused(won):
    from importlib import resources

    from domain.betrayal import content

    files = {name: resources.files(content).joinpath(name).read_bytes() for name in PACK_FILES}
    files["pack.toml"] += b"\n# a house rule\n"
    app = BetrayalApp(store="memory", pack=parse_pack(files))
    error = refused(won, app)
    assert error.line == 1 and "pack" in error.reason and app.pack.hash in error.reason


def test_an_existing_battle_is_refused_not_merged(won):
    app = BetrayalApp(store="memory")
    import_log(app, won)
    error = refused(won, app)
    assert error.line == 1 and "already exists" in error.reason


def test_an_existing_adventurer_is_refused_not_merged(won):
    app = BetrayalApp(store="memory")
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Tarn", "nord")], xp=1, seed=1, battle_id="other")
    error = refused(won, app)
    assert error.line == 1 and "adventurer:Tarn" in error.reason


def test_a_battles_log_ends_with_its_last_command_not_with_what_other_games_wrote_later(regenerate):
    """The golden campaign's first battle, exported after the campaign went
    on: its log stops with the battle's last command (and what that command
    wrote); the adventurers' rewards and their next battle are other games'.
    The campaign's log holds the adventurers' whole history."""
    played = BetrayalApp(store="memory")
    campaign_id = regenerate.campaign_two_battles(played)
    first = export_battle(played, "golden-campaign-1")
    assert verify_log(first).ok
    events = [e.event for e in read_log(first).entries]
    assert type(events[-1]).__name__ == "BattleConcluded" and events[-1].battle_id == "golden-campaign-1"
    copy = BetrayalApp(store="memory")
    import_log(copy, first)
    assert copy.adventurer("Tarn").battles == ("golden-campaign-1",)
    whole = BetrayalApp(store="memory")
    import_log(whole, export_battle(played, campaign_id))
    assert whole.adventurer("Tarn") == played.adventurer("Tarn")


def test_an_empty_log_is_refused():
    assert refused(b"").line == 1


# ---------------------------------------------------------------- verify


def test_verify_of_a_clean_battle_is_ok(played):
    app, battle_id = played
    report = verify_battle(app, battle_id)
    assert isinstance(report, Report)
    assert report.ok and report.divergence is None, report.summary()
    assert report.summary().startswith("ok")


def test_verify_reports_a_broken_chain(won):
    objs = lines(won)
    i = first(objs, "betrayal.DamageDealt")
    objs[i]["data"]["amount"] += 1
    report = verify_log(write(objs, rechain=False))
    assert not report.ok
    assert (report.divergence.line, report.divergence.rule) == (i + 1, "CHAIN")


def test_verify_catches_a_changed_die_face_by_the_rng(won):
    objs = lines(won)
    i = first(objs, "betrayal.DiceRolled", typed=False)
    die = objs[i]["data"]["dice"][0]  # [uid, die, face]
    die[2] = (die[2] + 1) % 6
    report = verify_log(write(objs))
    d = report.divergence
    assert (d.line, d.rule) == (i + 1, "RNG"), report.summary()
    assert f"counter {objs[i]['data']['counter']}" in d.expected
    assert d.command_id == objs[i]["command"]
    assert f"line {i + 1}, command {d.command_id}" in report.summary()


def test_verify_cites_the_rule_an_inserted_command_breaks(won):
    objs = lines(won)
    # Before the first Move the battle waits on an adventurer's turn:
    # retreating is only possible at the end of a round.
    i = next(
        k
        for k, o in enumerate(objs)
        if o.get("type") == "betrayal.CommandIssued" and o["data"]["command"]["type"] == "Move"
    )
    inserted = dict(
        objs[i],
        command="c999",
        data={"command_id": "c999", "command": {"type": "Retreat"}, "touched": [], "redo_of": ""},
    )
    objs.insert(i, inserted)
    for n, obj in enumerate(objs[i + 1 :], start=i + 2):
        obj["n"] = n
        if obj.get("stream") == inserted["stream"]:
            obj["version"] += 1
    report = verify_log(write(objs))
    d = report.divergence
    assert (d.line, d.rule) == (i + 1, "RETREAT-1"), report.summary()
    assert d.command_id == "c999" and d.command == "retreat"
    assert "illegal under the rules" in d.found


def test_verify_catches_an_outcome_the_rules_do_not_give(won):
    objs = lines(won)
    i = first(objs, "betrayal.DamageDealt")
    objs[i]["data"]["hp"] += 1
    d = verify_log(write(objs)).divergence
    assert d.line == i + 1 and d.rule == objs[i]["data"]["rule"]
    assert "hp" in d.expected and "hp" in d.found


def test_verify_catches_a_wrong_final_state_digest(won):
    objs = lines(won)
    objs[0]["final_state_digest"] = "0" * 32
    d = verify_log(write(objs)).divergence
    assert (d.line, d.rule) == (1, "DIGEST")


def test_verify_catches_an_undo_that_restores_another_state():
    objs = lines(UNDO.read_bytes())
    i = first(objs, "betrayal.CommandUndone")
    objs[i]["data"]["restored"]["round"] += 1
    d = verify_log(write(objs)).divergence
    assert (d.line, d.rule) == (i + 1, "UNDO")


def test_verify_catches_a_result_written_back_that_is_not_the_battle_s():
    objs = lines(UNDO.read_bytes())
    i = first(objs, "betrayal.BattleConcluded")
    objs[i]["data"]["hp"] += 1
    d = verify_log(write(objs)).divergence
    assert (d.line, d.rule) == (i + 1, "WRITE")


def test_verify_refuses_a_log_of_another_pack(won):
    objs = lines(won)
    objs[0]["pack_hash"] = "f" * 32
    i = first(objs, "betrayal.BattleStarted")
    objs[i]["data"]["pack_hash"] = "f" * 32
    d = verify_log(write(objs)).divergence
    assert (d.line, d.rule) == (1, "PACK")


def test_verify_reports_a_malformed_line_instead_of_raising(won):
    objs = lines(won)
    objs[7] = b"nope"
    d = verify_log(write(objs, rechain=False)).divergence
    assert (d.line, d.rule) == (8, "FORMAT")
