"""The campaign's answers for people: the campaigns of the store, a
session's climax EP (SESSION-EP-3), and the pack's class sheets and item
cards (``rk campaign list``, ``rk campaign ep``, ``rk classes``,
``rk items``)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.surface import Report
from domain.kernel.surface.document import Column, Lines, table

from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign.ruleset import CAMPAIGN
from domain.betrayal.campaign.session_ep import session_ep
from domain.betrayal.packs.load import starter_pack


def campaigns(asked: Any) -> Report:
    """Every campaign of the store, oldest first: difficulty, session, day,
    dial, party."""
    app = asked.app
    rows: list[dict[str, Any]] = []
    for cid in ca.campaigns(app):
        state = ca.campaign(app, cid)
        rows.append(
            {
                "campaign": cid,
                "difficulty": state.difficulty.value,
                "session": state.session,
                "day": state.day,
                "dial": state.dial,
                "party": [m.name for m in state.party],
                "reward_phase": state.reward,
            }
        )
    if not rows:
        return Report(
            rows, (Lines(("No campaign yet: `rk new campaign` begins one (`rk adventurer new` does too).",)),)
        )
    columns = (
        Column("campaign"),
        Column("difficulty", wrap=False),
        Column("session", "right", False),
        Column("day", "right", False),
        Column("dial", "right", False),
        Column("party"),
    )
    cells = [
        [r["campaign"], r["difficulty"], str(r["session"]), str(r["day"]), str(r["dial"]), ", ".join(r["party"]) or "—"]
        for r in rows
    ]
    return Report(rows, (table(columns, cells),))


def climax_ep(
    asked: Any,
    session: int | None = None,
    difficulty: str | None = None,
    players: int | None = None,
    campaign: str | None = None,
) -> Report:
    """SESSION-EP-3: the climax battle's EP for a session, difficulty and
    party size; what is not given is the campaign's (``campaign``, else
    the newest)."""
    app = asked.app
    if session is None or difficulty is None or players is None:
        state = ca.campaign(app, ca.find_campaign(app, campaign))
        session = session or state.session
        difficulty = difficulty or state.difficulty.value
        players = players or len(state.party)
    cell = session_ep(app.pack_of(CAMPAIGN), session, difficulty, players)
    line = (
        f"SESSION-EP-3: session {cell.session}, {cell.difficulty}, {cell.players} player(s): EP {cell.ep}"
        f" (XP {cell.xp} each, SESSION-EP-4); `rk new clash --climax` plays with it"
    )
    return Report(msgspec.to_builtins(cell), (Lines((line,)),))


def classes(asked: Any) -> Report:
    """The class sheets of the pack, each with its abilities."""
    pack = starter_pack()
    blocks = []
    for sheet in pack.classes.values():
        lines: list[Any] = [((sheet.id, "strong"), (f"  {sheet.name}: {sheet.text}", ""))]
        for ability in sheet.abilities:
            form = f", {ability.form.value} form" if ability.form else ""
            lines.append(f"  {ability.name} ({ability.timing.value}, {ability.cost} Tenacity{form}): {ability.text}")
        blocks.append(Lines(tuple(lines), hang=4))
    return Report(msgspec.to_builtins(list(pack.classes.values())), tuple(blocks))


def items(asked: Any) -> Report:
    """The item cards of the pack: kind, value and what each does."""
    pack = starter_pack()
    columns = (
        Column("id", wrap=False),
        Column("name"),
        Column("kind", wrap=False),
        Column("value", "right", False),
        Column("what it does"),
    )
    cells = [[g.id, g.name, g.kind.value, str(g.value), g.text] for g in pack.gear.values()]
    return Report(msgspec.to_builtins(list(pack.gear.values())), (table(columns, cells),))
