"""What `rk legal` offers a Conquest player as open commands: a Command
Stack is any order of the player's cards (CMD-1, CMD-2), not a few of the
orders spelled out; whatever order is built from the offer is accepted."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.conquest.commands import OrderStack
from domain.kernel.games import GameApp
from domain.kernel.surface import surface_of
from domain.kernel.surface.open import ORDER


def _game_at_the_stack(app: GameApp) -> str:
    setup = surface_of("conquest").setups[0]
    request = msgspec.convert({**setup.examples[0], "name": "stack", "seed": 4}, setup.request)
    setup.start(app, request)
    rnd = random.Random(4)
    for _ in range(200):
        legal = app.legal("stack")
        if any(isinstance(c, OrderStack) for c in legal):
            return "stack"
        app.execute("stack", rnd.choice(legal))
    raise AssertionError("no Command Phase reached")


@pytest.mark.rule("CMD-1", "CMD-2")
def test_a_command_stack_is_offered_as_any_order_of_the_players_cards():
    with GameApp("memory") as app:
        battle = _game_at_the_stack(app)
        game, finished, opens = app.open_legal(battle)
        stacks = [o for o in opens if o.cls is OrderStack]
        assert stacks, [o.text() for o in opens]
        stack = stacks[0]
        cards = next(d for d in stack.domains.values() if d.how == ORDER)
        listed = {tuple(c.cards) for c in finished if isinstance(c, OrderStack)}
        # every card of the finished orders, each once: the player orders them all (CMD-2)
        offered = sorted(v.value for v in cards.values)
        assert all(sorted(order) == offered for order in listed)
        assert "any order of" in stack.text()
        # an order the finished list may not spell out is built from the offer and accepted
        order = list(reversed(offered))
        line = stack.line({next(n for n, d in stack.domains.items() if d.how == ORDER): order})
        command = surface_of("conquest").grammar.parse(line)
        assert isinstance(command, OrderStack) and list(command.cards) == order
        app.execute(battle, command)
        assert app.battle(battle).version > game.version
