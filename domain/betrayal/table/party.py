"""A party member as a setup names it: an existing adventurer by name, or a
new one with a race and optional starting lines and battle form. The
command line types it ``Name:race:line+line:form`` (``kinds.Member``); the
API sends its fields. Light: whether the name, race and lines are allowed
is for the rules to say, when the battle is set up."""

from __future__ import annotations

import msgspec

from domain.betrayal.vocab import BattleForm

from .kinds import Member

MEMBER = Member()


class PartySpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One party member: ``name``, and to create one, ``race`` with optional
    starting ``lines`` and battle ``form``. The name is checked when the
    battle is set up, for every caller."""

    name: str
    race: str | None = None
    lines: tuple[str, ...] = ()
    form: BattleForm = BattleForm.LIGHT


def party_member(text: str) -> PartySpec:
    """``Name``, ``Name:race``, ``Name:race:line+line`` or with a 4th part,
    the battle form (``Tarn:dark-elf:bow+heavy-armor:ranged``)."""
    return msgspec.convert(MEMBER.parse(text, "--party"), PartySpec)
