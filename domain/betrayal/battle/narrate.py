"""One readable line per event, citing the rule an event carries.

``describe(event, state)`` is given the battle as it stood just before the
event, so names can be looked up and "before" values shown. A command's
header event narrates as the `rk` command that gave it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, singledispatch

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.delve import aggregate as dv
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.vocab import Objective

from . import events as ev
from .citations import cited_rule, concluded_rule
from .state import BattleState, DieKind
from domain.kernel.hexes import label, name
from domain.kernel.messages import Event

from .names import die_name, rolled_face, unit_name


def describe(event: Event, state: BattleState | None, pack: Pack | None = None) -> str:
    """A short line saying what ``event`` did, e.g.
    ``ENGAGE-4: Ysolda gains 1 light fatigue``. ``pack`` names dice and
    enemies; the starter pack by default. Events of a battle's other
    streams (its Delve, its adventurers) are narrated too, ``state`` being
    the battle as it stood then (for names) when it is at hand."""
    kind = type(event)
    told = _told.get(kind)
    if told is None or _told_of != len(_describe.registry):
        told = _teller(kind)
    return told(event, state, pack or _starter())


# Each event class's handler, found once (``singledispatch``'s own call looks
# it up in a weak dictionary at every event: a few per cent of a long log),
# and found again once another handler is registered (``campaign.narrate``
# registers the adventurer's events after this module is imported).
_told: dict[type, Callable[[Event, BattleState | None, Pack], str]] = {}
_told_of: int = 0  # how many handlers were registered when ``_told`` was filled


def _teller(kind: type) -> Callable[[Event, BattleState | None, Pack], str]:
    global _told_of
    registered = len(_describe.registry)
    if registered != _told_of:
        _told.clear()
        _told_of = registered
    told = _told[kind] = _describe.dispatch(kind)
    return told


@lru_cache(maxsize=1)
def _starter() -> Pack:
    from domain.betrayal.packs.load import starter_pack

    return starter_pack()


# Each handler is registered for the class it names: ``register`` reading it
# from the annotation (a string here) runs ``typing.get_type_hints`` on every
# handler, most of this module's import (~3 ms of every `rk` command that narrates).
@singledispatch
def _describe(event, state, pack) -> str:
    return type(event).__name__


def _cite(rule: str, text: str) -> str:
    return f"{rule}: {text}" if rule else text


def _who(state: BattleState | None, pack: Pack, unit: str) -> str:
    return unit_name(state, pack, unit) if state is not None else unit


def _path(path) -> str:
    return " → ".join(name(h) for h in path)


def _mode(state: BattleState | None, pack: Pack) -> str:
    """ "delve", "dungeon" or "clash": what the battle in ``state`` is ("" unknown)."""
    if state is None:
        return ""
    return _mode_of(state.setup, pack)


def _mode_of(setup: str, pack: Pack) -> str:
    if setup in pack.delves:
        return "delve"
    return "dungeon" if setup in pack.dungeons else "clash"


def _card(pack: Pack, card_id: str) -> str:
    card = pack.cards.get(card_id)
    return card.name if card else card_id


def _tile(pack: Pack, tile_id: str) -> str:
    tile = pack.tiles.get(tile_id)
    return tile.name if tile else tile_id


def _item(pack: Pack, item_id: str) -> str:
    item = pack.items.get(item_id)
    return item.name if item else item_id


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


# --- the command log -------------------------------------------------------------


# --- setup -----------------------------------------------------------------------


@_describe.register(ev.BattleStarted)
def _(e: ev.BattleStarted, state, pack) -> str:
    names = ", ".join(h.name for h in e.party)
    mode = _mode_of(e.setup, pack)
    if mode == "delve":
        found = pack.delves[e.setup]
        each = e.xp * len(e.party)
        return (
            f"Delve {e.battle_id} on {e.setup}: objective {e.objective.value},"
            f" {_plural(found.skyshards, 'skyshard')} (SKYSHARD-3), {e.difficulty.value},"
            f" XP {e.xp} → EP {each} per tile (DELVE-4), seed {e.seed}; party {names}"
        )
    return (
        f"{'Dungeon' if mode == 'dungeon' else 'Clash'} {e.battle_id} on {e.setup}:"
        f" objective {e.objective.value}, {e.difficulty.value},"
        f" XP {e.xp} → EP {e.ep} (EP-2), seed {e.seed}; party {names}"
    )


@_describe.register(ev.CachePlaced)
def _(e: ev.CachePlaced, state, pack) -> str:
    rule = {"delve": "EXPLORATION-10", "dungeon": "DUNGEON-7"}.get(_mode(state, pack)) or cited_rule(e)
    return _cite(rule, f"a {e.kind.value} cache on {label(e.hex)}")


@_describe.register(ev.EnemyPlaced)
def _(e: ev.EnemyPlaced, state, pack) -> str:
    enemy = pack.enemies.get(e.enemy)
    name = enemy.name if enemy else e.enemy
    kind = "quest unit" if e.quest else f"level {e.level}, {e.ep_left} EP left"
    mode = _mode(state, pack)
    rule = cited_rule(e)
    if mode == "delve" and not e.quest:
        rule = "EXPLORATION-11b"
    elif mode == "dungeon":
        rule = "DUNGEON-8d" if e.quest else "DUNGEON-8a"
    return _cite(rule, f"{e.foe} {name} ({e.hp} HP, {kind}) placed on {label(e.hex)}")


@_describe.register(ev.EnemyPoolClosed)
def _(e: ev.EnemyPoolClosed, state, pack) -> str:
    return f"the enemy pool closes, {e.discarded} EP discarded ({e.reason})"


@_describe.register(ev.AdventurerPlaced)
def _(e: ev.AdventurerPlaced, state, pack) -> str:
    rule = {"delve": "DELVE-10", "dungeon": "DUNGEON-9"}.get(_mode(state, pack)) or cited_rule(e)
    return _cite(rule, f"{_who(state, pack, e.hero)} placed on {label(e.hex)} in {e.form.value} form")


# --- rounds and turns ------------------------------------------------------------


@_describe.register(ev.RoundStarted)
def _(e: ev.RoundStarted, state, pack) -> str:
    return f"Round {e.round} begins" + (" — FATIGUE-ROUND-1: the Fatigue Round" if e.fatigue_round else "")


@_describe.register(ev.TurnStarted)
def _(e: ev.TurnStarted, state, pack) -> str:
    return f"{_who(state, pack, e.hero)}'s turn"


@_describe.register(ev.DiceRecovered)
def _(e: ev.DiceRecovered, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    got = [die_name(pack, hero, u) for u in e.recovered] if hero else [f"#{u}" for u in e.recovered]
    parts = []
    if got:
        parts.append("recovers " + ", ".join(got))
    if e.discarded:
        parts.append("discards " + ", ".join(_kind(t.kind, t.status) for t in e.discarded))
    if e.replaced_overfatigue:
        parts.append(f"moves {e.replaced_overfatigue} overfatigue to the end (RECOVER-4)")
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} " + ("; ".join(parts) or "has nothing to recover"))


@_describe.register(ev.TurnEnded)
def _(e: ev.TurnEnded, state, pack) -> str:
    return f"{_who(state, pack, e.hero)} ends the turn"


@_describe.register(ev.EnemyTurnStarted)
def _(e: ev.EnemyTurnStarted, state, pack) -> str:
    return f"{_who(state, pack, e.foe)}'s turn"


@_describe.register(ev.EnemyTurnEnded)
def _(e: ev.EnemyTurnEnded, state, pack) -> str:
    return f"{e.foe} ends its turn"


@_describe.register(ev.RoundEnded)
def _(e: ev.RoundEnded, state, pack) -> str:
    return f"Round {e.round} ends"


@_describe.register(ev.PartyRetreated)
def _(e: ev.PartyRetreated, state, pack) -> str:
    return _cite(cited_rule(e), f"the party retreats at the end of round {e.round}")


@_describe.register(ev.BattleEnded)
def _(e: ev.BattleEnded, state, pack) -> str:
    return f"The battle ends in {e.outcome.value.upper()} — {e.reason}"


@_describe.register(ev.HeroCleanedUp)
def _(e: ev.HeroCleanedUp, state, pack) -> str:
    kept = f"{len(e.track)} dice stay on the track (CLEANUP-4c)" if e.track else "an empty track"
    back = f", recovers {len(e.drained_recovered)} drained (CLEANUP-4b)" if e.drained_recovered else ""
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} leaves with {e.hp} HP and {kept}{back}")


# --- actions ---------------------------------------------------------------------


@_describe.register(ev.HeroMoved)
def _(e: ev.HeroMoved, state, pack) -> str:
    start = ""
    if state is not None and state.hero(e.hero).pos is not None:
        start = label(state.hero(e.hero).pos) + " → "
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} moves {start}{_path(e.path)}")


@_describe.register(ev.EngageDeclared)
def _(e: ev.EngageDeclared, state, pack) -> str:
    target = f" at {_who(state, pack, e.target)}" if e.target else " without a target"
    return f"{_who(state, pack, e.hero)} engages in {e.form.value} form{target} (engage {e.number} this turn)"


@_describe.register(ev.FatigueGained)
def _(e: ev.FatigueGained, state, pack) -> str:
    text = f"{_who(state, pack, e.hero)} gains {e.count} {_kind(e.kind)}"
    return _cite(cited_rule(e), text + _newly_drained(state, pack, e.hero, e.drained))


@_describe.register(ev.DiceRolled)
def _(e: ev.DiceRolled, state, pack) -> str:
    hero = None
    if state is not None:
        hero = next((h for h in state.heroes if h.id == e.unit), None)
    shown = []
    for r in e.dice:
        name = f"{die_name(pack, hero, r.uid)} " if hero else ""
        if hero and r.uid == 0:  # a free enemy Combat die in an adventurer's roll (RACE-NORD)
            name = "free enemy die "
        shown.append(f"{name}{rolled_face(pack, r.die, r.face)}")
    how = "'s dice as typed" if e.typed else " rolls"
    return f"{_who(state, pack, e.unit)}{how}: " + ", ".join(shown)


@_describe.register(ev.TenacityGained)
def _(e: ev.TenacityGained, state, pack) -> str:
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} gains {e.amount} Tenacity (now {e.tenacity})")


@_describe.register(ev.DieExhausted)
def _(e: ev.DieExhausted, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    name = die_name(pack, hero, e.uid) if hero else f"#{e.uid}"
    face = f" showing {e.face + 1}" if e.face >= 0 else ""
    text = f"{_who(state, pack, e.hero)}'s {name}{face} goes to the cooldown track"
    return _cite(cited_rule(e), text + _newly_drained(state, pack, e.hero, e.drained))


@_describe.register(ev.DieDrained)
def _(e: ev.DieDrained, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    name = die_name(pack, hero, e.uid) if hero else f"#{e.uid}"
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)}'s {name} is drained until the battle ends")


@_describe.register(ev.ActiveChanged)
def _(e: ev.ActiveChanged, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    slots = []
    for a in e.active:
        name = die_name(pack, hero, a.uid) if hero and a.kind is DieKind.SKILL else _kind(a.kind)
        slots.append(f"{name} ({a.amount})")
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)}'s active slots: " + (", ".join(slots) or "empty"))


@_describe.register(ev.StatusPlaced)
def _(e: ev.StatusPlaced, state, pack) -> str:
    owner = _who(state, pack, e.mark.owner)
    return _cite(cited_rule(e), f"{owner} puts {e.mark.status.value} on {_who(state, pack, e.foe)}")


@_describe.register(ev.StatusLifted)
def _(e: ev.StatusLifted, state, pack) -> str:
    return _cite(cited_rule(e), f"{e.status.value} comes off {_who(state, pack, e.foe)}")


@_describe.register(ev.HeroStatusGained)
def _(e: ev.HeroStatusGained, state, pack) -> str:
    again = " again (refreshed)" if e.refreshed else ""
    return f"{_who(state, pack, e.hero)} gains {e.status.value}{again}" + _newly_drained(state, pack, e.hero, e.drained)


@_describe.register(ev.HeroStatusLost)
def _(e: ev.HeroStatusLost, state, pack) -> str:
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} loses {e.status.value}")


@_describe.register(ev.DamageDealt)
def _(e: ev.DamageDealt, state, pack) -> str:
    taken = e.to_hp + e.to_bonus
    kind = "true damage" if e.true_damage else "damage"
    notes = []
    if e.prevented:
        notes.append(f"{e.prevented} prevented")
    if e.to_bonus:
        notes.append(f"{e.to_bonus} from bonus HP")
    note = f" ({e.amount} dealt, " + ", ".join(notes) + ")" if notes else ""
    source = _who(state, pack, e.source)
    return _cite(
        cited_rule(e), f"{_who(state, pack, e.target)} takes {taken} {kind} from {source}{note}, {e.hp} HP left"
    )


@_describe.register(ev.Healed)
def _(e: ev.Healed, state, pack) -> str:
    bonus = f" (+{e.bonus_hp} bonus)" if e.bonus_hp else ""
    return f"{_who(state, pack, e.unit)} heals {e.amount}: {e.hp} HP{bonus}"


@_describe.register(ev.UnitDefeated)
def _(e: ev.UnitDefeated, state, pack) -> str:
    return f"{_who(state, pack, e.unit)} is defeated"


@_describe.register(ev.EngageResolved)
def _(e: ev.EngageResolved, state, pack) -> str:
    return f"{_who(state, pack, e.hero)}'s engage is resolved"


@_describe.register(ev.EnemyMoved)
def _(e: ev.EnemyMoved, state, pack) -> str:
    start = ""
    if state is not None and state.foe(e.foe).pos is not None:
        start = label(state.foe(e.foe).pos) + " → "
    return _cite(cited_rule(e), f"{_who(state, pack, e.foe)} moves {start}{_path(e.path)}")


@_describe.register(ev.EnemyEngaged)
def _(e: ev.EnemyEngaged, state, pack) -> str:
    targets = ", ".join(_who(state, pack, t) for t in e.targets) or "nobody"
    return _cite(cited_rule(e), f"{_who(state, pack, e.foe)} engages {targets}")


@_describe.register(ev.EnemyRollAwaited)
def _(e: ev.EnemyRollAwaited, state, pack) -> str:
    faces = ",".join("F" for _ in range(e.dice))
    dice = "die" if e.dice == 1 else "dice"
    return _cite(cited_rule(e), f"roll {e.foe}'s {e.dice} {dice} and type the faces: rk roll-enemy {faces}")


# --- delves: the battle's own events ----------------------------------------------


@_describe.register(ev.Explored)
def _(e: ev.Explored, state, pack) -> str:
    card = pack.cards.get(e.card)
    if e.entered:
        how = "on entering it (EXPLORATION-3a)"
    else:
        hero = state.hero(e.hero) if state is not None else None
        start = f" from {name(hero.pos)}" if hero is not None and hero.pos is not None else ""
        how = f"with the Explore action{start} (EXPLORATION-4)"
    shape = f", a {card.shape} tile" if card else ""
    return _cite(
        cited_rule(e),
        f"{_who(state, pack, e.hero)} explores {name(e.hex)} {how}: delve card {_card(pack, e.card)}{shape}",
    )


@_describe.register(ev.EnemyPoolOpened)
def _(e: ev.EnemyPoolOpened, state, pack) -> str:
    text = f"tile {e.tile} gets a fresh EP of {e.ep}"
    if state is not None:
        base = state.xp * len(state.heroes)
        text += f" (XP {state.xp} x party size {len(state.heroes)}"
        text += f" + {e.ep - base} from the card, EXPLORATION-8)" if e.ep != base else ")"
    return _cite(cited_rule(e), text)


@_describe.register(ev.HeroStepped)
def _(e: ev.HeroStepped, state, pack) -> str:
    start = ""
    if state is not None and state.hero(e.hero).pos is not None:
        start = name(state.hero(e.hero).pos) + " → "
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} goes on with the same move, {start}{_path(e.path)}")


@_describe.register(ev.LockpickTested)
def _(e: ev.LockpickTested, state, pack) -> str:
    code = ",".join(str(d) for d in e.digits)
    rolls = " then ".join(",".join(str(f) for f in a) for a in e.attempts)
    what = f"the lock of the cache on {name(e.hex)}" if e.what == "cache" else f"the trap at {name(e.hex)}"
    if e.what == "cache":
        outcome = "picked" if e.success else "it holds"
    else:
        outcome = "disarmed" if e.success else "it springs"
    return _cite(
        cited_rule(e),
        f"{_who(state, pack, e.hero)} tests {what} (lockpick test, facts: MOVE-5; code {code}):"
        f" rolls {rolls} — {outcome}",
    )


@_describe.register(ev.CacheOpened)
def _(e: ev.CacheOpened, state, pack) -> str:
    if e.success:
        text = f"{_who(state, pack, e.hero)} opens the cache on {name(e.hex)}; its chip leaves the map"
    else:
        text = f"the cache on {name(e.hex)} stays shut; its chip leaves the map"
    return _cite(cited_rule(e), text)


# --- delves: the Delve stream --------------------------------------------------------


@_describe.register(dv.DelveBegun)
def _(e: dv.DelveBegun, state, pack) -> str:
    d = e.state
    piles = ", ".join(f"{len(tiles)} {shape}" for shape, tiles in d.piles)
    aside = [card for card, spec in pack.cards.items() if spec.sp and card not in d.deck] if pack else []
    held = f" ({_plural(len(aside), 'card')} marked SP set aside, CLEANUP-6)" if aside else ""
    items = d.item_deck
    dealt = (
        (
            f"; the campaign's item deck: {_plural(len(items.cards), 'card')}, {len(items.discards)} on its"
            " discard pile (ITEM-9)"
        )
        if items is not None
        else ""
    )
    return _cite(
        cited_rule(e),
        f"the Entrance is placed; tiles face down by shape ({piles}), a delve deck of"
        f" {_plural(len(d.deck), 'card')}{held}; {_plural(d.required, 'skyshard')} required" + dealt,
    )


@_describe.register(dv.CardDrawn)
def _(e: dv.CardDrawn, state, pack) -> str:
    how = "entered" if e.entered else "explored from a distance"
    return _cite(
        cited_rule(e),
        f"delve card {_card(pack, e.card)} drawn for {name(e.hex)}"
        f" ({how} by {_who(state, pack, e.hero)}); the tile's EP will be {e.tile_ep}",
    )


@_describe.register(dv.ShortageSkyshard)
def _(e: dv.ShortageSkyshard, state, pack) -> str:
    return _cite(
        cited_rule(e),
        f"no {e.shape} tile is left: {_card(pack, e.card)} lies face down and counts"
        " as a skyshard obtained; the hex stays explorable",
    )


@_describe.register(dv.TileDrawn)
def _(e: dv.TileDrawn, state, pack) -> str:
    where = "from its pile" if e.draw >= 0 else "from under its pile"
    return _cite(cited_rule(e), f"the {e.shape} tile {_tile(pack, e.tile)} is drawn {where}")


@_describe.register(dv.TileEpRaised)
def _(e: dv.TileEpRaised, state, pack) -> str:
    return _cite(cited_rule(e), f"When Revealed: the tile's EP rises by {e.amount}")


@_describe.register(dv.TilePlaced)
def _(e: dv.TilePlaced, state, pack) -> str:
    p = e.placed
    return _cite(
        cited_rule(e),
        f"{_tile(pack, p.tile)} is connected as tile {p.key}, turned {p.rotation}"
        f" sixth{'' if p.rotation == 1 else 's'} clockwise, its first hex on {name(p.origin)}"
        f" (rk place-tile --rotation {p.rotation} --origin {name(p.origin)})",
    )


@_describe.register(dv.TileReturned)
def _(e: dv.TileReturned, state, pack) -> str:
    return _cite(
        cited_rule(e),
        f"{_tile(pack, e.tile)} fits nowhere: {_card(pack, e.card)} is discarded and"
        f" the tile goes under the {e.shape} pile",
    )


@_describe.register(dv.CardKept)
def _(e: dv.CardKept, state, pack) -> str:
    shards = f", {_plural(e.skyshards, 'skyshard')} to take there (SKYSHARD-1)" if e.skyshards else ""
    return _cite(cited_rule(e), f"{_card(pack, e.card)} lies face up beside tile {e.tile}{shards}")


@_describe.register(dv.CardDiscarded)
def _(e: dv.CardDiscarded, state, pack) -> str:
    return _cite(cited_rule(e), f"{_card(pack, e.card)} is discarded (nothing lasting on it)")


@_describe.register(dv.SkyshardObtained)
def _(e: dv.SkyshardObtained, state, pack) -> str:
    if not e.count:  # every required skyshard was held already
        return _cite(
            cited_rule(e),
            f"{_who(state, pack, e.hero)} obtains the skyshards on tile {e.tile}"
            f" ({_card(pack, e.card)}): every one required is held, so they are ignored"
            " (SKYSHARD-9), and the card's skyshard effect resolves all the same",
        )
    return _cite(
        cited_rule(e),
        f"{_who(state, pack, e.hero)} obtains {_plural(e.count, 'skyshard')} on tile {e.tile} ({_card(pack, e.card)})",
    )


@_describe.register(dv.TurnMarked)
def _(e: dv.TurnMarked, state, pack) -> str:
    m = e.marks
    parts = []
    if m.explored:
        parts.append("has taken the Explore action (EXPLORE-3: no move this turn)")
    if m.spent:
        parts.append(
            "must leave " + ", ".join(name(h) for h in m.spent) + " before exploring it again (EXPLORATION-7b)"
        )
    if m.resume:
        parts.append(f"may go on moving {_plural(m.resume, 'hex', 'hexes')}")
    who = _who(state, pack, m.hero)
    if not parts:
        return _cite(cited_rule(e), f"{who}'s exploration marks start afresh for this turn")
    return _cite(cited_rule(e), f"{who} " + "; ".join(parts))


@_describe.register(dv.ItemFound)
def _(e: dv.ItemFound, state, pack) -> str:
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} finds {_item(pack, e.item)} in the cache")


@_describe.register(dv.ItemCycled)
def _(e: dv.ItemCycled, state, pack) -> str:
    return _cite(cited_rule(e), f"{_item(pack, e.item)} goes under the item deck")


@_describe.register(dv.ItemDeckReshuffled)
def _(e: dv.ItemDeckReshuffled, state, pack) -> str:
    kind = "Legendary" if e.legendary else "Common"
    return _cite(
        cited_rule(e),
        f"the {kind} item deck ran out: its discard pile of {_plural(len(e.cards), 'card')} is shuffled into the tray",
    )


@_describe.register(dv.TrapSprung)
def _(e: dv.TrapSprung, state, pack) -> str:
    return _cite(cited_rule(e), f"the trap of tile {e.tile} is tested (once)")


@_describe.register(dv.DelveConcluded)
def _(e: dv.DelveConcluded, state, pack) -> str:
    objective = state.objective if state is not None else None
    rule = concluded_rule(e, objective if objective in (Objective.SURVEY, Objective.UNCOVER) else None)
    xp = f", {e.xp} XP (OBJ-10)" if e.xp else ""
    return _cite(
        rule, f"the delve ends in {e.outcome.upper()} with {_plural(e.skyshards, 'skyshard')}{xp} — {e.reason}"
    )


@_describe.register(dv.DelveRestored)
def _(e: dv.DelveRestored, state, pack) -> str:
    return _cite(cited_rule(e), "the delve is back as it was before the undone command")


# --- the adventurers' own streams --------------------------------------------------------


@_describe.register(adv.AdventurerCreated)
def _(e: adv.AdventurerCreated, state, pack) -> str:
    a = e.state
    return _cite(cited_rule(e), f"{a.name} the {a.race} is created: {a.hp} HP, lines {', '.join(a.lines) or '—'}")


@_describe.register(adv.BattleConcluded)
def _(e: adv.BattleConcluded, state, pack) -> str:
    return _cite(
        cited_rule(e),
        f"battle {e.battle_id} ({e.outcome.value}) is written back: {e.hp} HP,"
        f" Tenacity {e.tenacity}, {_plural(len(e.track), 'die', 'dice')} on the track",
    )


@_describe.register(adv.AdventurerRestored)
def _(e: adv.AdventurerRestored, state, pack) -> str:
    return _cite(cited_rule(e), f"{e.restored.name} is back as before the undone command")


# --- race abilities and the choose-defense option ---------------------------------------


def _ability(race: str, pack: Pack) -> str:
    """The race's once-per-battle ability by its name on the race sheet."""
    found = pack.races.get(race)
    return found.ability if found is not None else race


@_describe.register(ev.RaceAbilityArmed)
def _(e: ev.RaceAbilityArmed, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.hero)} readies {_ability(e.race, pack)} (once per battle)")


@_describe.register(ev.HuntersEyeArmed)
def _(e: ev.HuntersEyeArmed, state, pack) -> str:
    who = " and ".join(_who(state, pack, t) for t in e.targets)
    return _cite(e.rule, f"{_who(state, pack, e.hero)} readies Hunter's Eye for {who}, before the next enemy's turn")


@_describe.register(ev.RaceAbilityUsed)
def _(e: ev.RaceAbilityUsed, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.hero)} uses {_ability(e.race, pack)}, its race ability for this battle")


@_describe.register(ev.TrackDiceRecovered)
def _(e: ev.TrackDiceRecovered, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    names = ", ".join(die_name(pack, hero, u) if hero else f"#{u}" for u in e.recovered)
    return _cite(e.rule, f"{_who(state, pack, e.hero)} recovers {names}, each leaving 1 light fatigue in its place")


@_describe.register(ev.TrackDiceRemoved)
def _(e: ev.TrackDiceRemoved, state, pack) -> str:
    removed = ", ".join(_kind(t.kind, t.status) for t in e.removed)
    return _cite(e.rule, f"{_who(state, pack, e.hero)} removes {removed} from its cooldown track")


@_describe.register(ev.HeroReplaced)
def _(e: ev.HeroReplaced, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.hero)} is placed on the Entrance at {label(e.hex)}")


@_describe.register(ev.LockpickBypassed)
def _(e: ev.LockpickBypassed, state, pack) -> str:
    return _cite(
        e.rule,
        f"{_who(state, pack, e.hero)} opens the {e.what} at {label(e.hex)} without rolling,"
        f" and may move {e.free_move} hexes freely this turn",
    )


@_describe.register(ev.HeroMovedFreely)
def _(e: ev.HeroMovedFreely, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.hero)} moves freely {_path(e.path)} ({e.left} hexes left)")


@_describe.register(ev.DamagePrevented)
def _(e: ev.DamagePrevented, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.hero)} prevents {e.amount} damage")


@_describe.register(ev.DefenseAwaited)
def _(e: ev.DefenseAwaited, state, pack) -> str:
    return _cite(
        cited_rule(e),
        f"{_who(state, pack, e.foe)} strikes {_who(state, pack, e.hero)} for {e.amount}:"
        " choose the blocks and reaction (rk defend)",
    )


@_describe.register(ev.DefenseChosen)
def _(e: ev.DefenseChosen, state, pack) -> str:
    blocks = "slots " + ", ".join(str(i + 1) for i in e.blocks) if e.blocks else "no active dice"
    race = ", with its race reaction" if e.race else ""
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} defends with {blocks}{race}")


# --- items in battle (ITEM-*) --------------------------------------------------------


def _item_line(e, state, pack) -> str:
    from .items import narrate as item_narrate

    return item_narrate.text(e, lambda unit: _who(state, pack, unit), pack)


def _register_items() -> None:
    from .items import narrate as item_narrate

    for kind in item_narrate.EVENTS:
        _describe.register(kind)(_item_line)


_register_items()


# --- class abilities (CLASS-*) ---------------------------------------------------------


def _class_line(e, state, pack) -> str:
    from .abilities import class_narrate

    return class_narrate.text(e, lambda unit: _who(state, pack, unit), pack)


def _register_classes() -> None:
    from .abilities import class_narrate

    for kind in class_narrate.EVENTS:
        _describe.register(kind)(_class_line)


_register_classes()


def _register_companions() -> None:
    from .companions import narrate as companion_narrate

    for kind, line in companion_narrate.LINES.items():
        _describe.register(kind)(line)


_register_companions()


# --- helpers ---------------------------------------------------------------------


def _kind(kind: DieKind, status=None) -> str:
    if kind is DieKind.STATUS and status is not None:
        return f"{status.value} status die"
    return kind.value.replace("-", " ")


def _newly_drained(state, pack, hero_id: str, drained: tuple[int, ...]) -> str:
    """A full track drains dice (TRACK-9); say which, when it happens."""
    if state is None:
        return ""
    hero = state.hero(hero_id)
    new = [u for u in drained if u not in hero.drained]
    if not new:
        return ""
    return " — TRACK-9: the track overflows, draining " + ", ".join(die_name(pack, hero, u) for u in new)
