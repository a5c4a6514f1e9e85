"""Events of a passive action chosen by hand (PASSIVE-1 .. PASSIVE-3 with
the ``ask_passives`` option): the battle asks whoever controls the target,
and records the answer. Re-exported by ``events.py``; import them from
there."""

from __future__ import annotations

from .commands import LabyrinthCommand
from .event_base import LabyrinthEvent


class ReactionAsked(LabyrinthEvent, frozen=True, kw_only=True):
    """An attack roll by ``attacker`` against ``who`` waits for ``who``'s
    passive action: one of ``skills``, or none. ``command``: the command
    being resolved when it was asked, resumed with the answer."""

    TOPIC = "labyrinth.ReactionAsked"
    who: str
    attacker: str
    mode: str
    skills: tuple[str, ...]
    command: LabyrinthCommand | None = None


class ReactionChosen(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` answers with the passive ``skill`` ("" none); the attack
    roll is then resolved with it."""

    TOPIC = "labyrinth.ReactionChosen"
    who: str
    skill: str = ""
