"""Companions at setup: Setup step 5 of a clash, a delve and a dungeon
(CLASH-9, DELVE-11, DUNGEON-10): each joins under its controller and is
placed on an empty Entrance hex in player turn order; with no empty hex
left it waits beside the tile (CLASH-9a, DELVE-11a, DUNGEON-10a)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel.errors import MalformedCommand

from ..decision import Decision
from ..reach import occupied
from . import events as ev
from .commands import Escort
from .state import Ally

MAX_COMPANIONS = 8  # no rule caps them; a bound keeps a setup command reasonable

# Setup step 5 and its "no room" sub-rule, by the kind of setup.
PLACE_RULES = {
    "clash": ("CLASH-9", "CLASH-9a"),
    "delve": ("DELVE-11", "DELVE-11a"),
    "dungeon": ("DUNGEON-10", "DUNGEON-10a"),
}


def bring(d: Decision, escorts: tuple[Escort, ...], kind: str, party: tuple = ()) -> None:
    """Join and place the companions a setup brings, after the adventurers
    are on the map (Setup step 5): the permanent ones each member of
    ``party`` kept from earlier battles (CLEANUP-3c), then ``escorts``.
    Refuses an unknown chip or controller."""
    carried = tuple(Escort(chip=chip, controller=m.name) for m in party for chip in m.companions)
    if not escorts and not carried:
        return
    if len(escorts) + len(carried) > MAX_COMPANIONS:
        raise MalformedCommand(f"at most {MAX_COMPANIONS} companions join a battle")
    place_rule, wait_rule = PLACE_RULES[kind]
    allies = [replace(_ally(d, e), carried=True, permanent=True) for e in carried]
    allies += [_ally(d, escort) for escort in escorts]
    _name_apart(d, allies)
    order = {hero_id: i for i, hero_id in enumerate(d.state.order)}
    allies.sort(key=lambda a: order[a.controller])  # player turn order; stable within one controller
    for a in allies:
        d.emit(ev.CompanionJoined(companion=a, rule=place_rule))
    for a in allies:
        place(d, a.id, place_rule, wait_rule)


def place(d: Decision, companion_id: str, place_rule: str, wait_rule: str) -> bool:
    """Put the companion on the first empty Entrance hex (reading order), or
    say it waits beside the tile. True when it was placed."""
    free = entrance_room(d)
    if free:
        d.emit(ev.CompanionPlaced(companion=companion_id, hex=free[0], rule=place_rule))
        return True
    d.emit(ev.CompanionWaits(companion=companion_id, rule=wait_rule))
    return False


def entrance_room(d: Decision) -> list:
    """The Entrance hexes with no unit and no cache on them."""
    taken = occupied(d) | {c.hex for c in d.state.caches}
    return [h for h in d.ctx.board.entrance_hexes() if h not in taken]


def _ally(d: Decision, escort: Escort) -> Ally:
    chips = d.ctx.pack.companions
    chip = chips.get(escort.chip.strip().lower())
    if chip is None:
        known = ", ".join(chips) or "none in this pack"
        raise MalformedCommand(f"no companion chip {escort.chip!r} (there are: {known})")
    controller = _controller(d, escort.controller)
    return Ally(
        id=chip.id,
        chip=chip.id,
        name=chip.name,
        controller=controller,
        hp=chip.hp,
        max_hp=chip.hp,
        combat=chip.combat,
        range=chip.range,
        targets=chip.targets,
        move=chip.move,
        skills=tuple(s.value for s in chip.skills),
        permanent=chip.permanent,
    )


def _controller(d: Decision, named: str) -> str:
    for h in d.state.heroes:
        if named.strip().lower() in (h.id, h.name.lower()):
            return h.id
    raise MalformedCommand(
        f"companion controller {named!r} is not an adventurer of this party"
        f" ({', '.join(h.name for h in d.state.heroes)})"
    )


def _name_apart(d: Decision, allies: list[Ally]) -> None:
    """A second chip of one kind is ``fox-2``; no companion may share an id
    with a unit of the battle, since commands name units by id."""
    taken = {h.id for h in d.state.heroes} | {f.id for f in d.state.foes}
    seen: dict[str, int] = {}
    for i, a in enumerate(allies):
        seen[a.chip] = seen.get(a.chip, 0) + 1
        unit_id = a.id if seen[a.chip] == 1 else f"{a.chip}-{seen[a.chip]}"
        if unit_id in taken:
            raise MalformedCommand(
                f"companion {unit_id!r} has the id of another unit of this battle; rename the adventurer"
            )
        taken.add(unit_id)
        allies[i] = replace(a, id=unit_id)
