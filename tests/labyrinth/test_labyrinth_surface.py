"""The labyrinth's surface (domain/labyrinth/surface.py): one grammar reads
and writes every command line both ways, ``parse(spell(c)) == c``, for
every command of the golden logs and every command `rk legal` lists in
random play over many seeds and table options; a setup is written back as
the `rk new labyrinth` line that sets the same battle up again, through the
one builder the command line and the API share."""

from __future__ import annotations

import random
import shlex
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from domain.kernel.errors import MalformedCommand
from domain.kernel.portable import read_log
from domain.kernel.surface import read
from domain.labyrinth import commands as c
from domain.labyrinth.decision import RulesContext
from domain.labyrinth.new_game import setup_command
from domain.labyrinth.packs import starter_pack
from domain.labyrinth.request import NewLabyrinth
from domain.labyrinth.rules import decide, evolve, legal_commands
from domain.labyrinth.sheets import PcSheet
from domain.labyrinth.catalog import Abilities
from domain.labyrinth.state import Options
from domain.labyrinth.surface import SETUP, SURFACES
from domain.labyrinth.vocab import Row, Side

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("labyrinth-*.jsonl"))
SURFACE = SURFACES[0]
GRAMMAR = SURFACE.grammar
PACK = starter_pack()
CTX = RulesContext(pack=PACK)


def again(command: c.StartLabyrinth) -> c.StartLabyrinth:
    """The setup its `rk new labyrinth` line asks for, made by the builder
    (a member from a sheet file cannot be: the file is not kept)."""
    words = shlex.split(GRAMMAR.spell(command))
    assert words[:2] == ["new", "labyrinth"]
    _, fields = read(SETUP.verb, words[2:])
    return setup_command(msgspec.convert(fields, NewLabyrinth), PACK, command.battle_id)


def round_trip(command: object) -> None:
    line = GRAMMAR.spell(command)
    if isinstance(command, c.StartLabyrinth):
        assert again(command) == command, line
    else:
        assert GRAMMAR.parse(line) == command, line


# --- the golden logs -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_every_command_of_a_golden_log_reads_back_from_the_line_that_writes_it(path: Path):
    issued = [e.event.command for e in read_log(path.read_bytes()).battle if hasattr(e.event, "command")]
    assert issued and isinstance(issued[0], c.StartLabyrinth)
    for command in issued:
        round_trip(command)


def test_the_golden_logs_lines_are_the_ones_they_always_were():
    """The grammar writes what the hand-written narrator wrote: a battle's
    first line with every choice, the others as typed."""
    issued = [e.event.command for e in read_log(LOGS[-1].read_bytes()).battle if hasattr(e.event, "command")]
    assert GRAMMAR.spell(issued[0]) == (
        "new labyrinth --encounter mossy-hollow --party vanguard:3:Brann "
        "--party bulwark:3:Hild --party mender:3:Ysa --party stormcaller:3:Corvin "
        "--seed 1 --passives auto"
    )
    assert {GRAMMAR.spell(x) for x in issued[1:]} >= {"pass p4", "attack p2 e3"}


# --- every line `rk legal` lists -------------------------------------------------------------------


def _options(seed: int) -> Options:
    return Options(
        gm_enemies=seed % 3 == 0,
        ask_passives=seed % 2 == 0,
        ask_fp=seed % 4 < 2,
        ambush=(None, None, Side.PC, Side.ENEMY)[seed % 4],
        identify=seed % 5 == 0,
        physical_dice=seed % 6 == 5,
    )


def _play(seed: int, listed: Counter) -> None:
    """A battle on the starter pack played by random legal commands, each
    listed command read back from its line (and its line from a listing
    with placeholders; typed faces are written F,F by `rk legal`, not here)."""
    rnd = random.Random(seed)
    encounter = sorted(PACK.encounters)[seed % len(PACK.encounters)]
    party = tuple(c.Member(cls=cls, level=1 + seed % 3) for cls in rnd.sample(sorted(PACK.classes), 3))
    state = None
    for event in decide(
        None, c.StartLabyrinth(battle_id="s", encounter=encounter, party=party, seed=seed, options=_options(seed)), CTX
    ):
        state = evolve(state, event)
    for _ in range(300):
        if state.over:
            return
        commands = legal_commands(state, CTX)
        for command in commands:
            line = GRAMMAR.spell(command)
            assert GRAMMAR.parse(line) == command, line
            assert GRAMMAR.spell(command, placeholders=True) == line
            listed[type(command).__name__] += 1
        chosen = rnd.choice(commands)
        if isinstance(chosen, c.TypeFaces):  # the table's dice: any faces
            chosen = c.TypeFaces(actor=chosen.actor, faces=tuple(rnd.randint(1, 6) for _ in chosen.faces))
        for event in decide(state, chosen, CTX):
            state = evolve(state, event)


@pytest.mark.rule("STANDBY-1")
@pytest.mark.rule("MAIN-1")
@pytest.mark.rule("PASSIVE-2")
@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("ATTACK-3")
def test_every_command_rk_legal_lists_reads_back_from_its_line_over_many_seeds():
    """Standby declarations (STANDBY-1), Main actions (MAIN-1), the GM's
    Enemy actions, passives asked by hand (PASSIVE-2), FP asked on a
    Suppression defense roll (FUMBLE-2) and the faces of physical dice
    (ATTACK-3 and every roll): every verb is listed somewhere."""
    listed: Counter = Counter()
    for seed in range(24):
        _play(seed, listed)
    verbs = {cls.__name__ for v in SURFACE.verbs for cls in v.classes}
    assert verbs <= set(listed), verbs - set(listed)


@pytest.mark.parametrize(
    "command, line",
    [
        (c.Move(actor="p1", row=Row.BACK, order=2), "move p1 back 2"),
        (c.Move(actor="p1", row=Row.FRONT), "move p1 front"),
        (c.UseStandbySkill(actor="p2", skill="rallying-shout"), "standby-skill p2 rallying-shout"),
        (c.Escape(actor="p1", fp=2, reroll=True), "escape p1 --fp 2 --reroll"),
        (c.Attack(target="e2"), "attack e2"),
        (c.Attack(actor="p1", target="e2", fp=1), "attack p1 e2 --fp 1"),
        (c.UseSkill(actor="p2", skill="mend", target="p1", reroll=True), "skill p2 mend --target p1 --reroll"),
        (c.UseItem(actor="p1", item="sap-salve", target="p1"), "consume p1 sap-salve --target p1"),
        (c.EnemyAct(actor="e1", target="p2"), "enemy e1 attack --target p2"),
        (c.EnemyAct(actor="e1", skill="pass"), "enemy e1 pass"),
        (c.React(actor="p1"), "react p1 none"),
        (c.React(actor="p1", skill="riposte"), "react p1 riposte"),
        (c.SpendFp(actor="p1"), "spend p1 0"),
        (c.Hold(actor="e2"), "hold e2"),
    ],
)
def test_each_verb_writes_the_line_it_always_did_and_reads_it_back(command, line):
    assert GRAMMAR.spell(command) == line
    assert GRAMMAR.parse(line) == command


@pytest.mark.parametrize(
    "line, says",
    [
        ("move p1 sideways", "ROW: 'sideways' is not one of front, back"),
        ("move p1", "ROW is missing"),
        ("escape p1 --fp 10", "--fp: 10 is not from 0 to 9"),
        ("react p1", "SKILL is missing"),
        ("attack p1 e1 e2", "unexpected"),
    ],
)
def test_a_line_the_grammar_cannot_read_is_refused_saying_why(line, says):
    with pytest.raises(MalformedCommand) as caught:
        GRAMMAR.parse(line)
    assert says in str(caught.value), caught.value


# --- the setup, written back ---------------------------------------------------------------------


@pytest.mark.rule("SCALE-1")
@pytest.mark.rule("PASSIVE-2")
def test_a_setup_with_every_choice_is_written_as_the_line_that_sets_it_up_again():
    """Names, rows, allies (SCALE-1), rare slots, how passives are chosen
    (PASSIVE-2) and every option a flag or NAME=VALUE gives."""
    options = Options(
        ambush=Side.ENEMY,
        gm_enemies=True,
        ask_fp=True,
        ask_passives=True,
        auto_passives=False,
        default_buff_turns=4,
        reapply_raises_depth=False,
        identify=True,
    )
    command = c.StartLabyrinth(
        battle_id="b",
        encounter="tallow-cellar",
        seed=11,
        options=options,
        rare=("e1",),
        party=(c.Member(cls="vanguard", level=2, name="Ada Lov", row=Row.BACK), c.Member(cls="mender")),
        allies=(c.Member(cls="tracker", level=3, row=Row.FRONT),),
    )
    line = GRAMMAR.spell(command)
    assert line == (
        "new labyrinth --encounter tallow-cellar --party 'vanguard:2:Ada Lov:back' --party mender:1 "
        "--ally tracker:3::front --seed 11 --passives ask --ambush enemies --gm-enemies --ask-fp "
        "--option auto_passives=false --option reapply_raises_depth=false "
        "--option default_buff_turns=4 --option identify=true --rare e1"
    )
    assert again(command) == command


def test_a_member_from_a_sheet_is_written_by_name_class_and_level():
    """The sheet file is not kept: its member shows as ``<NAME: CLASS:LEVEL>``."""
    sheet = PcSheet(abilities=Abilities(str=9, tec=9, vit=9, agi=9, luc=9))
    command = c.StartLabyrinth(
        battle_id="b",
        encounter="mossy-hollow",
        seed=1,
        party=(c.Member(cls="mender"), c.Member(cls="tracker", level=3, name="Wren", sheet=sheet)),
        allies=(c.Member(cls="vanguard", sheet=sheet),),
    )
    assert GRAMMAR.spell(command) == (
        "new labyrinth --encounter mossy-hollow --party mender:1 "
        "--sheet '<Wren: tracker:3>' --ally-sheet '<vanguard: vanguard:1>' "
        "--seed 1 --passives auto"
    )


def test_the_builder_takes_members_as_the_command_line_types_them_and_as_the_api_sends_them():
    request = msgspec.convert(
        {
            "encounter": "mossy-hollow",
            "seed": 2,
            "party": ["vanguard:2:Ada", {"class": "mender", "level": 3, "name": "Iris", "row": "front"}],
            "options": {"default_buff_turns": 5},
            "passives": "off",
        },
        NewLabyrinth,
    )
    command = setup_command(request, PACK, "b")
    assert command.party == (
        c.Member(cls="vanguard", level=2, name="Ada"),
        c.Member(cls="mender", level=3, name="Iris", row=Row.FRONT),
    )
    assert (command.options.default_buff_turns, command.options.auto_passives) == (5, False)
    typed = setup_command(
        NewLabyrinth(
            encounter="mossy-hollow", seed=2, party=["vanguard"], options=["default_buff_turns=5"], passives="off"
        ),
        PACK,
        "b",
    )
    assert typed.options == command.options


@pytest.mark.parametrize(
    "request_, says",
    [
        (NewLabyrinth(encounter="mossy-hollow"), "a party needs at least one PC"),
        (NewLabyrinth(encounter="mossy-hollow", party=["vanguard:0"]), "--party 'vanguard:0': the level is"),
        (
            NewLabyrinth(encounter="mossy-hollow", party=["vanguard"], allies=["mender:1:Hal:middle"]),
            "--ally 'mender:1:Hal:middle': the row is front or back",
        ),
        (
            NewLabyrinth(encounter="mossy-hollow", party=["vanguard"], options={"ambush": "both"}),
            "option ambush: 'both' is not a side: pcs or enemies",
        ),
        (
            NewLabyrinth(encounter="mossy-hollow", party=["vanguard"], options=["fp_reroll_cost=x"]),
            "option fp_reroll_cost: 'x' is not a whole number from 1 to 99",
        ),
        (
            NewLabyrinth(encounter="mossy-hollow", party=["vanguard"], passives="sometimes"),
            "passives: 'sometimes' is not ask, auto or off",
        ),
    ],
)
def test_the_builder_refuses_what_cannot_be_set_up_saying_where(request_, says):
    with pytest.raises(MalformedCommand) as caught:
        setup_command(request_, PACK, "b")
    assert says in str(caught.value), caught.value


# --- on the command line -------------------------------------------------------------------------


@pytest.mark.rule("MAIN-2")
def test_rk_attack_with_the_target_alone_is_the_acting_pcs_attack(table):  # noqa: F811
    table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "vanguard:2",
        "--party",
        "mender",
        "--seed",
        "3",
        "--passives",
        "auto",
        "--battle",
        "lab",
    )
    code, _, err = table("attack", "e1", code=None)
    assert code == 1 and "no one is acting now" in err, err  # the Standby phase: no one acts yet
    table("pass", "p1")
    table("full-defense", "p2")
    app = table.defaults.apps["memory"]
    acting = app.battle("lab").state.acting
    table("attack", "e1")
    assert app.battle("lab").done[-1].command == c.Attack(actor=acting, target="e1")


def test_rk_new_labyrinth_help_lists_every_table_option(table):  # noqa: F811
    out = " ".join(table("new", "labyrinth", "--help").stdout.split())
    assert all(f.name in out for f in msgspec.structs.fields(Options))
    assert "--sheet" in out and "--ally-sheet" in out and "NAME=VALUE" in out


def test_the_setup_as_the_log_tells_it_keeps_a_renamed_battle_apart(table):  # noqa: F811
    table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "vanguard",
        "--seed",
        "5",
        "--rare",
        "E2",
        "--name",
        "one",
    )
    first = table.defaults.apps["memory"].battle("one").done[0].command
    assert first.rare == ("e2",)
    line = table.defaults.apps["memory"].ruleset("one").describe_command(first)
    table(*shlex.split(line), "--name", "two")
    assert table.defaults.apps["memory"].battle("two").done[0].command == replace(first, battle_id="two")
