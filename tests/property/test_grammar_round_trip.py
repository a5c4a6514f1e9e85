"""What `rk legal` lists in random play reads back as what it lists: each
legal command's line (``spell``) parses to the same command through the
battles' one grammar, in clashes, delves and dungeons; with physical dice
the listing writes an ``F`` for each face the table types, and the command
with faces typed in reads back too."""

from __future__ import annotations

import random

import pytest
from tiers import quick_first
from delve_play import DUNGEONS, random_delve_table
from msgspec.structs import replace
from random_battles import MAX_COMMANDS, pick, random_table, typed

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.commands import Engage, RollEnemyDice
from domain.betrayal.battle.rules import decide, legal_commands, replay
from domain.betrayal.battle.state import Phase
from domain.betrayal.surface import BATTLE_SURFACE
from domain.kernel.surface.kinds import TYPED_FACE

GRAMMAR = BATTLE_SURFACE.grammar
DELVE_STEPS = 250  # commands of a delve checked: far into it, well short of its end


def assert_reads_back(command) -> None:
    """``command`` reads back from its line; listed for real dice, each of
    its faces is an ``F`` (the table types it)."""
    line = GRAMMAR.spell(command)
    assert GRAMMAR.parse(line) == command, line
    listed = GRAMMAR.spell(command, placeholders=True)
    faces = getattr(command, "faces", None) or ()
    if faces:
        assert _faces_of(listed) == ",".join(TYPED_FACE for _ in faces), listed
    else:
        assert listed == line


def _faces_of(line: str) -> str:
    """The faces a line gives: after ``--faces``, or a roll-enemy's argument."""
    words = line.split()
    if words[0] == "roll-enemy":
        return words[1]
    return words[words.index("--faces") + 1] if "--faces" in words else ""


@pytest.mark.parametrize(
    "seed, physical",
    quick_first([(seed, False) for seed in range(25)], 4)
    + quick_first([(seed, True) for seed in range(2000, 2010)], 2),
)
def test_every_command_legal_in_a_random_clash_reads_back_from_its_line(seed, physical):
    rnd = random.Random(seed)
    table = random_table(rnd, physical)
    ctx = table.ctx
    state = replay(decide(None, table.start_clash(f"g{seed}"), ctx))
    for _ in range(MAX_COMMANDS):
        if state.phase is Phase.ENDED:
            break
        legal = legal_commands(state, ctx)
        for command in legal:
            assert_reads_back(command)
        command = typed(pick(legal, rnd), rnd)
        assert GRAMMAR.parse(GRAMMAR.spell(command)) == command  # the faces as typed
        state = replay(decide(state, command, ctx), state)
    assert state.phase is Phase.ENDED


@pytest.mark.parametrize("seed", quick_first(range(6), 2))
def test_every_command_legal_in_a_random_delve_or_dungeon_reads_back_from_its_line(seed):
    rnd = random.Random(seed)
    table = random_delve_table(rnd, setups=("whispering-barrow", "drowned-cistern", *DUNGEONS))
    app = BetrayalApp(store="memory")
    battle_id = f"d{seed}"
    table.start(app, battle_id)
    kinds = set()
    for _ in range(DELVE_STEPS):
        if app.battle(battle_id).state.phase is Phase.ENDED:
            break
        legal = app.legal(battle_id)
        for command in legal:
            assert_reads_back(command)
            kinds.add(type(command).__name__)
        app.execute(battle_id, pick(legal, rnd))
    assert {"Move", "EndTurn"} <= kinds


def test_a_typed_face_is_written_from_1_and_listed_as_f():
    engage = Engage(form="light", target="e1", dice=(1, 2), faces=(0, 5))
    assert GRAMMAR.spell(engage) == "engage --form light --target e1 --dice 1,2 --faces 1,6"
    assert GRAMMAR.spell(engage, placeholders=True) == "engage --form light --target e1 --dice 1,2 --faces F,F"
    assert GRAMMAR.spell(RollEnemyDice(faces=(0, 2)), placeholders=True) == "roll-enemy F,F"
    assert GRAMMAR.parse("engage --form light --dice 1,2 --faces 1,6") == replace(engage, target=None)
