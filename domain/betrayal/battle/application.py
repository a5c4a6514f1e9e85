"""Betrayal's own verbs on the kernel's application: set up a clash with
its party (creating new adventurers in the same transaction) and read an
adventurer between battles. Everything else a battle needs (execute, undo,
redo, the index, snapshots, logs) is the kernel's ``GameApp``.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.games import GameApp, Result
from domain.kernel.names import check_name
from domain.kernel.ruleset import Write

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.delve.aggregate import DelveState
from domain.betrayal.delve.deck import ItemDeck
from domain.betrayal.table.party import PartySpec
from domain.betrayal.vocab import Difficulty

from .commands import StartClash, StartDelve, StartDungeon
from .ruleset import ADVENTURERS, BETRAYAL, DELVES

__all__ = [
    "BetrayalApp",
    "PartySpec",
    "Result",
    "adventurer_stream",
    "battle_stream",
    "delve_of",
    "delve_stream",
    "new_clash",
    "new_delve",
    "new_dungeon",
    "adventurer",
]


def battle_stream(battle_id: str) -> UUID:
    """The stream id of a battle: derived from its id, so no index is needed to find it."""
    return BETRAYAL.game_stream(battle_id)


def adventurer_stream(name: str) -> UUID:
    """Adventurers are found by name, case-insensitively."""
    return BETRAYAL.stream_of(ADVENTURERS.kind, name)


def adventurer(app: GameApp, name: str, version: int | None = None) -> adv.AdventurerState:
    """The adventurer named ``name`` (any case), now or at ``version``."""
    try:
        return app.state_of(ADVENTURERS, adventurer_stream(name), version)
    except NotFound:
        raise NotFound(f"no adventurer named {name if len(name) <= 40 else name[:40] + '...'!r}") from None


def new_clash(
    app: GameApp,
    *,
    setup: str,
    party: Sequence[PartySpec],
    xp: int,
    seed: int,
    battle_id: str | None = None,
    difficulty: Difficulty = Difficulty.ADEPT,
    physical_dice: bool = False,
    placements: tuple = (),
    choose_defense: bool = False,
    companions: tuple = (),
) -> Result:
    """Set up a clash; new adventurers in ``party`` are created in the same
    transaction."""
    battle_id = battle_id or f"b{seed}-{app.max_notification_id() + 1}"
    members, created = _party(app, party)
    cmd = StartClash(
        battle_id=battle_id,
        setup=setup,
        party=members,
        xp=xp,
        seed=seed,
        difficulty=difficulty,
        physical_dice=physical_dice,
        placements=tuple(placements),
        choose_defense=choose_defense,
        companions=tuple(companions),
    )
    return app.start(BETRAYAL.name, cmd, battle_id=battle_id, prelude=created)


def new_dungeon(
    app: GameApp,
    *,
    setup: str,
    party: Sequence[PartySpec],
    xp: int,
    seed: int,
    battle_id: str | None = None,
    difficulty: Difficulty = Difficulty.ADEPT,
    physical_dice: bool = False,
    placements: tuple = (),
    specials: tuple = (),
    choose_defense: bool = False,
    companions: tuple = (),
) -> Result:
    """Set up a dungeon from its diagram (DUNGEON-6 to DUNGEON-11)."""
    battle_id = battle_id or f"d{seed}-{app.max_notification_id() + 1}"
    members, created = _party(app, party)
    cmd = StartDungeon(
        battle_id=battle_id,
        setup=setup,
        party=members,
        xp=xp,
        seed=seed,
        difficulty=difficulty,
        physical_dice=physical_dice,
        placements=tuple(placements),
        specials=tuple(specials),
        choose_defense=choose_defense,
        companions=tuple(companions),
    )
    return app.start(BETRAYAL.name, cmd, battle_id=battle_id, prelude=created)


def new_delve(
    app: GameApp,
    *,
    delve: str,
    party: Sequence[PartySpec],
    xp: int,
    seed: int,
    battle_id: str | None = None,
    difficulty: Difficulty = Difficulty.ADEPT,
    physical_dice: bool = False,
    placements: tuple = (),
    choose_defense: bool = False,
    item_deck: ItemDeck | None = None,
    companions: tuple = (),
) -> Result:
    """Set up a delve (DELVE-7 to DELVE-12); its Delve stream is written in
    the same transaction. ``item_deck``: a campaign party's (ITEM-9)."""
    battle_id = battle_id or f"v{seed}-{app.max_notification_id() + 1}"
    members, created = _party(app, party)
    cmd = StartDelve(
        battle_id=battle_id,
        delve=delve,
        party=members,
        xp=xp,
        seed=seed,
        difficulty=difficulty,
        physical_dice=physical_dice,
        placements=tuple(placements),
        choose_defense=choose_defense,
        item_deck=item_deck,
        companions=tuple(companions),
    )
    return app.start(BETRAYAL.name, cmd, battle_id=battle_id, prelude=created)


def delve_of(app: GameApp, battle_id: str, version: int | None = None) -> DelveState | None:
    """The Delve of delve battle ``battle_id`` now, or as it stood when the
    battle was at ``version``; None for a clash or a dungeon."""
    return (
        app.companion(BETRAYAL, DELVES.kind, delve_stream(battle_id), version)
        if app.events.last(delve_stream(battle_id)) is not None
        else None
    )


def delve_stream(battle_id: str) -> UUID:
    """The Delve stream of a delve battle."""
    return BETRAYAL.stream_of(DELVES.kind, battle_id)


def _party(app: GameApp, party: Sequence[PartySpec]) -> tuple[tuple, list[Write]]:
    pack = app.pack_of(BETRAYAL)
    created: list[Write] = []
    members = []
    for spec in party:
        state, made = _join(app, pack, spec)
        if made is not None:
            created.append(Write(ADVENTURERS.kind, adventurer_stream(spec.name), (made,)))
        members.append(adv.member(state, spec.form, pack))
    return tuple(members), created


def _join(app: GameApp, pack, spec: PartySpec) -> tuple[adv.AdventurerState, adv.AdventurerCreated | None]:
    check_name(spec.name, "adventurer name")
    try:
        existing = adventurer(app, spec.name)
    except NotFound:
        existing = None
    if existing is not None:
        if spec.race and spec.race != existing.race:
            raise MalformedCommand(
                f"an adventurer named {existing.name} already exists ({existing.race}); pick another name"
            )
        return existing, None
    if not spec.race:
        raise MalformedCommand(f"no adventurer named {spec.name!r}; give a race to create one (Name:race)")
    made = adv.create(pack, str(adventurer_stream(spec.name)), spec.name, spec.race, spec.lines)
    return made.state, made


class BetrayalApp(GameApp):
    """The kernel's application with Betrayal's verbs as methods (what the
    tests, the bench and scripts that play only Betrayal use)."""

    name = "rulekeeper"  # the library names tables after the class unless told: one store
    new_clash = new_clash
    new_dungeon = new_dungeon
    new_delve = new_delve
    delve_of = delve_of
    adventurer = adventurer

    def __init__(self, store: str | None = None, env: dict[str, str] | None = None, pack=None):
        super().__init__(store=store, env=env, packs={BETRAYAL.name: pack} if pack is not None else None)

    @property
    def pack(self):
        """Betrayal's content pack in use."""
        return self.pack_of(BETRAYAL)
