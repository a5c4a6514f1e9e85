from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Move
from domain.betrayal.battle.events import HeroMoved, TurnStarted


def test_a_hero_moves_one_hex_and_the_turn_passes_on():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"))
    hero = given.state.hero("ysolda")
    to = next(c.to for c in given.legal() if isinstance(c, Move))
    then = given.when(Move(to=to))
    then.then_has(HeroMoved, hero="ysolda")
    assert then.state.hero("ysolda").pos == to != hero.pos
    then.next().when(EndTurn()).then_has(TurnStarted, hero="tarn")
