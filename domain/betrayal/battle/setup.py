"""Setting up a clash (CLASH-5 to CLASH-10) and spending the Enemy Pool
(EP-2, EP-4 to EP-7, CLASH-7)."""

from __future__ import annotations

import re

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, as_hex, name
from domain.kernel.names import check_name
from domain.kernel.rng import check_seed

from domain.betrayal import RULES_VERSION
from domain.betrayal.delve.aggregate import DelveBegun, DelveState
from domain.betrayal.delve.deck import delve_deck
from domain.betrayal.delve.map import entrance
from domain.betrayal.vocab import LEVELS, Objective, Status

from . import events as ev
from .commands import Member, StartClash, StartDelve, StartDungeon
from .companions import setup as companions
from .decision import Decision
from .enemies.bags import chip_side
from .flow import begin_round
from .state import DieKind, Hero, Options, OwnedDie, TrackDie

MAX_PARTY = 4
# EP-2 takes the party's XP dial (betrayal-facts.md, "Fills EP-2"): the dial
# counts to 40 and then wraps once with its +40 marker, so it reads 0 to 80.
MAX_XP = 80


def hero_id(name: str) -> str:
    """The short id an adventurer is named by in commands ("Ysolda" -> "ysolda")."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "hero"


def compute_ep(xp: int, party_size: int) -> int:
    """EP = the party's XP (the dial) x party size (EP-2)."""
    return xp * party_size


def _hero(member: Member) -> Hero:
    return Hero(
        id=hero_id(member.name),
        name=member.name,
        race=member.race,
        adventurer_id=member.adventurer_id,
        hp=member.hp,
        max_hp=member.max_hp,
        stamina=member.stamina,
        magicka=member.magicka,
        cooldown=member.cooldown,
        tenacity=member.tenacity,
        form=member.form,
        dice=tuple(OwnedDie(uid, die) for uid, die in member.dice),
        track=tuple(
            TrackDie(DieKind(kind), uid, face, Status(status) if status else None)
            for kind, uid, face, status in member.track
        ),
        class_id=member.class_id,
        master=member.master,
        ready=member.ready,
        weapons=member.weapons,
        expended=tuple(i for i in member.expended if i in member.ready),
        packed=member.packed,  # for a Breton's Opportunist (RACE-BRETON)
        # ENCHANT-2, ENCHANT-3: still attached from an earlier battle of the session, out of the ready slots
        attached=tuple((item, hero_id(member.name)) for item in member.enchantments),
        carried_in=member.enchantments,
    )


def recorded_hash(pack, party, base: str) -> str:
    """The pack hash a battle records: ``base`` (the core files for a clash,
    with the delve files for a delve or dungeon), or the hash of every file
    when its party brings campaign content in (a class, items, a die of the
    trainers' file, an Enchantment still attached), so that a log names all
    the content it was played with."""
    campaign = any(
        m.class_id
        or m.ready
        or m.packed
        or m.expended
        or m.enchantments
        or any(pack.dice[d].level > 1 for _, d in m.dice if d in pack.dice)
        for m in party
    )
    return pack.campaign_hash if campaign and pack.campaign_hash else base


def _check_party(d: Decision, cmd: StartClash | StartDelve) -> None:
    if not 1 <= len(cmd.party) <= MAX_PARTY:
        raise RuleViolation("CLASH-8", f"a party has 1 to {MAX_PARTY} adventurers, not {len(cmd.party)}")
    for m in cmd.party:
        check_name(m.name, "adventurer name")
    ids = [hero_id(m.name) for m in cmd.party]
    if len(set(ids)) != len(ids):
        raise MalformedCommand("two adventurers share a name; give each a different one")
    for m in cmd.party:
        if m.hp <= 0:
            raise RuleViolation("HEALTH-5", f"{m.name} is defeated (0 HP) and cannot join a battle")
        if m.fighting:
            raise RuleViolation(
                "BETWEEN-1",
                f"{m.name} is in battle {m.fighting}, which has not ended (rk retreat at the end of a round ends it)",
            )
    if cmd.xp < 0:
        raise MalformedCommand("XP cannot be negative")
    if cmd.xp > MAX_XP:
        shown = str(cmd.xp) if cmd.xp < 10**30 else "that"
        raise RuleViolation("EP-2", f"XP {shown} is more than the XP dial holds (0 to {MAX_XP}: 40, then +40)")


def _placements(d: Decision, cmd: StartClash | StartDelve, rule: str = "CLASH-8a") -> list:
    board = d.ctx.board
    free = [h for h in board.entrance_hexes() if h not in {c.hex for c in d.state.caches}]
    if cmd.placements:
        chosen = list(cmd.placements)
        if len(chosen) != len(cmd.party):
            raise MalformedCommand("give one Entrance hex per adventurer, or none")
        if len(set(chosen)) != len(chosen):
            raise RuleViolation(rule, "two adventurers cannot be placed on the same hex")
        for h in chosen:
            if h not in free:
                raise RuleViolation(rule, f"hex {name(h)} is not an empty hex of the Entrance tile")
        return chosen
    if len(free) < len(cmd.party):
        raise RuleViolation("CLASH-8", "the Entrance tile has too few empty hexes for this party")
    return free[: len(cmd.party)]


def start_clash(d: Decision, cmd: StartClash) -> None:
    """Decide a StartClash (CLASH-5 to CLASH-10) or a StartDungeon (DUNGEON-6
    to DUNGEON-11: the same steps from the dungeon's diagram, its objective
    units on the special hexes the party chooses, DUNGEON-8d, DUNGEON-8e)
    into BattleStarted and the setup events."""
    pack = d.ctx.pack
    dungeon = isinstance(cmd, StartDungeon)
    setups = pack.dungeons if dungeon else pack.setups
    if cmd.setup not in setups:
        kind = "dungeon" if dungeon else "setup"
        raise MalformedCommand(f"no {kind} {cmd.setup!r} in pack {pack.id!r}")
    check_seed(cmd.seed)
    _check_party(d, cmd)
    setup = setups[cmd.setup]
    ep = compute_ep(cmd.xp, len(cmd.party))
    d.emit(
        ev.BattleStarted(
            battle_id=cmd.battle_id,
            rules_version=RULES_VERSION,
            pack_id=pack.id,
            pack_hash=recorded_hash(pack, cmd.party, pack.delve_hash if dungeon else pack.hash),
            setup=cmd.setup,
            seed=cmd.seed,
            difficulty=cmd.difficulty,
            objective=setup.objective,
            options=Options(physical_dice=cmd.physical_dice, choose_defense=cmd.choose_defense),
            xp=cmd.xp,
            ep=ep,
            party=tuple(_hero(m) for m in cmd.party),
        )
    )
    board = d.ctx.board
    for h, kind in board.cache_hexes():  # CLASH-6, DUNGEON-7
        d.emit(ev.CachePlaced(hex=h, kind=kind))
    number = 0
    if setup.objective is Objective.ELIMINATE:  # OBJ-3, EP-8: outside the EP
        units = len(setup.objective_units)
        specials = _specials(d, cmd, units) if isinstance(cmd, StartDungeon) else board.special_hexes()
        for enemy_id, h in zip(setup.objective_units, specials):
            number += 1
            enemy = pack.enemies[enemy_id]
            d.emit(
                ev.EnemyPlaced(
                    foe=f"e{number}",
                    enemy=enemy_id,
                    level=enemy.level,
                    hp=enemy.hp,
                    hex=h,
                    number=number,
                    quest=True,
                    ep_left=d.state.ep_left,
                )
            )
    place_enemies(d, number)
    for member, h in zip(cmd.party, _placements(d, cmd)):  # CLASH-8, CLASH-8d, DUNGEON-9
        d.emit(ev.AdventurerPlaced(hero=hero_id(member.name), hex=h, form=member.form))
    companions.bring(d, cmd.companions, "dungeon" if dungeon else "clash", cmd.party)  # CLASH-9, DUNGEON-10
    begin_round(d, 1)  # CLASH-10, DUNGEON-11


def _specials(d: Decision, cmd: StartDungeon, units: int) -> list[Hex]:
    """DUNGEON-8e: the special hexes the party chose for the objective units,
    in order; by default the first ones in reading order."""
    special = d.ctx.board.special_hexes()
    if not cmd.specials:
        return special[:units]
    chosen = [as_hex(h) for h in cmd.specials]
    if len(chosen) != units:
        raise MalformedCommand(f"name one special hex per objective unit ({units}), or none")
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("DUNGEON-8e", "two objective units cannot share a special hex")
    for h in chosen:
        if h not in special:
            raise RuleViolation("DUNGEON-8d", f"hex {name(h)} is not a special hex of the diagram")
    return chosen


def start_delve(d: Decision, cmd: StartDelve) -> None:
    """DELVE-7 to DELVE-12: the Entrance on the table and the tiles in their
    piles (the Delve stream), no caches and no enemies (DELVE-8, DELVE-9),
    the party on the Entrance in turn order with form and ready items
    (DELVE-10), round 1 (DELVE-12)."""
    pack = d.ctx.pack
    found = pack.delves.get(cmd.delve)
    if found is None:
        raise MalformedCommand(f"no delve {cmd.delve!r} in pack {pack.id!r}; there are: {', '.join(pack.delves)}")
    check_seed(cmd.seed)
    _check_party(d, cmd)
    d.emit(
        ev.BattleStarted(
            battle_id=cmd.battle_id,
            rules_version=RULES_VERSION,
            pack_id=pack.id,
            pack_hash=recorded_hash(pack, cmd.party, pack.delve_hash),
            setup=cmd.delve,
            seed=cmd.seed,
            difficulty=cmd.difficulty,
            options=Options(physical_dice=cmd.physical_dice, choose_defense=cmd.choose_defense),
            objective=found.objective,
            xp=cmd.xp,
            ep=0,
            party=tuple(_hero(m) for m in cmd.party),
        )
    )
    shapes = sorted({t.shape for t in pack.tiles.values()})
    d.emit_delve(
        DelveBegun(
            state=DelveState(
                battle_id=cmd.battle_id,
                delve=found.id,
                objective=found.objective,
                required=found.skyshards,
                party_size=len(cmd.party),
                xp=cmd.xp,
                seed=cmd.seed,
                tiles=(entrance(pack),),
                piles=tuple(
                    (shape, tuple(sorted(t.id for t in pack.tiles.values() if t.shape == shape))) for shape in shapes
                ),
                deck=delve_deck(pack),  # CLEANUP-6: the cards marked SP are set aside
                item_deck=cmd.item_deck,
            )
        )
    )
    for member, h in zip(cmd.party, _placements(d, cmd, "DELVE-10a")):
        d.emit(ev.AdventurerPlaced(hero=hero_id(member.name), hex=h, form=member.form))
    companions.bring(d, cmd.companions, "delve", cmd.party)  # DELVE-11
    begin_round(d, 1)  # DELVE-12


def place_enemies(d: Decision, number: int) -> None:
    """CLASH-7: draw enemies onto the numbered hexes in order, each time the
    highest level the EP affords (CLASH-7a, EP-4); stop when the EP is spent
    (EP-6) or the hexes run out (CLASH-7b, EP-7). When the bag has no chip of
    that level the next lower level that fits is drawn (facts default)."""
    pack = d.ctx.pack
    bag = list(pack.chips)  # what is left in the bags as chips are drawn
    for h in d.ctx.board.numbered_hexes():
        left = d.state.ep_left
        if left <= 0:
            break
        drawn = False
        for level in LEVELS:
            if level > left:
                continue
            choices = [(i, side) for i, c in enumerate(bag) if (side := chip_side(pack, c, level))]
            if not choices:
                continue
            k, counter = d.pick(len(choices))
            i, enemy_id = choices[k]
            bag.pop(i)
            enemy = pack.enemies[enemy_id]
            number += 1
            d.emit(
                ev.EnemyPlaced(
                    foe=f"e{number}",
                    enemy=enemy_id,
                    level=level,
                    hp=enemy.hp,
                    hex=h,
                    number=number,
                    draw=counter,
                    ep_left=left - level,
                )
            )
            drawn = True
            break
        if not drawn:
            break
    left = d.state.ep_left
    if left > 0:
        why = "EP-7: no empty numbered hex left" if _all_numbered_full(d) else "EP-7: no chip left that the EP affords"
        d.emit(ev.EnemyPoolClosed(discarded=left, reason=why))


def _all_numbered_full(d: Decision) -> bool:
    taken = {f.pos for f in d.state.foes}
    return all(h in taken for h in d.ctx.board.numbered_hexes())
