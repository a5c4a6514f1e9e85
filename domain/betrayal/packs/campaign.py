"""Loading and validating the campaign files of a Betrayal pack.

Four files, all together or none (``CAMPAIGN_FILES``), and only in a pack
that has the delve files (their items and encounters are named here):

- ``classes.toml``: class sheets and item-granted abilities (``classes``);
- ``gear.toml``: every item's type and effect (``gear``);
- ``training.toml``: the level-2 and level-3 skill dice (``training``);
- ``campaign.toml``: the adventurer mat, limits, rest by difficulty, the
  session-end EP table and the XP of each won encounter (this module).

``parse_pack`` (``load.py``) calls ``campaign_documents`` and
``parse_campaign_files``; like it they are pure and refuse anything
malformed with a ``ContentError`` naming the file, the field path and the
reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    document as _document,
    flag as _flag,
    integer as _integer,
    kind_of as _kind_of,
    list_of as _list_of,
    record as _record,
    table as _table,
)
from domain.kernel.errors import ContentError

from domain.betrayal.vocab import Difficulty, MatAttribute

from .catalog import DelveSetup, ItemCard, Setup, SkillDie, SkillLine
from .catalog_campaign import CampaignRules, Rest, SessionEp
from .classes import classes_and_granted
from .files import CAMPAIGN_FILES
from .gear import gear
from .training import training_dice

SESSIONS = 3  # the session-end EP table's sessions (SESSION-EP-3)
PARTY_SIZES = 4
REWARD_XP = (1, 6)  # the XP a won encounter may give

# ---------------------------------------------------------------- public


def campaign_documents(files: Mapping[str, bytes]) -> dict[str, dict[str, Any]] | None:
    """The four campaign files of a pack as TOML, or None when it has none
    of them. Only some of them is refused, naming the first one missing."""
    present = [name for name in CAMPAIGN_FILES if name in files]
    if not present:
        return None
    missing = [name for name in CAMPAIGN_FILES if name not in files]
    if missing:
        together = ", ".join(CAMPAIGN_FILES)
        raise ContentError(
            missing[0],
            "(file)",
            f"the pack has {' and '.join(present)} but no {missing[0]}; "
            f"the campaign files ({together}) come all together or not at all",
        )
    return {name: _document(name, files) for name in CAMPAIGN_FILES}


def parse_campaign_files(
    docs: Mapping[str, dict[str, Any]],
    *,
    lines: Mapping[str, SkillLine],
    dice: Mapping[str, SkillDie],
    items: Mapping[str, ItemCard],
    encounters: Mapping[str, Setup | DelveSetup],
) -> dict[str, Any]:
    """The campaign fields of ``Pack`` (``classes``, ``gear``, ``campaign``)
    and, under ``training``, the dice of training.toml. ``lines`` and
    ``dice`` are lines.toml's, ``items`` items.toml's, ``encounters`` every
    setup, delve and dungeon by id (each needs its reward)."""
    sheets, granted = classes_and_granted(docs["classes.toml"])
    return {
        "classes": sheets,
        "gear": gear(docs["gear.toml"], items, sheets, granted),
        "training": training_dice(docs["training.toml"], lines, dice),
        "campaign": _campaign(docs["campaign.toml"], encounters),
    }


# ---------------------------------------------------------------- campaign.toml


def _costs(value: object, at: _At) -> tuple[int, ...]:
    return _list_of(_integer(1))(value, at)


def _round_slot(value: object, at: _At) -> str:
    if value == "":
        return ""
    return _choice(MatAttribute)(value, at).value


def _row(value: object, at: _At) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2:
        at.fail(f'a mat row is [left, right] (an attribute or ""), got {_kind_of(value)}')
    left, right = (_round_slot(slot, at.index(i)) for i, slot in enumerate(value))
    return left, right


_MAT_FIELDS = {
    "squares": (_integer(1), _REQUIRED),
    "rows": (_integer(1), _REQUIRED),
    "white": (_costs, _REQUIRED),
    "black": (_costs, _REQUIRED),
    "start": (_list_of(_row), _REQUIRED),
}
_LIMIT_FIELDS = {
    "max_cooldown": (_integer(1), 6),
    "max_tenacity": (_integer(1), 10),
    "saved_xp": (_integer(0), 3),
    "combat_max": (_integer(1), 14),
    "start_dial": (_integer(1), 2),
}
_REST_FIELDS = {
    "heal": (_integer(0), _REQUIRED),
    "remove": (_integer(0), _REQUIRED),
    "discard_item": (_flag, False),
}
_CELL_FIELDS = {
    "session": (_integer(1, SESSIONS), _REQUIRED),
    "difficulty": (_choice(Difficulty), _REQUIRED),
    "players": (_integer(1, PARTY_SIZES), _REQUIRED),
    "ep": (_integer(1), _REQUIRED),
    "xp": (_integer(1), _REQUIRED),
}


def _campaign(doc: dict[str, Any], encounters: Mapping[str, Setup | DelveSetup]) -> CampaignRules:
    at = _At("campaign.toml")
    top = _record(
        doc,
        at,
        {
            "session_ep": (_session_ep, _REQUIRED),
            "mat": (_mat, _REQUIRED),
            "limits": (lambda v, a: _record(v, a, _LIMIT_FIELDS), {}),
            "rest": (_rest, _REQUIRED),
            "rewards": (lambda v, a: _rewards(v, a, encounters), _REQUIRED),
        },
    )
    return CampaignRules(
        **top["mat"],
        **top["limits"],
        rest=top["rest"],
        session_ep=top["session_ep"],
        rewards=top["rewards"],
    )


def _mat(value: object, at: _At) -> dict[str, Any]:
    """The adventurer mat: a cost per column in each box, rising away from
    its side (ADVANCE-4), and the starting round tokens, each once."""
    mat = _record(value, at, _MAT_FIELDS)
    for box, rising in (("white", "from the left"), ("black", "from the right")):
        costs = mat[box]
        if len(costs) != mat["squares"]:
            at.key(box).fail(f"one cost per square column: expected {mat['squares']}, got {len(costs)}")
        ordered = costs if box == "white" else costs[::-1]
        if any(a > b for a, b in zip(ordered, ordered[1:])):
            at.key(box).fail(f"the {box} box costs rise {rising} (ADVANCE-4), got {list(costs)}")
    start = mat["start"]
    if len(start) > mat["rows"]:
        at.key("start").fail(f"the mat has {mat['rows']} rows, the start fills {len(start)}")
    placed = [slot for row in start for slot in row if slot]
    for attribute in MatAttribute:
        if placed.count(attribute.value) != 1:
            at.key("start").fail(
                f"a new adventurer's mat holds the {attribute.value} round token once, "
                f"found {placed.count(attribute.value)}"
            )
    return mat


def _rest(value: object, at: _At) -> dict[str, Rest]:
    """Adventurers Rest for each of the three difficulties (facts: End of Day)."""
    fields = {level.value: (_rest_at, _REQUIRED) for level in Difficulty}
    return _record(value, at, fields)


def _rest_at(value: object, at: _At) -> Rest:
    return Rest(**_record(value, at, _REST_FIELDS))


def _session_ep(value: object, at: _At) -> tuple[SessionEp, ...]:
    """The session-end EP table: one cell per session, difficulty and party
    size, each EP being its XP times the party size (EP-2, SESSION-EP-4)."""
    rows = _list_of(lambda v, a: _record(v, a, _CELL_FIELDS))(value, at)
    seen: set[tuple[int, str, int]] = set()
    cells = []
    for i, row in enumerate(rows):
        cell = SessionEp(**(row | {"difficulty": row["difficulty"].value}))
        key = (cell.session, cell.difficulty, cell.players)
        if key in seen:
            at.index(i).fail(f"session {key[0]}, {key[1]}, {key[2]} players is already in the table")
        if cell.ep != cell.xp * cell.players:
            at.index(i).key("ep").fail(
                f"EP is the XP per adventurer times the players (EP-2): {cell.xp} x {cell.players} "
                f"= {cell.xp * cell.players}, got {cell.ep}"
            )
        seen.add(key)
        cells.append(cell)
    for session in range(1, SESSIONS + 1):
        for level in Difficulty:
            for players in range(1, PARTY_SIZES + 1):
                if (session, level.value, players) not in seen:
                    at.fail(f"no cell for session {session}, {level.value}, {players} players")
    return tuple(cells)


def _rewards(value: object, at: _At, encounters: Mapping[str, Setup | DelveSetup]) -> dict[str, int]:
    """The XP each won encounter gives, by setup, delve or dungeon id: every
    one has its reward, and no other id has one."""
    found = _table(value, at)
    out = {}
    for key, xp in found.items():
        if key not in encounters:
            at.key(key).fail(f"unknown encounter {key!r} (not a setup, delve or dungeon of the pack)")
        out[key] = _integer(*REWARD_XP)(xp, at.key(key))
    for key in encounters:
        if key not in out:
            at.fail(f"encounter {key!r} has no reward")
    return out
