"""The session-end EP table: the fixed EP of the climactic guild-quest battle
of each session (EP-3, SESSION-EP-1 to SESSION-EP-4), read from the pack's
campaign content."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand

from domain.betrayal.packs.catalog import Pack
from domain.betrayal.packs.catalog_campaign import SessionEp


def session_ep(pack: Pack, session: int, difficulty: str, players: int) -> SessionEp:
    """The cell of the session-end EP table for ``session``, ``difficulty``
    and ``players`` (SESSION-EP-3): its EP, and in ``xp`` the XP per
    adventurer that EP is based on (SESSION-EP-4). MalformedCommand when the
    pack has no campaign content or no such cell."""
    if pack.campaign is None:
        raise MalformedCommand(f"pack {pack.id!r} has no campaign content, so no session-end EP table")
    for cell in pack.campaign.session_ep:
        if (cell.session, cell.difficulty, cell.players) == (session, difficulty, players):
            return cell
    raise MalformedCommand(
        f"no session-end EP for session {session}, difficulty {difficulty!r}, {players} players "
        "(SESSION-EP-3: sessions 1 to 3, apprentice, adept or expert, 1 to 4 players)"
    )
