"""The Gain Advancements and Untrain steps of the Reward Phase, for one
adventurer (ADVANCE-2 to ADVANCE-14, HEALTH-6/7/9, STAMINA-3, MAGICKA-3,
COMBAT-7). Each function checks the rules and returns the event that
records the outcome, or raises RuleViolation; it never changes the state."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from domain.betrayal.packs.catalog import Pack

from . import events as ae
from .mat import COMBAT, STATS, filled, free_round_slots, line_of, mat_of, next_slot
from .state import AdventurerState


def _pay(state: AdventurerState, cost: int, what: str, rule: str) -> None:
    if cost > state.xp:
        raise RuleViolation(rule, f"{what} costs {cost} XP; {state.name} has {state.xp} unspent")


def raise_stat(state: AdventurerState, stat: str, pack: Pack) -> ae.StatRaised:
    """ADVANCE-2 to ADVANCE-4: a Health, Stamina or Magicka token into the
    next square slot of its row, for that slot's cost."""
    if stat == "magicka" and "magicka" not in {a for row in mat_of(state, pack) for a in (row.left, row.right)}:
        raise RuleViolation(
            "ADVANCE-14", f"{state.name} has untrained Magicka; a trainer adds it again (rk campaign train)"
        )
    slot = next_slot(state, stat, pack)
    _pay(state, slot.cost, f"a {stat} token (column {slot.column + 1})", "ADVANCE-4")
    return ae.StatRaised(stat=stat, cost=slot.cost, column=slot.column)


def add_die(state: AdventurerState, die: str, pack: Pack) -> ae.DieAdded:
    """ADVANCE-6 to ADVANCE-8: a skill die of a trained line, with a die of
    the same or the level below already owned for levels 2 to 4."""
    if die not in pack.dice:
        raise MalformedCommand(f"no skill die {die!r} (see `rk lines`)")
    spec = pack.dice[die]
    line = spec.line
    if line != COMBAT and line not in state.lines:
        raise RuleViolation(
            "ADVANCE-6",
            f"{state.name} has not trained {pack.lines[line].name}; a trainer adds the line first (ADVANCE-7)",
        )
    if line == COMBAT and filled(state, COMBAT, pack) >= (pack.campaign.combat_max if pack.campaign else 14):
        raise RuleViolation("COMBAT-2", f"{state.name} already has every Combat die the supply holds")
    if spec.level >= 2:
        # Facts default (ADVANCE-8): an owned die counts wherever it is.
        levels = {pack.dice[d].level for _, d in state.dice if line_of(pack, d) == line}
        if not levels & {spec.level, spec.level - 1}:
            raise RuleViolation(
                "ADVANCE-8",
                f"a level-{spec.level} {pack.lines[line].name} die needs a level"
                f" {spec.level - 1} or {spec.level} one of that line already",
            )
    slot = next_slot(state, line, pack, "ADVANCE-6")
    _pay(state, slot.cost, f"{spec.name} (column {slot.column + 1})", "ADVANCE-5")
    uid = max((u for u, _ in state.dice), default=0) + 1
    return ae.DieAdded(uid=uid, die=die, cost=slot.cost, column=slot.column)


def raise_cooldown(state: AdventurerState, pack: Pack) -> ae.CooldownRaised:
    """ADVANCE-9, ADVANCE-10: the peg one slot on, paying the new value."""
    top = pack.campaign.max_cooldown if pack.campaign else 6
    if state.cooldown >= top:
        raise RuleViolation("ADVANCE-9", f"{state.name}'s Cooldown is at its highest, {top}")
    to = state.cooldown + 1
    _pay(state, to, f"Cooldown {to}", "ADVANCE-9")
    return ae.CooldownRaised(to=to, cost=to)


def buy_tenacity(state: AdventurerState, amount: int, pack: Pack) -> ae.TenacityBought:
    """ADVANCE-11: 1 XP for each point of current Tenacity, up to its maximum."""
    if amount < 1:
        raise MalformedCommand("buy at least 1 Tenacity")
    top = pack.campaign.max_tenacity if pack.campaign else 10
    if state.tenacity + amount > top:
        raise RuleViolation(
            "ADVANCE-11", f"{state.name} has {state.tenacity} Tenacity of {top}: at most {top - state.tenacity} more"
        )
    _pay(state, amount, f"{amount} Tenacity", "ADVANCE-11")
    return ae.TenacityBought(amount=amount)


def untrain_stat(state: AdventurerState, stat: str, pack: Pack, *, line: bool = False) -> ae.StatUntrained:
    """HEALTH-9, STAMINA-3, MAGICKA-3: a token that raised a stat comes off
    (no refund); only Magicka may go whole (``line``)."""
    race = pack.races[state.race]
    if line:
        if stat != "magicka":
            raise RuleViolation(
                {"health": "HEALTH-9", "stamina": "STAMINA-3"}.get(stat, "COMBAT-7"),
                f"the {stat} line itself cannot be untrained; only Magicka can (MAGICKA-3)",
            )
        if not any("magicka" in (r.left, r.right) for r in mat_of(state, pack)):
            raise RuleViolation("MAGICKA-3", f"{state.name} has no Magicka to untrain")
        return ae.StatUntrained(stat="magicka", hp=state.hp, line=True)
    start = {"health": 0, "stamina": race.stamina, "magicka": 0}[stat]
    if filled(state, stat, pack) <= start:
        rule = {"health": "HEALTH-9", "stamina": "STAMINA-3", "magicka": "MAGICKA-3"}[stat]
        raise RuleViolation(rule, f"{state.name} has no {stat} token bought to untrain")
    hp = min(state.hp, state.max_hp - 1) if stat == "health" else state.hp  # HEALTH-7
    return ae.StatUntrained(stat=stat, hp=hp)


def untrain_die(state: AdventurerState, uid: int, pack: Pack) -> ae.DieUntrained:
    """A skill die off its row (no refund). A line is untrained with its last
    die, but Combat stays (COMBAT-7). A die on the cooldown track is away
    from the mat and cannot be picked (REWARD-2)."""
    owned = dict(state.dice)
    if uid not in owned:
        raise MalformedCommand(f"{state.name} has no die {uid} (see `rk adventurer {state.name}`)")
    if any(t.uid == uid for t in state.track):
        raise RuleViolation("REWARD-2", f"die {uid} is on {state.name}'s cooldown track, away from the mat")
    line = line_of(pack, owned[uid])
    last = filled(state, line, pack) == 1
    return ae.DieUntrained(uid=uid, line=line if last and line != COMBAT else "")


def train_line(state: AdventurerState, line: str, pack: Pack, slot: tuple[int, bool] | None) -> ae.LineTrained:
    """ADVANCE-13, ADVANCE-14: a trainer's skill line (or Magicka again) on
    an empty round slot at one end of a row (the first in reading order
    unless ``slot`` names one)."""
    mat = mat_of(state, pack)
    attributes = {a for row in mat for a in (row.left, row.right) if a}
    if line != "magicka" and line not in pack.lines:
        raise MalformedCommand(f"no skill line {line!r} (see `rk lines`)")
    if line in attributes or line == COMBAT or line in STATS[:2]:
        raise RuleViolation("ADVANCE-13", f"{state.name} already has {line} on the mat")
    free = free_round_slots(mat)
    if not free:
        raise RuleViolation("ADVANCE-13", f"{state.name}'s mat has no empty round slot")
    if slot is not None and slot not in free:
        raise RuleViolation(
            "ADVANCE-13", f"row {slot[0] + 1} {'left' if slot[1] else 'right'} is not an empty round slot"
        )
    row, left = slot or free[0]
    return ae.LineTrained(line=line, row=row, left=left)


def cap_saved_xp(state: AdventurerState, pack: Pack) -> ae.XpCapped | None:
    """ADVANCE-12 (EX-24): unspent XP above the cap buys Tenacity up to its
    maximum, the rest is lost; None when nothing is above the cap."""
    rules = pack.campaign
    cap = rules.saved_xp if rules else 3
    top = rules.max_tenacity if rules else 10
    if state.xp <= cap:
        return None
    excess = state.xp - cap
    gained = min(excess, max(0, top - state.tenacity))
    return ae.XpCapped(kept=cap, tenacity=gained, lost=excess - gained)
