"""The Conquest ruleset as the kernel sees it: registry, outcome, random
checks, the narrator, summaries, the command log's typed events."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from domain.conquest import events as ev
from domain.conquest.commands import ChooseArrival, March, RollOff, StartConquest
from domain.kernel.errors import NotFound, RuleViolation
from domain.kernel.ruleset import Outcome, RandomCheck, load
from conquest_harness import ARMIES, in_phase, of, start, when
from domain.conquest.vocab import Phase, Step
from domain.kernel.position.messages import StartFromPosition

R = load("conquest")


def test_the_ruleset_is_registered_with_its_contract():
    assert R.name == "conquest" and R.snapshot_topic == "conquest.snapshot.Game" and R.aggregates == ()
    assert R.setup_commands == (StartConquest, StartFromPosition) and R.game_kind == "battle"
    pack = R.pack()
    cmd = StartConquest(battle_id="k", scenario="border-clash", armies=ARMIES, seed=3)
    out = R.decide(None, cmd, R.setup_context(pack, cmd))
    assert isinstance(out, Outcome) and not out.writes
    state = None
    for e in out.events:
        state = R.evolve(state, e)
    assert (state.pack_id, state.pack_hash, state.seed, state.rng) == (pack.id, pack.hash, 3, 0)
    assert R.context(pack, state).scenario.id == "border-clash"
    with pytest.raises(NotFound):
        R.context(pack, replace(state, pack_hash="other"))
    assert R.summary(state).round == 1 and not R.summary(state).over
    assert R.legal_commands(state, R.context(pack, state))


def test_rolled_faces_are_rederived_and_a_forged_face_or_counter_is_reported():
    s = start(physical=False)
    s2, events = when(s, ChooseArrival(regiment="a1"))
    rolled = of(events, ev.ReinforcementsRolled)[0]
    assert R.check_random(s, rolled) is None and R.reveals(rolled)
    forged = replace(rolled, faces=tuple(7 - f for f in rolled.faces))
    assert isinstance(R.check_random(s, forged), RandomCheck)
    assert isinstance(R.check_random(s, replace(rolled, counter=5)), RandomCheck)
    assert s2.rng == len(rolled.faces)


def test_physical_dice_are_typed_checked_and_recorded_as_typed():
    s = in_phase(start(physical=True), Phase.SUPREMACY, Step.ROLL_OFF)
    for wrong in (RollOff(), RollOff(faces=(0, 7))):
        with pytest.raises(RuleViolation) as caught:
            when(s, wrong)
        assert caught.value.rule == "SUP-1"
    s2, events = when(s, RollOff(faces=(2, 5)))
    assert of(events, ev.SupremacyRolled)[0].typed and s2.rng == s.rng


def test_commands_read_as_typed_and_events_as_one_line():
    assert R.describe_command(March(regiment="a2", inches=6)) == "march a2 --inches 6"
    s = start()
    line = R.describe_event(of(when(s, ChooseArrival(regiment="a1", faces=(1, 1)))[1], ev.RegimentsArrived)[0], s, None)
    assert "REINF-4" in line and "\n" not in line


def test_command_log_events_round_trip_with_their_typed_payloads():
    s = start()
    issued = ev.CommandIssued(command_id="c1", command=March(regiment="a1", inches=3))
    undone = ev.CommandUndone(command_id="c1", restored=s)
    for e in (issued, undone):
        assert msgspec.json.decode(msgspec.json.encode(e), type=type(e)) == e
    assert (ev.CommandIssued.TOPIC, ev.CommandUndone.TOPIC) == ("conquest.CommandIssued", "conquest.CommandUndone")
