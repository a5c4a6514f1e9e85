"""What a Conquest position cannot hold (``Ruleset.check_position``),
first flaw first, each named by its field:

- each side's army, each Regiment's and Character's army-list entry, are
  the pack's;
- a Regiment has no more stands than its entry gives, and none fewer than
  nothing;
- every Command Card in a Command Stack is one of that side's Regiments or
  Characters, and is there once (CMD-1, CMD-2);
- a Character joins a Regiment there is; Regiments in contact are there.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.kernel.position.rules import Flaw

from .catalog import Pack
from .state import ConquestState


def flaws(state: ConquestState, pack: Pack) -> list[Flaw]:
    """Every flaw of the position, in the order a reader meets them."""
    return [*_armies(state, pack), *_stacks(state), *_links(state)]


def _armies(state: ConquestState, pack: Pack) -> Iterator[Flaw]:
    armies = [pack.armies.get(side.army) for side in state.sides]
    for i, (side, army) in enumerate(zip(state.sides, armies)):
        if army is None:
            yield Flaw(f"sides[{i}].army", f"no army {side.army!r} in pack {pack.id!r}")
    for i, r in enumerate(state.regiments):
        army = armies[r.side] if r.side in (0, 1) else None
        if army is None:
            yield Flaw(f"regiments[{i}].side", f"{r.id}: side {r.side} has no army (sides are 0 and 1)")
            continue
        entry = next((e for e in army.regiments if e.id == r.entry), None)
        if entry is None:
            yield Flaw(f"regiments[{i}].entry", f"{r.id}: no Regiment entry {r.entry!r} in army {army.id!r}")
        elif not 0 <= r.stands <= entry.stands:
            yield Flaw(
                f"regiments[{i}].stands", f"{r.id} has {r.stands} stands; a {entry.name} has 0 to {entry.stands}"
            )
    for i, c in enumerate(state.characters):
        army = armies[c.side] if c.side in (0, 1) else None
        if army is not None and not any(e.id == c.entry for e in army.characters):
            yield Flaw(f"characters[{i}].entry", f"{c.id}: no Character entry {c.entry!r} in army {army.id!r}")


def _stacks(state: ConquestState) -> Iterator[Flaw]:
    for i, side in enumerate(state.sides):
        cards = {r.id for r in state.regiments if r.side == i} | {c.id for c in state.characters if c.side == i}
        seen: set[str] = set()
        for j, card in enumerate(side.stack):
            where = f"sides[{i}].stack[{j}]"
            if card not in cards:
                yield Flaw(where, f"CMD-1: {card!r} is no Command Card of side {i}'s Regiments or Characters")
            elif card in seen:
                yield Flaw(where, f"CMD-2: {card!r} is in the Command Stack twice")
            seen.add(card)


def _links(state: ConquestState) -> Iterator[Flaw]:
    regiments = {r.id for r in state.regiments}
    for i, c in enumerate(state.characters):
        if c.regiment and c.regiment not in regiments:
            yield Flaw(f"characters[{i}].regiment", f"{c.id} joins {c.regiment!r}, which is no Regiment here")
    for i, pair in enumerate(state.contact):
        for one in pair:
            if one not in regiments:
                yield Flaw(f"contact[{i}]", f"{one!r} in contact is no Regiment here")


__all__ = ["flaws"]
