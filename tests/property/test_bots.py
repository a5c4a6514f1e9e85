"""The Betrayal bots and `rk demo` over many seeds: whatever the dice bring
(a Blind adventurer offered an ally as a target, STATUS/blind), a bot only
ever gives a legal command and every battle it plays reaches its end."""

from __future__ import annotations

import contextlib
import io
import random

import pytest

from cli.main import main
from cli.session import Defaults
from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import greedy_choice, random_choice
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.battle.state import Phase

PARTY = ("Ysolda:nord:one-hand-shield+heavy-armor:light", "Tarn:dark-elf:bow+destruction-staff:ranged")
MAX_COMMANDS = 400


def _play(bot, seed: int) -> Phase:
    with BetrayalApp("memory") as app:
        battle_id = f"bot-{seed}"
        state = app.new_clash(
            setup="waystone-crossing", party=[party_member(p) for p in PARTY], xp=2, seed=seed, battle_id=battle_id
        ).battle.state
        rnd = random.Random(seed)
        for _ in range(MAX_COMMANDS):
            if state.phase is Phase.ENDED:
                break
            ctx = app.context(state)
            command = bot(state, ctx, rnd)
            assert command in legal_commands(state, ctx)
            state = app.execute(battle_id, command).battle.state
        return state.phase


@pytest.mark.parametrize("bot", [greedy_choice, random_choice], ids=["greedy", "random"])
def test_the_betrayal_bots_play_many_seeds_to_an_end_with_legal_commands(bot) -> None:
    for seed in range(1, 41):
        assert _play(bot, seed) is Phase.ENDED, f"seed {seed}"


def test_the_greedy_bot_never_targets_an_ally_a_blind_adventurer_may_strike() -> None:
    # Seed 1 of `rk demo` offers `engage --target ysolda-1` (a Blind Tarn);
    # the bot used to look the ally up among the enemies (KeyError).
    assert _play(greedy_choice, 1) is Phase.ENDED


def test_rk_demo_plays_seeds_1_to_30_to_the_end() -> None:
    failed = []
    for seed in range(1, 31):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["demo", "--seed", str(seed)], obj=Defaults(store="memory"))
        if code != 0 or "Battle over" not in out.getvalue():
            failed.append((seed, code, err.getvalue()[-200:]))
    assert failed == []
