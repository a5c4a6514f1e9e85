"""Random delves and dungeons played through the kernel, checked as they go
(STYLE.md item 9).

A seed picks the table: one of the starter pack's delves (whispering-barrow,
Survey; drowned-cistern, Uncover) or its dungeon (sentinel-vault), a party of
one to four new adventurers (random races, starting lines and battle forms),
XP 1-3, a difficulty and the battle's own RNG seed. The chooser mixes the
delve bot (``bots.delve_choice``: explores whenever it can, walks to
skyshards, retreats once done or stuck) with random legal commands, so play
both wanders and ends.

``CheckedDelve`` is ``checked_play.CheckedBattle`` (the kernel's
``CheckedGame``: replay equals live, undo exact across every stream the
command wrote, the Delve stream included, redo the same, loads at every
version) plus what only a delve has: the Delve as it stood at every version
seen, compared with ``app.delve_of(battle_id, version)``, and a tally of
what the Delve stream recorded (explorations, placements, shortages,
skyshards) so a run cannot pass without exploring.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from checked_play import CheckedBattle, SnapshottingApp
from kernel_play import Player
from random_battles import NAMES, RACES, STARTING_LINES

from domain.betrayal.delve import aggregate as dv
from domain.betrayal.battle.application import BetrayalApp, PartySpec, delve_stream
from domain.betrayal.battle.bots import delve_choice
from domain.betrayal.battle.commands import BattleCommand, Retreat
from domain.betrayal.battle.events import CacheOpened, EnemyPoolOpened, Explored, HeroStepped, LockpickTested
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.vocab import BattleForm, Difficulty
from domain.kernel.games import Result

DELVES = ("whispering-barrow", "drowned-cistern")  # Survey, Uncover
DUNGEONS = ("sentinel-vault",)
# Battle events a delve adds, counted beside the Delve stream's.
DELVE_BATTLE_EVENTS = (Explored, EnemyPoolOpened, HeroStepped, LockpickTested, CacheOpened)
BOT_SHARE = 0.7  # chance a command comes from the delve bot, else a random legal one
RETREAT_CHANCE = 0.02  # a random pick retreats only rarely, so delves run their course


@dataclass(frozen=True)
class DelveTable:
    """What a seed sets up: a delve (or a dungeon) and the party that plays it."""

    setup: str
    party: tuple[PartySpec, ...]
    xp: int
    difficulty: Difficulty
    seed: int  # the battle's RNG seed, not the bot's

    @property
    def dungeon(self) -> bool:
        return self.setup in DUNGEONS

    def start(self, app: BetrayalApp, battle_id: str) -> Result:
        if self.dungeon:
            return app.new_dungeon(
                setup=self.setup,
                party=self.party,
                xp=self.xp,
                seed=self.seed,
                battle_id=battle_id,
                difficulty=self.difficulty,
            )
        return app.new_delve(
            delve=self.setup,
            party=self.party,
            xp=self.xp,
            seed=self.seed,
            battle_id=battle_id,
            difficulty=self.difficulty,
        )


def random_delve_table(rnd: random.Random, setups: tuple[str, ...] = DELVES) -> DelveTable:
    """One of ``setups``, 1-4 new adventurers, XP 1-3, any difficulty."""
    party = tuple(
        PartySpec(
            name=name,
            race=rnd.choice(RACES),
            lines=tuple(rnd.sample(STARTING_LINES, rnd.randint(1, 2))),
            form=rnd.choice(list(BattleForm)),
        )
        for name in NAMES[: rnd.randint(1, len(NAMES))]
    )
    return DelveTable(
        setup=rnd.choice(setups),
        party=party,
        xp=rnd.randint(1, 3),
        difficulty=rnd.choice(list(Difficulty)),
        seed=rnd.getrandbits(32),
    )


def choose(state, ctx, rnd: random.Random) -> BattleCommand:
    """The delve bot's command most of the time, else a random kind of legal
    command (move, engage, explore, end turn...) and one of that kind."""
    if rnd.random() < BOT_SHARE:
        return delve_choice(state, ctx, rnd)
    legal = legal_commands(state, ctx)
    staying = [c for c in legal if not isinstance(c, Retreat)]
    if not staying or rnd.random() < RETREAT_CHANCE:
        return rnd.choice(legal)
    kinds: dict[type, list[BattleCommand]] = {}
    for c in staying:
        kinds.setdefault(type(c), []).append(c)
    return rnd.choice(rnd.choice(list(kinds.values())))


def player_for(table: DelveTable, chooser=choose) -> Player:
    """Sets up ``table``; ``chooser(state, ctx, rnd)`` picks each command
    (default: the mix above; ``bots.delve_choice`` alone explores more)."""
    return Player("betrayal", start=lambda app, battle_id, rnd: table.start(app, battle_id), choose=chooser)


@dataclass
class DelveTally:
    """What the runs recorded (undone commands count too: they were played)."""

    counts: Counter = field(default_factory=Counter)

    def add(self, other: DelveTally) -> None:
        self.counts.update(other.counts)

    def __getitem__(self, name: str) -> int:
        return self.counts[name]


@dataclass
class CheckedDelve(CheckedBattle):
    delves: dict = field(default_factory=dict)  # version -> the Delve live then (None: a dungeon)
    recorded: DelveTally = field(default_factory=DelveTally)

    def _advance(self, result: Result) -> None:
        super()._advance(result)
        stream = delve_stream(self.battle_id)
        self.delves[result.battle.version] = self.others.get(stream)
        for written, events in result.written:
            if written == stream:
                self.recorded.counts.update(type(e).__name__ for e in events)
        self.recorded.counts.update(type(e).__name__ for e in result.events if isinstance(e, DELVE_BATTLE_EVENTS))

    @property
    def delve(self) -> dv.DelveState | None:
        return self.others.get(delve_stream(self.battle_id))

    def check_delve_versions(self, app: BetrayalApp | None = None, versions: int | None = None) -> None:
        """The Delve at every version seen (or a sample) is the one that was
        live then: ``delve_of(battle_id, version)`` folds the Delve events of
        the commands at or before that version."""
        app = app or self.app
        assert app.delve_of(self.battle_id) == self.delve
        past = sorted(self.delves)
        if versions is not None and versions < len(past):
            past = sorted(self.rnd.sample(past, versions))
        for version in past:
            assert app.delve_of(self.battle_id, version) == self.delves[version], (
                f"the Delve of {self.battle_id} at version {version} differs from the one live then"
            )


def play_delve(
    app: BetrayalApp,
    table: DelveTable,
    battle_id: str,
    rnd: random.Random,
    chooser=choose,
    checked: type[CheckedDelve] = CheckedDelve,
) -> CheckedDelve:
    """One delve (or dungeon) played to its end with undos and redos,
    checked against the store now and at every version (battle and Delve)."""
    game = checked(app, player_for(table, chooser), battle_id, rnd, table=table).play()
    game.check_store()
    game.check_delve_versions()
    return game


__all__ = ["CheckedDelve", "DelveTable", "DelveTally", "SnapshottingApp", "play_delve", "random_delve_table"]
