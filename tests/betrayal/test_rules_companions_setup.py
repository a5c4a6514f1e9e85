"""Companions at setup (CLASH-9, CLASH-9a, DUNGEON-10, DUNGEON-10a,
DELVE-11, DELVE-11a; facts §2: a companion is a party member but not an
adventurer, outside party size and EP)."""

from __future__ import annotations

import pytest
from companion_arrange import clash, escorts
from delve_arrange import DelveScenario
from scenario import new_party

from domain.betrayal.battle.commands import StartDelve
from domain.betrayal.battle.companions.events import CompanionJoined, CompanionPlaced, CompanionWaits
from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.evolve import replay
from domain.betrayal.battle.rules import decision
from domain.betrayal.packs.load import starter_pack
from domain.kernel.errors import MalformedCommand

FOUR = ("Ysolda:nord", "Tarn:dark-elf", "Brand:imperial", "Ria:orc")


def _free_entrance(given) -> list:
    taken = (
        {h.pos for h in given.state.heroes}
        | {f.pos for f in given.state.foes}
        | {a.pos for a in given.state.companions}
        | {c.hex for c in given.state.caches}
    )
    return [h for h in given.ctx.board.entrance_hexes() if h not in taken]


@pytest.mark.rule("CLASH-9")
def test_companions_go_on_the_entrance_after_the_party_in_player_turn_order():
    given = clash(companions=("golem:Tarn", "fox:Ysolda"), party=("Ysolda:nord", "Tarn:dark-elf"))
    fox, golem = given.state.companion("fox"), given.state.companion("golem")
    entrance = given.ctx.board.entrance_hexes()
    heroes = {h.pos for h in given.state.heroes}
    assert fox.pos in entrance and golem.pos in entrance and not {fox.pos, golem.pos} & heroes
    # Ysolda plays first, so her fox is placed before Tarn's golem (reading order of the free hexes)
    free = [h for h in entrance if h not in heroes]
    assert [fox.pos, golem.pos] == free[:2]
    assert (fox.controller, golem.controller) == ("ysolda", "tarn")


@pytest.mark.rule("CLASH-9")
def test_a_companion_starts_at_full_chip_hp_with_the_chip_s_numbers():
    a = clash(companions=("golem:Ysolda",)).state.companion("golem")
    chip = starter_pack().companions["golem"]
    assert (a.hp, a.max_hp, a.combat, a.range, a.targets, a.move) == (
        chip.hp,
        chip.hp,
        chip.combat,
        chip.range,
        chip.targets,
        chip.move,
    )


@pytest.mark.rule("CLASH-9")
def test_companions_count_neither_toward_party_size_nor_toward_ep():
    plain = clash(companions=(), party=FOUR, xp=2)
    escorted = clash(companions=("fox:Ysolda", "golem:Ria"), party=FOUR, xp=2)
    assert escorted.state.ep == plain.state.ep == 2 * 4
    assert len(escorted.state.heroes) == 4 and len(escorted.state.companions) == 2


@pytest.mark.rule("CLASH-9a")
def test_with_no_empty_entrance_hex_left_a_companion_waits_beside_the_tile():
    room = len(_free_entrance(clash(companions=(), party=FOUR)))
    chips = ("fox", "golem", "archer")
    specs = tuple(f"{chips[i % 3]}:Ysolda" for i in range(room + 1))
    given = clash(companions=specs, party=FOUR)
    waiting = [a for a in given.state.companions if a.pos is None]
    assert len(waiting) == 1 and not _free_entrance(given)
    then = given.state
    assert then.companions[-1].pos is None  # the last in turn order is the one left out


@pytest.mark.rule("CLASH-9a")
def test_the_waiting_companion_is_said_to_wait_citing_the_rule():
    from domain.betrayal.battle.commands import StartClash
    from domain.betrayal.battle.context import context_for
    from domain.betrayal.battle.rules import decide

    room = len(_free_entrance(clash(companions=(), party=FOUR)))
    cmd = StartClash(
        battle_id="t",
        setup="waystone-crossing",
        party=new_party(*FOUR),
        xp=1,
        seed=1,
        companions=escorts(*(["fox:Ria"] * (room + 1))),
    )
    events = decide(None, cmd, context_for(starter_pack(), "waystone-crossing"))
    waits = [e for e in events if isinstance(e, CompanionWaits)]
    assert [e.rule for e in waits] == ["CLASH-9a"]
    assert waits[0].companion == f"fox-{room + 1}"


@pytest.mark.rule("DUNGEON-10")
@pytest.mark.rule("DUNGEON-10a")
def test_a_dungeon_places_companions_on_its_entrance_and_the_rest_wait():
    from domain.betrayal.battle.commands import StartDungeon
    from domain.betrayal.battle.context import context_for
    from domain.betrayal.battle.rules import decide

    ctx = context_for(starter_pack(), "sentinel-vault")
    room = len(ctx.board.entrance_hexes()) - 2  # two adventurers (the vault's caches are elsewhere)
    cmd = StartDungeon(
        battle_id="d",
        setup="sentinel-vault",
        party=new_party("Ysolda:nord", "Tarn:dark-elf"),
        xp=3,
        seed=1,
        companions=escorts(*(["fox:Tarn"] * (room + 1))),
    )
    events = decide(None, cmd, ctx)
    placed = [e for e in events if isinstance(e, CompanionPlaced)]
    assert {e.rule for e in placed} == {"DUNGEON-10"} and len(placed) == room
    assert [e.rule for e in events if isinstance(e, CompanionWaits)] == ["DUNGEON-10a"]
    assert all(h in ctx.board.entrance_hexes() for h in (e.hex for e in placed))


def _delve(companions: int):
    pack = starter_pack()
    cmd = StartDelve(
        battle_id="v",
        delve="whispering-barrow",
        party=new_party("Ysolda:nord"),
        xp=1,
        seed=1,
        companions=escorts(*(["fox:Ysolda"] * companions)),
    )
    d = decision(None, cmd, RulesContext(pack, "whispering-barrow"))
    return d, DelveScenario(replay(d.events), d.ctx)


@pytest.mark.rule("DELVE-11")
def test_a_delve_places_companions_on_the_entrance_tile():
    d, given = _delve(2)
    placed = [e for e in d.events if isinstance(e, CompanionPlaced)]
    assert [e.rule for e in placed] == ["DELVE-11", "DELVE-11"]
    assert all(e.hex in given.ctx.board.entrance_hexes() for e in placed)
    assert given.state.hero("ysolda").pos not in {e.hex for e in placed}


@pytest.mark.rule("DELVE-11a")
def test_a_delve_entrance_with_no_room_leaves_companions_waiting():
    _, probe = _delve(0)
    room = len(probe.ctx.board.entrance_hexes()) - 1
    d, given = _delve(room + 2)
    assert [e.rule for e in d.events if isinstance(e, CompanionWaits)] == ["DELVE-11a", "DELVE-11a"]
    assert sum(a.pos is None for a in given.state.companions) == 2


def test_an_unknown_chip_or_controller_is_refused_and_nothing_is_written():
    with pytest.raises(MalformedCommand, match="no companion chip 'dragon'"):
        clash(companions=("dragon:Ysolda",))
    with pytest.raises(MalformedCommand, match="not an adventurer of this party"):
        clash(companions=("fox:Nobody",))


def test_a_companion_joins_under_its_controller_named_by_name_in_any_case():
    from domain.betrayal.battle.commands import StartClash
    from domain.betrayal.battle.context import context_for
    from domain.betrayal.battle.rules import decide

    cmd = StartClash(
        battle_id="t",
        setup="waystone-crossing",
        party=new_party("Ysolda:nord"),
        xp=1,
        seed=1,
        companions=escorts("FOX:ysOLDA"),
    )
    joined = [
        e for e in decide(None, cmd, context_for(starter_pack(), "waystone-crossing")) if isinstance(e, CompanionJoined)
    ]
    assert joined[0].companion.controller == "ysolda"
