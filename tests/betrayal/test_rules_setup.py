"""Setting up a clash through ``decide`` (CLASH-*) and spending the Enemy
Pool (EP-*, EX-13, EX-19, EX-20): the EP a given XP and party make, the
levels drawn, when drawing stops, and the seeded draw."""

from importlib import resources

import pytest
from msgspec.structs import replace
from scenario import Scenario, new_party

from domain.betrayal.battle.commands import EndTurn, Move, StartClash
from domain.betrayal.battle.context import RulesContext, context_for
from domain.betrayal.battle.events import (
    AdventurerPlaced,
    BattleStarted,
    CachePlaced,
    EnemyPlaced,
    EnemyPoolClosed,
    RoundStarted,
    TurnStarted,
)
from domain.betrayal.battle.evolve import replay
from domain.betrayal.packs.load import PACK_FILES, parse_pack, starter_pack
from domain.betrayal.battle.rules import decide
from domain.betrayal.battle.state import Phase
from domain.betrayal.campaign.commands import EndSession
from domain.betrayal.vocab import BattleForm, Marker
from domain.kernel.errors import MalformedCommand, RuleViolation

SETUP = "waystone-crossing"
# Waystone Crossing: the numbered enemy hexes 1..7 and the Entrance hexes
NUMBERED = [(1, 2), (4, 0), (5, 3), (7, 1), (2, 4), (5, 4), (6, 5)]
ENTRANCE = [(0, 0), (1, 0), (0, 1), (1, 1), (-1, 2), (0, 2), (-1, 3), (0, 3), (-1, 4)]


def party(n: int) -> tuple[str, ...]:
    return tuple(f"{name}:nord" for name in ("Ysolda", "Tarn", "Brand", "Mirri", "Oskar")[:n])


def start(xp: int = 1, n: int = 1, seed: int = 1, setup: str = SETUP, ctx: RulesContext | None = None, **kw):
    """The events of a StartClash."""
    ctx = ctx or context_for(starter_pack(), setup)
    cmd = StartClash(battle_id="t", setup=setup, party=new_party(*party(n)), xp=xp, seed=seed, **kw)
    return decide(None, cmd, ctx)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def drawn(events) -> list[tuple[str, int, int]]:
    return [(e.enemy, e.level, e.ep_left) for e in of(events, EnemyPlaced)]


def pack_with_chips(chips_toml: str):
    """The starter pack with its enemy bags replaced by ``chips_toml``."""
    content = resources.files("domain.betrayal.content")
    files = {name: content.joinpath(name).read_bytes() for name in PACK_FILES}
    enemies = files["enemies.toml"].decode()
    enemies = enemies[: enemies.index("[[chips]]")] + chips_toml
    files["enemies.toml"] = enemies.encode()
    return parse_pack(files)


# --- EP-1, EP-2, EX-19: the Enemy Pool ---------------------------------------------


@pytest.mark.rule("EP-2")
@pytest.mark.rule("EX-19")
def test_the_enemy_pool_is_the_party_xp_times_the_party_size():
    # given party XP 4 and 2 adventurers, when the clash is set up
    started = of(start(xp=4, n=2), BattleStarted)[0]
    # then EP = 4 x 2 = 8
    assert (started.xp, started.ep) == (4, 8)


@pytest.mark.rule("EP-2")
@pytest.mark.parametrize("xp, n, ep", [(1, 1, 1), (3, 3, 9), (6, 4, 24), (0, 2, 0)])
def test_the_enemy_pool_for_other_parties(xp, n, ep):
    assert of(start(xp=xp, n=n), BattleStarted)[0].ep == ep


@pytest.mark.rule("EP-1")
def test_a_stronger_party_meets_more_and_stronger_enemies():
    weak = drawn(start(xp=1, n=2))
    strong = drawn(start(xp=4, n=2))
    assert [level for _, level, _ in weak] == [1, 1]
    assert [level for _, level, _ in strong] == [5, 1, 1, 1]


@pytest.mark.rule("EP-2")
def test_a_zero_enemy_pool_places_no_enemy():
    events = start(xp=0, n=2)
    assert of(events, EnemyPlaced) == []
    assert of(events, EnemyPoolClosed) == []


@pytest.mark.rule("EP-4")
@pytest.mark.rule("EP-6")
@pytest.mark.rule("EX-20")
@pytest.mark.rule("CLASH-7a")
def test_an_enemy_pool_of_eight_places_a_level_five_then_three_level_ones():
    events = start(xp=4, n=2)
    assert [(level, left) for _, level, left in drawn(events)] == [(5, 3), (1, 2), (1, 1), (1, 0)]
    # the EP is spent: no more enemies though three numbered hexes are empty
    assert of(events, EnemyPoolClosed) == []
    state = replay(events)
    assert (state.ep, state.ep_left, len(state.foes)) == (8, 0, 4)
    assert len(NUMBERED) - len(state.foes) == 3


@pytest.mark.rule("EP-4")
@pytest.mark.rule("EP-5")
@pytest.mark.rule("CLASH-7a")
@pytest.mark.parametrize(
    "xp, n, levels",
    [
        (15, 1, [10, 5]),  # EP 15
        (13, 2, [20, 5, 1]),  # EP 26
        (9, 4, [20, 10, 5, 1]),  # EP 36
        (3, 3, [5, 1, 1, 1, 1]),  # EP 9
    ],
)
def test_the_enemy_pool_is_spent_highest_level_first(xp, n, levels):
    placed = drawn(start(xp=xp, n=n))
    assert [level for _, level, _ in placed] == levels
    assert placed[-1][2] == 0


@pytest.mark.rule("EP-5")
def test_every_enemy_drawn_is_of_level_one_five_ten_or_twenty():
    for seed in range(1, 6):
        for _, level, _ in drawn(start(xp=30, n=4, seed=seed)):
            assert level in (1, 5, 10, 20)


@pytest.mark.rule("EP-7")
@pytest.mark.rule("CLASH-7b")
def test_ep_left_over_when_the_numbered_hexes_run_out_is_discarded():
    # EP 120 fills all seven numbered hexes with 70 spent
    events = start(xp=30, n=4)
    assert [level for _, level, _ in drawn(events)] == [20, 20, 10, 5, 5, 5, 5]
    closed = of(events, EnemyPoolClosed)
    assert [(c.discarded, c.reason) for c in closed] == [(50, "EP-7: no empty numbered hex left")]
    assert replay(events).ep_left == 0


@pytest.mark.rule("EP-7")
def test_when_the_bag_has_no_chip_the_ep_affords_the_rest_is_discarded():
    # a lesser bag of one chip (Shore Crab / Pale Wolf) and no greater bag
    pack = pack_with_chips('[[chips]]\nbag = "lesser"\nfront = "shore-crab"\nback = "pale-wolf"\n')
    events = start(xp=4, n=2, ctx=RulesContext(pack, SETUP))
    assert drawn(events) == [("pale-wolf", 5, 3)]
    assert [(c.discarded, c.reason) for c in of(events, EnemyPoolClosed)] == [
        (3, "EP-7: no chip left that the EP affords"),
    ]


@pytest.mark.rule("CLASH-7a")
@pytest.mark.rule("EP-4")
def test_with_no_chip_of_the_level_wanted_the_next_lower_level_that_fits_is_drawn():
    # no greater bag: an EP of 12 draws level 5, 5, then 1, 1
    pack = pack_with_chips(
        '[[chips]]\nbag = "lesser"\nfront = "shore-crab"\nback = "pale-wolf"\n'
        '[[chips]]\nbag = "lesser"\nfront = "road-lookout"\nback = "hedge-archer"\n'
        '[[chips]]\nbag = "lesser"\nfront = "tunnel-rat"\n'
        '[[chips]]\nbag = "lesser"\nfront = "ash-imp"\n'
    )
    events = start(xp=6, n=2, ctx=RulesContext(pack, SETUP))
    assert [level for _, level, _ in drawn(events)] == [5, 5, 1, 1]
    assert {e for e, _, _ in drawn(events)[:2]} == {"pale-wolf", "hedge-archer"}
    assert {e for e, _, _ in drawn(events)[2:]} == {"tunnel-rat", "ash-imp"}


@pytest.mark.rule("CLASH-7")
@pytest.mark.rule("CLASH-7a")
def test_a_chip_is_drawn_only_once_per_battle():
    # the greater bag holds three chips: two level-20 backs and one blank back
    levels = [level for _, level, _ in drawn(start(xp=20, n=4))]  # EP 80
    assert levels[:4] == [20, 20, 10, 5]


# --- the seeded draw ---------------------------------------------------------------


@pytest.mark.rule("CLASH-7")
def test_the_same_seed_draws_the_same_enemies():
    assert start(xp=4, n=2, seed=7) == start(xp=4, n=2, seed=7)
    assert drawn(start(xp=4, n=2, seed=1)) == [
        ("bandit-bruiser", 5, 3),
        ("road-lookout", 1, 2),
        ("ash-imp", 1, 1),
        ("shore-crab", 1, 0),
    ]


@pytest.mark.rule("CLASH-7")
def test_another_seed_may_draw_other_enemies():
    assert drawn(start(xp=4, n=2, seed=2)) == [
        ("pale-wolf", 5, 3),
        ("tunnel-rat", 1, 2),
        ("road-lookout", 1, 1),
        ("road-lookout", 1, 0),
    ]


@pytest.mark.rule("CLASH-7")
def test_each_draw_uses_the_next_rng_counter():
    events = start(xp=4, n=2)
    assert [e.draw for e in of(events, EnemyPlaced)] == [0, 1, 2, 3]
    assert replay(events).rng == 4


@pytest.mark.rule("CLASH-7")
def test_only_the_chips_of_the_pack_can_be_drawn():
    pack = pack_with_chips(
        '[[chips]]\nbag = "lesser"\nfront = "tunnel-rat"\nback = "bandit-bruiser"\n'
        '[[chips]]\nbag = "lesser"\nfront = "tunnel-rat"\nback = "bandit-bruiser"\n'
    )
    events = start(xp=3, n=2, ctx=RulesContext(pack, SETUP))  # EP 6
    assert drawn(events) == [("bandit-bruiser", 5, 1), ("tunnel-rat", 1, 0)]


# --- CLASH-3 to CLASH-7: the map, caches, enemies -----------------------------------


@pytest.mark.rule("CLASH-5")
@pytest.mark.parametrize("setup", ["waystone-crossing", "cinder-rite"])
def test_a_clash_is_set_up_on_the_map_of_its_setup(setup):
    """The play area is the setup's own map: everything set up stands on a
    hex of that diagram, the Entrance is the diagram's, and the battle's
    board (built from BattleStarted.setup on replay) is that diagram."""
    events = start(n=2, setup=setup)
    started = of(events, BattleStarted)[0]
    assert (started.setup, started.pack_id, started.seed) == (setup, "starter", 1)
    diagram = starter_pack().setups[setup]
    board = context_for(starter_pack(), started.setup).board
    assert set(board.all_hexes()) == {tuple(h.hex) for h in diagram.hexes}
    placed = [tuple(e.hex) for e in of(events, EnemyPlaced) + of(events, CachePlaced) + of(events, AdventurerPlaced)]
    assert placed and all(board.contains(h) and board.passable(h) for h in placed)
    assert {tuple(e.hex) for e in of(events, AdventurerPlaced)} <= set(board.entrance_hexes())


@pytest.mark.rule("CLASH-5")
def test_two_setups_lay_out_different_maps():
    maps = {
        s: frozenset(context_for(starter_pack(), s).board.all_hexes()) for s in ("waystone-crossing", "cinder-rite")
    }
    assert maps["waystone-crossing"] != maps["cinder-rite"]
    assert set(ENTRANCE) == set(context_for(starter_pack(), SETUP).board.entrance_hexes())


@pytest.mark.rule("CLASH-5")
def test_a_battle_cannot_be_set_up_twice():
    given = Scenario.clash()
    cmd = StartClash(battle_id="t", setup=SETUP, party=new_party("Ysolda:nord"), xp=1, seed=1)
    error = given.then_violates(cmd, "CLASH-5")
    assert error.message == "this battle is already set up"


def test_a_command_that_is_not_a_battles_is_malformed_saying_where_the_battles_commands_are_listed():
    """A campaign's command sent to a battle is no battle command (no rule:
    the command cannot be read as a battle's), and the reason says what to do."""
    given = Scenario.clash()
    with pytest.raises(MalformedCommand) as caught:
        decide(given.state, EndSession(), given.ctx)  # type: ignore[arg-type]
    assert str(caught.value) == "that is not a command of a Betrayal battle: `rk legal` lists what may be done"


def test_a_command_before_any_setup_is_malformed_saying_no_battle_is_set_up():
    given = Scenario.clash()
    with pytest.raises(MalformedCommand) as caught:
        decide(None, EndTurn(), given.ctx)
    assert str(caught.value) == "no battle has been set up yet"


@pytest.mark.rule("CLASH-5")
def test_an_unknown_setup_is_malformed():
    cmd = StartClash(battle_id="t", setup="nowhere", party=new_party("Ysolda:nord"), xp=1, seed=1)
    with pytest.raises(MalformedCommand):
        decide(None, cmd, context_for(starter_pack(), SETUP))


@pytest.mark.rule("CLASH-2")
@pytest.mark.rule("MOVE-1")
def test_an_obstacle_hex_of_the_map_cannot_be_entered():
    given = Scenario.clash().with_hero("ysolda", pos=(1, 3))
    assert not given.ctx.board.passable((2, 3))
    given.then_violates(Move(to=(2, 3)), "MOVE-1")


@pytest.mark.rule("CLASH-3")
@pytest.mark.rule("CLASH-7")
def test_enemies_go_on_the_numbered_hexes_of_the_diagram_in_number_order():
    events = start(xp=30, n=4)
    assert [(e.number, e.hex) for e in of(events, EnemyPlaced)] == list(enumerate(NUMBERED, start=1))
    assert [e.foe for e in of(events, EnemyPlaced)] == [f"e{i}" for i in range(1, 8)]


@pytest.mark.rule("CLASH-6")
@pytest.mark.rule("CLASH-3")
def test_caches_go_on_the_cache_hexes_of_the_diagram_face_up_as_shown():
    events = start()
    assert [(c.hex, c.kind) for c in of(events, CachePlaced)] == [
        ((3, 2), Marker.COMMON_CACHE),
        ((7, 2), Marker.LEGENDARY_CACHE),
    ]
    assert len(replay(events).caches) == 2


@pytest.mark.rule("CLASH-7")
def test_caches_come_before_enemies_and_enemies_before_adventurers():
    kinds = [type(e) for e in start(xp=4, n=2)]
    assert kinds.index(CachePlaced) < kinds.index(EnemyPlaced)
    last_enemy = max(i for i, k in enumerate(kinds) if k is EnemyPlaced)
    assert last_enemy < kinds.index(AdventurerPlaced)


@pytest.mark.rule("EP-8")
@pytest.mark.rule("OBJ-3")
def test_objective_units_are_placed_on_the_special_hexes_outside_the_enemy_pool():
    events = start(xp=1, n=1, setup="cinder-rite")
    placed = of(events, EnemyPlaced)
    assert [(e.enemy, e.hex, e.quest, e.ep_left, e.draw) for e in placed[:2]] == [
        ("ash-hierophant", (5, 3), True, 1, -1),
        ("bound-sentinel", (4, 5), True, 1, -1),
    ]
    # the EP of 1 is still whole for the drawn enemies
    assert [(e.level, e.quest, e.ep_left) for e in placed[2:]] == [(1, False, 0)]


# --- CLASH-8: the adventurers ------------------------------------------------------------


@pytest.mark.rule("CLASH-8")
@pytest.mark.rule("CLASH-8a")
@pytest.mark.rule("CLASH-8b")
def test_adventurers_are_placed_on_the_entrance_first_player_first():
    events = start(n=3)
    placed = of(events, AdventurerPlaced)
    assert [e.hero for e in placed] == ["ysolda", "tarn", "brand"]
    assert all(e.hex in ENTRANCE for e in placed)
    assert [e.hex for e in placed] == ENTRANCE[:3]  # default: the Entrance's hexes in reading order


@pytest.mark.rule("CLASH-8a")
@pytest.mark.rule("CLASH-8b")
def test_the_party_may_choose_each_adventurer_s_entrance_hex():
    events = start(n=2, placements=((0, 3), (-1, 4)))
    assert [(e.hero, e.hex) for e in of(events, AdventurerPlaced)] == [("ysolda", (0, 3)), ("tarn", (-1, 4))]
    assert replay(events).hero("tarn").pos == (-1, 4)


@pytest.mark.rule("CLASH-8a")
def test_an_adventurer_cannot_be_placed_off_the_entrance():
    with pytest.raises(RuleViolation) as caught:
        start(n=2, placements=((0, 0), (2, 0)))
    assert caught.value.rule == "CLASH-8a"


@pytest.mark.rule("CLASH-8a")
def test_two_adventurers_cannot_be_placed_on_the_same_hex():
    with pytest.raises(RuleViolation) as caught:
        start(n=2, placements=((0, 0), (0, 0)))
    assert caught.value.rule == "CLASH-8a"


@pytest.mark.rule("CLASH-8")
def test_a_party_has_one_to_four_adventurers():
    with pytest.raises(RuleViolation) as caught:
        start(n=5)
    assert caught.value.rule == "CLASH-8"
    assert len(of(start(n=4), AdventurerPlaced)) == 4


@pytest.mark.rule("HEALTH-5")
def test_a_defeated_adventurer_cannot_join_a_battle():
    member = new_party("Ysolda:nord")[0]
    cmd = StartClash(battle_id="t", setup=SETUP, party=(replace(member, hp=0),), xp=1, seed=1)
    with pytest.raises(RuleViolation) as caught:
        decide(None, cmd, context_for(starter_pack(), SETUP))
    assert caught.value.rule == "HEALTH-5"


@pytest.mark.rule("CLASH-8c")
@pytest.mark.rule("EX-13")
def test_the_placement_order_becomes_the_turn_order():
    state = replay(start(n=3, placements=((-1, 4), (0, 0), (1, 1))))
    assert state.order == ("ysolda", "tarn", "brand")
    assert state.turn.hero == "ysolda"
    given = Scenario(state, context_for(starter_pack(), SETUP))
    then = given.when(EndTurn())
    then.then_has(TurnStarted, hero="tarn")


@pytest.mark.rule("CLASH-8d")
@pytest.mark.rule("EX-13")
def test_each_adventurer_sets_its_battle_form_when_placed():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf:bow:ranged", "Brand:high-elf:destruction-staff:magic"))
    assert [(h.id, h.form) for h in given.state.heroes] == [
        ("ysolda", BattleForm.LIGHT),
        ("tarn", BattleForm.RANGED),
        ("brand", BattleForm.MAGIC),
    ]


# --- CLASH-10: the first round --------------------------------------------------------


@pytest.mark.rule("CLASH-10")
def test_the_setup_ends_by_starting_round_one_with_the_first_player_s_turn():
    events = start(n=2)
    kinds = [type(e) for e in events]
    assert kinds.index(AdventurerPlaced) < kinds.index(RoundStarted) < kinds.index(TurnStarted)
    assert of(events, RoundStarted)[0].round == 1
    assert of(events, TurnStarted)[0].hero == "ysolda"
    state = replay(events)
    assert (state.round, state.phase, state.turn.hero) == (1, Phase.ADVENTURER_TURN, "ysolda")


# --- bounds a log cannot exceed: XP (EP-2), the seed, names ---------------------------


@pytest.mark.rule("EP-2")
def test_xp_beyond_the_dial_violates_ep_2():
    from domain.betrayal.battle.setup import MAX_XP

    assert of(start(xp=MAX_XP), BattleStarted)[0].xp == MAX_XP
    for xp in (MAX_XP + 1, 2**63, 2**200):
        with pytest.raises(RuleViolation) as caught:
            start(xp=xp)
        assert caught.value.rule == "EP-2"
    # the refusal shows the XP given, unless it is too long to show (30 digits or more)
    for xp, shown in ((MAX_XP + 1, str(MAX_XP + 1)), (10**30 - 1, "9" * 30), (10**30, "that")):
        with pytest.raises(RuleViolation) as caught:
            start(xp=xp)
        assert caught.value.message == f"XP {shown} is more than the XP dial holds (0 to {MAX_XP}: 40, then +40)"


@pytest.mark.parametrize("seed", [2**63, 2**64, -1])
def test_a_seed_outside_0_to_2_63_minus_1_is_malformed(seed):
    with pytest.raises(MalformedCommand, match="seed"):
        start(seed=seed)
    assert of(start(seed=2**63 - 1), BattleStarted)[0].seed == 2**63 - 1


@pytest.mark.parametrize("name", ["Evil\x1b]0;PWNED\x07", "Tab\tbed", "Right\u202eto left", "x" * 65])
def test_a_party_member_named_with_a_control_character_is_malformed(name):
    ctx = context_for(starter_pack(), SETUP)
    member = replace(new_party("Ysolda:nord")[0], name=name)
    cmd = StartClash(battle_id="t", setup=SETUP, party=(member,), xp=1, seed=1)
    with pytest.raises(MalformedCommand, match="adventurer name"):
        decide(None, cmd, ctx)


@pytest.mark.rule("CLASH-8")
def test_a_party_larger_than_the_entrance_s_empty_hexes_is_refused_saying_so():
    """No starter setup has an Entrance this small (7 to 9 hexes, at most two
    caches), so the board is cut to two Entrance hexes: a party of three
    cannot be placed, and the refusal says why (found by mutation testing)."""
    import copy

    shared = context_for(starter_pack(), SETUP)  # shared by every test: left as it is
    ctx = RulesContext(shared.pack, SETUP)  # a context of this test's own
    small = copy.copy(shared.board)
    small._entrances = shared.board.entrance_hexes()[:2]  # an Entrance tile of two passable hexes
    ctx.__dict__["board"] = small
    with pytest.raises(RuleViolation) as caught:
        start(n=3, ctx=ctx)
    assert caught.value.rule == "CLASH-8"
    assert caught.value.message == "the Entrance tile has too few empty hexes for this party"
    assert len(of(start(n=2, ctx=ctx), AdventurerPlaced)) == 2


@pytest.mark.rule("CLASH-8a")
def test_placements_for_some_of_the_party_only_are_malformed_saying_what_to_give():
    """CLASH-8a: the party places each adventurer or leaves every placement
    to the default; a hex for one of two adventurers is a malformed command
    that says so (found by mutation testing)."""
    with pytest.raises(MalformedCommand) as caught:
        start(n=2, placements=((0, 3),))
    assert str(caught.value) == "give one Entrance hex per adventurer, or none"
