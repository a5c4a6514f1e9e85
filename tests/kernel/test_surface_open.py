"""Open commands (domain.kernel.surface.open) on a small toy vocabulary,
free of any ruleset: finished legal commands grouped into one open
command per verb and scalar value, each free parameter's domain the values
seen; a domain declared by hand (some dice, an order of cards, a number);
what a listing writes, what it admits, and that every choice a domain
allows writes a line the grammar reads back as that command."""

from __future__ import annotations

import enum
import random

import pytest

from domain.kernel.messages import Command
from domain.kernel.surface import Grammar, Param, Verb
from domain.kernel.surface.kinds import Choice, Dice, Faces, Flag, HexKind, Number, Order, Unit
from domain.kernel.surface.open import (
    FIXED,
    ONE,
    ORDER,
    RANGE,
    SOME,
    TYPED,
    Open,
    fixed,
    group,
    item,
    merge,
    number,
    one_of,
    open_commands,
    order,
    some,
    typed,
    value,
)


class Form(enum.Enum):
    LIGHT = "light"
    HEAVY = "heavy"


class Step(Command, frozen=True, kw_only=True):
    to: tuple[int, int]


class Strike(Command, frozen=True, kw_only=True):
    form: Form
    target: str | None = None
    dice: tuple[int, ...] = ()
    overtax: bool = False


class Stack(Command, frozen=True, kw_only=True):
    cards: tuple[str, ...] = ()


class Bid(Command, frozen=True, kw_only=True):
    amount: int = 1


class Roll(Command, frozen=True, kw_only=True):
    faces: tuple[int, ...] | None = None


STEP = Verb("step", Step, "Step to a hex.", (Param("to", HexKind(), "Where to."),))
STRIKE = Verb(
    "strike",
    Strike,
    "Strike.",
    (
        Param("form", Choice(enum=Form), "The form.", option="--form"),
        Param("target", Unit("enemy"), "Whom.", option="--target"),
        Param("dice", Dice(), "Which dice.", option="--dice"),
        Param("overtax", Flag(), "Overtax.", option="--overtax"),
    ),
)
STACK = Verb("stack", Stack, "Order the stack.", (Param("cards", Order(), "First to last.", option="--cards"),))
BID = Verb("bid", Bid, "Bid.", (Param("amount", Number(1, 6), "How much.", option="--amount"),))
ROLL = Verb("roll", Roll, "Roll.", (Param("faces", Faces(), "Typed faces.", option="--faces"),))
GRAMMAR = Grammar((STEP, STRIKE, STACK, BID, ROLL), "toy")


def _strikes(*given: tuple[Form, str | None, tuple[int, ...]]) -> list[Strike]:
    return [Strike(form=f, target=t, dice=d) for f, t, d in given]


def test_commands_group_by_their_scalar_values_and_free_their_lists():
    """A hex or a unit keeps its commands apart; the dice (a list) become
    one parameter whose domain is the dice seen."""
    commands = _strikes((Form.HEAVY, "e1", (1,)), (Form.HEAVY, "e1", (1, 2)), (Form.HEAVY, "e2", (2,)))
    opens = group(STRIKE, commands)
    assert [o.domains["target"].values[0].value for o in opens] == ["e1", "e2"]
    first = opens[0]
    assert first.domains["form"].how == FIXED and first.domains["target"].how == FIXED
    assert first.domains["dice"].how == ONE
    assert [v.value for v in first.domains["dice"].values] == [(1,), (1, 2)]
    assert first.example == commands[0]
    assert opens[1].domains["dice"].how == FIXED


def test_merge_folds_commands_differing_in_one_parameter_into_a_choice():
    commands = _strikes((Form.HEAVY, "e1", (1,)), (Form.LIGHT, "e1", (1,)))
    opens = merge(group(STRIKE, commands, by=lambda p: p.name != "overtax"), "form")
    assert len(opens) == 1
    form = opens[0].domains["form"]
    assert form.how == ONE and [v.value for v in form.values] == ["heavy", "light"]
    assert "--form heavy|light" in opens[0].text()


def test_a_single_value_is_fixed_and_a_finished_command():
    (only,) = group(STEP, [Step(to=(2, 3))])
    assert only.fixed
    assert only.line({}) == "step 2,3" or only.line({}).startswith("step ")
    assert GRAMMAR.parse(only.line({})) == Step(to=(2, 3))


def test_one_of_a_single_value_is_fixed_unless_it_may_be_left_out():
    v = value(Unit(), "e1")
    assert one_of([v]).how == FIXED
    assert one_of([v], optional=True).how == ONE and one_of([v], optional=True).open


def test_some_dice_caps_its_high_end_by_the_values_and_the_group_limits():
    dice = [item(Dice(), d, label=f"#{d}", group="combat" if d < 3 else "magic") for d in (1, 2, 3)]
    d = some(dice, 1, 5, limits={"magic": 1})
    assert d.how == SOME and d.high == 3 and not d.optional
    d = some(dice, 0, 5, limits={"combat": 1, "magic": 1})
    assert d.high == 2 and d.optional  # one of each group at most; none at all allowed


def test_admits_what_the_domains_allow_and_nothing_else():
    dice = some([item(Dice(), d, group="combat" if d < 3 else "magic") for d in (1, 2, 3)], 1, 2, limits={"magic": 1})
    o = Open(
        STRIKE, Strike, {"form": fixed(Choice(enum=Form), Form.HEAVY), "target": fixed(Unit(), "e1"), "dice": dice}
    )
    assert o.admits(Strike(form=Form.HEAVY, target="e1", dice=(1, 3)))
    assert not o.admits(Strike(form=Form.HEAVY, target="e1", dice=(1, 2, 3)))  # three, at most two
    assert not o.admits(Strike(form=Form.HEAVY, target="e1", dice=(4,)))  # a die not offered
    assert not o.admits(Strike(form=Form.HEAVY, target="e1", dice=(1, 1)))  # one die twice
    assert not o.admits(Strike(form=Form.LIGHT, target="e1", dice=(1,)))  # another form
    assert not o.admits(Strike(form=Form.HEAVY, target="e1", dice=(1,), overtax=True))  # overtax left out
    assert not o.admits(Step(to=(0, 0)))


def test_the_some_limit_per_group_is_kept_by_admits():
    """Two combat dice and two magic dice, at most one magic: three dice
    fit the count, but not with both magic ones."""
    dice = some(
        [item(Dice(), d, group="combat" if d < 3 else "magic") for d in (1, 2, 3, 4)], 1, 3, limits={"magic": 1}
    )
    assert dice.high == 3
    o = Open(STRIKE, Strike, {"form": fixed(Choice(enum=Form), Form.HEAVY), "dice": dice})
    assert o.admits(Strike(form=Form.HEAVY, dice=(1, 2, 4)))
    assert not o.admits(Strike(form=Form.HEAVY, dice=(1, 3, 4)))


def test_an_order_admits_every_order_of_exactly_its_cards():
    o = Open(STACK, Stack, {"cards": order([item(Order(), c) for c in ("a1", "a2", "a3")])})
    assert o.domains["cards"].how == ORDER
    assert o.admits(Stack(cards=("a3", "a1", "a2")))
    assert not o.admits(Stack(cards=("a3", "a1")))
    assert not o.admits(Stack(cards=("a3", "a1", "a4")))
    line, legends = o.spelled()
    assert line == "stack --cards A,B" or line.startswith("stack --cards ")
    assert legends and "any order of a1 a2 a3" in legends[0]


def test_a_number_admits_its_range():
    o = Open(BID, Bid, {"amount": number(1, 3)})
    assert o.domains["amount"].how == RANGE
    assert o.admits(Bid(amount=3)) and not o.admits(Bid(amount=4))
    assert "1 to 3" in o.text()


def test_typed_faces_are_written_one_f_per_die():
    o = Open(ROLL, Roll, {"faces": typed(size=2)})
    assert o.domains["faces"].how == TYPED
    assert "--faces F,F" in o.text()


def test_a_listing_names_each_die_by_its_label_and_group():
    dice = some(
        [item(Dice(), 1, label="#1 Combat", group="combat"), item(Dice(), 2, label="#2 Magic", group="magic")],
        1,
        2,
        limits={"magic": 1},
    )
    o = Open(STRIKE, Strike, {"form": fixed(Choice(enum=Form), Form.HEAVY), "dice": dice})
    text = o.text()
    assert "any 1 to 2 of combat: 1:#1 Combat; magic (at most 1): 2:#2 Magic" in text


def test_open_commands_use_a_verbs_declared_domains_and_group_the_others():
    declared: list[list[object]] = []

    def stack_opens(state, ctx, listed):
        declared.append(listed)
        cards = sorted({c for cmd in listed for c in cmd.cards})
        return [Open(STACK, Stack, {"cards": order([item(Order(), c) for c in cards])}, example=listed[0])]

    grammar = Grammar((STEP, Verb("stack", Stack, "Order.", STACK.params, opens=stack_opens)), "toy")
    commands = [Step(to=(0, 1)), Stack(cards=("a1", "a2")), Stack(cards=("a2", "a1")), Step(to=(1, 1))]
    opens = open_commands(grammar, commands)
    assert [o.verb.name for o in opens] == ["step", "step", "stack"]
    assert len(declared) == 1 and len(declared[0]) == 2


@pytest.mark.parametrize("seed", range(40))
def test_every_choice_a_domain_allows_writes_a_line_that_reads_back_as_that_command(seed: int):
    """What the page and a bot build from the domains is a line the verb's
    grammar reads back, and the command it gives is admitted."""
    rnd = random.Random(seed)
    dice = some([item(Dice(), d, group="combat" if d < 4 else "magic") for d in range(1, 6)], 0, 3, limits={"magic": 1})
    opens = [
        Open(
            STRIKE,
            Strike,
            {
                "form": one_of([value(Choice(enum=Form), f) for f in Form]),
                "target": one_of([value(Unit(), "e1"), value(Unit(), "e2")], optional=True),
                "dice": dice,
                "overtax": one_of([value(Flag(), True), value(Flag(), False)]),
            },
        ),
        Open(STACK, Stack, {"cards": order([item(Order(), c) for c in ("a1", "a2", "a3", "ac1")])}),
        Open(BID, Bid, {"amount": number(1, 6)}),
    ]
    for o in opens:
        chosen = o.choose(rnd)
        command = GRAMMAR.parse(o.line(chosen))
        assert type(command) is o.cls
        assert o.admits(command), (o.line(chosen), command)


# --- the players' words (issue 24) ----------------------------------------------------


def test_labelled_names_each_value_once_and_a_listing_writes_the_names():
    """A ruleset names its values (``labelled``): a choice's legend and a
    fixed value's say them; a value named already keeps its name; an
    unnamed one ("") stays bare."""
    from domain.kernel.surface.open import labelled

    commands = _strikes((Form.HEAVY, "e1", (1,)), (Form.HEAVY, "e2", (1,)))
    opens = merge(group(STRIKE, commands), "target")
    names = {"e1": "Ash Imp", "e2": "Road Lookout"}
    named = labelled(opens, lambda name, v: names.get(v, "") if name == "target" else "")
    assert [(v.word, v.label) for v in named[0].domains["target"].values] == [("e1", "Ash Imp"), ("e2", "Road Lookout")]
    assert named[0].domains["form"].values[0].label == ""
    assert named[0].text() == "rk strike --form heavy --target TEXT --dice 1  (TEXT: one of e1:Ash Imp e2:Road Lookout)"
    again = labelled(named, lambda name, v: "another name")
    assert again[0].domains["target"].values[0].label == "Ash Imp"
    alone = labelled(group(STRIKE, commands[:1]), lambda name, v: names.get(v, "") if name == "target" else "")
    assert alone[0].text() == "rk strike --form heavy --target e1 --dice 1  (e1: Ash Imp)"
    assert alone[0].admits(commands[0]) and alone[0].line({}) == "strike --form heavy --target e1 --dice 1"


def test_a_fixed_values_label_that_starts_with_its_word_is_its_legend_alone():
    """A label that already says the word typed ("Heavy form, all in" for
    heavy) is not written twice ("heavy: Heavy form, all in"), as the page
    shows it; a label that does not ("Ash Imp" for e1) keeps its word."""
    from domain.kernel.surface.open import labelled

    commands = _strikes((Form.HEAVY, "e1", (1,)))
    words = {"heavy": "Heavy form, all in", "e1": "Ash Imp"}
    named = labelled(group(STRIKE, commands), lambda name, v: words.get(getattr(v, "value", v), ""))
    assert named[0].text() == "rk strike --form heavy --target e1 --dice 1  (Heavy form, all in; e1: Ash Imp)"


def test_an_open_command_says_what_it_does_with_its_verbs_summary():
    (o,) = group(STEP, [Step(to=(0, 0))])
    assert o.summary == STEP.summary == "Step to a hex."


def test_a_lists_word_for_none_is_offered_as_typed():
    """An empty list whose kind has a word for none (``none``) is offered by
    that word, so the line built from it reads back; one without is left out."""
    from domain.kernel.surface.kinds import Positions

    assert value(Positions(empty="none"), ()).word == "none"
    assert value(Dice(), ()).word == ""
