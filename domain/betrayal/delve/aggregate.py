"""The Delve aggregate: one delve's growing map and its progress, rebuilt by
replaying its own stream (DELVE-*, EXPLORATION-*, SKYSHARD-*, OBJ-4 to
OBJ-11).

A delve battle keeps two streams. The Battle stream holds the units, turns
and rounds; the Delve stream holds what belongs to the delve itself: the
tiles placed, the face-down tile piles and the delve deck, the cards kept
beside their tiles, the skyshards drawn and obtained, and the per-turn marks
exploration needs (who explored from where, the movement an exploration
interrupted). A command that explores writes both streams in one
transaction and undo restores both (``DelveRestored``).

Draws from the deck and the piles use the battle's seed on the delve's own
counter (``draw_counter``), so they never disturb the battle's dice.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from domain.kernel.errors import InternalError
from domain.kernel.hexes import Hex
from domain.kernel.messages import Event

from domain.betrayal.delve.deck import ItemDeck
from domain.betrayal.vocab import Objective


class DelveEvent(Event, frozen=True, kw_only=True):
    """Base of events in a Delve stream."""


class PlacedTile(msgspec.Struct, frozen=True, array_like=True):
    """A tile on the map: its ``key`` on this map ("E" the Entrance, then
    "t1", "t2" in placement order), its content id, and where it lies: its
    own hexes turned ``rotation`` sixths of a turn clockwise, then moved so
    its hex (0, 0) lands on ``origin``."""

    key: str
    tile: str
    rotation: int
    origin: Hex


class KeptCard(msgspec.Struct, frozen=True, array_like=True):
    """A delve card face up beside its tile (EXPLORATION-12). ``skyshards``
    still to obtain there (SKYSHARD-5)."""

    card: str
    tile: str
    skyshards: int = 0


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """An exploration waiting for the party to place its tile (EXPLORATION-9b:
    the party chooses shift and rotation)."""

    hero: str
    hex: Hex  # the Connection hex being explored
    card: str
    tile: str  # "" until a tile is drawn
    entered: bool  # triggered by occupying the hex (EXPLORATION-7b)
    tile_ep: int  # the tile's fresh EP with any When Revealed rise (DELVE-4)


class TurnMarks(msgspec.Struct, frozen=True, kw_only=True):
    """Exploration bookkeeping of one adventurer turn, named by round and
    adventurer so a stale mark is never read in a later turn."""

    round: int
    hero: str
    spent: tuple[Hex, ...] = ()  # hexes explored by occupying, not left since (EXPLORATION-7b)
    explored: bool = False  # the Explore action was taken (EXPLORE-3)
    resume: int = 0  # movement an exploration interrupted, still to use (EXPLORATION-3b)


class Skyshard(msgspec.Struct, frozen=True, array_like=True):
    """A skyshard obtained: from which card and tile, by whom (``hero`` is
    empty for a face-down shortage card, EXPLORATION-7a), and how many."""

    card: str
    tile: str
    hero: str
    count: int


class DelveState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules know of one delve."""

    battle_id: str
    delve: str  # the delve setup's content id
    objective: Objective
    required: int  # SKYSHARD-3, OBJ-5
    party_size: int
    xp: int  # the party's XP dial: each tile's fresh EP is xp x party size (EP-2, DELVE-4)
    seed: int
    draws: int = 0  # the delve's own draw counter
    tiles: tuple[PlacedTile, ...] = ()
    piles: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (shape, tile ids face down)
    bottom: tuple[tuple[str, tuple[str, ...]], ...] = ()  # tiles put back under their pile, in order (EXPLORATION-9f)
    deck: tuple[str, ...] = ()  # card ids face down, in no order: each draw is a seeded pick
    discarded: tuple[str, ...] = ()
    kept: tuple[KeptCard, ...] = ()
    icons: int = 0  # skyshard icons on the cards revealed face up
    face_down: tuple[str, ...] = ()  # shortage cards counted as skyshards (EXPLORATION-7a)
    obtained: tuple[Skyshard, ...] = ()
    pending: Pending | None = None
    marks: TurnMarks | None = None
    loot: tuple[tuple[str, str], ...] = ()  # (hero, item id) from opened caches
    items_drawn: tuple[str, ...] = ()  # item cards out of the item deck
    items_cycled: tuple[str, ...] = ()  # item cards put under the deck by a failed lockpick, oldest first
    sprung: tuple[str, ...] = ()  # tiles whose trap has been tested (facts default: once)
    concluded: str = ""  # how the delve ended, once it has
    item_deck: ItemDeck | None = None  # a campaign's item deck (ITEM-9); None: the pack's item cards, fresh

    # Added with the campaign's item deck: logs from before hold delves without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"item_deck"})

    @property
    def drawn(self) -> int:
        """Skyshards drawn: icons on face-up cards plus face-down shortage
        cards (SKYSHARD-4, EXPLORATION-5d)."""
        return len(self.face_down) + self.icons

    @property
    def gained(self) -> int:
        """Skyshards the party has, never more than required (SKYSHARD-9;
        facts: a face-down shortage card counts as one gained)."""
        return min(self.required, sum(s.count for s in self.obtained))

    @property
    def placing(self) -> Pending | None:
        """The exploration waiting for its tile to be placed, if any."""
        return self.pending if self.pending is not None and self.pending.tile else None

    @property
    def complete(self) -> bool:
        """Every required skyshard gained (SKYSHARD-2, OBJ-4)."""
        return self.gained >= self.required

    def pile(self, shape: str) -> tuple[str, ...]:
        return dict(self.piles).get(shape, ())

    def under(self, shape: str) -> tuple[str, ...]:
        return dict(self.bottom).get(shape, ())

    def placed(self, key: str) -> PlacedTile:
        for t in self.tiles:
            if t.key == key:
                return t
        raise KeyError(key)

    @property
    def campaign_deck(self) -> ItemDeck:
        """The campaign's item deck, for what runs only in a delve drawing
        from one (ITEM-9: its reshuffle keeps it)."""
        if self.item_deck is None:
            raise InternalError(f"delve {self.battle_id} draws the pack's item cards, not a campaign's deck")
        return self.item_deck

    def marks_for(self, round_: int, hero: str) -> TurnMarks:
        """The current turn's marks (fresh ones when the stored marks are of
        another turn)."""
        m = self.marks
        if m is not None and m.round == round_ and m.hero == hero:
            return m
        return TurnMarks(round=round_, hero=hero)


def draw_counter(n: int) -> int:
    """The RNG counter of the delve's draw ``n``: negative, so a delve draw
    never shares an outcome with the battle's dice (counters 0, 1, 2...)."""
    return -1 - n


# --- events ----------------------------------------------------------------------


class DelveBegun(DelveEvent, frozen=True, kw_only=True):
    """DELVE-7: the tiles sorted by shape into face-down piles, the Entrance
    placed, the delve deck ready; DELVE-8, DELVE-9: no caches, no enemies."""

    TOPIC = "betrayal.DelveBegun"
    state: DelveState


class CardDrawn(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-6: a delve card drawn for an exploration of ``hex`` by
    ``hero`` (``entered``: by occupying the hex, else the Explore action)."""

    TOPIC = "betrayal.CardDrawn"
    card: str
    hero: str
    hex: Hex
    entered: bool
    draw: int  # the delve draw index used
    tile_ep: int  # the revealed tile's fresh EP (DELVE-4: xp x party size)


class ShortageSkyshard(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-7a: no tile of the card's shape is left; the card lies
    face down and counts as a skyshard obtained. The hex stays explorable."""

    TOPIC = "betrayal.ShortageSkyshard"
    card: str
    shape: str


class TileDrawn(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-7: a tile of the card's shape drawn from its pile; it
    waits to be placed."""

    TOPIC = "betrayal.TileDrawn"
    tile: str
    shape: str
    draw: int  # the delve draw index used, -1 when taken from under the pile


class TileEpRaised(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-8: a When Revealed effect raised the tile's EP."""

    TOPIC = "betrayal.TileEpRaised"
    amount: int


class TilePlaced(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-9: the tile connected where the party chose."""

    TOPIC = "betrayal.TilePlaced"
    placed: PlacedTile


class TileReturned(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-9f: no placement fits; the card is discarded and the
    tile goes under its pile."""

    TOPIC = "betrayal.TileReturned"
    tile: str
    shape: str
    card: str


class CardKept(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-12: a card with a skyshard, environment or trap lies
    face up beside its tile."""

    TOPIC = "betrayal.CardKept"
    card: str
    tile: str
    skyshards: int


class CardDiscarded(DelveEvent, frozen=True, kw_only=True):
    """EXPLORATION-12: a card with nothing lasting is discarded."""

    TOPIC = "betrayal.CardDiscarded"
    card: str


class SkyshardObtained(DelveEvent, frozen=True, kw_only=True):
    """SKYSHARD-5, SKYSHARD-8, SKYSHARD-9: ``hero`` entered a skyshard
    tile and took its skyshards (``count``, capped at what is required)."""

    TOPIC = "betrayal.SkyshardObtained"
    hero: str
    card: str
    tile: str
    count: int


class TurnMarked(DelveEvent, frozen=True, kw_only=True):
    """The exploration marks of the current turn changed (EXPLORE-3,
    EXPLORATION-3b, EXPLORATION-7b)."""

    TOPIC = "betrayal.TurnMarked"
    marks: TurnMarks


class ItemFound(DelveEvent, frozen=True, kw_only=True):
    """A cache opened: ``hero`` draws item card ``item`` (facts: MOVE-5)."""

    TOPIC = "betrayal.ItemFound"
    hero: str
    item: str
    draw: int  # the delve draw index used; -1 when the card came back from under the deck


class ItemCycled(DelveEvent, frozen=True, kw_only=True):
    """A cache's lock held: the top item card goes under the item deck
    (facts: MOVE-5, "failure discards the chip and cycles the card")."""

    TOPIC = "betrayal.ItemCycled"
    item: str
    draw: int  # as for ItemFound


class ItemDeckReshuffled(DelveEvent, frozen=True, kw_only=True):
    """ITEM-9: the campaign's Common (or Legendary) item deck ran out, so
    its discard pile, ``cards``, was shuffled and put back in the tray."""

    TOPIC = "betrayal.ItemDeckReshuffled"
    legendary: bool
    cards: tuple[str, ...]


class TrapSprung(DelveEvent, frozen=True, kw_only=True):
    """The trap on a tile was tested (once: our default)."""

    TOPIC = "betrayal.TrapSprung"
    tile: str


class DelveConcluded(DelveEvent, frozen=True, kw_only=True):
    """The delve ended: how, the skyshards gained, and the XP they give
    (OBJ-10: 1 per skyshard on an Uncover delve unless the party was wiped
    out, OBJ-11)."""

    TOPIC = "betrayal.DelveConcluded"
    objective: Objective
    outcome: str
    reason: str
    skyshards: int
    xp: int


class DelveRestored(DelveEvent, frozen=True, kw_only=True):
    """Undo: the delve as it was before ``command_id`` (DESIGN: Undo)."""

    TOPIC = "betrayal.DelveRestored"
    command_id: str
    restored: DelveState | None


# --- evolve ---------------------------------------------------------------------------


def _set(
    pairs: tuple[tuple[str, tuple[str, ...]], ...], key: str, value: tuple[str, ...]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out = tuple((k, value if k == key else v) for k, v in pairs)
    return out if any(k == key for k, _ in pairs) else (*out, (key, value))


def _without(items: tuple[str, ...], one: str) -> tuple[str, ...]:
    i = items.index(one)
    return items[:i] + items[i + 1 :]


def evolve_delve(state: DelveState | None, event: Any) -> DelveState | None:
    """Apply one Delve-stream event. Pure."""
    if isinstance(event, DelveBegun):
        return event.state
    if isinstance(event, DelveRestored):
        return event.restored
    s = state
    assert s is not None, f"{type(event).__name__} before DelveBegun"
    if isinstance(event, CardDrawn):
        exploring = Pending(
            hero=event.hero, hex=event.hex, card=event.card, tile="", entered=event.entered, tile_ep=event.tile_ep
        )
        return replace(s, deck=_without(s.deck, event.card), draws=max(s.draws, event.draw + 1), pending=exploring)
    if isinstance(event, ShortageSkyshard):
        return replace(
            s,
            face_down=(*s.face_down, event.card),
            pending=None,
            obtained=(*s.obtained, Skyshard(event.card, "", "", 1)),
        )
    if isinstance(event, TileDrawn):
        if event.draw >= 0:
            s = replace(
                s,
                piles=_set(s.piles, event.shape, _without(s.pile(event.shape), event.tile)),
                draws=max(s.draws, event.draw + 1),
            )
        else:
            s = replace(s, bottom=_set(s.bottom, event.shape, _without(s.under(event.shape), event.tile)))
        assert s.pending is not None
        return replace(s, pending=replace(s.pending, tile=event.tile))
    if isinstance(event, TileEpRaised):
        assert s.pending is not None
        return replace(s, pending=replace(s.pending, tile_ep=s.pending.tile_ep + event.amount))
    if isinstance(event, TilePlaced):
        return replace(s, tiles=(*s.tiles, event.placed))
    if isinstance(event, TileReturned):
        return replace(
            s,
            bottom=_set(s.bottom, event.shape, (*s.under(event.shape), event.tile)),
            discarded=(*s.discarded, event.card),
            pending=None,
        )
    if isinstance(event, CardKept):
        return replace(
            s,
            kept=(*s.kept, KeptCard(event.card, event.tile, event.skyshards)),
            icons=s.icons + event.skyshards,
            pending=None,
        )
    if isinstance(event, CardDiscarded):
        return replace(s, discarded=(*s.discarded, event.card), pending=None)
    if isinstance(event, SkyshardObtained):
        kept = tuple(replace(k, skyshards=0) if k.tile == event.tile else k for k in s.kept)
        return replace(s, kept=kept, obtained=(*s.obtained, Skyshard(event.card, event.tile, event.hero, event.count)))
    if isinstance(event, TurnMarked):
        return replace(s, marks=event.marks)
    if isinstance(event, ItemFound):
        return replace(
            s,
            loot=(*s.loot, (event.hero, event.item)),
            items_drawn=(*s.items_drawn, event.item),
            items_cycled=tuple(i for i in s.items_cycled if i != event.item),
            draws=max(s.draws, event.draw + 1),
        )
    if isinstance(event, ItemCycled):
        cycled = (*(i for i in s.items_cycled if i != event.item), event.item)  # under the deck (facts: MOVE-5)
        return replace(s, items_cycled=cycled, draws=max(s.draws, event.draw + 1))
    if isinstance(event, ItemDeckReshuffled):
        deck = s.item_deck or ItemDeck()
        back = ItemDeck(
            cards=(*deck.cards, *event.cards), discards=tuple(i for i in deck.discards if i not in event.cards)
        )
        return replace(s, item_deck=back)
    if isinstance(event, TrapSprung):
        return replace(s, sprung=(*s.sprung, event.tile))
    if isinstance(event, DelveConcluded):
        return replace(s, concluded=event.outcome, pending=None, marks=None)
    raise TypeError(f"{type(event).__name__} is not a Delve event")
