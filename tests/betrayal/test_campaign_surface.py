"""The campaign's command lines both ways, from its declared surface
(``domain.betrayal.table.campaign_surface``): every command of the golden
campaign logs, and every command `rk campaign legal` lists in and out of a
Reward Phase, is written by the surface's grammar and read back as itself
(``parse(spell(c)) == c``); the setup's line begins the same campaign
again; and what a player may leave out is found in the store (the
campaign, the battle a promotion happens in, a Reward Phase's battle, XP
and loot)."""

from __future__ import annotations

import shlex
from pathlib import Path

import msgspec
import pytest

from campaign_arrange import CAMPAIGN, campaign, play, rewarded, run
from domain.betrayal.campaign import commands as cc
from domain.betrayal.campaign import defaults
from domain.betrayal.table.campaign_surface import CAMPAIGN_SURFACE, NewCampaign
from domain.kernel.errors import MalformedCommand
from domain.kernel.games import GameApp
from domain.kernel.surface import read

LOGS = Path(__file__).resolve().parents[2] / "logs"
GRAMMAR = CAMPAIGN_SURFACE.grammar
SETUP = CAMPAIGN_SURFACE.setup("campaign")


def _logged() -> list[cc.CampaignCommand]:
    """Every command the golden campaign logs issued, in order."""
    found = []
    for path in sorted(LOGS.glob("*campaign*.jsonl")):
        for line in path.read_bytes().splitlines():
            record = msgspec.json.decode(line)
            if record.get("type") == "betrayal.CampaignIssued":
                found.append(msgspec.convert(record["data"]["command"], cc.CampaignCommand))
    return found


LOGGED = _logged()


def test_the_golden_campaign_logs_give_every_kind_of_command_they_hold():
    assert len(LOGGED) > 10 and isinstance(LOGGED[0], cc.StartCampaign)


@pytest.mark.parametrize(
    "command", [c for c in LOGGED if not isinstance(c, cc.StartCampaign)], ids=lambda c: GRAMMAR.spell(c)
)
def test_every_command_of_the_golden_campaign_is_read_back_as_itself(command):
    assert GRAMMAR.parse(GRAMMAR.spell(command)) == command


@pytest.mark.parametrize(
    "command", [c for c in LOGGED if isinstance(c, cc.StartCampaign)], ids=lambda c: GRAMMAR.spell(c)
)
def test_the_setup_line_begins_the_same_campaign_again(command):
    words = shlex.split(GRAMMAR.spell(command))
    assert words[:2] == ["new", "campaign"]
    _, fields = read(SETUP.verb, words[2:])
    with GameApp(store="memory") as app:
        result = SETUP.start(app, msgspec.convert(fields, NewCampaign))
        assert app.stream(result.battle.state.battle_id)[0].event.command == command


@pytest.mark.parametrize(
    "command",
    [
        cc.Rest(remove=(("Ria", (1, 3)),), discard=(("Ria", "bitterroot-draught"),)),
        cc.TrainLine(adventurer="Ria", line="bow", row=2, left=False),
        cc.TrainLine(adventurer="Ria", line="bow", row=2),
        cc.TrainLine(adventurer="Ria", line="bow"),
        cc.Untrain(adventurer="Ria", uid=5),
        cc.Untrain(adventurer="Ria", what="magicka-line"),
        cc.GainRewards(battle_id="w1", xp=2, loot=(("Ria", "notched-dagger"),)),
        cc.Recruit(name="Ria Storm", race="nord", class_id="bastion", lines=("bow", "destruction-staff")),
        cc.Advance(adventurer="Ria", what="tenacity", amount=3),
        cc.Enlist(name="Ria", class_id="bastion"),
        cc.Enlist(name="Ria"),
        cc.GainItem(adventurer="Ria", item="x", ready=True),
        cc.Promote(adventurer="Ria"),
        cc.EndSession(),
        cc.EndRewards(),
        cc.ReplenishItem(adventurer="Ria", item="x"),
    ],
    ids=lambda c: GRAMMAR.spell(c),
)
def test_every_campaign_command_is_read_back_as_itself(command):
    assert GRAMMAR.parse(GRAMMAR.spell(command)) == command


def test_lines_read_as_a_player_types_them():
    assert GRAMMAR.parse("untrain Ria #5") == cc.Untrain(adventurer="Ria", uid=5)
    assert GRAMMAR.parse("advance Ria Health") == cc.Advance(adventurer="Ria", what="health")
    assert GRAMMAR.parse(["reward", "done"]) == cc.EndRewards()
    assert GRAMMAR.parse("item gain Ria Bitterroot-Draught --ready") == cc.GainItem(
        adventurer="Ria", item="bitterroot-draught", ready=True
    )
    with pytest.raises(MalformedCommand, match="NAME:"):
        GRAMMAR.parse("rest --remove Ria")
    with pytest.raises(MalformedCommand, match="missing"):
        GRAMMAR.parse("advance Ria")


def _legal(app) -> list[cc.CampaignCommand]:
    return app.legal(CAMPAIGN)


def test_every_command_rk_campaign_legal_lists_is_read_back_as_itself():
    app = campaign()
    run(
        app,
        cc.GainItem(adventurer="Ria", item="bitterroot-draught"),
        cc.GainItem(adventurer="Tarn", item="scuffed-bracers", ready=True),
    )
    between = _legal(app)
    rewarded(app, 8)
    phase = _legal(app)
    assert {type(c) for c in between} >= {cc.ReadyItem, cc.StowItem, cc.UseItem, cc.Rest, cc.EndSession}
    assert {type(c) for c in phase} >= {cc.Advance, cc.Untrain, cc.EndRewards}
    for command in between + phase:
        assert GRAMMAR.parse(GRAMMAR.spell(command)) == command


def test_the_legal_note_names_the_rewards_never_listed():
    app = campaign()
    state = app.battle(CAMPAIGN).state
    assert CAMPAIGN_SURFACE.legal_note(state, _legal(app)).startswith("rk reward BATTLE")
    rewarded(app, 2)
    assert CAMPAIGN_SURFACE.legal_note(app.battle(CAMPAIGN).state, _legal(app)) == ""


def test_the_log_writes_each_command_as_the_grammar_does():
    app = campaign()
    first = app.stream(CAMPAIGN)[0]
    from domain.kernel.narration import Narrator

    # the kernel narrates what was given, for every ruleset and game kind
    assert Narrator(app.ruleset(CAMPAIGN), None)(first.event) == "rk new campaign saga"
    assert app.ruleset(CAMPAIGN).describe_command(cc.Untrain(adventurer="Ria", uid=5)) == "untrain Ria 5"


def test_a_command_acts_on_the_campaign_of_the_adventurer_it_names_else_the_newest():
    app = campaign()
    assert defaults.campaign_of(app, {"adventurer": "ria"}) == CAMPAIGN
    from domain.betrayal.campaign import application as ca

    ca.new_campaign(app, "later")
    assert defaults.campaign_of(app, {"adventurer": "Tarn"}) == CAMPAIGN
    assert defaults.campaign_of(app, {}) == "later"


def test_a_promotion_happens_in_the_battle_the_adventurer_fights_else_in_its_campaign():
    app = campaign()
    assert defaults.promoting(app, {"adventurer": "Ria"}) == CAMPAIGN
    assert defaults.promoting(app, {"adventurer": "ria-storm"}) == ""  # no one: a battle's own hero id
    from domain.betrayal.battle.application import PartySpec

    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=2, seed=2, battle_id="fight")
    assert defaults.promoting(app, {"adventurer": "Ria"}) == "fight"


def test_a_reward_phase_finds_its_battle_xp_and_loot_unless_given():
    app = campaign()
    play(app, "w1")
    from domain.betrayal.campaign import application as ca

    found = defaults.reward(app, CAMPAIGN, {})
    assert found == {
        "battle_id": "w1",
        "xp": ca.battle_reward(app, "w1"),
        "loot": ca.battle_loot(app, "w1"),
        "discarded": ca.battle_discards(app, "w1"),
    }
    assert defaults.reward(app, CAMPAIGN, {"battle_id": "W1", "xp": 5, "loot": (), "discarded": ()}) == {
        "battle_id": "w1",
        "xp": 5,
        "loot": (),
        "discarded": (),
    }
    run(app, cc.GainRewards(**found))
    with pytest.raises(MalformedCommand, match="no finished battle without its Reward Phase"):
        defaults.reward(app, CAMPAIGN, {})


def test_recruiting_into_a_store_without_a_campaign_begins_one_unless_refused_anyway():
    with GameApp(store="memory") as app:
        assert defaults.recruiting(app, {"name": "Ria"}) == "campaign-1"
        assert defaults.recruiting(app, {"name": "Tarn"}) == "campaign-1"
