"""The choose-defense option's Defend (COMBAT-4): while an enemy's strike
waits on an adventurer (``enemies.turn.defense_wanted``), the player chooses its
active block dice, its race reaction (RACE-ARGONIAN, RACE-IMPERIAL) and its
Armor and Pets (ARMOR-2, OVERTAX-3); then the strike, the enemy's turn and
the round go on. It joins the race and item rules, so it sits above both."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from . import events as ev
from . import flow
from .abilities.race import METTLE_LIMIT, NAMES, REACTIONS, reaction_prevents, rule_of
from .commands import Defend
from .damage import choose_blocks, left_after_ward
from .decision import Decision
from .enemies.turn import finish_enemy_turn, strike
from .items.use import defense_choice
from .state import Phase


def defend(d: Decision, cmd: Defend) -> None:
    """The player's defense of the adventurer an enemy strike waits on:
    blocks (COMBAT-4; None: ``choose_blocks``) and the race reaction; then
    the strike, the enemy's turn and the round go on."""
    pending = d.state.defense
    if d.state.phase is not Phase.DEFEND or pending is None:
        raise RuleViolation("COMBAT-4", "no damage is waiting for a defense")
    hero = d.state.hero(pending.targets[pending.index])
    left = left_after_ward(d, hero, pending.amount)
    if cmd.blocks is None:
        blocks = choose_blocks(hero.active, left)
    else:
        blocks = tuple(cmd.blocks)
        if len(set(blocks)) != len(blocks):
            raise MalformedCommand("an active slot is named twice")
        for i in blocks:
            if not 0 <= i < len(hero.active):
                raise MalformedCommand(f"{hero.name} has no active die in slot {i + 1}")
            if hero.active[i].amount <= 0:
                raise RuleViolation("COMBAT-4", f"the die in slot {i + 1} has nothing left to block with")
    if cmd.race:
        rule = rule_of(hero)
        if hero.race not in REACTIONS:
            raise RuleViolation(rule or "COMBAT-4", f"{hero.name}'s race ability is not a reaction to damage")
        if hero.race_used:
            raise RuleViolation(
                rule, f"{NAMES[hero.race]} can be used once per battle, and {hero.name} used it already"
            )
        rest = max(0, left - sum(hero.active[i].amount for i in blocks))
        if not reaction_prevents(hero, rest):
            why = f"{rest} damage would be left" if rest else "no damage would be left"
            limit = f" (Imperial Mettle prevents {METTLE_LIMIT} or less)" if hero.race == "imperial" and rest else ""
            raise RuleViolation(rule, f"{NAMES[hero.race]} has nothing to prevent: {why}{limit}")
    gear = defense_choice(d, hero, cmd)  # its Armor and Pets (ARMOR-2, OVERTAX-3)
    d.emit(ev.DefenseChosen(hero=hero.id, blocks=blocks, race=cmd.race))
    if not strike(
        d,
        pending.foe,
        pending.targets,
        list(pending.faces),
        start=pending.index,
        dealt=pending.dealt,
        choice=(blocks, cmd.race, gear),
    ):
        return
    finish_enemy_turn(d, pending.foe)
    flow.run_enemies(d, tuple(f for f in d.state.enemy_queue if not d.state.foe(f).defeated))


def legal_defenses(d: Decision, check) -> list[Defend]:
    """Defends offered while a strike waits: the default blocks or none,
    each with and without the race reaction, when the rules accept it
    (``items.use.legal_defenses`` adds the item choices)."""
    out = []
    for cmd in (Defend(), Defend(blocks=()), Defend(race=True), Defend(blocks=(), race=True)):
        if check(cmd) and cmd not in out:
            out.append(cmd)
    return out
