"""Allied NPCs at battle setup (issue #12): ``StartLabyrinth.allies`` are
built like PCs (from a class and level, or a sheet) on the party's side as
allied NPCs a1, a2...; they count toward the side's 6 and the PC row
limits (facts: Fills SCALE-1), act on their own by the seeded policy in
[Speed] order with ties PC -> allied NPC -> Enemy (ORDER-2), follow the
party's escape, keep the side in the fight while they stand, and a battle
with them replays to the state played live."""

from __future__ import annotations

import json
import random

import pytest
from labyrinth_harness import CTX, PACK, PARTY, decision, edit, of, when

from domain.kernel.errors import RuleViolation
from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, verify_log
from domain.labyrinth import casualties
from domain.labyrinth import events as ev
from domain.labyrinth.catalog import Abilities
from domain.labyrinth.commands import Escape, Member, Pass, StartLabyrinth
from domain.labyrinth.flow import waits_for
from domain.labyrinth.rules import decide, legal_commands, replay
from domain.labyrinth.sheets import PcSheet
from domain.labyrinth.vocab import Row, Side, Termination


def agile(agi: int, **kw) -> Member:
    """A fighter whose sheet gives it [Speed] ``agi`` (sword and mail add nothing)."""
    return Member(cls="fighter", sheet=PcSheet(abilities=Abilities(str=10, tec=10, vit=10, agi=agi, luc=6)), **kw)


def test_allies_are_allied_npcs_a1_a2_after_the_party_and_the_ids_of_the_rest_stay():
    state = _start(allies=(Member(cls="mage", level=2, name="Ally"), agile(9)))
    ids = [(c.id, c.side) for c in state.combatants]
    assert ids == [
        ("p1", Side.PC),
        ("p2", Side.PC),
        ("a1", Side.NPC),
        ("a2", Side.NPC),
        ("e1", Side.ENEMY),
        ("e2", Side.ENEMY),
    ]
    a1, a2 = state.get("a1"), state.get("a2")
    assert (a1.name, a1.kind, a1.level, a1.row, a1.fp) == ("Ally", "mage", 2, Row.BACK, 0)
    assert a2.base.speed == 9 and a2.row is Row.FRONT
    assert [c.roster for c in state.combatants] == [1, 2, 3, 4, 5, 6]


def _start(party=PARTY, allies=(), encounter="slimes", seed=1, **options):
    from domain.labyrinth.rules import evolve
    from domain.labyrinth.state import Options

    command = StartLabyrinth(
        battle_id="t", encounter=encounter, party=party, allies=allies, seed=seed, options=Options(**options)
    )
    state = None
    for event in decide(None, command, CTX):
        state = evolve(state, event)
    return state


def test_only_the_pcs_declare_in_the_standby_phase_and_only_pcs_take_commands():
    state = _start(allies=(agile(9),))
    assert {c.actor for c in legal_commands(state, CTX)} == {"p1", "p2"}


# --- SCALE-1 ---------------------------------------------------------------------------


@pytest.mark.rule("SCALE-1")
def test_an_ally_counts_toward_the_pc_row_limit():
    """Facts, Fills SCALE-1: PCs stand at most 3 to a row; allied NPCs count (default)."""
    three = (Member(cls="fighter"),) * 3
    with pytest.raises(RuleViolation) as caught:
        _start(party=three, allies=(Member(cls="fighter"),))
    assert caught.value.rule == "SCALE-1" and "allied NPCs count" in str(caught.value)
    fine = _start(party=three, allies=(Member(cls="fighter", row=Row.BACK),))
    assert fine.get("a1").row is Row.BACK


@pytest.mark.rule("SCALE-1")
def test_the_row_limit_is_the_pcs_sides_alone_and_enemies_have_none():
    """Facts, Fills SCALE-1: a PC may not step into a row holding 3 of its
    side, while an Enemy may move to any row, however full the PCs' row of
    that name is (found by mutation testing)."""
    from domain.labyrinth.standby import row_has_room

    state = _start(party=(Member(cls="fighter"),) * 3 + (Member(cls="mage", row=Row.BACK),))
    assert [c.row for c in state.side(True)] == [Row.FRONT] * 3 + [Row.BACK]
    assert not row_has_room(state, state.get("p4"), Row.FRONT)
    assert row_has_room(state, state.get("p1"), Row.FRONT)  # its own row
    enemy = state.side(False)[0]
    for row in Row:  # an Enemy in either row may go to either
        placed = edit(state, enemy.id, row=row)
        assert all(row_has_room(placed, placed.get(enemy.id), to) for to in Row)


@pytest.mark.rule("STANDBY-3")
def test_a_member_set_up_with_a_place_asked_for_stands_before_those_that_asked_none():
    """A party member's ``order`` is its place in its row; one with none
    (0) comes after those that asked (found by mutation testing)."""
    party = (Member(cls="fighter", name="Left"), Member(cls="fighter", name="Asked", order=1))
    state = _start(party=party)
    assert [(c.name, c.order) for c in sorted(state.side(True), key=lambda c: c.order)] == [("Asked", 1), ("Left", 2)]


@pytest.mark.rule("SCALE-1")
def test_an_ally_counts_toward_the_sides_six():
    party = (Member(cls="fighter"), Member(cls="fighter"), Member(cls="mage"))
    allies = (Member(cls="fighter"), Member(cls="mage"), Member(cls="mage"), Member(cls="mage", row=Row.FRONT))
    with pytest.raises(RuleViolation) as caught:
        _start(party=party, allies=allies)
    assert caught.value.rule == "SCALE-1" and "6 against 6" in str(caught.value)
    assert len(_start(party=party, allies=allies[:3]).side(True)) == 6


# --- acting on its own -----------------------------------------------------------------


@pytest.mark.rule("ORDER-2")
def test_equal_speed_goes_pc_then_allied_npc_then_enemy():
    """ORDER-2: participants with equal [Speed] act PC -> allied NPC -> Enemy
    (the slimes' [Speed] is 6, as are the PC's and the ally's)."""
    state = _start(party=(agile(6),), allies=(agile(6),))
    state, events = when(state, Pass(actor="p1"))
    (main,) = of(events, ev.MainStarted)
    assert main.queue == ("p1", "a1", "e1", "e2")


@pytest.mark.rule("ORDER-2")
@pytest.mark.rule("MAIN-1")
def test_an_ally_acts_on_its_own_at_its_place_in_the_order():
    """After the PC's action the ally acts with no command (the seeded
    policy picks its action and target), then the Enemies."""
    state = _start(party=(agile(6),), allies=(agile(6),))
    state, _ = when(state, Pass(actor="p1"))
    assert state.acting == "p1" and waits_for(state) == "p1"
    state, events = when(state, Pass(actor="p1"))
    ups = [e.who for e in of(events, ev.ActorUp)]
    assert ups[:2] == ["a1", "e1"]
    acted = events[events.index(next(e for e in events if isinstance(e, ev.ActorUp) and e.who == "a1")) + 1 :]
    assert any(getattr(e, "who", "") == "a1" for e in acted[:3])  # its own choice, made at once
    assert of(events, ev.ActionEnded)[0].who == "a1"


@pytest.mark.rule("MAIN-1")
def test_the_gm_chooses_for_enemies_but_never_for_an_ally():
    state = _start(party=(agile(6),), allies=(agile(6),), gm_enemies=True)
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p1"))
    assert state.get("a1").acted and state.acting == "e1" and waits_for(state) == "gm"


# --- the side's fate -------------------------------------------------------------------


@pytest.mark.rule("STANDBY-8")
def test_allies_follow_the_partys_escape_and_take_part_in_the_check():
    """Every PC declared Escape: it is tried though the ally declared nothing,
    and the ally is one of the escapers in the [Evasion] check."""
    state = _start(party=(Member(cls="fighter"),), allies=(agile(9),))
    state, events = when(state, Escape(actor="p1"))
    (rolled,) = of(events, ev.EscapeRolled)
    assert "a1" in rolled.ids and set(rolled.takers) == {"p1", "a1"}
    assert rolled.escaped == (max(rolled.totals[:2]) > max(rolled.totals[2:]))


def test_the_side_is_wiped_out_only_when_its_allies_are_down_too():
    """Facts section 8: a side is wiped out when all its members are out."""
    state = _start(party=(Member(cls="fighter"),), allies=(agile(9),))
    d = decision(edit(state, "p1", hp=0))
    casualties.settle(d)
    assert not of(d.events, ev.BattleEnded) and not d.state.over
    d = decision(edit(edit(state, "p1", hp=0), "a1", hp=0))
    casualties.settle(d)
    assert d.state.termination is Termination.PCS_LOSE


# --- replay ----------------------------------------------------------------------------


def test_a_battle_with_allies_replays_to_the_state_played_live():
    party = (Member(cls="fighter", level=2), agile(12, name="Quick"))
    allies = (Member(cls="mage", level=2), agile(7))
    for seed in range(6):
        command = StartLabyrinth(
            battle_id=f"r{seed}", encounter=("slimes", "mixed")[seed % 2], party=party, allies=allies, seed=seed
        )
        events = decide(None, command, CTX)
        state = replay(events)
        rnd = random.Random(seed)
        for _ in range(400):
            if state.over:
                break
            produced = decide(state, rnd.choice(legal_commands(state, CTX)), CTX)
            state, events = replay(events + produced), events + produced
        assert state.over and replay(events) == state


def test_a_battle_with_allies_exports_and_verifies_through_the_kernel():
    with GameApp("memory", packs={"labyrinth": PACK}) as app:
        command = StartLabyrinth(battle_id="k", encounter="mixed", party=PARTY, seed=4, allies=(agile(9, name="Help"),))
        game = app.start("labyrinth", command, battle_id="k").battle
        rnd = random.Random(4)
        for _ in range(300):
            if game.state.over:
                break
            game = app.execute("k", rnd.choice(legal_commands(game.state, CTX))).battle
        report = verify_log(export_battle(app, "k"), PACK)
        assert report.ok, report.summary()


# --- the command line ------------------------------------------------------------------


def test_rk_new_labyrinth_takes_allies_and_the_status_shows_them_with_the_party(table):
    code, out, err = table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "mender",
        "--ally",
        "vanguard:2:Bram",
        "--seed",
        "3",
        "--battle",
        "lab",
        code=None,
    )
    assert code == 0, err
    state = table.defaults.apps["memory"].battle("lab").state
    bram = state.get("a1")
    assert (bram.name, bram.side, bram.level) == ("Bram", Side.NPC, 2)
    party = out[out.index("Party") : out.index("Enemies")]
    assert "a1   Bram" in party and "allied NPC" in party
    assert all(len(line) <= 80 for line in out.splitlines())
    code, out, _ = table("log", code=None)
    assert "--ally vanguard:2:Bram" in out


@pytest.mark.rule("SCALE-1")
def test_rk_refuses_an_ally_past_the_row_limit_naming_scale_1_and_writes_nothing(table):
    code, _, err = table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "vanguard",
        "--party",
        "vanguard",
        "--party",
        "bulwark",
        "--ally",
        "vanguard",
        "--seed",
        "3",
        code=None,
    )
    assert code == 2 and "SCALE-1" in err and "Traceback" not in err, err
    code, out, _ = table("battles", "--json", code=None)
    assert json.loads(out) == []


def test_rk_refuses_a_malformed_ally_naming_the_option(table):
    code, _, err = table(
        "new", "labyrinth", "--encounter", "mossy-hollow", "--party", "mender", "--ally", "vanguard:x", code=None
    )
    assert code == 1 and "--ally 'vanguard:x'" in err, err


@pytest.mark.rule("STANDBY-1")
def test_allies_left_alone_in_a_stalemate_fight_on_a_bounded_number_of_turns_then_the_party_has_lost():
    """No PC stands, and the ally and the Enemies cannot hurt each other
    (no damage dice either way, OQ 1): the allies fight on by themselves
    for ALLIES_ALONE_TURNS turns, then the battle ends as the party's loss,
    instead of the engine turning forever with no one to stop it."""
    from msgspec.structs import replace

    from domain.labyrinth import flow

    state = _start(allies=(Member(cls="fighter", name="Stout"),))
    for pc in ("p1", "p2"):
        state = edit(state, pc, hp=0)
    harmless = {"patk": 0, "eatk": 0, "defense": 20}
    for cid in ("a1", "e1", "e2"):
        state = edit(state, cid, base=replace(state.get(cid).base, **harmless), skills=(), weapon="", other="")
    d = decision(state)
    flow.advance(d)
    ended = of(d.events, ev.BattleEnded)
    assert [e.termination for e in ended] == [Termination.PCS_LOSE]
    assert len(of(d.events, ev.TurnStarted)) == flow.ALLIES_ALONE_TURNS + 1
    assert not d.state.get("a1").down
