"""An Enchantment attached in one battle stays attached for the rest of the
session (ENCHANT-2, ENCHANT-3): the adventurer's stream holds it
(``AdventurerState.enchantments``), its later battles of the session start
with it attached and working, out of the ready slots, and the session's end
takes it away.

Played through the campaign application: a campaign ``saga`` with Ria (a
Nord Bastion) and Tarn; battles are clashes on the waystone crossing.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace
from campaign_arrange import campaign, me, run, set_adventurer

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.battle import bots
from domain.betrayal.campaign import commands as cc
from domain.betrayal.battle.application import PartySpec
from domain.betrayal.battle.commands import Engage, UseGear
from domain.betrayal.battle.events import DiceRerolled
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.setup import recorded_hash
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import BattleForm
from domain.kernel.errors import RuleViolation

GLYPH, WARDSTONE = "glyph-of-steady-aim", "wardstone-sigil"


def clash(app, battle_id: str, seed: int = 2):
    """Ria alone in a clash; the battle's first events."""
    return app.new_clash(
        setup="waystone-crossing", party=[PartySpec("Ria")], xp=2, seed=seed, battle_id=battle_id
    ).events


def finish(app, battle_id: str, seed: int = 2) -> None:
    rnd = random.Random(seed)
    while (state := app.battle(battle_id).state).outcome is None:
        app.execute(battle_id, bots.greedy_choice(state, app.context(state), rnd))


@pytest.mark.rule("ENCHANT-2")
@pytest.mark.rule("ENCHANT-3")
def test_an_enchantment_attached_earlier_in_the_session_is_attached_and_works_in_a_later_battle():
    app = campaign()
    set_adventurer(app, "Ria", enchantments=(GLYPH,))
    clash(app, "w1")
    ria = app.battle("w1").state.hero("ria")
    assert ria.attached == ((GLYPH, "ria"),) and ria.carried_in == (GLYPH,)
    assert GLYPH not in ria.ready  # ENCHANT-2: not part of the inventory while attached
    # its effect works as when it was attached: a reroll in each of Ria's engages
    state = app.battle("w1").state
    assert state.turn.hero == "ria" and state.phase is Phase.ADVENTURER_TURN
    app.execute("w1", Engage(form=BattleForm.LIGHT, dice=(1,)))
    assert app.battle("w1").state.phase is Phase.ENGAGE_RESOLVE
    rerolled = app.execute("w1", UseGear(item=GLYPH, dice=(0,))).events
    assert [e.rule for e in rerolled if isinstance(e, DiceRerolled)] == ["ENCHANT-1"]
    with pytest.raises(RuleViolation) as refused:  # still once in each engage
        app.execute("w1", UseGear(item=GLYPH, dice=(0,)))
    assert refused.value.rule == "ENCHANT-1"


@pytest.mark.rule("ENCHANT-2")
@pytest.mark.rule("ENCHANT-3")
def test_a_carried_enchantment_is_not_written_back_again_and_is_gone_after_the_session():
    app = campaign()
    set_adventurer(app, "Ria", enchantments=(GLYPH,))
    clash(app, "w1")
    finish(app, "w1")
    assert me(app).enchantments == (GLYPH,)  # held once, not attached a second time
    run(app, cc.EndSession())
    assert me(app).enchantments == ()
    set_adventurer(app, "Ria", hp=me(app).max_hp, track=())  # rested, whatever w1 left
    clash(app, "w2", seed=3)
    ria = app.battle("w2").state.hero("ria")
    assert ria.attached == () and ria.carried_in == ()


@pytest.mark.rule("ENCHANT-3")
def test_a_member_carries_its_adventurer_enchantments_but_not_one_left_on_a_clash_tile():
    app = campaign()
    state = set_adventurer(app, "Ria", enchantments=(GLYPH, WARDSTONE))
    pack = starter_pack()
    member = adv.member(state, pack=pack)
    assert member.enchantments == (GLYPH,)  # the Wardstone stays with that battle's Clash tile (our default)
    plain = replace(member, class_id="", ready=(), packed=(), expended=(), enchantments=())
    assert recorded_hash(pack, (plain,), "base") == "base"
    assert recorded_hash(pack, (replace(plain, enchantments=(GLYPH,)),), "base") == pack.campaign_hash
