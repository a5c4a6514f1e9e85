"""Random battles for the property tests (STYLE.md item 9).

A seed picks everything: the setup of the starter pack, a party of one to
four adventurers (random races, starting lines and battle forms), the XP, the
difficulty and the battle's own RNG seed. A ``random.Random`` seeded from the
same number then plays: any listed command, retreating only rarely, as
``bots.random_choice`` does. Nothing here reads the global ``random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from msgspec.structs import replace

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.commands import (
    BattleCommand,
    Engage,
    Member,
    Retreat,
    RollEnemyDice,
    StartClash,
)
from domain.betrayal.battle.context import ENEMY_DIE_FACES, RulesContext, context_for
from domain.betrayal.packs.dice import FACES_PER_DIE
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.state import BattleState
from domain.betrayal.vocab import BattleForm, Difficulty, ItemKind

PACK = starter_pack()
SETUPS = tuple(PACK.setups)
RACES = tuple(sorted(PACK.races))
STARTING_LINES = tuple(sorted(k for k, v in PACK.lines.items() if v.starter))
GEAR = tuple(sorted(PACK.gear))
NAMES = ("Ysolda", "Tarn", "Brelyna", "Onmund")
RETREAT_CHANCE = 0.03  # as bots.random_choice: rare, so battles run their course
MAX_COMMANDS = 2000  # every battle must end well within this


@dataclass(frozen=True)
class Table:
    """What a seed sets up: a clash and the party that fights it."""

    setup: str
    party: tuple[PartySpec, ...]
    xp: int
    difficulty: Difficulty
    seed: int  # the battle's RNG seed, not the bot's
    physical_dice: bool = False

    def new_clash(self, app: BetrayalApp, battle_id: str):
        return app.new_clash(
            setup=self.setup,
            party=self.party,
            xp=self.xp,
            seed=self.seed,
            battle_id=battle_id,
            difficulty=self.difficulty,
            physical_dice=self.physical_dice,
        )

    def start_clash(self, battle_id: str) -> StartClash:
        """The same clash as ``new_clash``, for the pure rules (no store)."""
        members = []
        items = random.Random(self.seed)  # its own stream: the bot's choices stay as they were
        classes = random.Random(self.seed ^ CLASS_STREAM)  # and one for class sheets
        for spec in self.party:
            created = adv.create(PACK, f"adv-{spec.name.lower()}", spec.name, spec.race, spec.lines)
            members.append(with_class(with_items(adv.member(created.state, spec.form), items), classes))
        return StartClash(
            battle_id=battle_id,
            setup=self.setup,
            party=tuple(members),
            xp=self.xp,
            seed=self.seed,
            difficulty=self.difficulty,
            physical_dice=self.physical_dice,
        )

    @property
    def ctx(self) -> RulesContext:
        return context_for(PACK, self.setup)


ITEM_CHANCE = 0.6  # of a member bringing items (ITEM-*): ready slots, and a few in the Pack
CLASS_CHANCE = 0.6  # of a member having a class sheet (CLASS-*); pure-rules battles only
CLASS_STREAM = 0x5EED_C1A5
CLASSES = tuple(sorted(PACK.classes))


def with_class(member: Member, rnd: random.Random) -> Member:
    """Some members get a class sheet, a third of them on its Master side,
    and 0 to 6 tenacity to spend on it (CLASS-1, ADVANCE-15)."""
    if rnd.random() >= CLASS_CHANCE:
        return member
    return replace(member, class_id=rnd.choice(CLASSES), master=rnd.random() < 0.3, tenacity=rnd.randint(0, 6))


def with_items(member: Member, rnd: random.Random) -> Member:
    """Some members get up to 4 random item cards of the pack in their ready
    slots and up to 2 in the Pack (READY-1); Weapons counted for RACE-NORD."""
    if rnd.random() >= ITEM_CHANCE:
        return member
    chosen = rnd.sample(GEAR, rnd.randint(1, 6))
    ready, packed = tuple(chosen[:4]), tuple(chosen[4:])
    weapons = sum(1 for i in chosen if PACK.gear[i].kind is ItemKind.WEAPON)
    return replace(member, ready=ready, packed=packed, weapons=weapons)


def random_table(rnd: random.Random, physical_dice: bool = False) -> Table:
    """Any setup, 1-4 adventurers, XP 0-8, any difficulty."""
    party = tuple(
        PartySpec(
            name=name,
            race=rnd.choice(RACES),
            lines=tuple(rnd.sample(STARTING_LINES, rnd.randint(1, 2))),
            form=rnd.choice(list(BattleForm)),
        )
        for name in NAMES[: rnd.randint(1, len(NAMES))]
    )
    return Table(
        setup=rnd.choice(SETUPS),
        party=party,
        xp=rnd.randint(0, 8),
        difficulty=rnd.choice(list(Difficulty)),
        seed=rnd.getrandbits(32),
        physical_dice=physical_dice,
    )


def pick(legal: list[BattleCommand], rnd: random.Random) -> BattleCommand:
    """Any listed command; a retreat only rarely."""
    staying = [c for c in legal if not isinstance(c, Retreat)]
    if staying and rnd.random() >= RETREAT_CHANCE:
        return rnd.choice(staying)
    return rnd.choice(legal)


def typed(command: BattleCommand, rnd: random.Random) -> BattleCommand:
    """Physical dice: the listed command with random faces typed in."""
    if isinstance(command, RollEnemyDice):
        return replace(command, faces=tuple(rnd.randrange(len(ENEMY_DIE_FACES)) for _ in command.faces))
    if isinstance(command, Engage) and command.faces is not None:
        return replace(command, faces=tuple(rnd.randrange(FACES_PER_DIE) for _ in command.faces))
    return command


def state_summary(state: BattleState) -> str:
    """A line to print when a property fails."""
    return f"round {state.round}, phase {state.phase.value}, rng {state.rng}, turn {state.turn}"
