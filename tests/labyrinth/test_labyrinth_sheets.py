"""A PC from its own sheet (issue #12): the sheet's abilities give its
derived stats by the facts' formulas (Fills MAIN-2), its gear, skills and
items replace its class's, what it leaves out stays its class's; the sheet
travels inside ``StartLabyrinth`` so the log replays without the file; a
wrong sheet is refused naming the field, and a wrong sheet file on the
command line with its name, line and reason, writing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from labyrinth_harness import CTX, PACK, of, start, when

from domain.kernel.errors import ContentError, MalformedCommand
from domain.kernel.toml_lines import key_lines, line_of
from domain.labyrinth import events as ev
from domain.labyrinth.catalog import Abilities
from domain.labyrinth.commands import Member, Pass, StartLabyrinth
from domain.labyrinth.rules import decide, replay
from domain.labyrinth.sheet_files import parse_sheets
from domain.labyrinth.sheets import PcSheet
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Row

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "labyrinth"
OWN = Abilities(str=17, tec=9, vit=14, agi=12, luc=11)  # bonuses 3, 1, 2, 2, 2


def sheet_pc(level: int = 4, **fields) -> Member:
    return Member(cls="fighter", level=level, name="Odo", sheet=PcSheet(abilities=OWN, **fields))


# --- the domain ----------------------------------------------------------------------


@pytest.mark.rule("MAIN-2")
def test_a_sheets_abilities_give_the_derived_stats_by_the_facts_formulas():
    """Facts, Fills MAIN-2: B = floor(ability / 5); max HP = VIT_B x 2 + Lv + 5,
    max TP = TEC_B + Lv + 3, Physical hit floor((STR_B + AGI_B) / 2), Elemental
    hit floor((TEC_B + LUC_B) / 2), Evasion floor((AGI_B + LUC_B) / 2) + 5,
    Physical attack STR_B + weapon, Elemental attack TEC_B + weapon, Defense
    armour, Suppression attack floor((TEC_B + LUC_B) / 2), Suppression defense
    floor((VIT_B + LUC_B) / 2), Speed raw AGI + equipment. The sheet's
    abilities are the PC's at its level: no class growth is added."""
    state = start(party=(sheet_pc(weapon="bow", other="", armor="robe"),))
    p1 = state.get("p1")
    b = p1.base
    assert (b.max_hp, b.max_tp) == (2 * 2 + 4 + 5, 1 + 4 + 3) == (13, 8)
    assert (b.phit, b.ehit, b.evasion) == ((3 + 2) // 2, (1 + 2) // 2, (2 + 2) // 2 + 5) == (2, 1, 7)
    assert (b.patk, b.eatk, b.defense, b.satk, b.sdef, b.speed) == (3, 1, 0, 1, 2, 12)
    now = stats(p1, PACK)
    assert (now.patk, now.eatk, now.defense, now.speed) == (3 + 3, 1 + 0, 1, 12)  # bow 3 patk, robe 1 defense
    assert (p1.hp, p1.tp, p1.fp, p1.level, p1.name) == (13, 8, 1, 4, "Odo")
    assert (p1.weapon, p1.other, p1.armor) == ("bow", "", "robe")
    # the same class at the same level from the pack grows from its own abilities instead
    from_class = start(party=(Member(cls="fighter", level=4),)).get("p1").base
    assert from_class.max_hp != b.max_hp or from_class.speed != b.speed


def test_what_a_sheet_leaves_out_is_its_classs():
    p1 = start(party=(Member(cls="fighter", level=2, sheet=PcSheet(abilities=OWN)),)).get("p1")
    fighter = PACK.classes["fighter"]
    assert (p1.weapon, p1.other, p1.armor, p1.items) == (fighter.weapon, fighter.other, fighter.armor, fighter.items)
    assert p1.skills == ("power-strike", "guard", "rally")  # every skill learned by level 2
    assert p1.name == "Fighter" and p1.row is Row.FRONT


def test_a_sheets_skills_and_items_replace_its_classs():
    p1 = start(party=(sheet_pc(level=2, skills=("rally", "guard"), items=("salve", "salve")),)).get("p1")
    assert p1.skills == ("rally", "guard") and p1.items == ("salve", "salve")


@pytest.mark.parametrize(
    "member, says",
    [
        (sheet_pc(skills=("flame-burst",)), "skills[0]: 'flame-burst' is not a Fighter skill"),
        (sheet_pc(skills=("nothing-such",)), "skills[0]: unknown skill 'nothing-such'"),
        (sheet_pc(level=1, skills=("guard", "rally")), "skills[1]: a Fighter learns 'rally' at level 2"),
        (sheet_pc(skills=("guard", "guard")), "skills[1]: 'guard' is listed twice"),
        (sheet_pc(weapon="mail"), "weapon: unknown weapon 'mail'"),
        (sheet_pc(other="spoon"), "other: unknown weapon 'spoon'"),
        (sheet_pc(armor="sword"), "armor: unknown armour 'sword'"),
        (sheet_pc(items=("gem",)), "items[0]: unknown item 'gem'"),
        (
            Member(cls="fighter", sheet=PcSheet(abilities=Abilities(str=0, tec=5, vit=5, agi=5, luc=5))),
            "abilities.str: must be a whole number from 1 to 99",
        ),
        (
            Member(cls="fighter", sheet=PcSheet(abilities=Abilities(str=5, tec=5, vit=5, agi=100, luc=5))),
            "abilities.agi: must be a whole number from 1 to 99",
        ),
        (Member(cls="bard", sheet=PcSheet(abilities=OWN)), "no class 'bard'"),
        (Member(cls="fighter", level=0, sheet=PcSheet(abilities=OWN)), "level 0 is not a level"),
    ],
)
def test_a_wrong_sheet_is_refused_naming_its_field(member, says):
    command = StartLabyrinth(battle_id="t", encounter="slimes", party=(member,), seed=1)
    with pytest.raises(MalformedCommand) as caught:
        decide(None, command, CTX)
    assert says in str(caught.value), caught.value


@pytest.mark.rule("ENEMY-3")
def test_identify_rolls_with_the_sheets_tec_bonus():
    """Each PC's Identify check is 2D6 + its TEC bonus: the sheet's TEC (20: bonus 4)."""
    own = PcSheet(abilities=Abilities(str=10, tec=20, vit=10, agi=10, luc=10))
    state = start(party=(Member(cls="fighter", sheet=own),), identify=True)
    assert state.turn == 1
    cmd = StartLabyrinth(battle_id="t", encounter="slimes", party=(Member(cls="fighter", sheet=own),), seed=1)
    cmd = msgspec.structs.replace(cmd, options=msgspec.structs.replace(cmd.options, identify=True))
    found = of(decide(None, cmd, CTX), ev.Identified)[0]
    assert found.totals == (found.faces[0] + found.faces[1] + 4,)


def test_the_sheet_travels_inside_the_command_and_the_battle_replays_from_the_events():
    command = StartLabyrinth(battle_id="t", encounter="slimes", party=(sheet_pc(skills=("guard",)),), seed=5)
    again = msgspec.json.decode(msgspec.json.encode(command), type=StartLabyrinth)
    assert again == command and again.party[0].sheet.abilities == OWN
    events = decide(None, again, CTX)
    state = replay(events)
    state, more = when(state, Pass(actor="p1"))
    assert replay(events + more) == state


# --- the file ------------------------------------------------------------------------

ONE = b"""# a sheet
class = "fighter"
level = 2
name = "Odo"
abilities = { str = 17, tec = 9, vit = 14, agi = 12, luc = 11 }
skills = [
  "guard",
  "flame-burst",
]
"""


def test_a_sheet_file_of_one_pc_reads_into_a_member_with_its_sheet():
    (m,) = parse_sheets("odo.toml", ONE.replace(b'  "flame-burst",\n', b""), PACK)
    assert (m.cls, m.level, m.name, m.row) == ("fighter", 2, "Odo", None)
    assert m.sheet == PcSheet(abilities=OWN, skills=("guard",))


def test_a_sheet_file_of_several_pcs_reads_them_in_file_order():
    data = b"""[[pc]]
class = "mage"
abilities = { str = 5, tec = 15, vit = 8, agi = 9, luc = 12 }
row = "front"
[[pc]]
class = "fighter"
name = "Two"
[pc.abilities]
str = 12
tec = 5
vit = 11
agi = 8
luc = 6
"""
    first, second = parse_sheets("two.toml", data, PACK)
    assert (first.cls, first.row, second.cls, second.name) == ("mage", Row.FRONT, "fighter", "Two")
    assert second.sheet.abilities == Abilities(str=12, tec=5, vit=11, agi=8, luc=6)


@pytest.mark.parametrize(
    "data, line, says",
    [
        (ONE, 8, "pc.toml: line 8 (skills[1]): 'flame-burst' is not a Fighter skill"),
        (ONE.replace(b"level = 2", b"level = 0"), 3, "line 3 (level): must be from 1 to 99, got 0"),
        (ONE.replace(b"vit = 14", b"vit = 140"), 5, "line 5 (abilities.vit): must be from 1 to 99"),
        (ONE.replace(b'"fighter"', b'"bard"'), 2, "line 2 (class): no class 'bard'"),
        (ONE.replace(b"level = 2", b"levle = 2"), 3, "line 3 (levle): unknown key (did you mean 'level'?)"),
        (ONE.replace(b"level = 2", b"level = 2 2"), 3, "pc.toml: line 3: TOML syntax error"),
        (
            b'[[pc]]\nclass = "fighter"\nabilities = { str = 5, tec = 5, vit = 5, agi = 5, luc = 5 }\n'
            b'[[pc]]\nclass = "fighter"\nweapon = "wand"\n'
            b"abilities = { str = 5, tec = 5, vit = 5, agi = 5, luc = 5 }\n",
            6,
            "line 6 (pc[1].weapon): unknown weapon 'wand'",
        ),
        (b'[[pc]]\nclass = "fighter"\n', 1, "line 1 (pc[0].abilities): required key is missing"),
    ],
)
def test_a_wrong_sheet_file_is_refused_with_its_line_and_reason(data, line, says):
    with pytest.raises(ContentError) as caught:
        parse_sheets("pc.toml", data, PACK)
    assert says in str(caught.value) and f"line {line}" in str(caught.value), caught.value


def test_every_key_and_array_element_of_a_toml_text_has_its_line():
    lines = key_lines(ONE.decode())
    assert (lines["class"], lines["abilities.luc"], lines["skills[0]"], lines["skills[1]"]) == (2, 5, 7, 8)
    assert line_of(ONE.decode(), "abilities.nothing") == 5 and line_of(ONE.decode(), "absent") is None


def test_the_example_sheets_are_valid_for_the_starter_pack():
    from domain.labyrinth.packs import starter_pack

    (wren,) = parse_sheets("sheet-tracker.toml", (EXAMPLES / "sheet-tracker.toml").read_bytes(), starter_pack())
    assert (wren.cls, wren.level, wren.name, wren.row) == ("tracker", 3, "Wren", Row.BACK)
    pair = parse_sheets("sheets-pair.toml", (EXAMPLES / "sheets-pair.toml").read_bytes(), starter_pack())
    assert [m.name for m in pair] == ["Brannoc", "Sela"]


# --- the command line ----------------------------------------------------------------


@pytest.mark.rule("MAIN-2")
def test_rk_new_labyrinth_takes_a_sheet_file_after_the_party_members(table):
    """Wren's sheet (examples/labyrinth/sheet-tracker.toml): VIT 12, TEC 11,
    AGI 17 at level 3: max HP 2 x 2 + 3 + 5 = 12, max TP 2 + 3 + 3 = 8,
    Speed 17 (bow and jerkin add nothing)."""
    code, out, err = table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "mender",
        "--sheet",
        str(EXAMPLES / "sheet-tracker.toml"),
        "--seed",
        "3",
        "--battle",
        "lab",
        code=None,
    )
    assert code == 0, err
    state = table.defaults.apps["memory"].battle("lab").state
    p1, p2 = state.get("p1"), state.get("p2")
    assert (p1.name, p2.name, p2.kind, p2.level) == ("Mender", "Wren", "tracker", 3)
    assert (p2.base.max_hp, p2.base.max_tp, p2.base.speed) == (12, 8, 17)
    assert p2.items == ("clearwater-vial", "sap-salve", "sap-salve")
    assert "p2   Wren" in out


def test_a_sheet_file_alone_makes_the_party(table):
    code, _, err = table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--sheet",
        str(EXAMPLES / "sheets-pair.toml"),
        "--seed",
        "3",
        "--battle",
        "lab",
        code=None,
    )
    assert code == 0, err
    state = table.defaults.apps["memory"].battle("lab").state
    assert [c.name for c in state.side(True)] == ["Brannoc", "Sela"]


@pytest.mark.parametrize(
    "text, says",
    [
        (
            'class = "vanguard"\nabilities = { str = 9, tec = 9, vit = 9, agi = 9, luc = 9 }\nskills = ["mend"]\n',
            "line 3 (skills[0]): 'mend' is not a Vanguard skill",
        ),
        (
            'class = "vanguard"\nabilities = { str = 9, tec = 9, vit = 9, agi = 9 luc = 9 }\n',
            "line 2: TOML syntax error",
        ),
        (
            'class = "vanguard"\n\nabilities = { str = 9, tec = 9, vit = 9, agi = 9, luc = 9 }\narmor = "broadsword"\n',
            "line 4 (armor): unknown armour 'broadsword'",
        ),
    ],
)
def test_a_malformed_sheet_file_is_refused_with_its_name_line_and_reason_and_writes_nothing(
    table, tmp_path, text, says
):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code, _, err = table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "mender",
        "--sheet",
        str(path),
        "--seed",
        "3",
        code=None,
    )
    assert code == 1 and "Traceback" not in err, err
    assert str(path) in err and says in " ".join(err.split()), err
    code, out, _ = table("battles", "--json", code=None)
    assert code == 0 and json.loads(out) == []


def test_a_missing_sheet_file_is_refused_naming_it(table, tmp_path):
    code, _, err = table(
        "new", "labyrinth", "--encounter", "mossy-hollow", "--sheet", str(tmp_path / "nowhere.toml"), code=None
    )
    assert code == 1 and "nowhere.toml" in err and "cannot read" in err, err
