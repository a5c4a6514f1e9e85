"""Events of a choice made in the middle of a step: a passive action chosen
by hand (PASSIVE-1 .. PASSIVE-3 with the ``ask_passives`` option), or the
FP a PC spends on its Suppression defense roll (FUMBLE-2 with ``ask_fp``):
the battle asks whoever controls the character, and records the answer.
Re-exported by ``events.py``; import them from there."""

from __future__ import annotations

from typing import ClassVar

from .commands import LabyrinthCommand
from .event_base import LabyrinthEvent


class ReactionAsked(LabyrinthEvent, frozen=True, kw_only=True):
    """``kind`` "passive": an attack roll by ``attacker`` against ``who``
    waits for ``who``'s passive action: one of ``skills``, or none. ``kind``
    "fp": ``who``'s Suppression defense roll (``check``) waits for the FP
    spent on it. ``command``: the command being resolved when it was asked,
    resumed with the answer."""

    TOPIC = "labyrinth.ReactionAsked"
    who: str
    attacker: str = ""
    mode: str = ""
    skills: tuple[str, ...] = ()
    command: LabyrinthCommand | None = None
    kind: str = "passive"
    check: str = ""
    dice: int = 0  # kind "faces": how many faces the roll waits for
    rule: str = ""  # kind "faces": the rule of the roll

    # Logs from before physical dice hold the event without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"dice", "rule"})


class ReactionChosen(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` answers with the passive ``skill`` ("" none), or spends
    ``fp`` extra dice and a ``reroll`` on its check; the step is then
    resolved with it."""

    TOPIC = "labyrinth.ReactionChosen"
    who: str
    skill: str = ""
    fp: int = 0
    reroll: bool = False
    kind: str = "passive"  # the question's: "passive", "fp" or "faces"
    faces: tuple[int, ...] = ()  # kind "faces": the faces typed off the dice, 1 to 6

    # Logs from before physical dice hold the event without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"faces"})
