"""The campaign's item deck (ITEM-9): the Common and Legendary item cards
and their discard piles last across the campaign; a delve of the party is
dealt the deck as it stands, its caches draw from it, and a deck that runs
out is refilled from its shuffled discard pile."""

from __future__ import annotations

import pytest
from campaign_arrange import CAMPAIGN, campaign, me, play, run
from delve_arrange import DelveScenario

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.state import Cache
from domain.betrayal.battle.commands import Move
from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.betrayal.campaign import game as cp
from domain.betrayal.campaign.item_deck import deck
from domain.betrayal.delve.aggregate import ItemCycled, ItemDeckReshuffled, ItemFound, PlacedTile
from domain.betrayal.delve.deck import ItemDeck
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.ruleset import BETRAYAL
from domain.betrayal.vocab import Marker

LONG_DRAIN = PlacedTile("t1", "long-drain", 0, (18, 30))
PACK = starter_pack()
COMMON = sorted(i for i, card in PACK.items.items() if not card.legendary)
LEGENDARY = sorted(i for i, card in PACK.items.items() if card.legendary)


def _cache(item_deck: ItemDeck, seed: int = 1) -> DelveScenario:
    """A Common cache on (18, 31) of the Long Drain, Ysolda beside it, the
    delve dealt ``item_deck``."""
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(LONG_DRAIN)
    given = given.with_state(caches=(Cache((18, 31), Marker.COMMON_CACHE),), seed=seed)
    return given.with_delve(item_deck=item_deck, seed=seed)


def _opened(then) -> str:
    (shown,) = then.of(ItemFound) or then.of(ItemCycled)
    return shown.item


@pytest.mark.rule("ITEM-9")
def test_a_campaign_delve_s_cache_draws_from_the_campaign_s_item_deck():
    left = COMMON[3]  # every other Common card is out (in hands, or on the pile)
    for seed in range(1, 6):
        then = _cache(ItemDeck(cards=(left, *LEGENDARY), discards=(COMMON[0],)), seed).when(Move(to=(18, 31)))
        assert _opened(then) == left
        then.lacks(ItemDeckReshuffled)


@pytest.mark.rule("ITEM-9")
def test_an_item_deck_that_ran_out_is_refilled_from_its_shuffled_discard_pile():
    pile = (COMMON[1], COMMON[4])
    then = _cache(ItemDeck(cards=tuple(LEGENDARY), discards=(*pile, LEGENDARY[0]))).when(Move(to=(18, 31)))
    then.has(ItemDeckReshuffled, legendary=False, cards=pile)
    assert _opened(then) in pile
    assert then.delve.item_deck == ItemDeck(cards=(*LEGENDARY, *pile), discards=(LEGENDARY[0],))
    said = BETRAYAL.describe_event(then.of(ItemDeckReshuffled)[0], then.state, PACK)
    assert said == "ITEM-9: the Common item deck ran out: its discard pile of 2 cards is shuffled into the tray"


@pytest.mark.rule("ITEM-9")
def test_the_item_deck_and_its_discard_pile_last_across_the_campaign_and_undo_with_it():
    app = campaign()
    play(app, "w1")
    run(app, cc.GainRewards(battle_id="w1", xp=0, loot=(("Ria", "notched-dagger"), ("Tarn", "sooty-lamp"))))
    state = ca.campaign(app, CAMPAIGN)
    assert state.items_out == ("notched-dagger", "sooty-lamp")
    assert "notched-dagger" not in deck(PACK, state).cards
    run(app, cc.EndRewards(), cc.DiscardItem(adventurer="Ria", item="notched-dagger"))
    state = ca.campaign(app, CAMPAIGN)
    assert (state.items_out, state.item_discards) == (("sooty-lamp",), ("notched-dagger",))
    assert deck(PACK, state) == ItemDeck(
        cards=tuple(sorted(set(PACK.items) - {"notched-dagger", "sooty-lamp"})), discards=("notched-dagger",)
    )
    app.undo(CAMPAIGN)
    assert ca.campaign(app, CAMPAIGN).item_discards == () and me(app).items == ("notched-dagger",)


@pytest.mark.rule("ITEM-9")
def test_loot_from_the_discard_pile_shows_the_deck_was_refilled_from_it():
    app = campaign()
    run(
        app,
        cc.GainItem(adventurer="Ria", item="notched-dagger"),
        cc.GainItem(adventurer="Ria", item="tarred-rope"),
        cc.DiscardItem(adventurer="Ria", item="notched-dagger"),
        cc.DiscardItem(adventurer="Ria", item="tarred-rope"),
    )
    assert ca.campaign(app, CAMPAIGN).item_discards == ("notched-dagger", "tarred-rope")
    play(app, "w1")
    result = run(app, cc.GainRewards(battle_id="w1", xp=0, loot=(("Ria", "tarred-rope"),)))
    assert [type(e) for e in result.events if isinstance(e, cp.CampaignEvent) and not isinstance(e, cp.CampaignIssued)][
        1:
    ] == [cp.ItemPileShuffledBack, cp.ItemCardsDealt]
    state = ca.campaign(app, CAMPAIGN)
    assert (state.items_out, state.item_discards) == (("tarred-rope",), ())


@pytest.mark.rule("ITEM-9")
def test_rk_new_delve_deals_a_campaign_party_its_campaign_s_item_deck(rk, store):
    rk("new", "campaign", "saga")
    rk("adventurer", "new", "Ria", "--race", "nord", "--class", "bastion")
    rk("item", "gain", "Ria", "notched-dagger")
    rk("item", "discard", "Ria", "notched-dagger")
    rk("new", "delve", "--delve", "drowned-cistern", "--party", "Ria", "--seed", "3", "--name", "d1")
    rk("new", "delve", "--delve", "drowned-cistern", "--party", "Ada:nord", "--seed", "3", "--name", "d2")
    app = BetrayalApp(str(store))
    try:
        dealt = app.delve_of("d1").item_deck
        assert dealt == ItemDeck(
            cards=tuple(sorted(set(PACK.items) - {"notched-dagger"})), discards=("notched-dagger",)
        )
        assert app.delve_of("d2").item_deck is None  # no campaign: the pack's item cards, fresh
        said = BETRAYAL.describe_event(next(e.event for e in app.events(BETRAYAL.stream_of("delve", "d1"))), None, PACK)
        assert said.endswith("; the campaign's item deck: 9 cards, 1 on its discard pile (ITEM-9)")
    finally:
        app.close()
