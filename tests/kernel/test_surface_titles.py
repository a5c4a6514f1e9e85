"""A verb and its parameters in players' words (issue 24, "buttons are
command-line strings"): the title a table heads a verb with (``End turn``,
not ``end-turn``; a ruleset declares one where that reads wrong) and the
legend of each parameter (``dice``, not ``--dice``), as an open command and
the API's legal list give them. A toy vocabulary, free of any ruleset."""

from __future__ import annotations

from domain.kernel.messages import Command
from domain.kernel.surface import Param, Verb
from domain.kernel.surface.kinds import Dice, HexKind, Number, Text
from domain.kernel.surface.open import group


class EndTurn(Command, frozen=True, kw_only=True):
    pass


class Stack(Command, frozen=True, kw_only=True):
    cards: tuple[int, ...] = ()
    to: tuple[int, int] = (0, 0)
    amount: int = 1
    who: str = ""


END = Verb("end-turn", EndTurn, "End the turn.")
STACK = Verb(
    "order-stack",
    Stack,
    "Order the stack.",
    (
        Param("cards", Dice(), "First to last.", option="--cards"),
        Param("to", HexKind(), "Where."),
        Param("amount", Number(1, 6), "How much.", metavar="N"),
        Param("who", Text("unit"), "Whom.", option="--side-edge", title="edge of the field"),
    ),
    title="Order the Command Stack",
)


def test_a_verb_is_titled_by_its_words_capitalised_unless_it_declares_a_title():
    assert END.shown_title == "End turn"
    assert STACK.shown_title == "Order the Command Stack"
    (o,) = group(END, [EndTurn()])
    assert o.title == "End turn"


def test_a_parameter_is_called_by_its_option_its_value_or_its_field_unless_it_declares_a_title():
    """``--cards``: cards; an argument ``HEX``: hex; ``N`` (no word): its field, amount; a title wins."""
    assert [p.legend for p in STACK.params] == ["cards", "hex", "amount", "edge of the field"]
    (o,) = group(STACK, [Stack(cards=(1,), to=(1, 1), amount=2, who="e1")])
    assert [p["title"] for p in o.params()] == ["cards", "hex", "amount", "edge of the field"]
