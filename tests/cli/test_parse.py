"""What people type, read into what the rules take (``domain.betrayal.table.party``): a party
member's ``Name:race:line+line:form``. Whether the name, race and lines are
allowed is for the rules to say, so every way in (the CLI, `rk serve`,
scripts) is refused alike."""

from __future__ import annotations

import re

import pytest

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.vocab import BattleForm
from domain.kernel.errors import MalformedCommand


@pytest.mark.parametrize(
    "text, member",
    [
        ("Ysolda", PartySpec("Ysolda")),
        ("Ysolda:nord", PartySpec("Ysolda", "nord")),
        (
            " Tarn : dark-elf : bow+destruction-staff : ranged ",
            PartySpec("Tarn", "dark-elf", ("bow", "destruction-staff"), BattleForm.RANGED),
        ),
        ("Brelyna:breton::heavy", PartySpec("Brelyna", "breton", (), BattleForm.HEAVY)),
    ],
)
def test_a_party_member_is_read_as_name_race_lines_and_form(text, member):
    assert party_member(text) == member


@pytest.mark.parametrize(
    "text, words",
    [
        (":nord", "write Name[:race[:line+line[:form]]]"),
        ("A:b:c:d:e", "write Name[:race[:line+line[:form]]]"),
        ("Tarn:nord::sideways", "battle form must be one of defensive, heavy, light"),
    ],
)
def test_a_party_member_written_otherwise_is_malformed(text, words):
    with pytest.raises(MalformedCommand, match=re.escape(words)):
        party_member(text)


def test_a_name_the_parser_lets_through_is_still_refused_by_the_rules():
    app = BetrayalApp(store="memory")
    for name in ("Evil\x1b]0;PWNED\x07", "x" * 65):
        with pytest.raises(MalformedCommand, match="adventurer name"):
            app.new_clash(setup="waystone-crossing", party=[party_member(f"{name}:nord")], xp=1, seed=1)
        with pytest.raises(MalformedCommand, match="adventurer name"):
            app.new_clash(setup="waystone-crossing", party=[PartySpec(name)], xp=1, seed=1)
    assert app.max_notification_id() == 0
