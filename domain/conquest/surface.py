"""Conquest as the table sees it: its verbs, its setup and its listings,
declared for the adapters (``domain.kernel.surface``). Imports its
commands only; the rules are loaded when a command is decided."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.surface import NAME, SEED, Param, Query, Setup, Surface, Verb
from domain.kernel.surface.kinds import Flag, Names, Number, Numbers, Order, Pair, SeatKind, Text, Unit

from . import commands as c
from .vocab import SIDES

PLAY = "Playing Conquest"
MAX_INCHES = 1000  # far more than any table
MAX_STANDS = 999

REGIMENT = Param("regiment", Unit("regiment"), "The Regiment, e.g. a1 (see `rk status`).", metavar="REGIMENT")
TARGET = Param("target", Unit("regiment"), "The enemy Regiment, e.g. b2.", option="--target", metavar="ENEMY")
INCHES = Param(
    "inches", Number(0, MAX_INCHES, of="inches"), "How far, in whole inches (the players measure).", option="--inches"
)
REMOVED = Param(
    "removed",
    Number(0, MAX_STANDS, of="stands"),
    "Stands it removed, as the players' dice decided.",
    option="--removed",
)
FACES = Numbers(of="faces", low=1, high=6)  # Conquest holds faces as read, 1 to 6


def _verb(
    name: str, command: type, summary: str, *params: Param, details: str = "", opens: Any = None, title: str = ""
) -> Verb:
    return Verb(
        name=name,
        command=command,
        summary=summary,
        params=params,
        panel=PLAY,
        details=details,
        opens=opens,
        title=title,
    )


def _named(state: Any, card: str) -> str:
    """A Command Card in the players' words: its Regiment's or Character's name."""
    for r in state.regiments:
        if r.id == card:
            return r.name
    found = next((ch for ch in state.characters if ch.id == card), None)
    return found.name if found is not None else card


def _cards(field: str, order: bool = False) -> Any:
    """The open command of a verb choosing cards (``field``) from those the
    rules listed: any order of all of them (``order``: CMD-1, CMD-2), or
    any as many of them as each listed command holds (REINF-8)."""

    def opens(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
        from domain.kernel.surface import open as op

        verb = next(v for v in VERBS if v.command is type(commands[0]))
        kind = verb.param(field).kind
        cards = list(dict.fromkeys(card for cmd in commands for card in getattr(cmd, field)))
        values = [op.Value(value=card, word=card, label=_named(state, card)) for card in cards]
        out = []
        for o in op.group(verb, commands, by=lambda p: p.name != field):
            if order and len(cards) > 1:
                domain = op.order(values)
            elif not order and len(commands) > 1:
                n = len(getattr(commands[0], field))
                domain = op.some(values, n, n)
            else:
                domain = op.fixed(kind, getattr(o.example, field))
            out.append(op.Open(verb=verb, cls=o.cls, domains={**o.domains, field: domain}, example=o.example))
        return _labelled(state, ctx, out)

    return opens


def _labelled(state: Any, ctx: Any, opens: list[Any]) -> list[Any]:
    """``opens`` with each Regiment, Character card, draw event and player
    in the players' words: a card or a Regiment by its name (``_named``),
    a draw event by the name printed on the card (ACT-8), a side by its
    army (a seat, held as its index)."""
    from domain.kernel.surface import open as op

    events = ctx.pack.draw_events if ctx is not None else {}

    def label(name: str, v: Any) -> str:
        if name == "event" and isinstance(v, str) and v in events:
            return events[v].name
        if name == "side" and isinstance(v, int) and 0 <= v < len(state.sides):
            return state.sides[v].army
        if name == "regiment" and v == "":  # no automatic arrival (REINF-4): said as a choice, not as nothing
            return "None (all roll)"
        if name in ("regiment", "target", "regiments", "cards") and isinstance(v, str) and v:
            named = _named(state, v)
            return named if named != v else ""
        if name in ("regiments", "cards") and isinstance(v, (list, tuple)) and v:
            return ", ".join(f"{card} {_named(state, card)}" for card in v)
        return ""

    return op.labelled(opens, label)


def _named_opens(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """A verb's open commands as ``open.group`` makes them, each Regiment
    and player in the players' words (``_labelled``)."""
    from domain.kernel.surface import open as op

    verb = next(v for v in VERBS if v.command is type(commands[0]))
    return _labelled(state, ctx, op.group(verb, commands))


def _scores(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """Victory points: each player's, from 0 to the Round's limit (VICTORY-1)."""
    from domain.kernel.surface import open as op

    verb = next(v for v in VERBS if v.command is c.EndRound)
    high = max(max(cmd.vp) for cmd in commands)
    out = []
    for o in op.group(verb, commands, by=lambda p: False):
        domain = op.number(0, high, size=2, note="a's then b's") if high else o.domains["vp"]
        out.append(op.Open(verb=verb, cls=o.cls, domains={**o.domains, "vp": domain}, example=o.example))
    return out


VERBS = (
    _verb(
        "choose-arrival",
        c.ChooseArrival,
        "Reinforcement Phase: name one automatic arrival (REINF-4), then roll for the rest (REINF-6).",
        Param(
            "regiment",
            Unit("regiment", empty=""),
            "The Regiment to arrive automatically; none keeps them waiting.",
            metavar="[REGIMENT]",
        ),
        Param(
            "faces",
            FACES,
            "Physical dice: the Reinforcement dice's faces, 1 to 6, in Class order.",
            option="--faces",
            metavar="FACES",
        ),
        opens=_named_opens,
    ),
    _verb(
        "pick-arrivals",
        c.PickArrivals,
        "Choose which waiting Regiments the successful rolls bring (REINF-8).",
        Param(
            "regiments",
            Names("regiments"),
            "One Regiment per success, e.g. a2,a4.",
            option="--regiments",
            metavar="IDS",
        ),
        opens=_cards("regiments"),
    ),
    _verb(
        "order-stack",
        c.OrderStack,
        "Command Phase: build the Command Stack, top card first (CMD-1, CMD-2).",
        Param(
            "cards",
            Order(empty="none"),
            "Every card of the stack, top first, e.g. a3,ac1,a1; none when "
            "nothing is on the table or arriving (CMD-1).",
            option="--cards",
            metavar="CARDS",
        ),
        opens=_cards("cards", order=True),
        title="Order the Command Stack",
    ),
    _verb(
        "roll-off",
        c.RollOff,
        "Supremacy Phase: roll off (SUP-1, SUP-2, SUP-4).",
        Param(
            "faces",
            Numbers(of="faces", low=1, high=6, size=2),
            "Physical dice: both players' faces, 1 to 6.",
            option="--faces",
            metavar="A,B",
        ),
    ),
    _verb(
        "choose-first-player",
        c.ChooseFirstPlayer,
        "The lower roll-off score chooses who is the First Player (SUP-3).",
        Param("first", Flag(both=True), "Be the First Player, or let the opponent.", option="--first", required=True),
    ),
    _verb(
        "declare-ability",
        c.DeclareAbility,
        "Declare whether the Warlord's Activated Supremacy Ability is used (SUP-9, SUP-11).",
        Param("use", Flag(both=True), "Use the Warlord's Activated ability, or not.", option="--use", required=True),
    ),
    _verb(
        "draw-card",
        c.DrawCard,
        "Action Phase: draw the top Command Card and activate its Regiment (ACT-2 to ACT-6).",
        Param(
            "regiment",
            Unit("regiment"),
            "The Regiment the card activates, when several match (ACT-3).",
            metavar="[REGIMENT]",
        ),
        opens=_named_opens,
    ),
    _verb(
        "resolve-draw-event",
        c.ResolveDrawEvent,
        "Resolve one of the drawn card's draw events, or decline (ACT-8, ACT-9).",
        Param(
            "event",
            Text("draw event"),
            "The draw event to resolve; none declines it (ACT-8).",
            option="--event",
            metavar="EVENT",
        ),
        Param(
            "target",
            Unit("regiment"),
            "The Regiment an out-of-sequence March moves.",
            option="--target",
            metavar="REGIMENT",
        ),
        Param("inches", Number(0, MAX_INCHES, of="inches"), "How far it marches.", option="--inches"),
        opens=_named_opens,
    ),
    _verb(
        "march",
        c.March,
        "March up to the Regiment's March value; a reinforcement enters so (ARRIVE-1 to ARRIVE-3).",
        REGIMENT,
        INCHES,
        Param(
            "side_edge",
            Number(0, MAX_INCHES, of="inches"),
            "Enter from a side edge, the front rank N inches from the own edge (ARRIVE-4).",
            option="--side-edge",
        ),
        opens=_named_opens,
    ),
    _verb(
        "charge",
        c.Charge,
        "Charge an enemy Regiment ahead within the March value: it moves the inches into contact (ACT-12).",
        REGIMENT,
        TARGET,
        INCHES,
        opens=_named_opens,
    ),
    _verb(
        "volley",
        c.Volley,
        "Shoot an enemy Regiment within range; record the stands it removed (ACTIONS-1).",
        REGIMENT,
        TARGET,
        REMOVED,
        opens=_named_opens,
    ),
    _verb(
        "clash",
        c.Clash,
        "Strike an enemy Regiment in contact; record the stands it removed (ACTIONS-1).",
        REGIMENT,
        TARGET,
        REMOVED,
        opens=_named_opens,
    ),
    _verb("withdraw", c.Withdraw, "Leave close combat (ACTIONS-1).", REGIMENT, opens=_named_opens),
    _verb("reform", c.Reform, "Change ranks and files (ACTIONS-1).", REGIMENT, opens=_named_opens),
    _verb(
        "end-activation",
        c.EndActivation,
        "Decline the remaining actions: the Regiment deactivates (ACT-13, ACT-16, ACT-17).",
    ),
    _verb(
        "end-round",
        c.EndRound,
        "Victory Phase: score this Round, then check for a winner (VICTORY-1 to VICTORY-4).",
        Param("vp", Pair(0, 1000), "Victory points each player scored this Round.", option="--vp"),
        opens=_scores,
    ),
    _verb(
        "surrender",
        c.Surrender,
        "Surrender: the battle ends at once and the opponent wins (ROUND-3, VICTORY-2).",
        Param("side", SeatKind(keys=SIDES), "The player who surrenders: a (the first) or b.", option="--side"),
        opens=_named_opens,
    ),
)


class NewConquest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A Conquest battle of ``scenario`` between two armies, the first
    player's first; ``warlords``: another Warlord than a list's, as
    ``SIDE:CHARACTER`` (SUP-5); ``assignments``: a Character joined to a
    Regiment of its Type, as ``CHARACTER:REGIMENT`` (REINF-2)."""

    scenario: str
    armies: list[str]
    seed: int | None = None
    name: str | None = None
    physical_dice: bool = False
    warlords: list[str] = []
    assignments: list[str] = []


def _start(app: Any, request: NewConquest) -> Any:
    from .new_game import start

    return start(app, request)


def _fields(command: c.StartConquest) -> dict[str, Any]:
    return {
        "scenario": command.scenario,
        "armies": command.armies,
        "seed": command.seed,
        "physical_dice": command.physical_dice,
        "warlords": tuple(f"{SIDES[i]}:{w}" for i, w in enumerate(command.warlords) if w),
        "assignments": tuple(f"{ch}:{r}" for ch, r in command.assignments),
    }


def _offers(app: Any) -> dict[str, list[Any]]:
    from .listings import offers

    return offers(app.pack_of("conquest"))


SETUP = Setup(
    name="conquest",
    summary="Set up a Conquest battle between two armies (REINF-1, REINF-2) and show it.",
    details="Example: rk new conquest --scenario border-clash --army saltmarch --army cinderpact --seed 7",
    request=NewConquest,
    params=(
        Param(
            "scenario",
            Text("scenario"),
            "The scenario (see `rk scenarios`).",
            option="--scenario",
            metavar="SCENARIO",
            required=True,
        ),
        Param(
            "armies",
            Text("army"),
            "An army list, twice: the first player's, then the second's (see `rk armies`).",
            option="--army",
            metavar="ARMY",
            repeat=True,
        ),
        SEED,
        Param("physical_dice", Flag(), "Roll real dice and type their faces (--faces).", option="--physical-dice"),
        Param(
            "warlords",
            Text("warlord"),
            "Another Warlord than the list's, e.g. a:reed-captain (SUP-5).",
            option="--warlord",
            metavar="SIDE:CHARACTER",
            repeat=True,
        ),
        Param(
            "assignments",
            Text("assignment"),
            "Join a Character to a Regiment of its Type, e.g. ac1:a3 (REINF-2; default: the first one).",
            option="--assign",
            metavar="CHARACTER:REGIMENT",
            repeat=True,
        ),
        NAME,
    ),
    start=_start,
    makes=(c.StartConquest,),
    fields=_fields,
    offers=_offers,
    examples=(
        {"scenario": "border-clash", "armies": ["saltmarch", "cinderpact"]},
        {"scenario": "hold-the-ford", "armies": ["cinderpact", "saltmarch"], "physical_dice": False},
    ),
)


def _listing(name: str) -> Any:
    def answer(asked: Any) -> Any:
        from . import listings

        return getattr(listings, name)(asked)

    return answer


QUERIES = (
    Query(
        "scenarios",
        "List the Conquest scenarios: Rounds, depth of the table, victory points.",
        _listing("scenarios"),
        panel="Setting up",
    ),
    Query(
        "armies",
        "List the Conquest army lists: Regiments, Characters, Warlord.",
        _listing("armies"),
        panel="Setting up",
    ),
)


def _view(name: str) -> Any:
    def draw(*args: Any) -> Any:
        from . import views

        return getattr(views, name)(*args)

    return draw


SURFACES = (
    Surface(
        ruleset="conquest",
        title="Conquest: The Last Argument of Kings",
        verbs=VERBS,
        setups=(SETUP,),
        queries=QUERIES,
        panel=PLAY,
        status=_view("status"),
        compact=_view("compact"),
        legal_note=_view("legal_note"),
        board=_view("board"),
    ),
)
