"""Betrayal positions (issue 23): what a position the rules cannot hold is
refused for, with its line and reason and nothing written; a game started
from a position plays, undoes, exports, imports and verifies as any other;
and the README's disputed engage (examples/positions/lookout-engage.toml)
is settled with `rk legal`, `rk end-turn` and `rk why`."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import msgspec
import pytest
from position_help import changed, golden_position, refusal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "positions" / "lookout-engage.toml"


@pytest.fixture(scope="module")
def clash() -> tuple[str, str, str]:
    """The won Waystone Crossing, mid-battle (round 2)."""
    return golden_position("won-waystone-crossing.jsonl", 75)


@pytest.mark.rule("HEALTH-2")
def test_hp_over_the_health_stat_is_refused_at_its_line():
    bad, line = changed(EXAMPLE.read_text(), "hp = 4\n", "hp = 9\n")
    refused = refusal("betrayal", "lookout", bad)
    assert refused.line == line
    assert refused.reason == "game.heroes[0].hp: HEALTH-2: Ysolda has 9 HP; it holds 0 to 4"


@pytest.mark.rule("HEALTH-2")
def test_an_adventurers_stream_over_its_health_stat_is_refused_at_its_line():
    tarn = '[[streams]]\nkind = "adventurer"\nname = "Tarn"'
    bad, line = changed(EXAMPLE.read_text(), "hp = 4\n", "hp = 6\n", after=tarn)
    refused = refusal("betrayal", "lookout", bad)
    assert refused.line == line
    assert refused.reason == "streams[1].state.hp: HEALTH-2: Tarn has 6 HP; it holds 0 to 4"


@pytest.mark.rule("MOVE-1")
@pytest.mark.parametrize(
    "old, new, why",
    [
        ('pos = "g2"', 'pos = "f2"', "game.foes[0].pos: MOVE-1: e2 is at f2, which is impassable"),
        ('pos = "g2"', 'pos = "z9"', "game.foes[0].pos: MOVE-1: e2 is at z9, which is not on this map"),
        ('pos = "c2"', 'pos = "d2"', "game.heroes[1].pos: MOVE-1: tarn is at d2, where ysolda is"),
    ],
    ids=["impassable", "off-the-map", "two-on-a-hex"],
)
def test_a_unit_off_the_map_on_an_impassable_or_taken_hex_is_refused_at_its_line(old, new, why):
    bad, line = changed(EXAMPLE.read_text(), old, new)
    refused = refusal("betrayal", "lookout", bad)
    assert refused.line == line
    assert refused.reason == why


@pytest.mark.rule("TRACK-1")
@pytest.mark.rule("ACTIVE-1")
def test_a_skill_die_on_the_track_and_in_an_active_slot_is_refused_as_in_two_places():
    ruleset, battle_id, text = "betrayal", "lookout", EXAMPLE.read_text()
    bad, line = changed(
        text,
        'track = [\n  {kind = "skill", uid = 1, face = 2},\n]',
        'track = [\n  {kind = "skill", uid = 1, face = 2},\n]\n'
        'active = [{kind = "skill", uid = 1, face = 2, amount = 1}]',
    )
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line + 3
    assert refused.reason == (
        "game.heroes[0].active[0].uid: Ysolda's die 1 is in an active slot (ACTIVE-1) and on"
        " the cooldown track (TRACK-1): a die is in one place"
    )


@pytest.mark.rule("TRACK-1")
def test_a_skill_die_the_adventurer_does_not_own_is_refused():
    text = EXAMPLE.read_text()
    bad, line = changed(text, '{kind = "skill", uid = 1, face = 2}', '{kind = "skill", uid = 9, face = 2}')
    refused = refusal("betrayal", "lookout", bad)
    assert refused.line == line
    assert "Ysolda owns no skill die 9" in refused.reason


@pytest.mark.rule("SKYSHARD-9")
def test_more_skyshards_than_the_delve_requires_are_refused_at_the_delves_line():
    ruleset, battle_id, text = golden_position("delve-survey-won.jsonl", 200)
    extra = '\n  {card = "extra", tile = "t1", hero = "tarn", count = 5},'
    bad, line = changed(text, "obtained = [", f"obtained = [{extra}")
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason.startswith("streams[4].state.obtained: SKYSHARD-9: 7 skyshards obtained")  # the delve
    assert "the delve requires 3" in refused.reason


def test_an_unknown_content_id_is_refused_at_its_line():
    bad, line = changed(EXAMPLE.read_text(), 'enemy = "road-lookout"', 'enemy = "dragon"')
    refused = refusal("betrayal", "lookout", bad)
    assert refused.line == line
    assert refused.reason == "game.foes[0].enemy: no enemy 'dragon' in pack 'starter'"


def test_a_position_without_its_adventurers_streams_is_refused_naming_them(clash):
    ruleset, battle_id, text = clash
    refused = refusal(ruleset, battle_id, text.split("[[streams]]")[0])
    assert "the game needs adventurer:Tarn, adventurer:Ysolda" in refused.reason


def test_an_adventurer_this_store_holds_elsewhere_is_not_overwritten(rk, tmp_path):
    rk("new", "betrayal", "--position", str(EXAMPLE))
    other = EXAMPLE.read_text().replace('battle_id = "lookout"', 'battle_id = "again"')
    other = other.replace("magicka = 3\ncooldown = 2\n", "magicka = 2\ncooldown = 2\n")  # Tarn's stream, edited
    (tmp_path / "again.toml").write_text(other)
    refused = rk("new", "betrayal", "--position", str(tmp_path / "again.toml"), code=1)
    assert "again.toml line" in refused.stderr and "this store holds that adventurer already" in refused.stderr
    assert "again" not in rk("battles").stdout


@pytest.mark.rule("ENEMY-6a")
def test_the_readme_dispute_is_settled_by_legal_and_why(rk):
    started = rk("new", "betrayal", "--position", str(EXAMPLE))
    assert "Set up from a position: round 2, an adventurer's turn." in started.stdout
    assert "rk end-turn" in rk("legal").stdout.splitlines()
    turn = rk("end-turn").stdout
    assert "ENEMY-6a: e2 Road Lookout engages Ysolda" in turn
    why = rk("why", "--enemy", "e2").stdout
    assert "ENEMY-6a  Priority weakest (fewest HP first), range 3, 1 target." in why
    assert "From g1: Tarn 1 HP, range 4, out of range; Ysolda 4 HP, range 3." in why
    assert "ENEMY-6a  It designates Ysolda (up to 1 target)." in why


def test_the_example_is_the_position_rk_writes_of_the_game_it_starts(rk):
    rk("new", "betrayal", "--position", str(EXAMPLE))
    written = rk("position").stdout
    assert tomllib.loads(written) == tomllib.loads(EXAMPLE.read_text())
    assert rk("position", "--at", "2").stdout == written


@pytest.mark.rule("UNDO-2")
def test_a_game_from_a_position_undoes_exports_imports_and_verifies(rk, tmp_path):
    rk("new", "betrayal", "--position", str(EXAMPLE))
    before = rk("position").stdout
    rk("end-turn")
    assert "UNDO-2" in rk("undo", code=2).stderr  # the enemy rolled: undoing needs force
    rk("undo", "--force")
    assert rk("position").stdout == before
    assert "UNDO-1" in rk("undo", code=2).stderr  # the setup itself cannot be undone
    rk("redo")
    log = tmp_path / "lookout.jsonl"
    rk("export", "-o", str(log))
    assert rk("verify", str(log)).stdout.startswith("ok:")
    rk("import", str(log), "--store", str(tmp_path / "copy.sqlite"))
    copy = rk("position", "--store", str(tmp_path / "copy.sqlite")).stdout
    assert copy == rk("position").stdout


@pytest.mark.rule("HEALTH-2")
def test_verify_re_checks_the_position_a_log_starts_from(rk, tmp_path):
    """A log whose position was forged, in its command and its event alike,
    and re-chained as anyone can: verify re-reads the position and refuses
    it as the rules do."""
    rk("new", "betrayal", "--position", str(EXAMPLE))
    log = tmp_path / "lookout.jsonl"
    rk("export", "-o", str(log))
    objs = [msgspec.json.decode(raw) for raw in log.read_bytes().splitlines()]
    issued, taken = objs[1], objs[2]
    issued["data"]["command"]["position"] = issued["data"]["command"]["position"].replace("hp = 1\n", "hp = 7\n")
    taken["data"]["state"]["heroes"][1]["hp"] = 7
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(_rechained(objs))
    checked = rk("verify", str(forged), code=1)
    assert "HEALTH-2: Tarn has 7 HP; it holds 0 to 4" in checked.stdout + checked.stderr


def _rechained(objs: list[dict]) -> bytes:
    """The log's hash chain recomputed over edited lines (the format's
    BLAKE2b-128 of the previous hash and the sorted canonical line)."""
    previous = ""
    for obj in objs:
        if "end" in obj:
            obj["last_hash"] = previous
        if "hash" in obj:
            body = {k: v for k, v in obj.items() if k != "hash"}
            obj["hash"] = hashlib.blake2b(
                previous.encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
            ).hexdigest()
            previous = obj["hash"]
    return b"\n".join(msgspec.json.encode(o) for o in objs) + b"\n"


def test_a_refused_position_writes_nothing_and_names_file_and_line(rk, tmp_path):
    bad, line = changed(EXAMPLE.read_text(), "hp = 1\n", "hp = 5\n")
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    refused = rk("new", "betrayal", "--position", str(path), code=1)
    assert refused.stderr.strip() == f"{path} line {line}: game.heroes[1].hp: HEALTH-2: Tarn has 5 HP; it holds 0 to 4"
    assert rk("battles").stdout.startswith("No battles yet")
