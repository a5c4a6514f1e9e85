"""Setting a battle up from a request (``new_game``), the one builder of
each setup behind `rk new`, the API and the lobby: the party's XP as given,
else the dial of its campaign (EP-2), else 1; a climax battle's from the
session-end table (SESSION-EP-2); a name after the setup; a random seed."""

from __future__ import annotations

import msgspec
import pytest
from campaign_arrange import campaign

from domain.betrayal.table import new_game
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.table.battle_surface import NewClash, NewDelve, NewDungeon
from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import parse_label


def request(kind: type, **fields):
    return msgspec.convert(fields, kind)


@pytest.mark.rule("EP-2")
def test_the_party_xp_is_as_given_else_its_campaigns_dial_else_1():
    app = campaign(dial=5)
    given = new_game.start_clash(
        app, request(NewClash, setup="waystone-crossing", party=[{"name": "Ria"}], xp=2, seed=1, name="given")
    )
    assert given.battle.state.xp == 2
    app = campaign(dial=5)
    dialled = new_game.start_clash(app, request(NewClash, setup="waystone-crossing", party=[{"name": "Ria"}], seed=1))
    assert (dialled.battle.state.xp, dialled.battle.state.battle_id) == (5, "waystone-1")
    fresh = BetrayalApp(store="memory")
    alone = new_game.start_delve(
        fresh, request(NewDelve, delve="whispering-barrow", party=[{"name": "Bo", "race": "nord", "form": "heavy"}])
    )
    assert alone.battle.state.xp == 1 and alone.battle.state.heroes[0].form.value == "heavy"
    assert 0 <= alone.battle.state.seed < 2**63  # a random one of 63 bits, shown to the host in the first line


@pytest.mark.rule("SESSION-EP-2")
def test_a_climax_battle_takes_the_session_tables_xp_and_needs_one_campaign():
    app = campaign(dial=7)
    made = new_game.start_clash(
        app,
        request(NewClash, setup="waystone-crossing", party=[{"name": "Ria"}, {"name": "Tarn"}], climax=True, seed=3),
    )
    assert made.battle.state.xp == 16  # session 1, adept, 2 players: EP 32
    with pytest.raises(MalformedCommand, match="not both"):
        new_game.start_clash(
            campaign(), request(NewClash, setup="waystone-crossing", party=[{"name": "Ria"}], xp=2, climax=True)
        )
    with pytest.raises(MalformedCommand, match="one campaign"):
        new_game.start_clash(
            BetrayalApp(store="memory"),
            request(NewClash, setup="waystone-crossing", party=[{"name": "Bo", "race": "nord"}], climax=True),
        )


def test_a_dungeon_takes_its_special_hexes_and_a_party_is_needed():
    app = BetrayalApp(store="memory")
    made = new_game.start_dungeon(
        app,
        request(
            NewDungeon,
            setup="sentinel-vault",
            party=[{"name": "Cy", "race": "nord"}],
            xp=1,
            seed=5,
            specials=[parse_label("g6")],
        ),
    )
    assert made.battle.state.battle_id == "sentinel-1"
    with pytest.raises(MalformedCommand, match="at least one adventurer"):
        new_game.start_clash(app, request(NewClash, setup="waystone-crossing", party=[]))


@pytest.mark.rule("BETWEEN-1")
def test_the_lobby_starts_a_clash_from_its_example_with_names_this_store_lets_join():
    from domain.betrayal.table.battle_surface import CLASH, CLASH_EXAMPLE

    fresh = BetrayalApp(store="memory")
    assert CLASH.starts_with(fresh) == {k: CLASH_EXAMPLE[k] for k in ("setup", "party")}  # nothing taken: as given
    app = campaign(party=(("Ria", "nord", "bastion"), ("Tarn", "orc", "bastion")))
    new_game.start_clash(app, request(NewClash, setup="waystone-crossing", party=[{"name": "Ria"}], seed=1))
    start = CLASH.starts_with(app)  # Ria is in a battle not ended (BETWEEN-1); Tarn is an orc, not a dark elf
    assert [(m["name"], m["race"]) for m in start["party"]] == [("Ria-2", "nord"), ("Tarn-2", "dark-elf")]
    made = new_game.start_clash(app, request(NewClash, **start, seed=1))  # the first click sets a game up
    assert [h.name for h in made.battle.state.heroes] == ["Ria-2", "Tarn-2"]


@pytest.mark.rule("BETWEEN-1")
def test_an_adventurer_made_with_a_class_in_the_setup_s_own_transaction_is_in_that_battle():
    """A setup's prelude may begin an adventurer's stream that the setup
    then writes to (BETWEEN-1: one with a class is in the battle until it
    ends): the setup's events follow the prelude's in that stream."""
    from domain.betrayal.adventurer import aggregate as adv
    from domain.betrayal.battle.application import adventurer_stream
    from domain.betrayal.battle.commands import StartClash
    from domain.betrayal.battle.ruleset import ADVENTURERS
    from domain.kernel.ruleset import Write

    app = BetrayalApp(store="memory")
    stream = adventurer_stream("Ria")
    created = adv.create(app.pack, str(stream), "Ria", "nord")
    member = msgspec.structs.replace(adv.member(created.state), class_id=sorted(app.pack.classes)[0])
    command = StartClash(battle_id="b1", setup="waystone-crossing", party=(member,), xp=1, seed=3)
    app.start("betrayal", command, battle_id="b1", prelude=[Write(ADVENTURERS.kind, stream, (created,))])
    assert [type(e.event).__name__ for e in app.events.get(stream)] == ["AdventurerCreated", "BattleJoined"]
    assert app.adventurer("Ria").fighting == "b1"
