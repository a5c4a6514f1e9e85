"""The host's lobby sets up every kind of game ``POST /api/games`` takes:
``GET /api/choices`` says what each may be set up with (read from the
packs the server plays with), and the requests the lobby's form sends for
each kind set the game up and list it, or are refused with their reason
and nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from api_table import PARTY, Table, bearer, refusal
from domain.betrayal.packs.load import starter_pack as betrayal_pack
from domain.conquest.packs import starter_pack as conquest_pack
from domain.labyrinth.packs import starter_pack as labyrinth_pack
from domain.labyrinth.vocab import SIDE_LIMIT


def ids(choices: list[dict[str, Any]]) -> list[str]:
    return [c["id"] for c in choices]


def labyrinth_form(encounter: str, party: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """What the lobby's form sends for a labyrinth battle: class and level of
    each PC, its name and row only when typed, ambush and gm_enemies only
    when chosen."""
    return {"new": "labyrinth", "encounter": encounter, "party": party, **more}


# -- what may be chosen ---------------------------------------------------------------------


def setup_of(table: Table, name: str) -> dict[str, Any]:
    """The setup ``name`` as ``GET /api/choices`` lists it."""
    return next(s for s in table.get("/api/choices")["setups"] if s["name"] == name)


def test_the_choices_list_every_setup_of_every_ruleset_with_its_parameters_and_schema(table: Table):
    setups = {s["name"]: s for s in table.get("/api/choices")["setups"]}
    assert {"clash", "dungeon", "delve", "campaign", "conquest", "labyrinth"} <= set(setups)
    assert {s["ruleset"] for s in setups.values()} == {"betrayal", "betrayal-campaign", "conquest", "labyrinth"}
    conquest = setups["conquest"]
    assert [p["name"] for p in conquest["params"]][:2] == ["scenario", "armies"]
    assert next(p for p in conquest["params"] if p["name"] == "armies")["repeat"] is True
    assert conquest["schema"]["type"] == "object" and "scenario" in conquest["schema"]["required"]
    assert setups["clash"]["schema"]["properties"]["difficulty"]["$ref"].endswith("/Difficulty")


def test_the_choices_offer_the_packs_contents_for_each_field(table: Table):
    b, q, lab = betrayal_pack(), conquest_pack(), labyrinth_pack()
    assert ids(setup_of(table, "clash")["offers"]["setup"]) == list(b.setups)
    assert ids(setup_of(table, "dungeon")["offers"]["setup"]) == list(b.dungeons)
    assert ids(setup_of(table, "delve")["offers"]["delve"]) == list(b.delves)
    assert ids(setup_of(table, "clash")["offers"]["party.race"]) == list(b.races)
    offers = setup_of(table, "conquest")["offers"]
    assert ids(offers["scenario"]) == list(q.scenarios) and ids(offers["armies"]) == list(q.armies)
    offers = setup_of(table, "labyrinth")["offers"]
    assert ids(offers["encounter"]) == list(lab.encounters) and ids(offers["party.class"]) == list(lab.classes)
    mossy = next(e for e in offers["encounter"] if e["id"] == "mossy-hollow")
    assert mossy["name"] == lab.encounters["mossy-hollow"].name
    # which Enemies may be met rare depends on the encounter chosen
    assert offers["rare"]["after"] == "encounter"
    assert ids(offers["rare"]["by"]["mossy-hollow"]) == [
        f"e{n}" for n in range(1, len(lab.encounters["mossy-hollow"].enemies) + 1)
    ]
    assert ids(setup_of(table, "campaign")["offers"]["difficulty"]) == ["apprentice", "adept", "expert"]


@pytest.mark.rule("SEAT-4")
def test_the_choices_are_the_hosts_as_setting_a_game_up_is(table: Table):
    g = table.new_clash()
    for headers in (table.seat(g, "ria"), table.spectator(g), bearer("garbage"), {}):
        refusal(table.client.get("/api/choices", headers=headers), 401, "unauthorized")


def test_the_openapi_document_describes_the_choices(table: Table):
    doc = table.get("/api/openapi.json", headers={})
    op = doc["paths"]["/api/choices"]["get"]
    assert op["operationId"] == "listChoices" and op["security"] == [{"token": []}]
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Choices"}
    schemas = doc["components"]["schemas"]
    assert {"Choices", "SetupInfo", "ParamInfo"} <= set(schemas)
    new = doc["paths"]["/api/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    tags = {one["$ref"].rsplit("/", 1)[1] for one in new["anyOf"]} if "anyOf" in new else {new["$ref"]}
    assert {"NewClash", "NewConquest", "NewLabyrinth", "NewCampaign"} <= tags


# -- what the form sends sets the game up ------------------------------------------------------


@pytest.mark.rule("SCALE-1")
def test_every_offered_encounter_sets_up_with_a_full_party_of_the_offered_classes(table: Table):
    """The lobby starts each new PC at the next class: six PCs of the
    starter classes stand 3 to a row at most (SCALE-1)."""
    offers = setup_of(table, "labyrinth")["offers"]
    classes = ids(offers["party.class"])
    party = [{"class": classes[i % len(classes)], "level": 1} for i in range(SIDE_LIMIT)]
    party[0] |= {"level": 3, "name": "Ash"}
    encounters = ids(offers["encounter"])
    for n, encounter in enumerate(encounters, start=1):
        made = table.create(labyrinth_form(encounter, party, seed=n, name=f"lab-{n}"))
        assert made["game"] == f"lab-{n}" and made["summary"]["ruleset"] == "labyrinth"
        assert made["summary"]["setup"] == encounter
    listed = {g["id"]: g for g in table.get("/api/games")}
    assert set(listed) == {f"lab-{n}" for n in range(1, len(encounters) + 1)}
    seats = table.get("/api/games/lab-1/seats")["seats"]
    assert [s["key"] for s in seats] == [f"p{n}" for n in range(1, 7)] and seats[0]["name"] == "Ash"


def test_a_labyrinth_battle_from_the_form_keeps_its_ambush_gm_enemies_and_rows(table: Table):
    party = [{"class": "vanguard", "level": 2, "name": "Bram"}, {"class": "mender", "level": 1, "row": "front"}]
    made = table.create(labyrinth_form("warren-gate", party, ambush="pcs", gm_enemies=True, seed=4))
    state = table.get(f"/api/games/{made['game']}/state")["state"]
    assert state["options"]["ambush"] == "pc" and state["options"]["gm_enemies"] is True
    board = table.get(f"/api/games/{made['game']}/table")["board"]
    assert [c["name"] for c in board["sides"][0]["rows"]["front"]] == ["Bram", "Mender"]
    assert made["game"] in ids(table.get("/api/games"))


def test_every_offered_conquest_scenario_sets_up_between_the_offered_armies(table: Table):
    q = setup_of(table, "conquest")["offers"]
    first, second = ids(q["armies"])[:2]
    for n, scenario in enumerate(ids(q["scenario"]), start=1):
        made = table.create({"new": "conquest", "scenario": scenario, "armies": [first, second], "seed": n})
        assert made["summary"]["ruleset"] == "conquest" and made["summary"]["setup"] == scenario
        assert made["summary"]["who"] == f"{first} v {second}"
    assert [g["setup"] for g in table.get("/api/games")] == ids(q["scenario"])


@pytest.mark.parametrize("kind", ["clash", "dungeon", "delve"])
def test_every_offered_betrayal_setup_sets_up_its_kind(table: Table, kind):
    field = "delve" if kind == "delve" else "setup"
    offered = ids(setup_of(table, kind)["offers"][field])
    for n, setup in enumerate(offered, start=1):
        made = table.create(
            {"new": kind, field: setup, "party": PARTY, "difficulty": "expert", "seed": n, "name": f"{kind}-{n}"}
        )
        assert made["summary"]["setup"] == setup
    assert len(table.get("/api/games")) == len(offered)


def test_a_campaign_from_the_form_begins_at_the_dial_offered(table: Table):
    dial = betrayal_pack().campaign.start_dial
    made = table.create({"new": "campaign", "difficulty": "apprentice", "name": "saga"})
    assert made["narrated"][-1] == f"campaign saga begins at apprentice difficulty, the XP dial at {dial}"
    assert [(g["id"], g["ruleset"]) for g in table.get("/api/games")] == [("saga", "betrayal-campaign")]


# -- refused with its reason, nothing written ----------------------------------------------


@pytest.mark.parametrize(
    "body, status, error, says",
    [
        (
            labyrinth_form(
                "mossy-hollow",
                [
                    {"class": "vanguard", "level": 1},
                    {"class": "bulwark", "level": 1},
                    {"class": "mender", "level": 1},
                    {"class": "stormcaller", "level": 1},
                    {"class": "tracker", "level": 1},
                    {"class": "vanguard", "level": 1},
                    {"class": "mender", "level": 1},
                ],
            ),
            422,
            "rule",
            "at most 6 against 6",
        ),
        (labyrinth_form("mossy-hollow", [{"class": "vanguard", "level": 1}] * 4), 422, "rule", "at most 3 to a row"),
        (labyrinth_form("no-such-den", [{"class": "vanguard", "level": 1}]), 404, "not-found", "no encounter"),
        (labyrinth_form("mossy-hollow", [{"class": "wizard", "level": 1}]), 400, "malformed", "no class 'wizard'"),
        (labyrinth_form("mossy-hollow", [{"class": "vanguard", "level": 0}]), 400, "malformed", "level"),
        (labyrinth_form("mossy-hollow", [{"class": "vanguard", "level": 1.5}]), 400, "malformed", "int"),
        (
            labyrinth_form("mossy-hollow", [{"class": "vanguard", "level": 1}], ambush="both"),
            400,
            "malformed",
            "pcs or enemies",
        ),
        (labyrinth_form("mossy-hollow", []), 400, "malformed", "at least one PC"),
        ({"new": "conquest", "scenario": "border-clash", "armies": ["saltmarch"]}, 400, "malformed", "name two armies"),
        (
            {"new": "conquest", "scenario": "border-clash", "armies": ["saltmarch", "nobody"]},
            400,
            "malformed",
            "no army 'nobody'",
        ),
        (
            {"new": "conquest", "scenario": "nowhere", "armies": ["saltmarch", "cinderpact"]},
            404,
            "not-found",
            "no scenario",
        ),
        ({"new": "campaign", "difficulty": "adept", "seed": 3}, 400, "malformed", "seed"),
        ({"new": "clash", "setup": "", "party": PARTY}, 400, "malformed", "choose one of waystone-crossing"),
    ],
    ids=[
        "seven-pcs",
        "four-in-a-row",
        "unknown-encounter",
        "unknown-class",
        "level-0",
        "level-not-whole",
        "ambush-both",
        "no-party",
        "one-army",
        "unknown-army",
        "unknown-scenario",
        "campaign-seed",
        "no-setup",
    ],
)
def test_a_bad_request_from_the_form_is_refused_with_its_reason_and_nothing_is_set_up(
    table: Table, body, status, error, says
):
    answer = table.client.post("/api/games", headers=table.host, json={**body, "name": "bad"})
    found = refusal(answer, status, error, "SCALE-1" if error == "rule" else None)
    assert says in found["reason"]
    assert table.everything() == []
