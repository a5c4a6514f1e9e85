"""Applying buffs and debuffs and counting their turns down (BUFF-1 ..
BUFF-7, facts section 5): opposing pairs cancel (BUFF-7), the same kind
keeps the larger (BUFF-6), at most 3 kinds of each class (BUFF-5)."""

from __future__ import annotations

from msgspec.structs import replace

from . import events as ev
from .decision import Decision
from .state import ActiveBuff, Combatant, Options
from .stats import stats
from .vocab import BUFF_KINDS_LIMIT, DEBUFFS, OPPOSING, Buff

_ELEMENTAL = (Buff.ELEMENT, Buff.RESIST, Buff.WEAK)


def same_kind(a: ActiveBuff, b: ActiveBuff) -> bool:
    """One kind: the same buff, on the same element (default: Fire and Ice
    grants are different kinds) or the same pursued character."""
    return a.kind == b.kind and a.element == b.element and a.target == b.target


def opposes(held: ActiveBuff, new: ActiveBuff, options: Options) -> bool:
    """BUFF-7; Resistance/Weakness grant only on the same element (OQ 41 option)."""
    if OPPOSING.get(new.kind) != held.kind:
        return False
    if new.kind in _ELEMENTAL and options.resist_weak_same_element:
        return held.element == new.element
    return True


def is_debuff(b: ActiveBuff) -> bool:
    return b.kind in DEBUFFS


def apply(d: Decision, who: str, new: ActiveBuff) -> None:
    """Put ``new`` on ``who`` by BUFF-5 .. BUFF-7; one BuffsChanged says how."""
    c = d.state.get(who)
    options = d.state.options
    seq = d.state.buff_seq + 1
    new = replace(new, seq=seq, turns=new.turns or options.default_buff_turns)
    held = list(c.buffs)
    against = [b for b in held if opposes(b, new, options)]
    if against:
        kept = tuple(b for b in held if b not in against)
        _emit(d, c, kept, "BUFF-7", f"{new.kind.value} and {against[0].kind.value} cancelled out", seq)
        return
    same = [b for b in held if same_kind(b, new)]
    if same:
        old = same[0]
        stronger = new.amount > old.amount or (
            new.amount == old.amount and (new.turns > old.turns if options.same_buff_keeps_longer else True)
        )
        if not stronger:
            _emit(d, c, tuple(held), "BUFF-6", f"the {new.kind.value} already held is as large", seq)
            return
        kept = tuple(new if b is old else b for b in held)
        _emit(d, c, kept, "BUFF-6", f"the larger {new.kind.value} applies", seq)
        return
    of_class = [b for b in held if is_debuff(b) == is_debuff(new)]
    if len({(b.kind, b.element, b.target) for b in of_class}) >= BUFF_KINDS_LIMIT:
        if not options.buff_limit_drops_oldest:
            _emit(d, c, tuple(held), "BUFF-5", f"already 3 kinds: {new.kind.value} is not applied", seq)
            return
        oldest = min(of_class, key=lambda b: b.seq)
        held.remove(oldest)
        _emit(d, c, tuple(held) + (new,), "BUFF-5", f"already 3 kinds: {oldest.kind.value} dropped", seq)
        return
    _emit(d, c, tuple(held) + (new,), "BUFF-1", "", seq)


def remove(d: Decision, who: str, gone: tuple[ActiveBuff, ...], rule: str, note: str = "") -> None:
    c = d.state.get(who)
    _emit(d, c, tuple(b for b in c.buffs if b not in gone), rule, note, d.state.buff_seq)


def count_down(d: Decision, who: str) -> None:
    """End phase step 5: every duration −1, those at 0 vanish (BUFF-3, BUFF-4)."""
    c = d.state.get(who)
    if not c.buffs:
        return
    left = tuple(replace(b, turns=b.turns - 1) for b in c.buffs)
    gone = [b.kind.value for b in left if b.turns <= 0]
    _emit(
        d, c, tuple(b for b in left if b.turns > 0), "BUFF-4" if gone else "BUFF-3", ", ".join(gone), d.state.buff_seq
    )


def _emit(d: Decision, c: Combatant, buffs: tuple[ActiveBuff, ...], rule: str, note: str, seq: int) -> None:
    # Gaining Max HP up leaves current HP alone; losing it cuts HP to the new maximum (facts default).
    after = replace(c, buffs=buffs)
    hp = min(c.hp, stats(after, d.pack).max_hp) if c.hp > 0 else c.hp
    d.emit(ev.BuffsChanged(who=c.id, buffs=buffs, hp=hp, rule=rule, note=note, seq=seq))
