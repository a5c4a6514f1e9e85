"""Events of a Conquest battle: what happened, past tense, carrying its
computed consequences (new positions, stands left, who plays next) so that
``evolve`` only assigns and a later change of the rules never reinterprets
history. Each has a stable ``TOPIC``."""

from __future__ import annotations

from domain.kernel import commandlog
from domain.kernel.messages import Event
from domain.kernel.position import messages as position

from .commands import ConquestCommand
from .state import Character, ConquestState, Regiment
from .vocab import Action, Arrival, DrawEffect, Phase, RegimentClass, Step, Termination, Use


class ConquestEvent(Event, frozen=True, kw_only=True):
    """Base of events in a Conquest battle stream."""


class CommandIssued(commandlog.CommandIssued, ConquestEvent, frozen=True, kw_only=True):
    """A command was accepted; the events after it are its outcome."""

    TOPIC = "conquest.CommandIssued"
    command: ConquestCommand


class CommandUndone(commandlog.CommandUndone, ConquestEvent, frozen=True, kw_only=True):
    """A command was undone: the battle is back to ``restored``."""

    TOPIC = "conquest.CommandUndone"
    restored: ConquestState


class PositionTaken(position.PositionTaken, ConquestEvent, frozen=True, kw_only=True):
    """A battle was set up from a position file: ``state`` as it stands."""

    TOPIC = "conquest.PositionTaken"
    state: ConquestState


class BattleStarted(ConquestEvent, frozen=True, kw_only=True):
    """A battle was set up: seed, rules version, pack, scenario, and both
    armies waiting as reinforcements (REINF-1) with their Characters joined
    (REINF-2)."""

    TOPIC = "conquest.BattleStarted"
    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int
    scenario: str
    physical_dice: bool
    armies: tuple[str, str]
    regiments: tuple[Regiment, ...]
    characters: tuple[Character, ...]


class RoundStarted(ConquestEvent, frozen=True, kw_only=True):
    """A Round began (ROUND-1, ROUND-4) with the Reinforcement Lines set anew
    for both players (RLINE-2, RLINE-6), in inches from each own edge."""

    TOPIC = "conquest.RoundStarted"
    round: int
    lines: tuple[int, int]


class PlayPassed(ConquestEvent, frozen=True, kw_only=True):
    """The battle now waits for player ``turn`` in ``phase`` (ROUND-2)."""

    TOPIC = "conquest.PlayPassed"
    phase: Phase
    step: Step
    turn: int


class ReinforcementsRolled(ConquestEvent, frozen=True, kw_only=True):
    """One D6 per remaining waiting Regiment of a Class due (REINF-6),
    checked against the Reinforcement Table (REINF-9). ``pick`` successes
    are left for the player to assign (REINF-8)."""

    TOPIC = "conquest.ReinforcementsRolled"
    side: int
    cls: RegimentClass
    faces: tuple[int, ...]
    needed: int
    successes: int
    pick: int
    counter: int
    typed: bool = False


class RegimentsArrived(ConquestEvent, frozen=True, kw_only=True):
    """These Regiments' arrival is confirmed, revealed and set aside (REINF-10)."""

    TOPIC = "conquest.RegimentsArrived"
    side: int
    regiments: tuple[str, ...]
    reason: Arrival
    cls: RegimentClass | None = None


class StackOrdered(ConquestEvent, frozen=True, kw_only=True):
    """A Command Stack was built face down, top first (CMD-1, CMD-2)."""

    TOPIC = "conquest.StackOrdered"
    side: int
    cards: tuple[str, ...]


class SupremacyRolled(ConquestEvent, frozen=True, kw_only=True):
    """The roll-off (SUP-1): faces, modified scores (SUP-2), and the lower
    scorer who chooses (SUP-3), or -1 on a tie (SUP-4)."""

    TOPIC = "conquest.SupremacyRolled"
    faces: tuple[int, int]
    scores: tuple[int, int]
    lower: int
    counter: int
    typed: bool = False


class FirstPlayerChosen(ConquestEvent, frozen=True, kw_only=True):
    """The chooser made ``first`` the First Player (SUP-3)."""

    TOPIC = "conquest.FirstPlayerChosen"
    chooser: int
    first: int


class AbilityDeclared(ConquestEvent, frozen=True, kw_only=True):
    """A player declared whether they use their Activated ability (SUP-11);
    ``bonus`` inches of March hold until the Round ends (SUP-10)."""

    TOPIC = "conquest.AbilityDeclared"
    side: int
    ability: str
    used: bool
    bonus: int = 0


class CardDrawn(ConquestEvent, frozen=True, kw_only=True):
    """The top card was drawn and revealed, and ``regiment`` designated (ACT-2, ACT-3).
    ``draw_events`` are the events that may be resolved now (ACT-8, ACT-9)."""

    TOPIC = "conquest.CardDrawn"
    side: int
    card: str
    regiment: str
    draw_events: tuple[str, ...] = ()


class CardDiscarded(ConquestEvent, frozen=True, kw_only=True):
    """A card with nothing to activate was discarded (ACT-6)."""

    TOPIC = "conquest.CardDiscarded"
    side: int
    card: str
    reason: str


class DrawEventResolved(ConquestEvent, frozen=True, kw_only=True):
    """A draw event was resolved, or declined when ``event`` is "" (ACT-8)."""

    TOPIC = "conquest.DrawEventResolved"
    side: int
    card: str
    event: str = ""
    effect: DrawEffect | None = None
    action: Action | None = None


class RegimentMarched(ConquestEvent, frozen=True, kw_only=True):
    """A March (ARRIVE-1 to ARRIVE-4): ``front`` is the new distance of the
    front rank from the own edge."""

    TOPIC = "conquest.RegimentMarched"
    regiment: str
    inches: int
    front: int
    use: Use
    entered: bool = False
    side_edge: bool = False


class RegimentCharged(ConquestEvent, frozen=True, kw_only=True):
    """A Charge; ``contact`` when it reached its target (facts ACT-12)."""

    TOPIC = "conquest.RegimentCharged"
    regiment: str
    target: str
    inches: int
    front: int
    contact: bool
    use: Use


class StandsRemoved(ConquestEvent, frozen=True, kw_only=True):
    """A Volley or Clash removed ``removed`` stands, as the players declared."""

    TOPIC = "conquest.StandsRemoved"
    regiment: str
    target: str
    action: Action
    removed: int
    stands: int
    destroyed: bool
    use: Use


class RegimentWithdrew(ConquestEvent, frozen=True, kw_only=True):
    """A Regiment left close combat."""

    TOPIC = "conquest.RegimentWithdrew"
    regiment: str
    front: int
    use: Use


class RegimentReformed(ConquestEvent, frozen=True, kw_only=True):
    """A Regiment reformed its ranks."""

    TOPIC = "conquest.RegimentReformed"
    regiment: str
    use: Use


class EntryRefused(ConquestEvent, frozen=True, kw_only=True):
    """No legal entry: the Regiment goes back into reinforcements (ARRIVE-5),
    counts as activated without acting (ACT-18), and passes its roll next
    Round (ARRIVE-6)."""

    TOPIC = "conquest.EntryRefused"
    regiment: str


class ActivationEnded(ConquestEvent, frozen=True, kw_only=True):
    """Deactivation (ACT-16, ACT-17); ``declined`` actions were left unused (ACT-13)."""

    TOPIC = "conquest.ActivationEnded"
    regiment: str
    declined: bool = False


class VictoryPointsScored(ConquestEvent, frozen=True, kw_only=True):
    """Victory points scored this Round and the new totals (VICTORY-3)."""

    TOPIC = "conquest.VictoryPointsScored"
    vp: tuple[int, int]
    totals: tuple[int, int]


class BattleEnded(ConquestEvent, frozen=True, kw_only=True):
    """The battle is over: ``winner`` 0 or 1, -1 for a draw (VICTORY, ROUND-3)."""

    TOPIC = "conquest.BattleEnded"
    winner: int
    termination: Termination
    reason: str
