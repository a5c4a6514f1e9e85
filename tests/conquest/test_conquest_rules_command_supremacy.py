"""The Command Phase (CMD) and the Supremacy Phase (SUP)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.conquest import events as ev
from domain.conquest.board import march_value
from domain.conquest.commands import ChooseArrival, ChooseFirstPlayer, DeclareAbility, OrderStack, RollOff
from domain.conquest.rules import legal_commands
from domain.conquest.supremacy import scores
from domain.conquest.vocab import Phase, Step
from domain.kernel.errors import RuleViolation
from conquest_harness import CTX, in_phase, of, place, start, violates, when


def _command(**where):
    return in_phase(place(start(), **where), Phase.COMMAND)


@pytest.mark.rule("CMD-1")
@pytest.mark.rule("CMD-2")
@pytest.mark.rule("CMD-3")
def test_the_stack_holds_the_cards_of_surviving_and_arriving_regiments_top_first():
    s = _command(a1=10, a2="destroyed", a4="arriving")
    violates(s, OrderStack(cards=("a1", "a4")), "CMD-1")  # the Characters' cards are missing
    violates(s, OrderStack(cards=("a1", "a2", "a4", "ac1", "ac2")), "CMD-1")  # a2 was destroyed
    s, _ = when(s, OrderStack(cards=("a4", "ac1", "a1", "ac2")))
    assert s.sides[0].stack == ("a4", "ac1", "a1", "ac2") and s.turn == 1


@pytest.mark.rule("CMD-4")
@pytest.mark.rule("CMD-5")
def test_the_stack_order_is_fixed_for_the_round_and_kept_in_state_for_its_owner():
    s = _command(a1=10)
    s, _ = when(s, OrderStack(cards=("ac1", "a1")), OrderStack(cards=()))
    assert s.phase is Phase.SUPREMACY and s.sides[0].stack == ("ac1", "a1")
    violates(s, OrderStack(cards=("a1", "ac1")), "CMD-5")


@pytest.mark.rule("SUP-1")
@pytest.mark.rule("SUP-3")
def test_the_lower_roll_off_score_chooses_the_first_player():
    s = in_phase(start(), Phase.SUPREMACY, Step.ROLL_OFF)
    s, events = when(s, RollOff(faces=(5, 2)))
    assert of(events, ev.SupremacyRolled)[0].lower == 1 and s.turn == 1 and s.step is Step.CHOOSE
    s, events = when(s, ChooseFirstPlayer(first=False))
    assert s.first == 0 and of(events, ev.FirstPlayerChosen)[0].chooser == 1


@pytest.mark.rule("SUP-3")
def test_the_lower_scorer_is_offered_both_going_first_and_going_second():
    s = in_phase(start(), Phase.SUPREMACY, Step.ROLL_OFF)
    s, _ = when(s, RollOff(faces=(5, 2)))
    offered = [c for c in legal_commands(s, CTX) if isinstance(c, ChooseFirstPlayer)]
    assert offered == [ChooseFirstPlayer(first=True), ChooseFirstPlayer(first=False)]
    for first, expected in ((True, 1), (False, 0)):
        chosen, _ = when(s, ChooseFirstPlayer(first=first))
        assert chosen.first == expected


@pytest.mark.rule("SUP-2")
def test_the_player_with_fewer_cards_subtracts_one_clamped_to_zero():
    s = place(start(), a1=10)
    s = replace(s, sides=(replace(s.sides[0], stack=("a1",)), replace(s.sides[1], stack=("b1", "b2"))))
    assert scores(s, (1, 1)) == (0, 1)
    assert scores(s, (4, 3)) == (3, 3)  # worked example 1
    even = replace(s, sides=(s.sides[0], replace(s.sides[1], stack=("b1",))))
    assert scores(even, (4, 3)) == (4, 3)


@pytest.mark.rule("SUP-4")
def test_a_tied_roll_off_is_rolled_again():
    s = in_phase(start(), Phase.SUPREMACY, Step.ROLL_OFF)
    s, events = when(s, RollOff(faces=(3, 3)))
    assert of(events, ev.SupremacyRolled)[0].lower == -1 and s.step is Step.ROLL_OFF
    s, _ = when(s, RollOff(faces=(2, 5)))
    assert s.step is Step.CHOOSE and s.turn == 0


@pytest.mark.rule("SUP-5")
def test_the_warlord_is_named_at_list_building_and_may_be_changed_to_another_character():
    assert [c.id for c in start().characters if c.warlord] == ["ac1", "bc1"]
    assert start(warlords=("reed-captain", "")).warlord(0).id == "ac2"
    from domain.kernel.errors import RuleViolation

    with pytest.raises(RuleViolation) as caught:
        start(warlords=("nobody", ""))
    assert caught.value.rule == "SUP-5"


@pytest.mark.rule("SUP-6")
@pytest.mark.rule("SUP-7")
def test_an_always_active_ability_works_while_its_warlord_waits_or_is_destroyed():
    for where in ("waiting", "destroyed"):
        s = place(start(), a1=where) if where != "waiting" else start()
        _, events = when(
            s,
            ChooseArrival(regiment="", faces=(5, 5))
            if where == "destroyed"
            else ChooseArrival(regiment="", faces=(5, 5, 5)),
        )
        assert of(events, ev.ReinforcementsRolled)[0].needed == 5  # table 4, +1 Deep Reserves
    # only the Warlord's abilities count: made a plain Character, no bonus
    s = start(warlords=("reed-captain", ""))
    _, events = when(s, ChooseArrival(regiment="", faces=(5, 5, 5)))
    assert of(events, ev.ReinforcementsRolled)[0].needed == 4


@pytest.mark.rule("SUP-8")
def test_a_battlefield_ability_works_only_while_the_warlord_is_on_the_field():
    s = place(start(), b1=5)
    assert march_value(s, CTX, s.regiment("b1")) == 8
    s = place(s, b3=5)  # the Ash Matron's Regiment
    assert march_value(s, CTX, s.regiment("b1")) == 9


@pytest.mark.rule("SUP-7")
@pytest.mark.rule("SUP-8")
def test_every_ability_of_the_warlord_counts_whatever_its_place_among_them():
    """Found by mutation testing: an ability of another effect listed first
    hid the Warlord's later ones."""
    s = place(start(), b1=5, b3=5)  # the Ash Matron, Warlord of b, on the field
    matron = s.warlord(1)
    mixed = replace(matron, abilities=("deep-reserves", *matron.abilities))  # a Reinforcement bonus first
    s = replace(s, characters=tuple(mixed if c.id == matron.id else c for c in s.characters))
    assert march_value(s, CTX, s.regiment("b1")) == 9  # 8, +1 Smoke and Cinders


def _declaring(**where):
    s = in_phase(place(start(), **where), Phase.SUPREMACY, Step.CHOOSE, turn=0)
    s = replace(s, sides=(replace(s.sides[0], stack=("a1",)), replace(s.sides[1], stack=("b3", "bc1"))))
    return s


@pytest.mark.rule("SUP-9")
@pytest.mark.rule("SUP-11")
def test_an_activated_ability_is_declared_after_the_first_player_once_per_battle():
    s, _ = when(_declaring(a1=5, b3=5), ChooseFirstPlayer(first=True))
    assert s.step is Step.DECLARE and s.turn == 1  # player 1 has no Activated ability: skipped
    s, events = when(s, DeclareAbility(use=True))
    assert of(events, ev.AbilityDeclared)[0].bonus == 3 and s.phase is Phase.ACTION and s.turn == 0
    assert march_value(s, CTX, s.regiment("b3")) == 6 + 1 + 3
    again, _ = when(_declaring(a1=5, b3=5), ChooseFirstPlayer(first=True))
    again = replace(again, sides=(again.sides[0], replace(again.sides[1], ability_used=True)))
    from domain.conquest.supremacy import activated_ability

    assert activated_ability(again, CTX, 1) is None
    s, _ = when(_declaring(a1=5), ChooseFirstPlayer(first=True))  # Warlord not on the field
    assert s.phase is Phase.ACTION


def _armies(a: str, b: str, **where):
    """A Supremacy Phase's choice (player a to choose) between armies ``a``
    and ``b``; of the starter lists only cinderpact's Warlord holds an
    Activated ability (Kindled Fury, +3")."""
    from domain.conquest.commands import StartConquest
    from domain.conquest.rules import decide, replay

    s = replay(
        decide(
            None, StartConquest(battle_id="t", scenario="border-clash", armies=(a, b), seed=1, physical_dice=True), CTX
        )
    )
    return in_phase(place(s, **where), Phase.SUPREMACY, Step.CHOOSE, turn=0)


@pytest.mark.rule("SUP-11")
def test_with_both_warlords_able_the_first_player_declares_then_the_opponent():
    s, _ = when(_armies("cinderpact", "cinderpact", a3=5, b3=5), ChooseFirstPlayer(first=False))
    assert s.first == 1 and s.step is Step.DECLARE and s.turn == 1  # the First Player first
    s, events = when(s, DeclareAbility(use=False))
    assert of(events, ev.AbilityDeclared)[0].bonus == 0  # declined: no bonus
    assert s.phase is Phase.SUPREMACY and s.step is Step.DECLARE and s.turn == 0  # then the opponent
    s, events = when(s, DeclareAbility(use=True))
    assert of(events, ev.AbilityDeclared)[0].bonus == 3 and s.phase is not Phase.SUPREMACY  # declaring is over


@pytest.mark.rule("SUP-11")
def test_a_first_player_with_no_ability_to_declare_is_skipped_for_the_opponent():
    s, _ = when(_armies("cinderpact", "saltmarch", a3=5, b1=5), ChooseFirstPlayer(first=False))
    assert s.first == 1 and s.step is Step.DECLARE and s.turn == 0


@pytest.mark.rule("CMD-1")
def test_a_card_given_twice_is_refused_saying_which():
    s = _command(a1=10)
    with pytest.raises(RuleViolation, match="CMD-1") as refused:
        when(s, OrderStack(cards=("a1", "a1", "ac1")))
    assert "a1 does not belong: the stack holds exactly a1, ac1" in str(refused.value)
    with pytest.raises(RuleViolation, match="ac1 does not belong"):  # the card given twice is named
        when(s, OrderStack(cards=("a1", "ac1", "ac1")))
    with pytest.raises(RuleViolation, match="ac1's card is missing"):
        when(s, OrderStack(cards=("a1",)))
    ordered, _ = when(s, OrderStack(cards=("ac1", "a1")))  # b has nothing on the table
    with pytest.raises(RuleViolation, match="CMD-1") as refused:
        when(ordered, OrderStack(cards=("b1",)))
    assert refused.value.message == "b1 does not belong: the stack holds exactly no cards"


@pytest.mark.rule("CMD-2")
@pytest.mark.rule("SUP-1")
def test_once_both_stacks_are_ordered_the_first_player_rolls_off_first():
    s, events = when(_command(a1=10), OrderStack(cards=("ac1", "a1")), OrderStack(cards=()))
    passed = of(events, ev.PlayPassed)[-1]
    assert (passed.phase, passed.step, passed.turn) == (Phase.SUPREMACY, Step.ROLL_OFF, 0)


@pytest.mark.rule("SUP-10")
def test_an_activated_ability_lasts_to_the_end_of_the_round_even_if_the_warlord_falls():
    s, _ = when(_declaring(a1=5, b3=5), ChooseFirstPlayer(first=True), DeclareAbility(use=True))
    s = place(s, b3="destroyed", b1=5)
    assert march_value(s, CTX, s.regiment("b1")) == 8 + 3
    s, _ = when(in_phase(s, Phase.VICTORY), __import__("domain.conquest.commands", fromlist=["EndRound"]).EndRound())
    assert s.sides[1].surge == 0
