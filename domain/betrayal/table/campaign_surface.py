"""Betrayal's campaign as the table sees it: the verbs of the time between
battles (the Reward Phase, trainers, items, rest, recruiting), its setup
(``rk new campaign``), its queries (the campaigns, the session's climax
EP, the class and item cards, an adventurer's sheet) and its views,
declared for the adapters (``domain.kernel.surface``).

Imports the campaign's commands and vocabulary only: what is read from
the store (which campaign, which battle's rewards) is
``campaign.defaults``', loaded when a command is given."""

from __future__ import annotations

import shlex
from typing import Any, ClassVar

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.surface import Param, Query, Setup, Surface, Verb
from domain.kernel.surface.kinds import Choice, Flag, Kind, Names, Number, Numbers, Text, Unit, quoted

from domain.betrayal.campaign import commands as cc
from domain.betrayal.vocab import Difficulty

BETWEEN = "Between battles"
MAX_DIAL = 80  # the XP dial reads 0 to 80 (EP-2)
MAX_XP = 40  # what one battle may give (REWARD-1)
MAX_TENACITY = 10  # Tenacity bought at once, as much as an adventurer may hold
MAX_ROWS = 20  # far more rows than a mat has
MAX_SESSION = 99
MAX_PLAYERS = 99


class _WhoseOf(Kind, frozen=True, kw_only=True):
    """Whose's ``of``, keyword-only (see ``Kind``); Whose's own fields stay positional."""

    of: str = "adventurer's"


class Whose(_WhoseOf, frozen=True):
    """A value for one adventurer, typed ``NAME:VALUE`` (``Ria:1,3``, the
    positions of the cooldown dice Ria takes off; ``Ria:bitterroot-draught``,
    an item): held as the pair (name, value of ``inner``)."""

    inner: Kind = msgspec.field(default_factory=Text)

    metavar: ClassVar[str] = "NAME:VALUE"

    def parse(self, text: str, where: str) -> tuple[str, Any]:
        name, sep, value = text.partition(":")
        if not sep or not name.strip() or not value.strip():
            raise MalformedCommand(
                f"{where} takes NAME:{self.inner.metavar},"
                f" e.g. Ria:{_EXAMPLES.get(self.inner.of, 'x')}"
                f" (not {text[:40]!r})"
            )
        return (name.strip(), self.inner.parse(value, where))

    def spell(self, value: Any, placeholders: bool = False) -> str:
        name, inner = value
        words = shlex.split(self.inner.spell(inner, placeholders))  # the inner value unquoted: quoted once, whole
        return quoted(f"{name}:{words[0] if words else ''}")

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "prefixItems": [{"type": "string"}, self.inner.schema()], "minItems": 2, "maxItems": 2}

    def describe(self) -> dict[str, Any]:
        return {"what": self.of, "value": self.inner.describe()}


_EXAMPLES = {"positions": "1,3", "item": "bitterroot-draught"}


class Trade(Kind, frozen=True, kw_only=True):
    """An item handed from one adventurer to another at the End of Day,
    typed ``GIVER:ITEM:RECEIVER`` (``Ria:notched-dagger:Tarn``): held as
    the triple (giver, item, receiver)."""

    of: str = "trade"

    metavar: ClassVar[str] = "GIVER:ITEM:RECEIVER"

    def parse(self, text: str, where: str) -> tuple[str, str, str]:
        parts = [p.strip() for p in text.split(":")]
        if len(parts) != 3 or not all(parts):
            raise MalformedCommand(
                f"{where} takes GIVER:ITEM:RECEIVER, e.g. Ria:notched-dagger:Tarn (not {text[:40]!r})"
            )
        return (parts[0], parts[1].lower(), parts[2])

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return quoted(":".join(value))

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "prefixItems": [{"type": "string"}] * 3, "minItems": 3, "maxItems": 3}


WHO = Param("adventurer", Unit("adventurer"), "The adventurer's name (any case).", metavar="NAME")
ITEM = Param("item", Text("item", lower=True), "An item id (see `rk items`).", metavar="ITEM")


def _defaults(name: str) -> Any:
    """``campaign.defaults.<name>``, imported when a command is given."""

    def call(*args: Any) -> Any:
        from domain.betrayal.campaign import defaults as campaign_defaults

        return getattr(campaign_defaults, name)(*args)

    call.__name__ = name
    return call


def _verb(name: str, command: type, summary: str, *params: Param, **more: Any) -> Verb:
    return Verb(name=name, command=command, summary=summary, params=params, panel=BETWEEN, **more)


# -- the Reward Phase ---------------------------------------------------------------


REWARD = _verb(
    "reward",
    cc.GainRewards,
    "Open the Reward Phase of a finished battle: XP for each adventurer and the dial"
    " (REWARD-1); `rk reward done` ends it.",
    Param(
        "battle_id",
        Text("battle"),
        "The finished battle whose rewards the party gains (default: the last one the party finished without them).",
        metavar="BATTLE",
        required=False,
    ),
    Param(
        "xp",
        Number(0, MAX_XP, of="XP"),
        "The XP the encounter gave (default: worked out from the battle and the pack's reward table).",
        option="--xp",
        metavar="XP",
        required=False,
    ),
    Param(
        "loot",
        Whose(Text("item", lower=True)),
        "An item card a cache gave, to the one who opened it (default: the delve's loot, ITEM-1).",
        option="--loot",
        metavar="NAME:ITEM",
        repeat=True,
    ),
    Param(
        "discarded",
        Text("item", lower=True),
        "An item card given up in the battle, onto the item deck's"
        " discard pile (default: those the battle's party gave up, ITEM-9).",
        option="--discarded",
        metavar="ITEM",
        repeat=True,
    ),
    details="Without --loot, the item cards the battle's caches gave go to those who opened them; without --xp, the"
    " pack's reward for the encounter on success, nothing on failure, an Uncover delve's skyshard XP either"
    " way (OBJ-10, OBJ-11).",
    complete=_defaults("reward"),
)
REWARD_DONE = _verb(
    "reward done",
    cc.EndRewards,
    "End the Reward Phase: each adventurer keeps 3 XP at most, the rest buys Tenacity (ADVANCE-12, REWARD-4).",
)


def _untrain_fields(given: dict[str, Any]) -> dict[str, Any]:
    """``untrain NAME WHAT``: a die by its number (``5`` or ``#5``), else a stat token or a line."""
    out = dict(given)
    what = str(out.pop("what", "")).lstrip("#")
    if what.isdigit():
        out["uid"] = int(what)
    else:
        out["what"] = what
    return out


def _untrain_words(c: cc.Untrain) -> dict[str, Any]:
    return {"adventurer": c.adventurer, "what": str(c.uid) if c.uid else c.what}


ADVANCE = _verb(
    "advance",
    cc.Advance,
    "Buy an advancement with XP in the Reward Phase, at the cost of the next square of"
    " the mat's row (ADVANCE-2 to ADVANCE-11).",
    WHO,
    Param(
        "what",
        Text("advancement", lower=True),
        "health, stamina, magicka, cooldown, tenacity, or a skill die id (see `rk lines`).",
        metavar="WHAT",
    ),
    Param("amount", Number(1, MAX_TENACITY, of="Tenacity"), "How much Tenacity to buy (default 1).", metavar="N"),
)
UNTRAIN = _verb(
    "untrain",
    cc.Untrain,
    "Untrain in the Reward Phase, before buying advancements (REWARD-2; no refund).",
    WHO,
    Param(
        "what",
        Text("what to untrain", lower=True),
        "health, stamina, magicka (a token), magicka-line (Magicka whole), or a die's number (#5).",
        metavar="WHAT",
        required=True,
    ),
    build=_untrain_fields,
    fields=_untrain_words,
)


# -- between battles ----------------------------------------------------------------------


def _train_fields(given: dict[str, Any]) -> dict[str, Any]:
    out = dict(given)
    out["left"] = not out.pop("right", False)
    return out


def _train_words(c: cc.TrainLine) -> dict[str, Any]:
    return {"adventurer": c.adventurer, "line": c.line, "row": c.row, "right": not c.left}


TRAIN = _verb(
    "train",
    cc.TrainLine,
    "Visit a trainer: a new skill line on an empty round slot of the mat (ADVANCE-13, ADVANCE-14).",
    WHO,
    Param("line", Text("skill line"), "A skill line id (see `rk lines`), or magicka to add it back.", metavar="LINE"),
    Param(
        "row",
        Number(0, MAX_ROWS, of="row"),
        "The mat row of the round slot, from 1 (default: the first empty one).",
        option="--row",
        metavar="N",
    ),
    Param("right", Flag(), "The round slot at the row's right end.", option="--right"),
    build=_train_fields,
    fields=_train_words,
)
PROMOTE = _verb(
    "promote",
    cc.Promote,
    "Turn an adventurer's class sheet to its Master side once a battle met its requirement:"
    " between battles (ADVANCE-15), or in the battle it fights (ADVANCE-16).",
    WHO,
    find_game=_defaults("promoting"),
)
REST = _verb(
    "rest",
    cc.Rest,
    "End the day: every adventurer heals and takes cooldown dice off, as the difficulty allows"
    " (REST-1, REST-2; END-1c: on Expert a party that fell heals 1 HP without an item), then trades (REST-3).",
    Param(
        "remove",
        Whose(Numbers(of="positions", low=1)),
        "Which cooldown dice an adventurer takes off, by position from 1 (default: the front of the track).",
        option="--remove",
        metavar="NAME:POSITIONS",
        repeat=True,
    ),
    Param(
        "discard",
        Whose(Text("item", lower=True)),
        "The item an adventurer gives up to rest (Expert"
        " difficulty; REST-2: one who keeps its items does not rest, the others still do).",
        option="--discard",
        metavar="NAME:ITEM",
        repeat=True,
    ),
    Param(
        "trade",
        Trade(),
        "An item handed over once the adventurers rested, into the receiver's Pack"
        " (REST-3: at Expert both sides must have rested).",
        option="--trade",
        metavar="GIVER:ITEM:RECEIVER",
        repeat=True,
    ),
)


def _item(word: str, command: type, summary: str, *more: Param) -> Verb:
    return _verb(f"item {word}", command, summary, WHO, ITEM, *more)


ITEMS = (
    _item(
        "gain",
        cc.GainItem,
        "Give an adventurer an item card, into the Pack (READY-1: 8 items at most).",
        Param("ready", Flag(), "Straight into a ready slot.", option="--ready"),
    ),
    _item(
        "ready", cc.ReadyItem, "Move an item from the Pack to a ready slot (READY-4; ARMOR-3: one armour per trait)."
    ),
    _item("stow", cc.StowItem, "Move an item from a ready slot to the Pack (READY-4; PET-4: a readied pet stays)."),
    _item("discard", cc.DiscardItem, "Give an item up."),
    _item("use", cc.UseItem, "Use a potion (then expended) or a consumable (then discarded) outside battle (ITEM-7)."),
    _item("replenish", cc.ReplenishItem, "Turn an expended potion upright at an alchemy station (EXPEND-3)."),
)
ENLIST = _verb(
    "campaign enlist",
    cc.Enlist,
    "Bring an adventurer made for a battle (`rk new clash --party Name:race`) into the campaign.",
    Param("name", Unit("adventurer"), "The adventurer's name (any case).", metavar="NAME"),
    Param(
        "class_id",
        Text("class", lower=True),
        "Its class, if it has none yet (see `rk classes`).",
        option="--class",
        metavar="CLASS",
    ),
)
END_SESSION = _verb(
    "campaign end-session",
    cc.EndSession,
    "End the session: Tenacity back to 0, pets and enchantments discarded (PET-3, ENCHANT-3).",
)
RECRUIT = _verb(
    "adventurer new",
    cc.Recruit,
    "Recruit an adventurer of a race and a class into the campaign (CLASS-1); in a"
    " store without a campaign, one is begun for it.",
    Param("name", Unit("adventurer"), "The new adventurer's name.", metavar="NAME"),
    Param("race", Text("race", lower=True), "Its race (see `rk races`).", option="--race", metavar="RACE"),
    Param("class_id", Text("class", lower=True), "Its class (see `rk classes`).", option="--class", metavar="CLASS"),
    Param(
        "lines",
        Names("skill lines", sep="+"),
        "Its starting skill lines (default: the pack's; see `rk lines`).",
        option="--lines",
        metavar="LINE+LINE",
    ),
    find_game=_defaults("recruiting"),
)

VERBS = (REWARD, REWARD_DONE, ADVANCE, UNTRAIN, TRAIN, PROMOTE, REST, *ITEMS, ENLIST, END_SESSION, RECRUIT)


# -- the setup --------------------------------------------------------------------------


class NewCampaign(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A campaign at ``difficulty`` with the XP dial at ``dial`` (default:
    the pack's start, EP-2); ``name`` defaults to campaign-1, campaign-2..."""

    name: str | None = None
    difficulty: str = Difficulty.ADEPT.value
    dial: int | None = None


def _start(app: Any, request: NewCampaign) -> Any:
    from .campaign_setup import start

    return start(app, request)


def _setup_fields(command: cc.StartCampaign) -> dict[str, Any]:
    return {"name": command.campaign_id, "difficulty": command.difficulty.value, "dial": command.dial}


def _offers(app: Any) -> dict[str, list[Any]]:
    return {"difficulty": [{"id": d.value, "name": d.value} for d in Difficulty]}


SETUP = Setup(
    name="campaign",
    summary="Begin a campaign: its difficulty and the party's XP dial (EP-2).",
    details="Example: rk new campaign saga --difficulty adept (also: rk campaign new saga)",
    request=NewCampaign,
    params=(
        Param(
            "name",
            Text("name"),
            "A name for the campaign (default: campaign-1, campaign-2...).",
            metavar="NAME",
            required=False,
        ),
        Param(
            "difficulty",
            Choice(enum=Difficulty, of="difficulty"),
            "apprentice, adept or expert (default adept).",
            option="--difficulty",
            metavar="LEVEL",
        ),
        Param(
            "dial",
            Number(0, MAX_DIAL, of="XP"),
            "Where the XP dial starts (default 2; 1 after the introductory quest).",
            option="--dial",
            metavar="XP",
        ),
    ),
    start=_start,
    makes=(cc.StartCampaign,),
    fields=_setup_fields,
    offers=_offers,
    examples=({}, {"difficulty": "expert"}),
)


# -- queries ------------------------------------------------------------------------------


def _listing(name: str) -> Any:
    def answer(asked: Any, **values: Any) -> Any:
        from . import campaign_listings

        return getattr(campaign_listings, name)(asked, **values)

    return answer


def _sheet(asked: Any, name: str) -> Any:
    from .adventurer_sheet import sheet

    return sheet(asked, name)


QUERIES = (
    Query("campaign list", "List the campaigns of the store, oldest first.", _listing("campaigns"), panel=BETWEEN),
    Query(
        "campaign ep",
        "The EP of a session's climax battle, from the session-end table (SESSION-EP-1 to SESSION-EP-4).",
        _listing("climax_ep"),
        panel=BETWEEN,
        params=(
            Param(
                "session",
                Number(1, MAX_SESSION, of="session"),
                "The session (default: the campaign's).",
                option="--session",
                metavar="N",
                required=False,
            ),
            Param(
                "difficulty",
                Choice(enum=Difficulty, of="difficulty"),
                "apprentice, adept or expert (default: the campaign's).",
                option="--difficulty",
                metavar="LEVEL",
                required=False,
            ),
            Param(
                "players",
                Number(1, MAX_PLAYERS, of="players"),
                "Adventurers in the party (default: the campaign's).",
                option="--players",
                metavar="N",
                required=False,
            ),
            Param(
                "campaign",
                Text("campaign"),
                "The campaign whose session, difficulty and party count (default: the newest).",
                option="--campaign",
                short="-c",
                metavar="NAME",
                required=False,
            ),
        ),
    ),
    Query("classes", "List the class sheets of the pack and their abilities.", _listing("classes"), panel="Setting up"),
    Query("items", "List the item cards of the pack.", _listing("items"), panel="Setting up"),
    Query(
        "adventurer",
        "Show an adventurer's sheet between battles: stats, class, XP and Tenacity, the mat rows"
        " with the next slot's cost, dice, track, items, battles.",
        _sheet,
        panel="Looking",
        params=(Param("name", Text("adventurer"), "The adventurer's name (any case).", metavar="NAME", required=True),),
        details="`rk adventurer new NAME --race RACE --class CLASS` recruits one.",
    ),
)


def _view(name: str) -> Any:
    def draw(*args: Any) -> Any:
        from . import campaign_views

        return getattr(campaign_views, name)(*args)

    return draw


CAMPAIGN_SURFACE = Surface(
    ruleset="betrayal-campaign",
    title="Betrayal",
    verbs=VERBS,
    setups=(SETUP,),
    queries=QUERIES,
    panel=BETWEEN,
    noun="campaign",
    selector=("--campaign", "-c"),
    status=_view("status"),
    compact=_view("compact"),
    legal_note=_view("legal_note"),
    find_game=_defaults("campaign_of"),
    groups={
        "campaign": "A Betrayal campaign: the party between battles (see also rk reward, rk advance, rk rest,"
        " rk item).",
        "item": "An adventurer's items between battles: gain, ready, stow, discard, use, replenish.",
    },
)
