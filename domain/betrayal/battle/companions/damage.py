"""Damage to a companion and its healing (facts §2: HP starts each battle
at full chip HP; a defeated companion leaves the party for good).

A companion chip has no Defense, so every damage instance lands whole;
true damage is the same. Damage and defeat are the battle's own
``DamageDealt`` and ``UnitDefeated`` events naming the companion."""

from __future__ import annotations

from .. import events as ev
from ..decision import Decision


def hurt_ally(d: Decision, companion_id: str, amount: int, *, true_damage: bool, source: str, rule: str) -> int:
    """One damage instance to a companion; returns the HP it lost."""
    a = d.state.companion(companion_id)
    if a.defeated or a.pos is None or amount <= 0:
        return 0
    loss = min(a.hp, amount)
    d.emit(
        ev.DamageDealt(
            source=source,
            target=companion_id,
            amount=amount,
            prevented=0,
            to_bonus=0,
            to_hp=loss,
            true_damage=true_damage,
            hp=a.hp - loss,
            bonus_hp=0,
            rule=rule,
        )
    )
    if a.hp - loss <= 0:
        d.emit(ev.UnitDefeated(unit=companion_id))
    return loss


def heal_ally(d: Decision, companion_id: str, amount: int) -> None:
    """Heal up to the chip's HP (facts: "excess HP" is measured against it)."""
    a = d.state.companion(companion_id)
    gained = min(amount, max(0, a.max_hp - a.hp))
    if gained and not a.defeated:
        d.emit(ev.Healed(unit=companion_id, amount=gained, hp=a.hp + gained, bonus_hp=0))
