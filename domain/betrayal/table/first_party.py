"""The party the lobby's form starts a Betrayal setup with: its example's
party, each member kept where this store lets it join (no adventurer of
that name yet, or one of the same race not in a battle that goes on,
BETWEEN-1), else under the first free name after it (``Ria-2``), so the
first click sets a game up whatever the store holds (a README tour
followed, games already set up)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

FIELDS = ("setup", "delve", "party")  # what a setup needs: the rest keep the builder's defaults
TRIES = 100  # names tried after the example's before giving up on a free one


def starting(example: Mapping[str, Any]) -> Callable[[Any], dict[str, Any]]:
    """``Setup.starts_with`` for a setup whose first example is ``example``."""

    def starts_with(app: Any) -> dict[str, Any]:
        fields = {name: value for name, value in example.items() if name in FIELDS}
        chosen: set[str] = set()
        fields["party"] = [_joinable(app, dict(member), chosen) for member in example.get("party", ())]
        return fields

    return starts_with


def _joinable(app: Any, member: dict[str, Any], chosen: set[str]) -> dict[str, Any]:
    from domain.kernel.errors import NotFound

    from domain.betrayal.battle.application import adventurer

    base = member["name"]
    for n in range(1, TRIES + 1):
        name = base if n == 1 else f"{base}-{n}"
        if name.lower() in chosen:
            continue
        try:
            existing = adventurer(app, name)
        except NotFound:
            existing = None
        if existing is None or (existing.race == member.get("race") and not existing.fighting):
            chosen.add(name.lower())
            return {**member, "name": name}
    return member  # the builder then says why it cannot join
