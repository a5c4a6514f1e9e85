"""Escape (STANDBY-8, facts: Fills STANDBY-8): when the whole party
declares it, everyone in the battle makes an [Evasion] check at once; the
escapers' best must be strictly higher than the other side's best. The
allied NPCs follow the party (facts: Fills SCALE-1, they are of its side):
they need not declare, and are escapers in the check. A Leg bind keeps an
escaper out of the check; with no escaper in it, it fails.

A PC taking part may spend FP on its own check, as declared with its
Escape (facts: Fills FUMBLE-2, the machinery of ``fp.py``): +1D6 per FP,
the best 2 kept (OQ 4: everything is judged on those 2); and a reroll of
its check if the escape fails, once, for ``fp_reroll_cost`` FP (OQ 18),
its added dice rolled again with it. Rerolls are taken one after another
in the check's order, each only while the escape still fails. The check
is judged on totals only (no absolute success or failure, as before), and
gives no FP from its 1s: the facts give FP for 1s on an action check,
while STANDBY-8 calls Escape a special check (see the coverage notes)."""

from __future__ import annotations

from . import events as ev
from .decision import Decision
from .fp import KEPT, Boost, judge
from .stats import stats
from .vocab import Bind, Side, Termination


def unanimous(d: Decision, escapers: set[str]) -> bool:
    """Every PC still up declared Escape (allied NPCs and tokens follow the party)."""
    party = [c.id for c in d.state.side(True) if c.side is Side.PC and not c.down]
    return bool(party) and all(cid in escapers for cid in party)


def spending(d: Decision, takers: tuple[str, ...], boosts: dict[str, Boost]) -> dict[str, Boost]:
    """What each PC taking part can still pay of the FP it declared
    (FUMBLE-2): its extra dice if it holds them, then the reroll's cost if
    it holds that too; nothing for a PC kept out of the check."""
    out: dict[str, Boost] = {}
    cost = d.state.options.fp_reroll_cost
    for who in takers:
        b, c = boosts.get(who), d.state.get(who)
        if b is None or c.side is not Side.PC:
            continue
        dice = b.dice if 0 < b.dice <= c.fp else 0
        reroll = b.reroll and c.fp - dice >= cost
        if dice or reroll:
            out[who] = Boost(who=who, dice=dice, reroll=reroll)
    return out


def attempt(d: Decision, escapers: set[str], boosts: dict[str, Boost] | None = None) -> bool:
    """Everyone's check in one event; the battle ends if the party got away.
    ``boosts``: the FP each escaping PC declared for its check (FUMBLE-2)."""
    everyone = [c for c in d.state.combatants if not c.down]
    # the allied NPCs (and tokens) follow the party: they escape with it, so they are of the escaping side
    takers = tuple(c.id for c in everyone if (c.id in escapers or c.side is Side.NPC) and not c.bound(Bind.LEG))
    spend = spending(d, takers, boosts or {})
    counts = tuple(KEPT + (spend[c.id].dice if c.id in spend else 0) for c in everyone)
    faces, counter = d.roll(
        sum(counts),
        who=takers[0] if takers else everyone[0].id,
        rule="STANDBY-8",
        what="Escape: everyone's [Evasion] check, in battle order",
    )
    starts = [sum(counts[:i]) for i in range(len(counts))]
    checks = [faces[a : a + n] for a, n in zip(starts, counts)]
    evasion = [stats(c, d.pack).evasion for c in everyone]

    def outcome() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], bool]:
        kept = tuple(judge(f, n - KEPT)[0] for f, n in zip(checks, counts))  # the best 2 when dice were added
        totals = tuple(sum(k) + e for k, e in zip(kept, evasion))
        best = {c.id: t for c, t in zip(everyone, totals)}
        ours = max((best[cid] for cid in takers), default=None)
        theirs = max((best[c.id] for c in everyone if not c.pc_side), default=0)
        return kept, totals, ours is not None and ours > theirs  # a tie fails: the escapers are the active side

    kept, totals, escaped = outcome()
    rerolled: list[str] = []
    for i, c in enumerate(everyone):
        if escaped:
            break
        if c.id in spend and spend[c.id].reroll:
            # the same counter, further on: the new faces follow the ones already rolled
            faces = d.more(faces, counts[i], who=c.id, rule="STANDBY-8", what=f"{c.id}'s Escape check, rerolled")
            checks[i] = faces[-counts[i] :]
            rerolled.append(c.id)
            kept, totals, escaped = outcome()
    for who, b in spend.items():
        if b.dice:
            d.emit(ev.FpSpent(who=who, amount=b.dice, reason="extra dice"))
    for who in rerolled:
        d.emit(ev.FpSpent(who=who, amount=d.state.options.fp_reroll_cost, reason="reroll"))
    detailed = bool(rerolled) or any(b.dice for b in spend.values())
    d.emit(
        ev.EscapeRolled(
            ids=tuple(c.id for c in everyone),
            faces=faces,
            counter=counter,
            totals=totals,
            takers=takers,
            escaped=escaped,
            dice=counts if any(n != KEPT for n in counts) else (),
            rerolled=tuple(rerolled),
            kept=tuple(f for k in kept for f in k) if detailed else (),
        )
    )
    if escaped:
        d.emit(ev.BattleEnded(termination=Termination.ESCAPED))  # no drop rolls after an escape
    return escaped
