"""Items between battles: the inventory of 4 ready slots and the Pack
(ITEM-2, READY-1, READY-4), armour traits (ARMOR-3), pets (PET-3, PET-4),
enchantments at the session's end (ENCHANT-3), and items used outside
battle (ITEM-3, ITEM-7, ITEM-8, POTION-1/2, EXPEND-1 to EXPEND-3,
CONSUMABLE-1)."""

import msgspec
import pytest
from campaign_arrange import campaign, me, run, set_adventurer

from domain.betrayal.campaign import commands as cc
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.campaign import application as ca
from domain.betrayal.battle.state import DieKind, TrackDie
from domain.kernel.errors import RuleViolation

COMMON = [
    "notched-dagger",
    "scuffed-bracers",
    "sooty-lamp",
    "knucklebone-charm",
    "tarred-rope",
    "ashwood-shortbow",
    "honeyed-oatcake",
    "mulled-cider-jug",
    "tinkers-lockpicks",
]


def _refused(app, command) -> str:
    with pytest.raises(RuleViolation) as e:
        run(app, command)
    return e.value.rule


def gain(item: str, who: str = "Ria", ready: bool = False) -> cc.GainItem:
    return cc.GainItem(adventurer=who, item=item, ready=ready)


@pytest.fixture
def app():
    return campaign()


@pytest.mark.rule("ITEM-2")
@pytest.mark.rule("READY-1")
def test_an_adventurer_holds_at_most_eight_items_four_of_them_ready(app):
    for item in COMMON[:4]:
        run(app, gain(item, ready=True))
    assert _refused(app, gain(COMMON[4], ready=True)) == "READY-1"  # the 4 ready slots are full
    for item in COMMON[4:8]:
        run(app, gain(item))
    assert (len(me(app).ready), len(me(app).packed)) == (4, 4)
    assert _refused(app, gain(COMMON[8])) == "READY-1"  # an item in either place takes a space
    run(app, cc.DiscardItem(adventurer="Ria", item="tarred-rope"))
    run(app, gain(COMMON[8]))
    assert len(me(app).items) == 8


@pytest.mark.rule("READY-4")
def test_items_move_freely_between_the_pack_and_the_ready_slots_outside_combat(app):
    run(app, gain("notched-dagger"))
    assert me(app).packed == ("notched-dagger",)
    run(app, cc.ReadyItem(adventurer="Ria", item="notched-dagger"))
    assert (me(app).ready, me(app).packed) == (("notched-dagger",), ())
    run(app, cc.StowItem(adventurer="Ria", item="notched-dagger"))
    assert (me(app).ready, me(app).packed) == ((), ("notched-dagger",))


@pytest.mark.rule("ARMOR-3")
def test_only_one_armour_of_each_trait_is_ready():
    pack = ca.CAMPAIGN.pack()
    bracers = pack.gear["scuffed-bracers"]
    second = msgspec.structs.replace(bracers, id="iron-gauntlets", name="Iron Gauntlets")
    app = BetrayalApp(store="memory", pack=msgspec.structs.replace(pack, gear={**pack.gear, second.id: second}))
    ca.new_campaign(app, "saga")
    run(app, cc.Recruit(name="Ria", race="nord", class_id="bastion"))
    run(app, gain("scuffed-bracers", ready=True), gain("iron-gauntlets"), gain("dented-kettle-helm", ready=True))
    assert _refused(app, cc.ReadyItem(adventurer="Ria", item="iron-gauntlets")) == "ARMOR-3"
    run(app, cc.StowItem(adventurer="Ria", item="scuffed-bracers"))
    run(app, cc.ReadyItem(adventurer="Ria", item="iron-gauntlets"))
    assert me(app).ready == ("dented-kettle-helm", "iron-gauntlets")


@pytest.mark.rule("PET-4")
def test_a_readied_pet_cannot_go_back_to_the_pack(app):
    run(app, gain("mudcrab-hatchling"))
    run(app, cc.ReadyItem(adventurer="Ria", item="mudcrab-hatchling"))
    assert _refused(app, cc.StowItem(adventurer="Ria", item="mudcrab-hatchling")) == "PET-4"
    assert me(app).ready == ("mudcrab-hatchling",)


@pytest.mark.rule("PET-3")
@pytest.mark.rule("ENCHANT-3")
def test_pets_and_enchantments_are_discarded_when_the_session_ends(app):
    run(app, gain("mudcrab-hatchling", ready=True), gain("glyph-of-steady-aim"), gain("notched-dagger"))
    set_adventurer(app, "Ria", tenacity=6)
    run(app, cc.EndSession())
    assert me(app).items == ("notched-dagger",)
    assert me(app).tenacity == 0  # facts: Tenacity resets between sessions
    assert ca.campaign(app, "saga").session == 2


@pytest.mark.rule("POTION-1")
@pytest.mark.rule("POTION-2")
@pytest.mark.rule("EXPEND-1")
@pytest.mark.rule("EXPEND-2")
@pytest.mark.rule("ITEM-7")
@pytest.mark.rule("ITEM-8")
def test_a_potion_heals_then_is_expended_until_replenished_and_keeps_its_space(app):
    run(app, gain("bitterroot-draught"))
    set_adventurer(app, "Ria", hp=1)
    run(app, cc.UseItem(adventurer="Ria", item="bitterroot-draught"))
    assert me(app).hp == 4  # heals 3, up to the maximum
    assert me(app).expended == ("bitterroot-draught",)
    assert me(app).items == ("bitterroot-draught",)  # not discarded (ITEM-8), still a space (EXPEND-2)
    set_adventurer(app, "Ria", hp=1)
    assert _refused(app, cc.UseItem(adventurer="Ria", item="bitterroot-draught")) == "EXPEND-1"
    assert me(app).hp == 1


@pytest.mark.rule("EXPEND-3")
def test_an_alchemy_station_replenishes_an_expended_potion(app):
    run(app, gain("bitterroot-draught"), cc.UseItem(adventurer="Ria", item="bitterroot-draught"))
    run(app, cc.ReplenishItem(adventurer="Ria", item="bitterroot-draught"))
    assert me(app).expended == ()
    set_adventurer(app, "Ria", hp=2)
    run(app, cc.UseItem(adventurer="Ria", item="bitterroot-draught"))
    assert me(app).hp == 4


@pytest.mark.rule("CONSUMABLE-1")
def test_a_consumable_is_discarded_after_one_use(app):
    run(app, gain("mulled-cider-jug"))
    run(app, cc.UseItem(adventurer="Ria", item="mulled-cider-jug"))
    assert me(app).items == () and me(app).tenacity == 1


@pytest.mark.rule("ITEM-3")
def test_an_item_whose_work_is_done_in_battle_is_not_used_between_battles(app):
    run(app, gain("notched-dagger"))
    assert _refused(app, cc.UseItem(adventurer="Ria", item="notched-dagger")) == "ITEM-3"
    assert me(app).items == ("notched-dagger",)


def test_a_recovering_potion_takes_skill_dice_off_the_track_from_its_front(app):
    set_adventurer(
        app,
        "Ria",
        track=(
            TrackDie(DieKind.OVERFATIGUE),
            TrackDie(DieKind.SKILL, 4, 1),
            TrackDie(DieKind.SKILL, 5, 0),
            TrackDie(DieKind.SKILL, 6, 2),
        ),
    )
    run(app, gain("clear-breath-vial"), cc.UseItem(adventurer="Ria", item="clear-breath-vial"))
    assert me(app).track == (TrackDie(DieKind.OVERFATIGUE), TrackDie(DieKind.SKILL, 6, 2))
