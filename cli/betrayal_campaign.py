"""How the command line shows a Betrayal campaign (the view module the
generic verbs find by ruleset name: `rk status`, `rk legal`, what follows
each command)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from domain.betrayal.application import adventurer as find_adventurer
from domain.betrayal.campaign import CampaignState
from domain.kernel.commandlog import Game

from .history import simple_table
from .output import printable
from .phrases import Phrases
from .session import Session

PARTY_COLUMNS = (("adventurer", "left"), ("race", "left"), ("class", "left"), ("HP", "right"), ("XP", "right"),
                 ("Ten.", "right"), ("items", "right"))


def header(state: CampaignState) -> Text:
    """Where the campaign stands, on a line."""
    where = (f"the Reward Phase of {state.reward} is open (rk advance, rk untrain; rk reward done ends it)"
             if state.reward else f"session {state.session}, day {state.day}")
    return Text(f"Campaign {state.battle_id} ({state.difficulty.value}): {where}; XP dial {state.dial}",
                style="bold")


def show_status(s: Session, game: Game) -> None:
    """The campaign and its party, one row per adventurer."""
    state: CampaignState = game.state
    s.out.print(Phrases(header(state)))
    if not state.party:
        s.out.print("No one in the party yet: `rk adventurer new NAME --race RACE --class CLASS` recruits"
                    " (see `rk races`, `rk classes`).")
        return
    if game.version < s.app.battle(state.battle_id).version:
        # The party's sheets are the adventurers' own streams, which battles
        # write too: as they stood at an earlier campaign version is not
        # the campaign's to say. Its own state is.
        s.out.print(Phrases(f"party: {', '.join(m.name for m in state.party)} (their sheets now: rk adventurer NAME)"))
        return
    pack = s.app.pack_of("betrayal")
    cells = []
    for m in state.party:
        a = find_adventurer(s.app, m.name)
        race = pack.races.get(a.race)
        sheet = pack.classes.get(a.class_id)
        cells.append([printable(a.name), race.name if race else a.race, sheet.name if sheet else a.class_id or "—",
                      f"{a.hp}/{a.max_hp}", str(a.xp), str(a.tenacity), str(len(a.items))])
    s.out.print(simple_table(PARTY_COLUMNS, cells, s.out.console.width))


def show_compact(s: Session, state: CampaignState) -> None:
    """The short view after a command."""
    s.out.print(Phrases(header(state)))


def legal_lines(s: Session, state: CampaignState, commands: list[Any]) -> list[str]:
    """Each legal command as the `rk` line that gives it."""
    rs = s.app.ruleset(state.battle_id)
    lines = [f"rk {rs.describe_command(cmd)}" for cmd in commands]
    if not state.reward:
        lines.append("rk reward BATTLE (the rewards of a battle the party finished)")
    return lines
