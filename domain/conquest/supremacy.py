"""Phase II, the Command Phase (CMD-1 to CMD-5), and Phase III, the
Supremacy Phase (SUP-1 to SUP-11)."""

from __future__ import annotations

from domain.kernel.errors import RuleViolation

from .board import on_battlefield
from .catalog import Ability
from .commands import ChooseFirstPlayer, DeclareAbility, OrderStack, RollOff
from .context import RulesContext
from .decision import Decision, typed_faces
from .events import AbilityDeclared, FirstPlayerChosen, PlayPassed, StackOrdered, SupremacyRolled
from .state import ConquestState
from .vocab import SCORE_MAX, SCORE_MIN, AbilityKind, Phase, Step, Where
from . import activation


def stack_cards(state: ConquestState, side: int) -> list[str]:
    """The cards that go into the Command Stack: every Regiment surviving on
    the battlefield or arriving this Round (CMD-1) and the Character joined
    to one (CMD-3 default: a Character has its own card); cards of destroyed
    ones stay out (CMD-3)."""
    present = [r.id for r in state.regiments if r.side == side and r.where in (Where.FIELD, Where.ARRIVING)]
    return present + [c.id for c in state.characters if c.side == side and c.regiment in present]


def order_stack(d: Decision, cmd: OrderStack) -> None:
    side = d.state.turn
    need = stack_cards(d.state, side)
    if sorted(cmd.cards) != sorted(need):
        missing = sorted(set(need) - set(cmd.cards))
        extra = sorted(set(cmd.cards) - set(need)) or sorted(c for c in cmd.cards if cmd.cards.count(c) > 1)
        why = f"{missing[0]}'s card is missing" if missing else f"{extra[0]} does not belong"
        raise RuleViolation("CMD-1", f"{why}: the stack holds exactly {', '.join(need) or 'no cards'}")
    d.emit(StackOrdered(side=side, cards=tuple(cmd.cards)))
    if side == 0:
        d.emit(PlayPassed(phase=Phase.COMMAND, step=Step.NONE, turn=1))
    else:
        d.emit(PlayPassed(phase=Phase.SUPREMACY, step=Step.ROLL_OFF, turn=0))


def scores(state: ConquestState, faces: tuple[int, int]) -> tuple[int, int]:
    """The roll-off scores: the player with fewer cards subtracts 1 (SUP-2),
    always, since a lower score never loses the choice (SUP-3); clamped 0–7."""
    sizes = [len(s.stack) for s in state.sides]
    out = []
    for side in (0, 1):
        fewer = sizes[side] < sizes[1 - side]
        out.append(max(SCORE_MIN, min(SCORE_MAX, faces[side] - (1 if fewer else 0))))
    return out[0], out[1]


def roll_off(d: Decision, cmd: RollOff) -> None:
    typed = typed_faces(d.state, cmd.faces, 2, "SUP-1", "both players' roll-off dice")
    faces, counter = (typed, d.state.rng) if typed is not None else d.roll(2)
    first, second = faces  # two faces either way: checked above, or rolled
    a, b = scores(d.state, (first, second))
    lower = -1 if a == b else (0 if a < b else 1)
    d.emit(
        SupremacyRolled(faces=(first, second), scores=(a, b), lower=lower, counter=counter, typed=d.state.physical_dice)
    )
    if lower >= 0:  # a tie stays in the roll-off: reroll (SUP-4)
        d.emit(PlayPassed(phase=Phase.SUPREMACY, step=Step.CHOOSE, turn=lower))


def choose_first(d: Decision, cmd: ChooseFirstPlayer) -> None:
    chooser = d.state.turn
    first = chooser if cmd.first else 1 - chooser
    d.emit(FirstPlayerChosen(chooser=chooser, first=first))
    _next_declaration(d, [first, 1 - first])


def activated_ability(state: ConquestState, ctx: RulesContext, side: int) -> Ability | None:
    """The Warlord's Activated ability if it can be used now: not used yet
    this battle, Warlord on the battlefield (SUP-9)."""
    warlord = state.warlord(side)
    if warlord is None or state.sides[side].ability_used or not on_battlefield(state, warlord.regiment):
        return None
    for ability_id in warlord.abilities:
        ability = ctx.pack.abilities[ability_id]
        if ability.kind is AbilityKind.ACTIVATED:
            return ability
    return None


def declare(d: Decision, cmd: DeclareAbility) -> None:
    side = d.state.turn
    ability = activated_ability(d.state, d.ctx, side)
    assert ability is not None  # the step is only entered when there is one
    d.emit(AbilityDeclared(side=side, ability=ability.id, used=cmd.use, bonus=ability.amount if cmd.use else 0))
    _next_declaration(d, [1 - side] if side == d.state.first else [])


def _next_declaration(d: Decision, order: list[int]) -> None:
    """The First Player declares first, then the opponent (SUP-11); players
    with no usable Activated ability are skipped. Then the Action Phase."""
    for side in order:
        if activated_ability(d.state, d.ctx, side) is not None:
            d.emit(PlayPassed(phase=Phase.SUPREMACY, step=Step.DECLARE, turn=side))
            return
    activation.pass_play(d, 1 - d.state.first)
