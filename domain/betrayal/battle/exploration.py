"""Exploring a delve: the two triggers (EXPLORATION-3, EXPLORATION-4,
EXPLORE-1 to EXPLORE-3), the six steps of an exploration (EXPLORATION-6 to
EXPLORATION-12), and what entering a hex does in a delve: a trap is tested,
a cache opened, a skyshard taken (SKYSHARD-5, SKYSHARD-6; facts: MOVE-5).

Defaults where the party chooses (betrayal-facts §2): equally far cache and
enemy hexes are taken in reading order; a cache is opened by whoever enters
its hex; a trap is tested once, by the first adventurer to enter its tile.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import rng
from domain.kernel.errors import RuleViolation
from domain.kernel.hexes import Hex, name

from domain.betrayal.delve.aggregate import (
    KeptCard,
    CardDiscarded,
    CardDrawn,
    CardKept,
    ItemCycled,
    ItemFound,
    PlacedTile,
    ShortageSkyshard,
    ItemDeckReshuffled,
    SkyshardObtained,
    TileDrawn,
    TileEpRaised,
    TilePlaced,
    TileReturned,
    TrapSprung,
    TurnMarked,
    TurnMarks,
)
from domain.betrayal.delve.map import Placement
from domain.betrayal.packs.catalog import CardAction, LockCode, Trap
from domain.betrayal.vocab import LEVELS, CardEffect, Environment, Marker, TileIcon

from . import events as ev
from . import hooks
from .damage import heal_hero, hurt_hero
from .decision import Decision
from .enemies.bags import chip_side
from .heroes import gain_fatigue
from .state import DieKind, Hero

LOCKPICK_DICE = 3  # facts: MOVE-5, "roll the 3 lockpick D6"


# --- what may be explored (EXPLORATION-5) ------------------------------------------


def why_not_explorable(d: Decision, h: Hex) -> tuple[str, str] | None:
    """The rule and reason ``h`` cannot be explored now, or None."""
    m = d.ctx.map
    if m.icon.get(h) is not TileIcon.CONNECTION:
        return "EXPLORATION-5", f"hex {name(h)} has no Connection icon"
    if not m.is_edge(h):
        return "EXPLORATION-5a", f"hex {name(h)} shares every edge with a tile: it is no edge hex"
    if m.is_explored(h):
        return "EXPLORATION-5b", f"hex {name(h)} already touches a Connection hex of another tile: it is explored"
    delve = d.in_delve
    if delve.drawn >= delve.required:
        return "EXPLORATION-5d", f"all {delve.required} skyshards have been drawn: the delve is fully explored"
    if not delve.deck:
        return "EXPLORATION-6", "the delve deck is empty: no card is left to draw"
    return None


def explorable(d: Decision) -> list[Hex]:
    """Every hex that may be explored now (EXPLORATION-5)."""
    if d.delve is None or d.in_delve.concluded:
        return []
    return [h for h in d.ctx.map.open_connections() if why_not_explorable(d, h) is None]


def _marks(d: Decision, hero_id: str) -> TurnMarks:
    return d.in_delve.marks_for(d.state.round, hero_id)


def mark(d: Decision, marks: TurnMarks) -> None:
    """Record the current turn's exploration marks if they changed (marks
    stored for an earlier turn read as fresh ones: ``marks_for``)."""
    if marks != d.in_delve.marks_for(marks.round, marks.hero):
        d.emit_delve(TurnMarked(marks=marks))


def end_interrupted_move(d: Decision, hero_id: str) -> None:
    """Another action starts, so the Move an exploration interrupted is over
    and the rest of it is lost (TURN-5): moving on after an Engage would be
    moving both before and after engaging (ENGAGE-3), which the rest of a
    Move (EXPLORATION-3b) must not get round."""
    marks = _marks(d, hero_id)
    if marks.resume:
        mark(d, replace(marks, resume=0))


def _require_explorable(d: Decision, h: Hex) -> None:
    why = why_not_explorable(d, h)
    if why is not None:
        raise RuleViolation(*why)


# --- the triggers ------------------------------------------------------------------------


def explore(d: Decision, hero: Hero, hex_: Hex | None) -> None:
    """The Explore command: the Explore action at a distance, or the
    start-of-turn trigger on the adventurer's own hex."""
    if d.delve is None:
        raise RuleViolation("EXPLORE-2", "Explore can be used only in delves")
    marks = _marks(d, hero.id)
    t = d.state.acting
    pos = hero.at
    if hex_ is None:  # EXPLORATION-3a (start of turn), DELVE-10d (facts default)
        here = pos
        if t.moves or t.engages or marks.explored or t.rolled:
            raise RuleViolation(
                "EXPLORATION-3a",
                "the hex you stand on can be explored only as your turn starts,"
                " before any action, or as you enter it (move --explore)",
            )
        if here in marks.spent:
            raise RuleViolation("EXPLORATION-7b", f"you explored {name(here)} this turn: leave it and enter it again")
        _require_explorable(d, here)
        mark(
            d, TurnMarks(round=marks.round, hero=hero.id, spent=(*marks.spent, here), explored=marks.explored, resume=0)
        )
        begin(d, hero, here, entered=True)
        return
    target: Hex = (hex_[0], hex_[1])
    if not d.ctx.board.contains(target):
        raise RuleViolation("EXPLORE-1", f"hex {name(target)} is not on this map")
    if t.moves:
        raise RuleViolation("EXPLORE-3", "you moved this turn, so you cannot take the Explore action")
    _require_explorable(d, target)
    board = d.ctx.board
    if not board.sees(pos, target):
        raise RuleViolation("EXPLORE-1", f"hex {name(target)} is out of sight (not on your tile or a touching one)")
    far = board.range_distance(pos, target)
    if far is None or far > hero.stamina:
        shown = "no route reaches it" if far is None else f"it is {far} hexes away"
        raise RuleViolation(
            "EXPLORE-1", f"hex {name(target)} is out of range: {shown}; you reach {hero.stamina} (Stamina)"
        )
    mark(d, TurnMarks(round=marks.round, hero=hero.id, spent=marks.spent, explored=True, resume=0))
    begin(d, hero, target, entered=False)


def begin(d: Decision, hero: Hero, h: Hex, *, entered: bool) -> None:
    """EXPLORATION-6: draw a card (step 1 draws its tile), resolve When
    Revealed (step 2), then connect the tile (step 3) at once when only one
    placement is legal, else wait for the party's choice."""
    delve = d.in_delve
    pack = d.ctx.pack
    deck = delve.deck
    k, n = d.draw(len(deck))
    card = pack.cards[deck[k]]
    d.emit_delve(
        CardDrawn(card=card.id, hero=hero.id, hex=h, entered=entered, draw=n, tile_ep=delve.xp * delve.party_size)
    )
    d.emit(ev.Explored(hero=hero.id, hex=h, card=card.id, entered=entered))
    pile, under = d.in_delve.pile(card.shape), d.in_delve.under(card.shape)
    if not pile and not under:  # EXPLORATION-7a
        d.emit_delve(ShortageSkyshard(card=card.id, shape=card.shape))
        return
    if pile:
        k, n = d.draw(len(pile))
        d.emit_delve(TileDrawn(tile=pile[k], shape=card.shape, draw=n))
    else:
        d.emit_delve(TileDrawn(tile=under[0], shape=card.shape, draw=-1))
    if card.when_revealed is not None:  # EXPLORATION-8
        card_action(d, card.when_revealed, hero.id, "EXPLORATION-8")
    options = placements(d)
    if not options:  # EXPLORATION-9f
        pending = d.tile_waiting
        d.emit_delve(TileReturned(tile=pending.tile, shape=card.shape, card=card.id))
        return
    if len(options) == 1:
        place(d, options[0])


def placements(d: Decision) -> list[Placement]:
    """The legal placements of the tile waiting to be connected."""
    pending = d.tile_waiting
    return d.ctx.map.placements(d.ctx.pack.tiles[pending.tile], pending.hex)


def place_tile(d: Decision, rotation: int, origin: Hex) -> None:
    """The PlaceTile command: one of the legal placements (EXPLORATION-9)."""
    options = placements(d)
    chosen = next((p for p in options if p.rotation == rotation % 6 and p.origin == tuple(origin)), None)
    if chosen is None or not 0 <= rotation < 6:
        listed = ", ".join(f"rotation {p.rotation} origin {name(p.origin)}" for p in options[:6])
        raise RuleViolation(
            "EXPLORATION-9",
            "the tile cannot go there: it must touch the explored hex with a"
            " Connection hex, overlap no tile, and follow EXPLORATION-9d/9e;"
            f" legal: {listed}{'...' if len(options) > 6 else ''}",
        )
    place(d, chosen)


def place(d: Decision, placement: Placement) -> None:
    """Steps 3 to 6 (EXPLORATION-9 to EXPLORATION-12)."""
    pending = d.tile_waiting
    pack = d.ctx.pack
    card = pack.cards[pending.card]
    key = f"t{len(d.in_delve.tiles)}"
    d.emit_delve(TilePlaced(placed=PlacedTile(key, pending.tile, placement.rotation, placement.origin)))
    m = d.ctx.map
    # Step 4 (EXPLORATION-10, 10a, 10b; facts: only Common item hexes hold caches)
    free = [h for h in m.farthest_first(key, TileIcon.COMMON, pending.hex)]
    for kind in [Marker.LEGENDARY_CACHE] * card.legendary + [Marker.COMMON_CACHE] * card.common:
        if not free:
            break
        d.emit(ev.CachePlaced(hex=free.pop(0), kind=kind))
    # Step 5 (EXPLORATION-11, 11a to 11c; DELVE-4: the tile's own EP)
    d.emit(ev.EnemyPoolOpened(tile=key, ep=pending.tile_ep))
    spots = m.farthest_first(key, TileIcon.ENEMY, pending.hex)
    number = len(d.state.foes)
    for box in card.scale[d.in_delve.party_size - 1]:
        left = d.state.ep_left
        if left <= 0 or not spots:
            break
        placed = draw_enemy(d, min(box, left), spots[0], number + 1)
        if placed:
            number += 1
            spots.pop(0)
    if d.state.ep_left > 0:
        why = (
            "EXPLORATION-11c: no empty enemy hex left"
            if not spots
            else "EXPLORATION-11c: every enemy of the card's row was drawn"
        )
        d.emit(ev.EnemyPoolClosed(discarded=d.state.ep_left, reason=why))
    # Step 6 (EXPLORATION-12)
    if card.skyshards or card.environment is not None or card.trap is not None:
        d.emit_delve(CardKept(card=card.id, tile=key, skyshards=card.skyshards))
    else:
        d.emit_delve(CardDiscarded(card=card.id))


def bag_left(d: Decision) -> list:
    """The chips still in the bags: the pack's, less one chip for each
    enemy drawn in this battle (the first chip showing it, in pack order)."""
    pack = d.ctx.pack
    bag = list(pack.chips)
    for foe in d.state.foes:
        if foe.quest:
            continue
        for i, chip in enumerate(bag):
            if chip_side(pack, chip, foe.level) == foe.enemy:
                del bag[i]
                break
    return bag


def draw_enemy(d: Decision, wanted: int, h: Hex, number: int) -> bool:
    """EXPLORATION-11b: one box: the level shown if the EP allows, else the
    highest level within the EP; with no chip of that level in the bags,
    the next lower level that fits (facts default). False: box skipped."""
    left = d.state.ep_left
    bag = bag_left(d)
    pack = d.ctx.pack
    for level in LEVELS:
        if level > wanted or level > left:
            continue
        choices = [side for c in bag if (side := chip_side(pack, c, level))]  # the chips with a side of this level
        if not choices:
            continue
        k, counter = d.pick(len(choices))
        enemy_id = choices[k]
        enemy = pack.enemies[enemy_id]
        d.emit(
            ev.EnemyPlaced(
                foe=f"e{number}",
                enemy=enemy_id,
                level=level,
                hp=enemy.hp,
                hex=h,
                number=number,
                draw=counter,
                ep_left=left - level,
            )
        )
        return True
    return False


# --- card effects --------------------------------------------------------------------------


def card_action(d: Decision, action: CardAction, hero_id: str, rule: str) -> None:
    """A When Revealed or skyshard effect (EXPLORATION-8, SKYSHARD-5)."""
    standing = [h.id for h in d.state.heroes if not h.defeated and h.pos is not None]
    if action.effect is CardEffect.DAMAGE_ALL:
        for h in standing:
            hurt_hero(d, h, action.amount, true_damage=False, source="delve card", rule=rule)
    elif action.effect is CardEffect.HEAL_ALL:
        for h in standing:
            heal_hero(d, h, action.amount)
    elif action.effect is CardEffect.FATIGUE_EXPLORER:
        if not d.state.hero(hero_id).defeated:
            gain_fatigue(d, hero_id, DieKind.LIGHT_FATIGUE, action.amount, rule)
    elif action.effect is CardEffect.BONUS_HP:
        heal_hero(d, hero_id, action.amount, bonus=True)
    elif action.effect is CardEffect.EXTRA_EP:
        if d.in_delve.pending is not None:
            d.emit_delve(TileEpRaised(amount=action.amount))


def environment_at_turn_start(d: Decision, hero_id: str) -> None:
    """EXPLORATION-12: a kept card's environment effect on the tile the
    adventurer starts its turn on."""
    hero = d.state.hero(hero_id)
    if d.delve is None or hero.pos is None:
        return
    tile = d.ctx.map.tile_of.get(hero.pos)
    for kept in d.in_delve.kept:
        env = d.ctx.pack.cards[kept.card].environment
        if kept.tile != tile or env is None:
            continue
        if env.kind is Environment.MIASMA:
            hurt_hero(d, hero_id, env.amount, true_damage=True, source="environment", rule="EXPLORATION-12")
        elif env.kind is Environment.SANCTUARY:
            heal_hero(d, hero_id, env.amount)


# --- entering hexes ----------------------------------------------------------------------------


def _set_off(d: Decision, h: Hex, came_from: Hex) -> tuple[list[tuple[KeptCard, Trap]], bool, list[KeptCard]]:
    """What entering ``h`` from ``came_from`` sets off in a delve: the kept
    cards whose trap springs (a tile newly entered, its trap not yet
    tested), with their traps, whether a cache lies there, and the kept
    cards whose skyshards wait on that tile."""
    tile = d.ctx.map.tile_of.get(h)
    mine = [k for k in d.in_delve.kept if k.tile == tile]
    newly = d.ctx.map.tile_of.get(came_from) != tile
    traps = [
        (k, trap)
        for k in mine
        if newly and tile not in d.in_delve.sprung and (trap := d.ctx.pack.cards[k.card].trap) is not None
    ]
    cache = any(tuple(c.hex) == h for c in d.state.caches)
    return traps, cache, [k for k in mine if k.skyshards]


def interrupts(d: Decision, h: Hex, came_from: Hex) -> bool:
    """Whether entering ``h`` sets off something in a delve: a trap on a
    tile newly entered, a cache, or a skyshard (MOVE-5, SKYSHARD-6)."""
    if d.delve is None:
        return False
    traps, cache, shards = _set_off(d, h, came_from)
    return bool(traps or cache or shards)


def entered(d: Decision, hero_id: str, h: Hex, came_from: Hex) -> None:
    """Resolve what entering ``h`` sets off, trap first, then the cache,
    then the skyshard (facts: traps are tested on entry, before caches)."""
    traps, cache, shards = _set_off(d, h, came_from)
    for kept, trap in traps:
        d.emit_delve(TrapSprung(tile=kept.tile))
        if not lockpick(d, hero_id, "trap", h, trap.code):
            hurt_hero(d, hero_id, trap.damage, true_damage=False, source="trap", rule="EXPLORATION-12")
    if d.state.hero(hero_id).defeated:
        return
    if cache:
        open_cache(d, hero_id, h)
    for kept in shards:
        take_skyshards(d, hero_id, kept.card, kept.tile, kept.skyshards)


def take_skyshards(d: Decision, hero_id: str, card_id: str, tile: str, icons: int) -> None:
    """SKYSHARD-5, SKYSHARD-8, SKYSHARD-9: take every skyshard of the tile's
    card, never more than still required; then the card's skyshard effect."""
    delve = d.in_delve
    count = max(0, min(icons, delve.required - delve.gained))
    d.emit_delve(SkyshardObtained(hero=hero_id, card=card_id, tile=tile, count=count))
    effect = d.ctx.pack.cards[card_id].skyshard_effect
    if effect is not None:
        card_action(d, effect, hero_id, "SKYSHARD-5")


def open_cache(d: Decision, hero_id: str, h: Hex) -> None:
    """Facts (MOVE-5): the top item card's back gives the code; success
    draws the card, failure cycles it; the chip leaves the map either way.

    The item deck is face down, so its top card is a seeded pick, but two
    things are known of it. A Legendary cache chip opens on the Legendary
    item cards and a Common one on the others (the chip's face, CLASH-6,
    EXPLORATION-10; a pack with no cards of that kind uses all of them).
    And a cycled card went under the deck, so it comes back on top only
    once every card above it has been taken or cycled too, oldest first."""
    pack = d.ctx.pack
    legendary = next(c.kind for c in d.state.caches if tuple(c.hex) == h) is Marker.LEGENDARY_CACHE
    kind = _item_cards(d, legendary)
    deck = [i for i in kind if i not in d.in_delve.items_drawn]
    above = [i for i in deck if i not in d.in_delve.items_cycled]
    if above:
        k, n = d.draw(len(above))
        item = pack.items[above[k]]
    elif deck:
        item = pack.items[next(i for i in d.in_delve.items_cycled if i in deck)]
        n = -1  # known, not drawn: the card cycled longest ago
    else:
        d.emit(ev.CacheOpened(hero=hero_id, hex=h, success=False))
        return
    success = lockpick(d, hero_id, "cache", h, item.code)
    d.emit(ev.CacheOpened(hero=hero_id, hex=h, success=success))
    if success:
        d.emit_delve(ItemFound(hero=hero_id, item=item.id, draw=n))
    else:
        d.emit_delve(ItemCycled(item=item.id, draw=n))


def _item_cards(d: Decision, legendary: bool) -> list[str]:
    """The item cards a cache of that face opens on: the pack's, fresh, or
    a campaign's item deck as it stands (ITEM-9), whose discard pile is
    shuffled back into the tray once every card of the deck is out."""
    pack = d.ctx.pack
    deck = d.in_delve.item_deck
    if deck is None:
        return [i for i in sorted(pack.items) if pack.items[i].legendary == legendary] or sorted(pack.items)
    if not any(pack.items[i].legendary == legendary for i in pack.items):
        legendary = not legendary  # a pack with no cards of that kind uses the others
    cards, pile = deck.of_kind(pack, legendary)
    if pile and all(i in d.in_delve.items_drawn for i in cards):
        d.emit_delve(ItemDeckReshuffled(legendary=legendary, cards=pile))
        cards, _ = d.in_delve.campaign_deck.of_kind(pack, legendary)
    return list(cards)


def lockpick(d: Decision, hero_id: str, what: str, h: Hex, code: LockCode) -> bool:
    """A lockpick test (facts: MOVE-5): each attempt rolls three D6; a die
    showing a digit still unmatched matches it, and matched digits stay
    matched (the dice are kept). Success once every digit is matched.
    Shifting dice with light fatigue and spiked key digits are not modelled
    (RULES-COVERAGE.md). An armed Khajiit skips the dice (RACE-KHAJIIT:
    ``hooks.LOCKPICK``)."""
    if any(bypass(d, hero_id, what, h) for bypass in hooks.LOCKPICK):
        return True
    counter = d.state.rng
    left = list(code.digits)
    attempts: list[tuple[int, ...]] = []
    c = counter
    for _ in range(code.attempts):
        faces, c = _roll(d, c)
        attempts.append(faces)
        for f in faces:
            if f in left:
                left.remove(f)
        if not left:
            break
    d.emit(
        ev.LockpickTested(
            hero=hero_id,
            what=what,
            hex=h,
            digits=code.digits,
            attempts=tuple(attempts),
            success=not left,
            counter=counter,
        )
    )
    return not left


def _roll(d: Decision, counter: int) -> tuple[tuple[int, ...], int]:
    outcomes, nxt = rng.draws(d.state.seed, counter, 6, LOCKPICK_DICE)
    return tuple(o + 1 for o in outcomes), nxt
