"""A campaign as a table sees it on a screen: where it stands (the session
and day, or the open Reward Phase, and the XP dial), then a row per party
member (``rk status`` on a campaign; the short view after a command is the
first line), and the note under its legal commands."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface.document import Block, Column, Lines, table

from domain.betrayal.battle.application import adventurer as find_adventurer
from domain.betrayal.campaign.game import CampaignState
from domain.betrayal.campaign.ruleset import CAMPAIGN

PARTY_COLUMNS = (
    Column("adventurer"),
    Column("race"),
    Column("class"),
    Column("HP", "right", False),
    Column("XP", "right", False),
    Column("Ten.", "right", False),
    Column("items", "right", False),
)


def header(state: CampaignState, name: str | None = None) -> Lines:
    """Where the campaign stands, on a line; ``name``: as this store calls it."""
    where = (
        f"the Reward Phase of {state.reward} is open (rk advance, rk untrain; rk reward done ends it)"
        if state.reward
        else f"session {state.session}, day {state.day}"
    )
    return Lines(
        (f"Campaign {name or state.battle_id} ({state.difficulty.value}): {where}; XP dial {state.dial}",), strong=True
    )


def status(seen: Any) -> tuple[Block, ...]:
    """The campaign and its party, one row per adventurer."""
    state: CampaignState = seen.state
    top = header(state, seen.name)
    if not state.party:
        return top, Lines(
            (
                "No one in the party yet: `rk adventurer new NAME --race RACE --class CLASS` recruits"
                " (see `rk races`, `rk classes`).",
            )
        )
    if seen.version < seen.app.battle(state.battle_id).version:
        # The party's sheets are the adventurers' own streams, which battles
        # write too: as they stood at an earlier campaign version is not
        # the campaign's to say. Its own state is.
        return top, Lines((f"party: {', '.join(m.name for m in state.party)} (their sheets now: rk adventurer NAME)",))
    pack = seen.app.pack_of(CAMPAIGN)
    rows = []
    for m in state.party:
        a = find_adventurer(seen.app, m.name)
        race = pack.races.get(a.race)
        sheet = pack.classes.get(a.class_id)
        rows.append(
            [
                a.name,
                race.name if race else a.race,
                sheet.name if sheet else a.class_id or "—",
                f"{a.hp}/{a.max_hp}",
                str(a.xp),
                str(a.tenacity),
                str(len(a.items)),
            ]
        )
    return top, table(PARTY_COLUMNS, rows)


def compact(seen: Any) -> tuple[Block, ...]:
    """Where the campaign stands."""
    return (header(seen.state, seen.name),)


def legal_note(state: CampaignState, commands: list[Any]) -> str:
    """What a listing of legal commands adds: a battle's rewards, which need
    a battle and so are never listed."""
    return "" if state.reward else "rk reward BATTLE (the rewards of a battle the party finished)"
