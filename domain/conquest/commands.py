"""Commands Conquest players give: imperative, frozen, tagged by class name
so the log can hold any of them. A command is given by the player whose
decision the state awaits (``state.turn``), except ``Surrender``."""

from __future__ import annotations

from domain.kernel.messages import Command
from domain.kernel.position.messages import StartFromPosition


class StartConquest(Command, frozen=True, kw_only=True):
    """Set up a battle between two army lists of the pack (REINF-1, REINF-2).

    ``warlords`` overrides each army's Warlord (SUP-5, "" keeps the list's);
    ``assignments`` joins Characters to Regiments as (character id, regiment
    id) pairs, e.g. ("ac1", "a3"); a Character not named joins the first
    Regiment of its Type."""

    battle_id: str
    scenario: str
    armies: tuple[str, str]
    seed: int
    physical_dice: bool = False
    warlords: tuple[str, str] = ("", "")
    assignments: tuple[tuple[str, str], ...] = ()


class ChooseArrival(Command, frozen=True, kw_only=True):
    """Reinforcement Phase: name one Regiment to arrive automatically, or ""
    to keep them waiting (REINF-4); then the Reinforcement Rolls are made
    (REINF-6). With physical dice ``faces`` are the faces rolled, in Class order."""

    regiment: str = ""
    faces: tuple[int, ...] | None = None


class PickArrivals(Command, frozen=True, kw_only=True):
    """Name which waiting Regiments the successful rolls bring (REINF-8),
    one per success, all of the Class that is due."""

    regiments: tuple[str, ...]


class OrderStack(Command, frozen=True, kw_only=True):
    """Build the Command Stack, top card first (CMD-1, CMD-2)."""

    cards: tuple[str, ...]


class RollOff(Command, frozen=True, kw_only=True):
    """Roll off for the Supremacy Phase (SUP-1). Physical dice: both faces."""

    faces: tuple[int, int] | None = None


class ChooseFirstPlayer(Command, frozen=True, kw_only=True):
    """The lower score chooses whether to be the First Player (SUP-3)."""

    first: bool = True


class DeclareAbility(Command, frozen=True, kw_only=True):
    """Whether to use the Warlord's Activated Supremacy Ability (SUP-11)."""

    use: bool


class DrawCard(Command, frozen=True, kw_only=True):
    """Draw the top card and designate the Regiment it activates (ACT-2, ACT-3).
    Unusable cards are discarded first (ACT-6); "" lets the card decide when
    only one Regiment matches."""

    regiment: str = ""


class ResolveDrawEvent(Command, frozen=True, kw_only=True):
    """Resolve one of the drawn card's draw events, or "" to decline (ACT-8).
    An out-of-sequence March names the ``target`` Regiment and its ``inches``."""

    event: str = ""
    target: str = ""
    inches: int = 0


class March(Command, frozen=True, kw_only=True):
    """March ``inches`` (ARRIVE-2). ``side_edge`` > 0 enters from a side edge
    with the front rank that far from the own edge (ARRIVE-4)."""

    regiment: str
    inches: int
    side_edge: int = 0


class Charge(Command, frozen=True, kw_only=True):
    """Charge ``target``, moving ``inches``; reaching it makes contact (facts ACT-12)."""

    regiment: str
    target: str
    inches: int


class Volley(Command, frozen=True, kw_only=True):
    """Shoot ``target``; the players declare the stands it ``removed``."""

    regiment: str
    target: str
    removed: int


class Clash(Command, frozen=True, kw_only=True):
    """Strike an enemy in contact; the players declare the stands it ``removed``."""

    regiment: str
    target: str
    removed: int


class Withdraw(Command, frozen=True, kw_only=True):
    """Leave close combat, falling back up to the March value."""

    regiment: str


class Reform(Command, frozen=True, kw_only=True):
    """Change ranks and files (no positional effect in this model)."""

    regiment: str


class EndActivation(Command, frozen=True, kw_only=True):
    """Decline the remaining actions and deactivate (ACT-13 default, ACT-16)."""


class EndRound(Command, frozen=True, kw_only=True):
    """Victory Phase: the victory points each player scored this Round
    (VICTORY-3), then the checks (VICTORY-1 to VICTORY-4)."""

    vp: tuple[int, int] = (0, 0)


class Surrender(Command, frozen=True, kw_only=True):
    """Player ``side`` (0 or 1) surrenders; the opponent wins (ROUND-3c)."""

    side: int


ConquestCommand = (
    StartConquest
    | StartFromPosition
    | ChooseArrival
    | PickArrivals
    | OrderStack
    | RollOff
    | ChooseFirstPlayer
    | DeclareAbility
    | DrawCard
    | ResolveDrawEvent
    | March
    | Charge
    | Volley
    | Clash
    | Withdraw
    | Reform
    | EndActivation
    | EndRound
    | Surrender
)
