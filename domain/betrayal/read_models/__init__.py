"""Betrayal's read models, projections of the event log kept up to date by
the projection runner (``projections``), which finds them through
``Ruleset.read_models``: each adventurer's cooldown track and active dice
(``cooldown``), the enemy pool (``pool``), a delve's skyshards
(``skyshards``), the adventurers between battles (``adventurers``) and
their XP ledgers (``xp_ledger``). ``queries`` reads them for `rk track`,
`rk pool`, `rk skyshards`, `rk adventurers` and `rk xp`, given a caught-up
database."""

from __future__ import annotations


def read_models() -> tuple[type, ...]:
    """The projection classes of this package, to register."""
    from .adventurers import AdventurersView
    from .cooldown import CooldownView
    from .pool import PoolView
    from .skyshards import SkyshardView
    from .xp_ledger import XpLedgerView

    return (CooldownView, PoolView, SkyshardView, AdventurersView, XpLedgerView)
