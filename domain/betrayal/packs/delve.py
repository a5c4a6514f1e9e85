"""Loading and validating the delve and dungeon files of a Betrayal pack.

Three files, all together or none (``DELVE_FILES``):

- ``delve.toml``: the Entrance tile (``[entrance]``), the delve tiles
  (``[tiles.<id>]``), the delve cards (``[cards.<id>]``) and the delve
  setups (``[delves.<id>]``);
- ``items.toml``: the item cards a cache gives (``[items.<id>]``);
- ``dungeons.toml``: the dungeon setups (``[dungeons.<id>]``), written like
  ``setups.toml`` plus their encounter text.

A tile is written as rows of space-separated tokens, odd rows shifted half a
hex right (odd-r offset); the tile's first hex (reading order) is its own
hex (0, 0), which a placement puts on its origin: ``.`` no hex, ``o`` plain hex, ``C`` Connection hex, ``c``
Common item hex, ``e`` enemy hex.

``parse_pack`` (``load.py``) calls ``delve_documents`` and
``parse_delve_files``; like it, they are pure and refuse anything malformed
with a ``ContentError`` naming the file, the field path and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    document as _document,
    flag as _flag,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    kind_of as _kind_of,
    list_of as _list_of,
    record as _record,
    text as _text,
)
from domain.kernel.errors import ContentError
from domain.kernel.hexes import Hex, adjacent, from_offset, neighbours, path_lengths, to_offset

# packs.py imports this module while it loads: use its names only inside functions.
from domain.betrayal.vocab import (
    DELVE_OBJECTIVES,
    LEVELS,
    CardEffect,
    Environment,
    Mode,
    Objective,
    TileIcon,
)

from .catalog import (
    CardAction,
    DelveCard,
    DelveSetup,
    DelveTile,
    Enemy,
    ItemCard,
    LockCode,
    Setup,
    TileEnvironment,
    TileHex,
    Trap,
)
from .files import DELVE_FILES

ENTRANCE_ID = "entrance"  # the Entrance tile's id and shape
MIN_ENTRANCE_HEXES = 4  # room for a full party on the Entrance (DELVE-10)
ENTRANCE_CONNECTIONS = 2  # the two adjacent Connection hexes (EXPLORATION-9e)
MIN_CONNECTIONS = 2  # one to enter a tile by, one to explore on from
PARTY_SIZES = 4  # a challenge scale has one row per party size, 1 to 4 (EXPLORATION-11a)
MAX_BOXES = 6
MAX_CARD_SKYSHARDS = 3
MAX_DELVE_SKYSHARDS = 6
LOCK_ATTEMPTS = (1, 5)
LOCK_DIGITS = (3, 5)  # how many digits a difficulty code has
DIE_FACES = (1, 6)

TILE_TOKENS = {
    "o": TileIcon.NONE,
    "C": TileIcon.CONNECTION,
    "c": TileIcon.COMMON,
    "e": TileIcon.ENEMY,
}
NO_HEX = "."

# ---------------------------------------------------------------- public


def delve_documents(files: Mapping[str, bytes]) -> dict[str, dict[str, Any]] | None:
    """The three delve files of a pack as TOML, or None when it has none of
    them. Only some of them is refused, naming the first one missing."""
    present = [name for name in DELVE_FILES if name in files]
    if not present:
        return None
    missing = [name for name in DELVE_FILES if name not in files]
    if missing:
        together = ", ".join(DELVE_FILES)
        raise ContentError(
            missing[0],
            "(file)",
            f"the pack has {' and '.join(present)} but no {missing[0]}; "
            f"the delve files ({together}) come all together or not at all",
        )
    return {name: _document(name, files) for name in DELVE_FILES}


def parse_delve_files(
    docs: Mapping[str, dict[str, Any]],
    enemies: Mapping[str, Enemy],
    setups: Mapping[str, Setup],
    diagram: DiagramReader,
) -> dict[str, Any]:
    """The delve fields of ``Pack`` (``entrance``, ``tiles``, ``cards``,
    ``items``, ``delves``, ``dungeons``) from the three delve documents.
    ``enemies`` check the dungeons' objective units; ``setups`` are the clash
    setups, whose ids a dungeon or delve may not reuse; ``diagram`` reads a
    dungeon's diagram as the core pack reads a setup's."""
    entrance, tiles, cards, delves = _delve(docs["delve.toml"], setups)
    items = _items(docs["items.toml"])
    dungeons = _dungeons(docs["dungeons.toml"], enemies, setups, delves, diagram)
    return {
        "entrance": entrance,
        "tiles": tiles,
        "cards": cards,
        "items": items,
        "delves": delves,
        "dungeons": dungeons,
    }


class DiagramReader(NamedTuple):
    """How the core pack reads a setup diagram: its fields and its parser
    (``setups.SETUP_FIELDS``, ``setups.parse_setup``), handed in so a dungeon
    is read exactly as a clash setup is."""

    fields: Mapping[str, Any]
    parse: Callable[..., Setup]


# ---------------------------------------------------------------- delve.toml: tiles

_ENTRANCE_FIELDS = {
    "name": (_text, _REQUIRED),
    "rows": (_list_of(_text), _REQUIRED),
}
_TILE_FIELDS = {
    "name": (_text, _REQUIRED),
    "shape": (_ident, _REQUIRED),
    "rows": (_list_of(_text), _REQUIRED),
}


def _tile_hexes(rows: tuple[str, ...], at: _At) -> tuple[TileHex, ...]:
    """Read a tile's rows; its hexes must share edges, and every Connection
    hex must lie on the tile's outer edge (EXPLORATION-5a)."""
    hexes: list[TileHex] = []
    for r, line in enumerate(rows):
        for col, token in enumerate(line.split()):
            if token == NO_HEX:
                continue
            if token not in TILE_TOKENS:
                at.index(r).fail(
                    f"column {col}: unknown token {token!r} "
                    "(expected . no hex, o plain, C Connection, c Common item or e enemy)"
                )
            hexes.append(TileHex(from_offset(col, r), TILE_TOKENS[token]))
    if not hexes:
        at.fail("the tile has no hexes")
    cells: set[Hex] = {h.hex for h in hexes}
    reached = path_lengths(hexes[0].hex, cells.__contains__)
    for h in hexes:
        col, row = to_offset(h.hex)
        if h.hex not in reached:
            at.index(row).fail(f"column {col}: this hex shares no edge with the rest of the tile")
        if h.icon is TileIcon.CONNECTION and all(n in cells for n in neighbours(h.hex)):
            at.index(row).fail(f"column {col}: a Connection hex must lie on the tile's outer edge (EXPLORATION-5a)")
    # The tile's first hex is its own (0, 0): where a placement's origin puts
    # it (PlaceTile), so an origin always names a hex of the placed tile.
    q0, r0 = hexes[0].hex
    return tuple(TileHex((h.hex[0] - q0, h.hex[1] - r0), h.icon) for h in hexes)


def _connections(hexes: tuple[TileHex, ...]) -> list[Hex]:
    return [h.hex for h in hexes if h.icon is TileIcon.CONNECTION]


def _entrance(value: object, at: _At) -> DelveTile:
    """The Entrance: at least 4 hexes, no caches or enemies, and exactly two
    Connection hexes side by side with an outside hex touching both, where
    the first delve tile's Connection hex goes (EXPLORATION-9e)."""
    row = _record(value, at, _ENTRANCE_FIELDS)
    hexes = _tile_hexes(row["rows"], at.key("rows"))
    where = at.key("rows")
    if len(hexes) < MIN_ENTRANCE_HEXES:
        where.fail(f"the Entrance needs at least {MIN_ENTRANCE_HEXES} hexes, found {len(hexes)}")
    for h in hexes:
        if h.icon in (TileIcon.COMMON, TileIcon.ENEMY):
            col, r = to_offset(h.hex)
            where.index(r).fail(
                f"column {col}: the Entrance has no {h.icon.value} hexes "
                "(no caches or enemies are placed at setup, DELVE-8, DELVE-9)"
            )
    links = _connections(hexes)
    if len(links) != ENTRANCE_CONNECTIONS:
        where.fail(
            f"the Entrance has exactly {ENTRANCE_CONNECTIONS} Connection hexes (EXPLORATION-9e), found {len(links)}"
        )
    first, second = links
    if not adjacent(first, second):
        where.fail("the Entrance's two Connection hexes must be adjacent (EXPLORATION-9e)")
    cells = {h.hex for h in hexes}
    if not (set(neighbours(first)) & set(neighbours(second))) - cells:
        where.fail(
            "no outside hex touches both Connection hexes of the Entrance, so the first "
            "delve tile cannot be placed against them (EXPLORATION-9e)"
        )
    return DelveTile(id=ENTRANCE_ID, shape=ENTRANCE_ID, hexes=hexes, **row)


def _tile(key: str, row: dict[str, Any], at: _At) -> DelveTile:
    if key == ENTRANCE_ID:
        at.fail(f"id {ENTRANCE_ID!r} is the Entrance tile's ([entrance])")
    if row["shape"] == ENTRANCE_ID:
        at.key("shape").fail(f"shape {ENTRANCE_ID!r} is the Entrance tile's alone")
    hexes = _tile_hexes(row["rows"], at.key("rows"))
    links = _connections(hexes)
    if len(links) < MIN_CONNECTIONS:
        at.key("rows").fail(f"a delve tile needs at least {MIN_CONNECTIONS} Connection hexes (C), found {len(links)}")
    return DelveTile(id=key, hexes=hexes, **row)


# ---------------------------------------------------------------- delve.toml: cards


def _lock_digits(value: object, at: _At) -> tuple[int, ...]:
    low, high = DIE_FACES
    digits = _list_of(_integer(low, high))(value, at)
    fewest, most = LOCK_DIGITS
    if not fewest <= len(digits) <= most:
        at.fail(f"a difficulty code has {fewest} to {most} digits (facts: MOVE-5), found {len(digits)}")
    return digits


_ATTEMPTS = _integer(*LOCK_ATTEMPTS)


def _scale_row(value: object, at: _At) -> tuple[int, ...]:
    if not isinstance(value, list):
        at.fail(f"expected an array of enemy levels, got {_kind_of(value)}")
    if len(value) > MAX_BOXES:
        at.fail(f"a challenge-scale row has at most {MAX_BOXES} boxes, found {len(value)}")
    levels = ", ".join(map(str, sorted(LEVELS)))
    for i, box in enumerate(value):
        if isinstance(box, bool) or not isinstance(box, int) or box not in LEVELS:
            at.index(i).fail(f"a challenge-scale box is an enemy level ({levels}; EXPLORATION-11a), got {box!r}")
    return tuple(value)


def _scale(value: object, at: _At) -> tuple[tuple[int, ...], ...]:
    rows = _list_of(_scale_row)(value, at)
    if len(rows) != PARTY_SIZES:
        at.fail(
            f"a challenge scale has {PARTY_SIZES} rows, one per party size 1 to {PARTY_SIZES} "
            f"(EXPLORATION-11a), found {len(rows)}"
        )
    return rows


_ACTION_FIELDS = {
    "effect": (_choice(CardEffect), _REQUIRED),
    "amount": (_integer(1), _REQUIRED),
    "text": (_text, _REQUIRED),
}
_ENVIRONMENT_FIELDS = {
    "kind": (_choice(Environment), _REQUIRED),
    "amount": (_integer(1), _REQUIRED),
    "text": (_text, _REQUIRED),
}
_TRAP_FIELDS = {
    "attempts": (_ATTEMPTS, _REQUIRED),
    "digits": (_lock_digits, _REQUIRED),
    "damage": (_integer(1), _REQUIRED),
    "text": (_text, _REQUIRED),
}


def _action(value: object, at: _At) -> CardAction:
    return CardAction(**_record(value, at, _ACTION_FIELDS))


def _environment(value: object, at: _At) -> TileEnvironment:
    return TileEnvironment(**_record(value, at, _ENVIRONMENT_FIELDS))


def _trap(value: object, at: _At) -> Trap:
    row = _record(value, at, _TRAP_FIELDS)
    code = LockCode(attempts=row.pop("attempts"), digits=row.pop("digits"))
    return Trap(code=code, **row)


_CARD_FIELDS = {
    "name": (_text, _REQUIRED),
    "shape": (_ident, _REQUIRED),
    "legendary": (_integer(0), 0),
    "common": (_integer(0), 0),
    "scale": (_scale, _REQUIRED),
    "skyshards": (_integer(0, MAX_CARD_SKYSHARDS), 0),
    "skyshard_effect": (_action, None),
    "when_revealed": (_action, None),
    "environment": (_environment, None),
    "trap": (_trap, None),
    "sp": (_flag, False),
}


def _card(key: str, row: dict[str, Any], shapes: set[str], at: _At) -> DelveCard:
    if row["shape"] not in shapes:
        known = ", ".join(sorted(shapes))
        at.key("shape").fail(
            f"no tile has shape {row['shape']!r}, so the card could never draw one "
            f"(EXPLORATION-7); tile shapes: {known}"
        )
    effect = row["skyshard_effect"]
    if effect is not None and not row["skyshards"]:
        at.key("skyshard_effect").fail("only a card with skyshard icons has a skyshard effect (SKYSHARD-5)")
    if effect is not None and effect.effect is CardEffect.EXTRA_EP:
        at.key("skyshard_effect").key("effect").fail(
            "extra-ep acts when a tile is revealed, not when its skyshard is taken"
        )
    return DelveCard(id=key, **row)


# ---------------------------------------------------------------- delve.toml: setups


def _delve_objective(value: object, at: _At) -> Objective:
    objective = _choice(Objective)(value, at)
    if objective not in DELVE_OBJECTIVES:
        at.fail(f"a delve's objective is survey or uncover (OBJ-4, OBJ-8), not {objective.value}")
    return objective


_DELVE_FIELDS = {
    "name": (_text, _REQUIRED),
    "objective": (_delve_objective, _REQUIRED),
    "skyshards": (_integer(1, MAX_DELVE_SKYSHARDS), 3),  # 3 unless said otherwise (SKYSHARD-3)
    "text": (_text, ""),
}


def _delve(
    doc: dict[str, Any], setups: Mapping[str, Setup]
) -> tuple[DelveTile, dict[str, DelveTile], dict[str, DelveCard], dict[str, DelveSetup]]:
    at = _At("delve.toml")
    top = _record(
        doc,
        at,
        {
            "entrance": (_entrance, _REQUIRED),
            "tiles": (lambda v, a: _keyed(v, a, _TILE_FIELDS), _REQUIRED),
            "cards": (lambda v, a: _keyed(v, a, _CARD_FIELDS), _REQUIRED),
            "delves": (lambda v, a: _keyed(v, a, _DELVE_FIELDS), {}),
        },
    )
    if not top["tiles"]:
        at.key("tiles").fail("a delve needs at least one delve tile")
    if not top["cards"]:
        at.key("cards").fail("a delve needs at least one delve card")
    tiles = {key: _tile(key, row, at.key("tiles").key(key)) for key, row in top["tiles"].items()}
    shapes = {tile.shape for tile in tiles.values()}
    cards = {key: _card(key, row, shapes, at.key("cards").key(key)) for key, row in top["cards"].items()}
    drawn = {card.shape for card in cards.values()}
    for tile in tiles.values():
        if tile.shape not in drawn:
            at.key("tiles").key(tile.id).key("shape").fail(
                f"no delve card draws shape {tile.shape!r}, so this tile never comes out (EXPLORATION-7)"
            )
    delves = {}
    for key, row in top["delves"].items():
        if key in setups:
            at.key("delves").key(key).fail(f"id {key!r} is already a setup in setups.toml")
        delves[key] = DelveSetup(id=key, **row)
    return top["entrance"], tiles, cards, delves


# ---------------------------------------------------------------- items.toml

_ITEM_FIELDS = {
    "name": (_text, _REQUIRED),
    "legendary": (_flag, False),
    "value": (_integer(1), _REQUIRED),
    "attempts": (_ATTEMPTS, _REQUIRED),
    "digits": (_lock_digits, _REQUIRED),
}


def _items(doc: dict[str, Any]) -> dict[str, ItemCard]:
    at = _At("items.toml")
    top = _record(doc, at, {"items": (lambda v, a: _keyed(v, a, _ITEM_FIELDS), _REQUIRED)})
    items = {}
    for key, row in top["items"].items():
        code = LockCode(attempts=row.pop("attempts"), digits=row.pop("digits"))
        items[key] = ItemCard(id=key, code=code, **row)
    for legendary, kind in ((False, "common"), (True, "legendary")):
        if not any(item.legendary is legendary for item in items.values()):
            at.key("items").fail(f"the pack needs at least one {kind} item card for its {kind} caches (ITEM-1)")
    return items


# ---------------------------------------------------------------- dungeons.toml


def _dungeons(
    doc: dict[str, Any],
    enemies: Mapping[str, Enemy],
    setups: Mapping[str, Setup],
    delves: Mapping[str, DelveSetup],
    diagram: DiagramReader,
) -> dict[str, Setup]:
    at = _At("dungeons.toml")
    fields = dict(diagram.fields) | {"encounter": (_text, _REQUIRED)}
    top = _record(doc, at, {"dungeons": (lambda v, a: _keyed(v, a, fields), _REQUIRED)})
    dungeons = {}
    for key, row in top["dungeons"].items():
        where = at.key("dungeons").key(key)
        if key in setups:
            where.fail(f"id {key!r} is already a setup in setups.toml")
        if key in delves:
            where.fail(f"id {key!r} is already a delve in delve.toml")
        dungeons[key] = diagram.parse(key, row, dict(enemies), where, Mode.DUNGEON)
    return dungeons
