"""A labyrinth battle set up through ``POST /api/games`` with what `rk new
labyrinth` takes beyond class and level: a PC from its own sheet (its
derived stats from the sheet's abilities, facts: Fills MAIN-2), allied
NPCs (a1, a2..., counted with the party toward SCALE-1), rare Enemy
variants by slot (facts section 8) and who chooses the passive actions
(PASSIVE-2). ``GET /api/choices`` lists what the lobby offers for them, the
OpenAPI document describes the new fields, and a bad sheet, ally or slot
is refused with a reason naming it, nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from api_table import Table, refusal
from domain.labyrinth.options import PASSIVES
from domain.labyrinth.packs import starter_pack

ABILITIES = {"str": 16, "tec": 7, "vit": 13, "agi": 12, "luc": 9}


def labyrinth(party: list[dict[str, Any]], encounter: str = "mossy-hollow", **more: Any) -> dict[str, Any]:
    """A labyrinth request, seeded so each test sets up the same battle."""
    return {"new": "labyrinth", "encounter": encounter, "party": party, "seed": 3, **more}


def combatants(table: Table, game: str) -> dict[str, dict[str, Any]]:
    """The battle's combatants by id, as the state answer has them."""
    return {c["id"]: c for c in table.get(f"/api/games/{game}/state")["state"]["combatants"]}


# -- a PC from its own sheet ------------------------------------------------------------------


@pytest.mark.rule("MAIN-2")
def test_a_pc_from_its_sheet_has_the_stats_its_abilities_give_and_the_sheets_gear(table: Table):
    """Vanguard level 3 with STR 16 TEC 7 VIT 13 AGI 12 LUC 9: bonuses 3 1 2 2 1
    (floor(x / 5)); by the facts' formulas HP = VIT*2 + level + 5 = 12,
    TP = TEC + level + 3 = 7, P.hit = (STR+AGI)/2 = 2, E.hit = (TEC+LUC)/2 = 1,
    Evasion = (AGI+LUC)/2 + 5 = 6, P.atk = STR = 3, E.atk = TEC = 1,
    S.atk = (TEC+LUC)/2 = 1, S.def = (VIT+LUC)/2 = 1, Speed = raw AGI = 12.
    No class growth is added: the abilities are the PC's at its level."""
    sheet = {
        "abilities": ABILITIES,
        "weapon": "iron-mace",
        "other": "",
        "armor": "",
        "skills": ["sundering-blow", "lunging-thrust"],
        "items": ["ember-flask", "sap-salve"],
    }
    made = table.create(
        labyrinth([{"class": "vanguard", "level": 3, "name": "Ada", "sheet": sheet}, {"class": "mender"}], name="sheet")
    )
    ada, mender = combatants(table, made["game"])["p1"], combatants(table, made["game"])["p2"]
    base = ada["base"]
    assert {
        k: base[k]
        for k in ("max_hp", "max_tp", "phit", "ehit", "evasion", "patk", "eatk", "defense", "satk", "sdef", "speed")
    } == {
        "max_hp": 12,
        "max_tp": 7,
        "phit": 2,
        "ehit": 1,
        "evasion": 6,
        "patk": 3,
        "eatk": 1,
        "defense": 0,
        "satk": 1,
        "sdef": 1,
        "speed": 12,
    }
    assert (ada["name"], ada["level"], ada["hp"], ada["tp"], ada["fp"]) == ("Ada", 3, 12, 7, 1)
    assert (ada["weapon"], ada["other"], ada["armor"]) == ("iron-mace", "", "")
    assert ada["skills"] == ["sundering-blow", "lunging-thrust"] and ada["items"] == ["ember-flask", "sap-salve"]
    cls = starter_pack().classes["mender"]  # a member without a sheet keeps its class's gear
    assert (mender["weapon"], mender["armor"], mender["items"]) == (cls.weapon, cls.armor, list(cls.items))


@pytest.mark.rule("MAIN-2")
def test_a_sheet_that_leaves_gear_out_keeps_the_classes(table: Table):
    made = table.create(labyrinth([{"class": "tracker", "level": 2, "sheet": {"abilities": ABILITIES}}], name="kit"))
    tracker = combatants(table, made["game"])["p1"]
    cls = starter_pack().classes["tracker"]
    assert (tracker["weapon"], tracker["other"], tracker["armor"]) == (cls.weapon, cls.other, cls.armor)
    assert tracker["skills"] == [sid for at, sid in cls.skills if at <= 2] and tracker["items"] == list(cls.items)
    assert tracker["base"]["speed"] == ABILITIES["agi"]  # the sheet's AGI, not the class's grown one


# -- allied NPCs, rare Enemies -----------------------------------------------------------------


@pytest.mark.rule("SCALE-1")
def test_allies_stand_on_the_partys_side_as_a1_a2_and_take_no_seat(table: Table):
    allies = [
        {"class": "mender", "level": 2, "name": "Hal"},
        {"class": "tracker", "row": "front", "sheet": {"abilities": ABILITIES}},
    ]
    made = table.create(labyrinth([{"class": "vanguard", "name": "Ada"}], allies=allies, name="allied"))
    people = combatants(table, made["game"])
    assert [k for k in people if k[0] in "pa"] == ["p1", "a1", "a2"]
    hal, second = people["a1"], people["a2"]
    assert (hal["name"], hal["side"], hal["level"], hal["row"]) == ("Hal", "npc", 2, "back")
    assert (second["side"], second["row"], second["base"]["speed"]) == ("npc", "front", ABILITIES["agi"])
    assert hal["fp"] == 0  # an NPC never spends FP
    board = table.get(f"/api/games/{made['game']}/table")["board"]
    party = board["sides"][0]
    standing = {c["id"] for row in party["rows"].values() for c in row}
    assert standing == {"p1", "a1", "a2"}
    assert [s["key"] for s in table.get(f"/api/games/{made['game']}/seats")["seats"]] == ["p1"]


def test_a_slot_named_rare_is_its_kinds_rare_variant(table: Table):
    """Mossy hollow's e1 and e2 are both Thornback Rats: e2 made rare has the
    variant's name and more HP than its plain twin (facts section 8)."""
    made = table.create(labyrinth([{"class": "vanguard"}], rare=["e2", " E4 "], name="rare"))
    people = combatants(table, made["game"])
    assert [k for k in people if people[k]["rare"]] == ["e2", "e4"]
    assert people["e1"]["rare"] == "" and people["e2"]["rare"].startswith("Rare Thornback Rat")
    assert people["e2"]["base"]["max_hp"] > people["e1"]["base"]["max_hp"]
    assert table.get(f"/api/games/{made['game']}/state")["state"]["options"]["identify"] is False


# -- passive actions ------------------------------------------------------------------------------


@pytest.mark.rule("PASSIVE-2")
@pytest.mark.parametrize(
    "passives, ask, auto", [(None, True, True), ("ask", True, True), ("auto", False, True), ("off", False, False)]
)
def test_passives_set_the_table_options_as_the_command_line_does(table: Table, passives, ask, auto):
    more = {} if passives is None else {"passives": passives}
    made = table.create(labyrinth([{"class": "vanguard"}], name="passives", **more))
    options = table.get(f"/api/games/{made['game']}/state")["state"]["options"]
    assert (options["ask_passives"], options["auto_passives"]) == (ask, auto)
    if passives is not None:
        assert {k: options[k] for k in PASSIVES[passives]} == PASSIVES[passives]  # the shared mapping


@pytest.mark.rule("PASSIVE-2")
def test_an_option_named_outright_overrides_passives(table: Table):
    made = table.create(
        labyrinth([{"class": "vanguard"}], name="both", passives="off", options={"auto_passives": True})
    )
    options = table.get(f"/api/games/{made['game']}/state")["state"]["options"]
    assert (options["ask_passives"], options["auto_passives"]) == (False, True)


# -- what the lobby is offered, what the API document says ----------------------------------------------


def test_the_choices_list_each_encounters_enemy_slots_and_the_passive_modes(table: Table):
    pack = starter_pack()
    lab = next(s for s in table.get("/api/choices")["setups"] if s["name"] == "labyrinth")
    slots = lab["offers"]["rare"]["by"]
    for key, encounter in pack.encounters.items():
        entries = encounter.enemies
        assert [s["id"] for s in slots[key]] == [f"e{n}" for n in range(1, len(entries) + 1)]
        assert [s["row"] for s in slots[key]] == [e.row.value for e in entries]
        assert [s.get("fixed", False) for s in slots[key]] == [e.rare for e in entries]
    mossy = slots["mossy-hollow"]
    assert [s["name"] for s in mossy[:2]] == ["Thornback Rat A", "Thornback Rat B"]  # as the battle names them
    assert mossy[0]["note"] == "→ Rare Thornback Rat A"
    cellar = slots["tallow-cellar"]
    assert cellar[1]["fixed"] is True and cellar[1]["note"] == "→ Gilded Tallow Grub B"
    assert [p["id"] for p in lab["offers"]["passives"]] == list(PASSIVES) == ["ask", "auto", "off"]  # default first


def test_the_openapi_document_describes_allies_rare_passives_and_sheets(table: Table):
    schemas = table.get("/api/openapi.json", headers={})["components"]["schemas"]
    new = schemas["NewLabyrinth"]["properties"]
    assert {"$ref": "#/components/schemas/PartyMember"} in new["allies"]["items"]["anyOf"]
    assert new["rare"]["items"] == {"type": "string"}
    assert new["passives"]["default"] == "ask"
    member = schemas["PartyMember"]["properties"]
    assert {"$ref": "#/components/schemas/PcSheet"} in member["sheet"]["anyOf"]
    sheet = schemas["PcSheet"]
    assert {"abilities", "weapon", "other", "armor", "skills", "items"} <= set(sheet["properties"])
    assert sheet["required"] == ["abilities"]
    assert set(schemas["Abilities"]["required"]) == {"str", "tec", "vit", "agi", "luc"}


# -- refused with a reason naming what is wrong, nothing written -----------------------------------------


def sheet(**more: Any) -> dict[str, Any]:
    return {"abilities": ABILITIES, **more}


VANGUARD = {"class": "vanguard"}
BAD = [
    (
        labyrinth([VANGUARD, {"class": "vanguard", "sheet": sheet(skills=["mend"])}]),
        400,
        "malformed",
        "party[1].sheet.skills[0]: 'mend' is not a Vanguard skill",
    ),
    (
        labyrinth([{"class": "vanguard", "sheet": sheet(skills=["lunging-thrust"])}]),
        400,
        "malformed",
        "party[0].sheet.skills[0]: a Vanguard learns 'lunging-thrust' at level 3",
    ),
    (
        labyrinth([{"class": "vanguard", "sheet": sheet(skills=["riposte", "riposte"])}]),
        400,
        "malformed",
        "party[0].sheet.skills[1]: 'riposte' is listed twice",
    ),
    (
        labyrinth([{"class": "vanguard", "sheet": {"abilities": {**ABILITIES, "agi": 0}}}]),
        400,
        "malformed",
        "party[0].sheet.abilities.agi: must be a whole number from 1 to 99",
    ),
    (
        labyrinth([{"class": "vanguard", "sheet": {"abilities": {**ABILITIES, "luc": 1.5}}}]),
        400,
        "malformed",
        "$.party[0].sheet.abilities.luc",
    ),
    (
        labyrinth([{"class": "vanguard", "sheet": {"abilities": {"str": 9}}}]),
        400,
        "malformed",
        "missing required field `tec`",
    ),
    (labyrinth([{"class": "vanguard", "sheet": sheet(mana=3)}]), 400, "malformed", "unknown field `mana`"),
    (
        labyrinth([{"class": "vanguard", "sheet": sheet(weapon="laser")}]),
        400,
        "malformed",
        "party[0].sheet.weapon: unknown weapon 'laser'",
    ),
    (
        labyrinth([{"class": "vanguard", "sheet": sheet(armor="tin-can")}]),
        400,
        "malformed",
        "party[0].sheet.armor: unknown armour 'tin-can'",
    ),
    (
        labyrinth([VANGUARD], allies=[{"class": "mender", "sheet": sheet(items=["moonbeam"])}]),
        400,
        "malformed",
        "allies[0].sheet.items[0]: unknown item 'moonbeam'",
    ),
    (labyrinth([VANGUARD], allies=[{"class": "wizard"}]), 400, "malformed", "ally a1: no class 'wizard'"),
    (
        labyrinth([VANGUARD], allies=[VANGUARD, {"class": "mender", "level": 0}]),
        400,
        "malformed",
        "allies[1]: the level is a whole number from 1 to 99",
    ),
    (
        labyrinth([VANGUARD], allies=[{"class": "mender", "row": "middle"}]),
        400,
        "malformed",
        "allies[0]: the row is front or back",
    ),
    (
        labyrinth(
            [{"class": c} for c in ("vanguard", "mender", "tracker")],
            allies=[{"class": c} for c in ("bulwark", "stormcaller", "mender", "tracker")],
        ),
        422,
        "rule",
        "at most 6 against 6 (allied NPCs count toward it)",
    ),
    (
        labyrinth([{"class": "vanguard"}, {"class": "bulwark"}], allies=[{"class": "vanguard"}, {"class": "bulwark"}]),
        422,
        "rule",
        "at most 3 to a row (allied NPCs count toward it)",
    ),
    (labyrinth([VANGUARD], rare=["e9"]), 400, "malformed", "rare 'e9': the encounter's Enemies are e1 to e4"),
    (labyrinth([VANGUARD], rare=["e2", "E2"]), 400, "malformed", "rare[1]: 'e2' is named twice"),
    (labyrinth([VANGUARD], passives="sometimes"), 400, "malformed", "passives: 'sometimes' is not ask, auto or off"),
]


@pytest.mark.parametrize(
    "body, status, error, says",
    BAD,
    ids=[
        "skill-of-another-class",
        "skill-above-level",
        "skill-twice",
        "ability-0",
        "ability-not-whole",
        "ability-missing",
        "unknown-sheet-field",
        "unknown-weapon",
        "unknown-armour",
        "ally-unknown-item",
        "ally-unknown-class",
        "ally-level-0",
        "ally-row",
        "seven-with-allies",
        "four-in-front-with-allies",
        "rare-no-such-slot",
        "rare-twice",
        "passives-unknown",
    ],
)
def test_a_bad_sheet_ally_rare_slot_or_passives_is_refused_and_nothing_is_written(
    table: Table, body, status, error, says
):
    first = table.create(labyrinth([VANGUARD], name="first"))["game"]
    before = table.written(first)
    r = table.client.post("/api/games", headers=table.host, json={**body, "name": "bad"})
    found = refusal(r, status, error, "SCALE-1" if error == "rule" else None)
    assert says in found["reason"], found["reason"]
    assert table.written(first) == before
    assert [g["id"] for g in table.everything()] == [first]
