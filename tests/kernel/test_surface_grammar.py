"""The grammar reads and writes command lines from a ruleset's declared
verbs: arguments in order (optional ones filled as far as words go),
options in any order, flags one way or both, repeated options, variants
that make another command, and refusals naming what was wrong. Tested on a
small toy vocabulary, free of any ruleset."""

from __future__ import annotations

import enum

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel.errors import MalformedCommand
from domain.kernel.messages import Command
from domain.kernel.surface import Grammar, Param, Verb, usage
from domain.kernel.surface.kinds import (
    Choice,
    Dice,
    Faces,
    Flag,
    HexKind,
    Number,
    Optional_,
    Order,
    Positions,
    SeatKind,
    Text,
    Unit,
)


class Form(enum.Enum):
    LIGHT = "light"
    HEAVY = "heavy"


class Step(Command, frozen=True, kw_only=True):
    to: tuple[int, int]


class Sneak(Command, frozen=True, kw_only=True):
    to: tuple[int, int]


class Strike(Command, frozen=True, kw_only=True):
    form: Form
    target: str | None = None
    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] | None = None
    overtax: bool = False


class Hit(Command, frozen=True, kw_only=True):
    actor: str = ""
    target: str
    slot: int = 0


class Choose(Command, frozen=True, kw_only=True):
    first: bool
    side: int = 0
    cards: tuple[str, ...] = ()
    skip: tuple[int, ...] | None = None  # none at all differs from leaving it out


class Gather(Command, frozen=True, kw_only=True):
    names: tuple[str, ...] = ()
    hex: tuple[int, int] | None = None


VERBS = (
    Verb("step", Step, "Step to a hex.", (Param("to", HexKind(), "Where to."),), variants=(("--sneak", Sneak),)),
    Verb(
        "strike",
        Strike,
        "Strike.",
        (
            Param("form", Choice(enum=Form), "The form.", option="--form"),
            Param("target", Unit("enemy"), "Whom.", option="--target"),
            Param("dice", Dice(), "Which dice.", option="--dice"),
            Param("faces", Faces(), "Typed faces.", option="--faces"),
            Param("overtax", Flag(), "Overtax.", option="--overtax"),
        ),
    ),
    Verb(
        "hit",
        Hit,
        "Hit.",
        (
            Param("actor", Unit(), "Who (default: whoever acts)."),
            Param("target", Unit(), "Whom."),
            Param("slot", Number(1, 9, shown_from=1), "Slot.", option="--slot"),
        ),
    ),
    Verb(
        "choose",
        Choose,
        "Choose.",
        (
            Param("first", Flag(both=True), "First or not.", option="--first", required=True),
            Param("side", SeatKind(), "A seat.", option="--side"),
            Param("cards", Order(), "An order.", option="--cards"),
            Param("skip", Positions(empty="none"), "Positions.", option="--skip"),
        ),
    ),
    Verb(
        "item gain",
        Gather,
        "Two words.",
        (
            Param("names", Text(), "A name, once each.", option="--name", repeat=True),
            Param("hex", Optional_(HexKind()), "A hex.", option="--hex"),
        ),
    ),
)
GRAMMAR = Grammar(VERBS, "toy")


@pytest.mark.parametrize(
    "line, command",
    [
        ("step c4", Step(to=(1, 3))),
        ("step c4 --sneak", Sneak(to=(1, 3))),
        ("strike --form heavy", Strike(form=Form.HEAVY)),
        (
            "strike --form heavy --target e2 --dice 1,3 --faces 6,2 --overtax",
            Strike(form=Form.HEAVY, target="e2", dice=(1, 3), faces=(5, 1), overtax=True),
        ),
        ("hit e2", Hit(target="e2")),
        ("hit p1 e2 --slot 2", Hit(actor="p1", target="e2", slot=1)),
        ("choose --no-first --side b --cards a3,a1", Choose(first=False, side=1, cards=("a3", "a1"))),
        ("choose --first --skip none", Choose(first=True, skip=())),
        ("item gain --name a --name c --hex a1", Gather(names=("a", "c"), hex=(0, 0))),
    ],
)
def test_a_line_reads_as_its_command_and_the_command_writes_that_line(line, command):
    assert GRAMMAR.parse(line) == command
    assert GRAMMAR.spell(command) == line


def test_options_come_in_any_order_and_with_an_equals_sign():
    assert GRAMMAR.parse("strike --dice=1,2 --form light") == Strike(form=Form.LIGHT, dice=(1, 2))
    assert GRAMMAR.spell(Strike(form=Form.LIGHT, dice=(1, 2))) == "strike --form light --dice 1,2"


def test_a_listing_writes_each_face_the_table_types_as_F():
    command = Strike(form=Form.HEAVY, dice=(1, 2), faces=(0, 3))
    assert GRAMMAR.spell(command, placeholders=True) == "strike --form heavy --dice 1,2 --faces F,F"


@pytest.mark.parametrize(
    "line, said",
    [
        ("strike", "--form is missing"),
        ("strike --form spicy", "'spicy' is not one of light, heavy"),
        ("strike --form heavy --colour red", "no option --colour"),
        ("strike --form heavy --form light", "--form is given twice"),
        ("strike --form", "--form needs a value"),
        ("hit", "is missing"),
        ("hit p1 e2 e3", "unexpected 'e3'"),
        ("hit e2 --slot 0", "0 is not from 1 to 9"),
        ("step z99x", "HEX: 'z99x' is not a hex label"),
        ("choose", "--first is missing"),
        ("choose --first --side c", "not a seat"),
        ("strike --form heavy --faces 0", "faces are counted from 1"),
        ("strike --form heavy --overtax=yes", "--overtax takes no value"),
        ("fly away", "'fly' is not a command here"),
        ('strike --form "heavy', "cannot read the line"),
    ],
)
def test_a_line_that_cannot_be_read_is_refused_saying_why(line, said):
    with pytest.raises(MalformedCommand, match=said):
        GRAMMAR.parse(line)


def test_usage_shows_what_is_required_and_what_is_optional():
    assert usage(VERBS[1]) == "strike --form CHOICE [--target TEXT] [--dice N,N] [--faces FACES] [--overtax]"
    assert usage(VERBS[0]) == "step HEX [--sneak]"
    assert usage(VERBS[3]).startswith("choose --first/--no-first [--side SEAT]")


def test_every_verb_names_only_fields_of_its_command():
    for verb in VERBS:
        fields = {f.name for cls in verb.classes for f in msgspec.structs.fields(cls)}
        assert {p.name for p in verb.params} <= fields, verb.name


def test_two_verbs_with_the_same_words_are_refused():
    with pytest.raises(ValueError, match="two verbs with the same words"):
        Grammar(VERBS + (VERBS[0],), "toy")


ids = st.text(alphabet="abcdefgh0123456789-", min_size=1, max_size=8).filter(lambda t: not t.startswith("-"))


@settings(deadline=None)  # a loaded machine is no reason to fail
@given(
    st.sampled_from(list(Form)),
    st.none() | ids,
    st.lists(st.integers(0, 99), max_size=4),
    st.none() | st.lists(st.integers(0, 5), min_size=1, max_size=4),
    st.booleans(),
)
def test_any_strike_reads_back_as_it_was_written(form, target, dice, faces, overtax):
    command = Strike(
        form=form, target=target, dice=tuple(dice), faces=None if faces is None else tuple(faces), overtax=overtax
    )
    assert GRAMMAR.parse(GRAMMAR.spell(command)) == command


@settings(deadline=None)
@given(st.booleans(), st.integers(0, 1), st.lists(ids, max_size=5), st.none() | st.lists(st.integers(0, 8), max_size=3))
def test_any_choice_reads_back_as_it_was_written(first, side, cards, skip):
    command = Choose(first=first, side=side, cards=tuple(cards), skip=None if skip is None else tuple(skip))
    assert GRAMMAR.parse(GRAMMAR.spell(command)) == command
