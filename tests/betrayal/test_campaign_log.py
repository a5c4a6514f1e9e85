"""One file for a campaign: the campaign, its adventurers and every battle
they fought exported as one group log (``domain.kernel.portable.group``)
in the store's append order; verified whole (every battle and every
campaign command re-decided, chain, trailer and signature checked);
imported into a store that has none of its games, each with its name;
refused whole, nothing written, where any of them exists, or when the
file was cut or edited."""

from __future__ import annotations

import hashlib
import io
import random

import msgspec
import pytest
from campaign_arrange import CAMPAIGN, campaign, play, run

from domain.betrayal.battle import bots
from domain.betrayal.battle.application import BetrayalApp, PartySpec, new_clash, new_delve
from domain.betrayal.campaign import commands as cc
from domain.kernel.errors import LogError
from domain.kernel.portable import export_battle, export_group, group_lines, import_log, verify_log


@pytest.fixture(scope="module")
def played() -> BetrayalApp:
    """A campaign with a clash played to its end and rewarded, then two
    battles set up back to back (the second, a delve, creating an
    adventurer in its setup's prelude), fought a few commands, and a rest."""
    app = campaign()
    play(app, "w1")
    run(app, cc.GainRewards(battle_id="w1", xp=2), cc.EndRewards(), cc.Rest())
    app.rename_battle("w1", "opening")
    new_clash(app, setup="fallen-watchtower", party=[PartySpec("Tarn")], xp=2, seed=3, battle_id="a1")
    new_delve(
        app,
        delve="whispering-barrow",
        party=[PartySpec("Ria"), PartySpec("Ysolda", race="nord")],
        xp=2,
        seed=5,
        battle_id="d1",
    )
    for battle_id in ("a1", "d1"):
        rnd = random.Random(1)
        for _ in range(12):
            state = app.battle(battle_id).state
            if state.outcome is not None:
                break
            app.execute(battle_id, bots.greedy_choice(state, app.rules_context(battle_id), rnd))
    return app


@pytest.fixture(scope="module")
def log(played) -> bytes:
    return export_group(played, CAMPAIGN)


def objects(data: bytes) -> list[dict]:
    return [msgspec.json.decode(raw) for raw in data.splitlines()]


def rechained(objs: list[dict], *, keep_signature: bool = False) -> bytes:
    """Every hash chained again and the trailer remade, as anyone may (no
    key is needed), keeping its signature if asked."""
    previous, out = "", []
    for obj in objs:
        if "end" in obj:
            obj.update(
                n=len(objs),
                events=len(objs) - 2,
                last_hash=previous,
                signature=obj["signature"] if keep_signature else None,
            )
        body = {k: v for k, v in obj.items() if k != "hash"}
        obj["hash"] = previous = hashlib.blake2b(
            previous.encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
        ).hexdigest()
        out.append(msgspec.json.encode(obj))
    return b"\n".join(out) + b"\n"


def refused(data: bytes, app: BetrayalApp | None = None) -> LogError:
    """Import, expecting a refusal that wrote nothing at all."""
    app = app or BetrayalApp(store="memory")
    before = app.max_notification_id()
    with pytest.raises(LogError) as caught:
        import_log(app, data)
    assert app.max_notification_id() == before
    return caught.value


def test_the_campaign_log_holds_the_campaign_its_adventurers_and_every_battle(log):
    header = objects(log)[0]
    assert header["group"] == "campaign" and header["battle_id"] == CAMPAIGN
    assert [(g["battle_id"], g["ruleset"], g["name"]) for g in header["games"]] == [
        (CAMPAIGN, "betrayal-campaign", CAMPAIGN),
        ("w1", "betrayal", "opening"),
        ("a1", "betrayal", "a1"),
        ("d1", "betrayal", "d1"),
    ]
    assert sorted(header["streams"].values()) == sorted(
        [
            "campaign:saga",
            "battle:w1",
            "battle:a1",
            "battle:d1",
            "delve:d1",
            "adventurer:Ria",
            "adventurer:Tarn",
            "adventurer:Ysolda",
        ]
    )
    # The same line shapes as a battle's log: one event a line, in append order.
    assert {tuple(sorted(o)) for o in objects(log)[1:-1]} == {
        ("command", "data", "hash", "n", "stream", "time", "type", "version")
    }


def test_the_campaign_log_verifies_whole(log):
    report = verify_log(log)
    assert report.ok, report.summary()
    battle_lines = sum(1 for o in objects(log)[1:-1] if o["type"] == "betrayal.CommandIssued")
    campaign_lines = sum(1 for o in objects(log)[1:-1] if o["type"] == "betrayal.CampaignIssued")
    assert report.commands == battle_lines + campaign_lines  # every battle's and the campaign's commands
    assert "w1: seed: revealed" in report.summary()


def test_export_then_import_then_export_is_the_identity(log):
    copy = BetrayalApp(store="memory")
    assert import_log(copy, log) == CAMPAIGN
    assert export_group(copy, CAMPAIGN) == log
    assert copy.find_battle("opening").battle_id == "w1"  # each battle keeps its name
    assert [e.battle_id for e in copy.battles()] == [CAMPAIGN, "w1", "a1", "d1"]


def test_the_imported_store_plays_on_as_the_original(played, log):
    copy = BetrayalApp(store="memory")
    import_log(copy, log)
    for game in (CAMPAIGN, "w1", "a1", "d1"):
        assert copy.battle(game).state == played.battle(game).state
    for name in ("Ria", "Tarn", "Ysolda"):
        assert copy.adventurer(name) == played.adventurer(name)


def test_a_battle_set_up_right_after_another_keeps_its_prelude(log):
    """d1's setup creates Ysolda just after a1's setup wrote Tarn's line,
    both under command id c1: the line belongs to d1's prelude, not a1's writes."""
    objs = objects(log)
    names = objs[0]["streams"]
    created = next(i for i, o in enumerate(objs) if o.get("type") == "betrayal.AdventurerCreated")
    assert (names[objs[created - 1]["stream"]], objs[created - 1]["command"]) == ("adventurer:Tarn", "c1")
    assert names[objs[created + 1]["stream"]] == "battle:d1"
    assert verify_log(log).ok


def test_importing_where_any_of_its_games_exists_is_refused_whole(played, log):
    store = BetrayalApp(store="memory")
    import_log(store, export_battle(played, "a1"))  # one battle of the campaign, with its adventurer
    error = refused(log, store)
    assert error.line == 1 and "already exists" in error.reason
    other = BetrayalApp(store="memory")
    new_clash(
        other, setup="waystone-crossing", party=[PartySpec("Bo", race="nord")], xp=2, seed=1, battle_id="opening"
    )  # a game called as one of the log's is
    assert "'opening'" in refused(log, other).reason


def test_a_cut_campaign_log_is_refused_with_its_line(log):
    cut = b"\n".join(log.splitlines()[:40]) + b"\n"
    report = verify_log(cut)
    assert not report.ok and report.divergence.rule == "CUT" and report.divergence.line == 40
    assert refused(cut).line == 40


def test_an_edited_campaign_log_is_refused_with_its_line(log):
    objs = objects(log)
    at = next(i for i, o in enumerate(objs) if o.get("type") == "betrayal.XpGained")
    objs[at]["data"]["xp"] = 9
    edited = b"\n".join(msgspec.json.encode(o) for o in objs) + b"\n"
    report = verify_log(edited)
    assert (report.divergence.rule, report.divergence.line) == ("CHAIN", at + 1)
    assert refused(edited).line == at + 1


@pytest.mark.rule("REWARD-1")
def test_a_forged_campaign_command_is_re_decided_and_refused_with_its_rule(log):
    """Rechained, the file holds; the campaign's command does not: rewards
    for a battle the party had not finished (a1 is not over)."""
    objs = objects(log)
    at = next(
        i
        for i, o in enumerate(objs)
        if o.get("type") == "betrayal.CampaignIssued" and o["data"]["command"].get("battle_id") == "w1"
    )
    objs[at]["data"]["command"]["battle_id"] = "a1"
    forged = rechained(objs)
    report = verify_log(forged)
    assert (report.divergence.rule, report.divergence.line) == ("REWARD-1", at + 1), report.summary()
    assert report.divergence.command.startswith("saga: ")  # which game of the log
    assert refused(forged).line == at + 1


def test_a_forged_roll_in_a_later_battle_is_refused_at_its_line(log):
    objs = objects(log)
    a1 = next(sid for sid, name in objs[0]["streams"].items() if name == "battle:a1")
    at = next(i for i, o in enumerate(objs) if o.get("stream") == a1 and o["type"] == "betrayal.DiceRolled")
    objs[at]["data"]["counter"] += 1  # dice from another counter than the battle's next
    report = verify_log(rechained(objs))
    assert (report.divergence.rule, report.divergence.line) == ("RNG", at + 1), report.summary()
    assert report.divergence.command.startswith("a1: ")


def test_a_signed_campaign_log_verifies_with_its_key_and_not_once_edited(played, tmp_path):
    from domain.kernel import signing

    public = signing.generate(tmp_path / "k")
    signed = export_group(played, CAMPAIGN, sign=signing.load_private(tmp_path / "k"))
    report = verify_log(signed, key=public)
    assert report.ok and report.signed_by == public
    objs = objects(signed)
    objs[5]["time"] = objs[5]["time"][:-2] + ("1Z" if objs[5]["time"][-2] != "1" else "2Z")
    assert verify_log(rechained(objs, keep_signature=True), key=public).divergence.rule == "SIGNATURE"


def test_the_export_streams_one_line_at_a_time(played):
    lines = group_lines(played, CAMPAIGN)
    first = next(lines)
    assert msgspec.json.decode(first)["group"] == "campaign"  # the header, before any other line is read
    assert sum(1 for _ in lines) + 1 == len(export_group(played, CAMPAIGN).splitlines())
    assert verify_log(io.BytesIO(export_group(played, CAMPAIGN))).ok  # read from a file, a line at a time


def test_a_campaign_without_battles_exports_whole_too():
    app = campaign()
    log = export_group(app, CAMPAIGN)
    assert [g["battle_id"] for g in objects(log)[0]["games"]] == [CAMPAIGN]
    assert verify_log(log).ok, verify_log(log).summary()
    copy = BetrayalApp(store="memory")
    import_log(copy, log)
    assert export_group(copy, CAMPAIGN) == log


def test_a_header_whose_games_do_not_hold_together_is_refused_at_line_1(log):
    for edit in (
        lambda h: h["games"].pop(0),  # the lead left out
        lambda h: h["games"].append(dict(h["games"][1])),  # a battle named twice
        lambda h: h.update(group="league"),  # not what a campaign leads
        lambda h: h["games"][1].update(final_state_digest="0" * 32),
    ):  # not the digests' digest
        objs = objects(log)
        edit(objs[0])
        forged = rechained(objs)
        report = verify_log(forged)
        assert (report.divergence.rule, report.divergence.line) == ("FORMAT", 1), report.summary()
        assert refused(forged).line == 1


def test_an_adventurer_a_battle_made_and_the_campaign_enlisted_brings_that_battle():
    """The battle's setup creates Bo right after the campaign's setup (both
    command c1): Bo's creation is that battle's prelude, re-derived with it."""
    app = BetrayalApp(store="memory")
    from domain.betrayal.campaign import application as ca

    ca.new_campaign(app, CAMPAIGN)
    new_clash(app, setup="waystone-crossing", party=[PartySpec("Bo", race="nord")], xp=2, seed=2, battle_id="b1")
    rnd = random.Random(2)
    while (state := app.battle("b1").state).outcome is None:
        app.execute("b1", bots.greedy_choice(state, app.context(state), rnd))
    run(app, cc.Enlist(name="Bo", class_id="bastion"))
    log = export_group(app, CAMPAIGN)
    assert [g["battle_id"] for g in objects(log)[0]["games"]] == [CAMPAIGN, "b1"]
    assert [o["type"] for o in objects(log)[1:5]] == [
        "betrayal.CampaignIssued",
        "betrayal.CampaignStarted",
        "betrayal.AdventurerCreated",
        "betrayal.CommandIssued",
    ]
    assert verify_log(log).ok, verify_log(log).summary()
    copy = BetrayalApp(store="memory")
    import_log(copy, log)
    assert export_group(copy, CAMPAIGN) == log


# A campaign of N clashes played out, exported to a file, then verified and
# imported from it, each peak measured by tracemalloc in a process of its own.
_PEAKS = r"""
import json, random, sys, tracemalloc
from domain.betrayal.battle import bots
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.kernel.portable import export_group, verify_log, write_group_log
n, path = int(sys.argv[1]), sys.argv[2]
app = BetrayalApp(store="memory")
ca.new_campaign(app, "saga")
for name in ("Ria", "Tarn"):
    ca.command(app, "saga", cc.Recruit(name=name, race="nord", class_id="bastion"))
for i in range(n):
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria"), PartySpec("Tarn")], xp=2, seed=i + 2,
                  battle_id=f"w{i}")
    rnd = random.Random(i)
    while (state := app.battle(f"w{i}").state).outcome is None:
        app.execute(f"w{i}", bots.greedy_choice(state, app.context(state), rnd))
    for command in (cc.GainRewards(battle_id=f"w{i}", xp=1), cc.EndRewards(), cc.Rest()):
        ca.command(app, "saga", command)
assert verify_log(export_group(app, "saga")).ok  # once before measuring: modules and pack loaded
peaks = []
tracemalloc.start()
with open(path, "wb") as f:
    write_group_log(app, "saga", f)
peaks.append(tracemalloc.get_traced_memory()[1])
tracemalloc.reset_peak()
assert verify_log(path).ok
peaks.append(tracemalloc.get_traced_memory()[1])
print(json.dumps(peaks))
"""


@pytest.mark.slow  # two campaigns of clashes played out: the full tier
def test_export_and_verify_of_a_campaign_hold_a_command_not_the_log(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    found = {}
    for n in (2, 10):
        path = tmp_path / f"c{n}.jsonl"
        done = subprocess.run(
            [sys.executable, "-c", _PEAKS, str(n), str(path)],
            capture_output=True,
            cwd=Path(__file__).resolve().parents[2],
            timeout=600,
        )
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        found[n] = (path.stat().st_size, json.loads(done.stdout))
    (small, (export_small, verify_small)), (big, (export_big, verify_big)) = found[2], found[10]
    # Export holds a line at a time: eight battles more add nothing to it.
    assert export_big - export_small < (big - small) / 10, found
    # Verify holds what an undo may need of each game (its commands, a
    # digest per version, the other streams' states), never the lines
    # themselves: less than the file, as a battle's verify (test_log_integrity).
    # Each battle more costs verify 0.73 to 0.76 of its lines at peak (peaks
    # move by a few KB from run to run); the bound was 3/4 while the two-battle
    # run still paid typing's one-time caches, which made the growth look smaller.
    assert verify_big < big and verify_big - verify_small < (big - small) * 4 / 5, found
