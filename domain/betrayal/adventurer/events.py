"""What happens to an adventurer between battles, as events of its stream:
joining a campaign, XP gained and spent (the Reward Phase), skill lines
trained, items moved, rest at the End of Day and the end of a session.

Each event records its outcome (the cost paid, the HP healed), so ``evolve``
only applies it; ``advancement``, ``inventory`` and ``campaign.rules``
decide them."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel.messages import Event

from .state import AdventurerEvent, AdventurerState, MatRow


class AdventurerRecruited(AdventurerEvent, frozen=True, kw_only=True):
    """A new adventurer for a campaign: race stats, class, starting dice and
    mat (CLASS-1, HEALTH-1, ADVANCE-7)."""

    TOPIC = "betrayal.AdventurerRecruited"
    state: AdventurerState


class CampaignJoined(AdventurerEvent, frozen=True, kw_only=True):
    """An adventurer made for a battle joins a campaign, taking a class and
    the pack's starting mat if it had none."""

    TOPIC = "betrayal.CampaignJoined"
    campaign: str
    class_id: str
    mat: tuple[MatRow, ...]


class BattleJoined(AdventurerEvent, frozen=True, kw_only=True):
    """A campaign adventurer went into battle ``battle_id``: until it ends,
    the campaign leaves the adventurer be (BETWEEN-1), since the battle
    owns its in-battle state and writes it back at the end (DESIGN)."""

    TOPIC = "betrayal.BattleJoined"
    battle_id: str


class XpGained(AdventurerEvent, frozen=True, kw_only=True):
    """REWARD-1: the rewards of a finished battle (unspent XP rises)."""

    TOPIC = "betrayal.XpGained"
    battle_id: str
    xp: int


class StatRaised(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-2 to ADVANCE-4: a stat token bought for ``cost`` XP into the
    square slot of ``column``; Health also gains the HP (HEALTH-6)."""

    TOPIC = "betrayal.StatRaised"
    stat: str
    cost: int
    column: int


class DieAdded(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-6 to ADVANCE-8: a skill die bought for ``cost`` XP."""

    TOPIC = "betrayal.DieAdded"
    uid: int
    die: str
    cost: int
    column: int


class CooldownRaised(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-9: the peg moved to ``to``, paying the value above the slot."""

    TOPIC = "betrayal.CooldownRaised"
    to: int
    cost: int


class TenacityBought(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-11: 1 XP for each point of current Tenacity."""

    TOPIC = "betrayal.TenacityBought"
    amount: int


class StatUntrained(AdventurerEvent, frozen=True, kw_only=True):
    """HEALTH-9, STAMINA-3, MAGICKA-3: one stat token taken off (no refund);
    Health drops the HP above the new maximum (HEALTH-7). ``line``: Magicka
    was untrained whole, its round slot freed."""

    TOPIC = "betrayal.StatUntrained"
    stat: str
    hp: int  # HP after
    line: bool = False


class DieUntrained(AdventurerEvent, frozen=True, kw_only=True):
    """A skill die taken off its row (the Reward Phase's Untrain step, no
    refund); its line is untrained with its last die, except Combat
    (COMBAT-7)."""

    TOPIC = "betrayal.DieUntrained"
    uid: int
    line: str = ""  # the line untrained with it, if this was its last die


class LineTrained(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-13, ADVANCE-14: a trainer's skill line (or Magicka again) on
    an empty round slot at one end of a row."""

    TOPIC = "betrayal.LineTrained"
    line: str
    row: int
    left: bool


class XpCapped(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-12: unspent XP above the saved cap buys Tenacity up to its
    maximum; the rest is lost."""

    TOPIC = "betrayal.XpCapped"
    kept: int
    tenacity: int
    lost: int


class Rested(AdventurerEvent, frozen=True, kw_only=True):
    """Adventurers Rest at the End of Day (facts: CLEANUP-4c, TRACK-7):
    HP healed, cooldown dice removed (by position on the track), an item
    discarded where the difficulty asks for one."""

    TOPIC = "betrayal.Rested"
    healed: int
    removed: tuple[int, ...] = ()
    discarded: str = ""


class RestForgone(AdventurerEvent, frozen=True, kw_only=True):
    """REST-2: at a difficulty where a rest costs an item (Expert), the
    adventurer kept its items (``held`` is how many; 0: it had none to
    give up) and did not rest: no HP healed, no cooldown die taken off."""

    TOPIC = "betrayal.RestForgone"
    held: int


class PartyFell(AdventurerEvent, frozen=True, kw_only=True):
    """END-1c: every adventurer of ``battle_id`` was defeated. The party's
    next End of Day owes this one its rest (facts: on Expert a wiped party
    heals 1 HP without discarding)."""

    TOPIC = "betrayal.PartyFell"
    battle_id: str


class ItemGiven(AdventurerEvent, frozen=True, kw_only=True):
    """A trade at the End of Day (facts: Adventurers Rest): the item leaves
    this adventurer for ``to`` (a party member's name)."""

    TOPIC = "betrayal.ItemGiven"
    item: str
    to: str


class ItemReceived(AdventurerEvent, frozen=True, kw_only=True):
    """A trade at the End of Day: the item comes into this adventurer's
    Pack from ``giver``, still expended if it was (EXPEND-1)."""

    TOPIC = "betrayal.ItemReceived"
    item: str
    giver: str
    expended: bool = False


class ItemGained(AdventurerEvent, frozen=True, kw_only=True):
    """ITEM-1, READY-1: an item card into a ready slot or the Pack."""

    TOPIC = "betrayal.ItemGained"
    item: str
    ready: bool = False


class ItemMoved(AdventurerEvent, frozen=True, kw_only=True):
    """READY-4: an item moved between the ready slots and the Pack."""

    TOPIC = "betrayal.ItemMoved"
    item: str
    ready: bool


class ItemDiscarded(AdventurerEvent, frozen=True, kw_only=True):
    """An item card leaves the inventory (by choice, OVERTAX-4,
    CONSUMABLE-1, PET-3, ENCHANT-3)."""

    TOPIC = "betrayal.ItemDiscarded"
    item: str
    why: str = ""


class ItemUsed(AdventurerEvent, frozen=True, kw_only=True):
    """ITEM-7: an item used outside battle: what it healed, and whether it
    is now expended (POTION-2, EXPEND-1) or discarded (CONSUMABLE-1)."""

    TOPIC = "betrayal.ItemUsed"
    item: str
    healed: int = 0
    tenacity: int = 0
    recovered: tuple[int, ...] = ()  # positions of the skill dice taken off the track
    expended: bool = False
    discarded: bool = False


class ItemReplenished(AdventurerEvent, frozen=True, kw_only=True):
    """EXPEND-3: an expended potion turned upright at an alchemy station."""

    TOPIC = "betrayal.ItemReplenished"
    item: str


class SessionClosed(AdventurerEvent, frozen=True, kw_only=True):
    """The session ended: Tenacity back to 0 (facts: ADVANCE-11); pets
    (PET-3) and enchantments (ENCHANT-3) are discarded."""

    TOPIC = "betrayal.SessionClosed"
    session: int
    discarded: tuple[str, ...] = ()


class ItemsReturned(AdventurerEvent, frozen=True, kw_only=True):
    """A battle gave back what became of the ready items: those expended in
    it (EXPEND-1) and those discarded (OVERTAX-4, CONSUMABLE-1, PET-3)."""

    TOPIC = "betrayal.ItemsReturned"
    battle_id: str
    expended: tuple[str, ...] = ()  # the ready items expended when it ended
    discarded: tuple[str, ...] = ()
    stowed: tuple[str, ...] = ()  # Overtaxed ready items returned to the Pack (RACE-BRETON)
    readied: tuple[str, ...] = ()  # Pack items moved to a ready slot (RACE-BRETON)
    attached: tuple[str, ...] = ()  # Enchantments attached: out of the inventory for the session (ENCHANT-2)


class CompanionsKept(AdventurerEvent, frozen=True, kw_only=True):
    """CLEANUP-3c: the permanent companion chips the adventurer controls
    after ``battle_id``, placed near its mat for later battles (statuses
    and excess HP gone); a defeated one has left for good (facts §2)."""

    TOPIC = "betrayal.CompanionsKept"
    battle_id: str
    companions: tuple[str, ...]


class PromotionEarned(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-16: in ``battle_id`` the adventurer met its class sheet's
    promotion requirement; it may flip the sheet."""

    TOPIC = "betrayal.PromotionEarned"
    battle_id: str


class ClassPromoted(AdventurerEvent, frozen=True, kw_only=True):
    """ADVANCE-15: the class sheet is turned to its Master side."""

    TOPIC = "betrayal.ClassPromoted"
    class_id: str


def _returned(s: AdventurerState, e: ItemsReturned) -> AdventurerState:
    for item in e.discarded:
        if item in s.items:
            s = _drop(s, item)
    for item in e.stowed:  # RACE-BRETON: back to the Pack
        if item in s.ready:
            s = replace(s, ready=_without(s.ready, item), packed=s.packed + (item,))
    for item in e.readied:  # RACE-BRETON: from the Pack to a ready slot
        if item in s.packed:
            s = replace(s, packed=_without(s.packed, item), ready=s.ready + (item,))
    for item in e.attached:  # ENCHANT-2: not part of the inventory while active; ENCHANT-3: until the session ends
        if item in s.items:
            s = replace(_drop(s, item), enchantments=s.enchantments + (item,))
    packed_expended = tuple(i for i in s.expended if i not in s.ready)
    return replace(s, expended=packed_expended + tuple(i for i in e.expended if i in s.ready))


def evolve(state: AdventurerState, event: Event) -> AdventurerState:
    """The adventurer after a campaign event (other events leave it as is)."""
    handler = _HANDLERS.get(type(event))
    return handler(state, event) if handler else state


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """``items`` less one copy of ``item``."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _stat(s: AdventurerState, e: StatRaised) -> AdventurerState:
    s = replace(s, xp=s.xp - e.cost)
    if e.stat == "health":
        return replace(s, max_hp=s.max_hp + 1, hp=s.hp + 1)  # HEALTH-6
    return replace(s, **{e.stat: getattr(s, e.stat) + 1})


def _untrained(s: AdventurerState, e: StatUntrained) -> AdventurerState:
    if e.stat == "health":
        return replace(s, max_hp=s.max_hp - 1, hp=e.hp)
    if e.line:
        mat = tuple(
            MatRow("" if r.left == "magicka" else r.left, "" if r.right == "magicka" else r.right) for r in s.mat
        )
        return replace(s, magicka=0, mat=mat)
    return replace(s, **{e.stat: getattr(s, e.stat) - 1})


def _die_untrained(s: AdventurerState, e: DieUntrained) -> AdventurerState:
    s = replace(s, dice=tuple(d for d in s.dice if d[0] != e.uid))
    if not e.line:
        return s
    gone = e.line
    mat = tuple(MatRow("" if r.left == gone else r.left, "" if r.right == gone else r.right) for r in s.mat)
    return replace(s, lines=tuple(x for x in s.lines if x != gone), mat=mat)


def _line(s: AdventurerState, e: LineTrained) -> AdventurerState:
    rows = list(s.mat)
    row = rows[e.row]
    rows[e.row] = MatRow(e.line, row.right) if e.left else MatRow(row.left, e.line)
    lines = s.lines if e.line == "magicka" else s.lines + (e.line,)
    return replace(s, mat=tuple(rows), lines=lines)


def _rested(s: AdventurerState, e: Rested) -> AdventurerState:
    track = tuple(t for i, t in enumerate(s.track) if i not in e.removed)
    s = replace(s, hp=s.hp + e.healed, track=track, wiped="")  # END-1c: the rest a wipe-out owed is had
    return _drop(s, e.discarded) if e.discarded else s


def _drop(s: AdventurerState, item: str) -> AdventurerState:
    if item in s.ready:
        s = replace(s, ready=_without(s.ready, item))
    else:
        s = replace(s, packed=_without(s.packed, item))
    if item in s.expended and item not in s.items:
        s = replace(s, expended=_without(s.expended, item))
    return s


def _used(s: AdventurerState, e: ItemUsed) -> AdventurerState:
    s = replace(
        s,
        hp=s.hp + e.healed,
        tenacity=s.tenacity + e.tenacity,
        track=tuple(t for i, t in enumerate(s.track) if i not in e.recovered),
    )
    if e.discarded:
        return _drop(s, e.item)
    if e.expended:
        return replace(s, expended=s.expended + (e.item,))
    return s


def _moved(s: AdventurerState, e: ItemMoved) -> AdventurerState:
    if e.ready:
        return replace(s, packed=_without(s.packed, e.item), ready=s.ready + (e.item,))
    return replace(s, ready=_without(s.ready, e.item), packed=s.packed + (e.item,))


def _session(s: AdventurerState, e: SessionClosed) -> AdventurerState:
    s = replace(s, tenacity=0, enchantments=())  # ENCHANT-3: attached ones end with the session
    for item in e.discarded:
        s = _drop(s, item)
    return s


_HANDLERS = {
    AdventurerRecruited: lambda s, e: e.state,
    CampaignJoined: lambda s, e: replace(s, campaign=e.campaign, class_id=e.class_id or s.class_id, mat=s.mat or e.mat),
    BattleJoined: lambda s, e: replace(s, fighting=e.battle_id),
    XpGained: lambda s, e: replace(s, xp=s.xp + e.xp, earned=s.earned + e.xp, rewarded=s.rewarded + (e.battle_id,)),
    StatRaised: _stat,
    DieAdded: lambda s, e: replace(s, xp=s.xp - e.cost, dice=s.dice + ((e.uid, e.die),)),
    CooldownRaised: lambda s, e: replace(s, xp=s.xp - e.cost, cooldown=e.to),
    TenacityBought: lambda s, e: replace(s, xp=s.xp - e.amount, tenacity=s.tenacity + e.amount),
    StatUntrained: _untrained,
    DieUntrained: _die_untrained,
    LineTrained: _line,
    XpCapped: lambda s, e: replace(s, xp=e.kept, tenacity=s.tenacity + e.tenacity),
    Rested: _rested,
    RestForgone: lambda s, e: s,
    PartyFell: lambda s, e: replace(s, wiped=e.battle_id),
    ItemGiven: lambda s, e: _drop(s, e.item),
    ItemReceived: lambda s, e: replace(
        s, packed=s.packed + (e.item,), expended=s.expended + (e.item,) if e.expended else s.expended
    ),
    ItemGained: lambda s, e: (
        replace(s, ready=s.ready + (e.item,)) if e.ready else replace(s, packed=s.packed + (e.item,))
    ),
    ItemMoved: _moved,
    ItemDiscarded: lambda s, e: _drop(s, e.item),
    ItemUsed: _used,
    ItemReplenished: lambda s, e: replace(s, expended=_without(s.expended, e.item)),
    SessionClosed: _session,
    ItemsReturned: _returned,
    CompanionsKept: lambda s, e: replace(s, companions=e.companions),
    PromotionEarned: lambda s, e: replace(s, promotable=True),
    ClassPromoted: lambda s, e: replace(s, master=True, promotable=False),
}
