"""A Betrayal campaign is a game like any other at the server: the host
begins it and gives its commands; it has no seats, so no seat's token opens
it and its between-battle commands are the host's (SEAT-4)."""

from __future__ import annotations

import pytest

from api_table import refusal


def test_the_host_begins_a_campaign_and_recruits_into_it(table):
    made = table.create({"new": "campaign", "name": "saga", "difficulty": "expert", "dial": 3})
    assert made["game"] == "saga"
    assert made["narrated"][-1] == "campaign saga begins at expert difficulty, the XP dial at 3"
    recruited = table.done("saga", {"type": "Recruit", "name": "Ria", "race": "nord", "class_id": "bastion"})
    assert "Ria joins the party" in recruited["narrated"]
    summary = table.get("/api/games/saga")
    assert (summary["ruleset"], summary["who"]) == ("betrayal-campaign", "Ria")
    assert table.get("/api/games/saga/seats")["seats"] == []


@pytest.mark.rule("SEAT-4")
def test_a_campaign_has_no_seats_so_no_seat_token_opens_it(table):
    table.create({"new": "campaign", "name": "saga"})
    answer = table.client.get("/api/games/saga/state", headers=table.seat("saga", "ria"))
    refusal(answer, 401, "unauthorized")


def test_a_campaign_dial_out_of_range_is_refused_and_nothing_is_begun(table):
    answer = table.client.post("/api/games", headers=table.host, json={"new": "campaign", "name": "saga", "dial": 81})
    assert "dial must be a whole number from 0 to 80" in refusal(answer, 400, "malformed")["reason"]
    assert table.everything() == []


@pytest.mark.rule("SESSION-EP-2")
def test_a_climax_battle_set_up_at_the_server_takes_its_xp_from_the_session_table(table):
    table.create({"new": "campaign", "name": "saga", "dial": 7})
    for name, race in (("Ria", "nord"), ("Tarn", "dark-elf")):
        table.done("saga", {"type": "Recruit", "name": name, "race": race, "class_id": "bastion"})
    made = table.create(
        {
            "new": "clash",
            "setup": "waystone-crossing",
            "party": [{"name": "Ria"}, {"name": "Tarn"}],
            "climax": True,
            "seed": 3,
        }
    )
    assert any("XP 16 → EP 32 (EP-2)" in line for line in made["narrated"])  # session 1, adept, 2: not the dial
    answer = table.client.post(
        "/api/games",
        headers=table.host,
        json={"new": "clash", "setup": "waystone-crossing", "party": [{"name": "Bo", "race": "nord"}], "climax": True},
    )
    assert "needs a party of one campaign" in refusal(answer, 400, "malformed")["reason"]
