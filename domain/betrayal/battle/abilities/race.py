"""The once-per-battle race abilities (RACE-*, betrayal.md §B7).

Three ways an ability is used (defaults from betrayal-facts.md §6 and ours,
listed in RULES-COVERAGE.md):

- at once, on the adventurer's own turn: Dark Elf, Redguard, High Elf, and
  Orc, whose command ends the turn and starts the extra one;
- at the start of a turn, by any Wood Elf of the party: while the battle
  waits for the first command of an adventurer turn, or at the end of a
  round (before the next round's first turn); or, for an enemy's turn
  (whose start does not wait for a command), readied on the Wood Elf's own
  turn (``arm``) to act before the next enemy's turn starts, on the
  targets still deployed then;
- armed on the own turn, then fired by its trigger: Argonian and Imperial
  on the next damage they qualify for, Nord on the next weapon-form Engage,
  Khajiit on the next lockpick test (then the free move, a command of its
  own). With the choose-defense option the Argonian and Imperial reactions
  are also offered, armed or not, when an enemy's strike waits for a Defend
  (``defense``).

Breton (Opportunist) acts by itself on the first Overtax of a Weapon or
Armor (item_use.overtaxed). The triggers reach this module through the
core's hook points (``hooks``), registered at its end.
"""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, as_hex, name

from domain.betrayal.delve.aggregate import TurnMarks
from domain.betrayal.vocab import BattleForm, Status

from .. import exploration
from .. import events as ev
from .. import flow, hooks
from ..choices import check_positions
from ..commands import BattleCommand, Engage, UseRaceAbility
from ..companions import status as ally_status
from ..context import MAX_TENACITY
from ..damage import heal_hero
from ..decision import Decision
from ..heroes import gain_fatigue, gain_status
from ..hooks import EngageExtra
from ..reach import occupied
from ..state import DieKind, Hero, Phase, TrackDie

RULES = {
    "argonian": "RACE-ARGONIAN",
    "breton": "RACE-BRETON",
    "dark-elf": "RACE-DARK-ELF",
    "high-elf": "RACE-HIGH-ELF",
    "imperial": "RACE-IMPERIAL",
    "khajiit": "RACE-KHAJIIT",
    "nord": "RACE-NORD",
    "orc": "RACE-ORC",
    "redguard": "RACE-REDGUARD",
    "wood-elf": "RACE-WOOD-ELF",
}
NAMES = {
    "argonian": "Argonian Resistance",
    "breton": "Opportunist",
    "dark-elf": "Dynamic",
    "high-elf": "Syrabane's Boon",
    "imperial": "Imperial Mettle",
    "khajiit": "Cutpurse",
    "nord": "Reveler",
    "orc": "Swift Warrior",
    "redguard": "Adrenaline Rush",
    "wood-elf": "Hunter's Eye",
}
REACTIONS = ("argonian", "imperial")  # prevent damage taken
ARMED = ("argonian", "imperial", "nord", "khajiit")  # armed first, fired by a trigger
DYNAMIC_DICE = 4  # RACE-DARK-ELF: up to 4 skill dice
RUSH_DICE = 3  # RACE-REDGUARD: up to 3 fatigue or status dice
BOON_HEAL = 3  # RACE-HIGH-ELF
HUNTER_TARGETS = 2  # RACE-WOOD-ELF: up to 2 party members
METTLE_LIMIT = 3  # RACE-IMPERIAL: damage of 3 or less
CUTPURSE_MOVE = 5  # RACE-KHAJIIT: then move up to 5 hexes
REVELER_DICE = 1  # RACE-NORD: 1 enemy Combat die, +1 per Weapon
WEAPON_FORMS = (BattleForm.LIGHT, BattleForm.HEAVY, BattleForm.RANGED)


def rule_of(hero: Hero) -> str:
    """The rule ID of ``hero``'s race ability ("" for an unknown race)."""
    return RULES.get(hero.race, "")


def weapons_in_inventory(hero: Hero) -> int:
    """Weapons in the whole inventory, ready slots and Pack (facts default
    for RACE-NORD), as counted when the battle was set up."""
    return hero.weapons


# --- the command ------------------------------------------------------------------


def use(d: Decision, cmd: UseRaceAbility) -> None:
    """Decide a UseRaceAbility: refuse with the race's rule when it was used
    this battle, at the wrong time or with illegal choices."""
    hero = _user(d, cmd)
    rule = rule_of(hero)
    if not rule:
        raise MalformedCommand(f"{hero.name}'s race {hero.race!r} has no race ability")
    if hero.race == "breton":
        raise RuleViolation(
            rule,
            "Opportunist acts by itself the first time you Overtax a Weapon or Armor "
            "(rk engage --weapon ID --overtax, or an Armor's Overtax)",
        )
    if hero.defeated:
        raise RuleViolation(rule, f"{hero.name} is defeated")
    if cmd.arm and hero.race != "wood-elf":
        raise MalformedCommand(f"{NAMES[hero.race]} is not readied with --arm")
    if hero.race == "khajiit" and cmd.hex is not None and hero.free_move:
        _free_move(d, hero, cmd, as_hex(cmd.hex))
        return
    if hero.race_used:
        raise RuleViolation(rule, f"{NAMES[hero.race]} can be used once per battle, and {hero.name} used it already")
    _USES[hero.race](d, hero, cmd)


def _user(d: Decision, cmd: UseRaceAbility) -> Hero:
    return d.user(cmd.hero, "race ability")


def _own_turn(d: Decision, hero: Hero) -> None:
    """Refuse unless it is ``hero``'s turn and no engage waits (TURN-5)."""
    s = d.state
    rule = rule_of(hero)
    if s.turn is None or s.turn.hero != hero.id:
        raise RuleViolation(rule, f"{NAMES[hero.race]} is used on {hero.name}'s own turn")
    if s.phase is not Phase.ADVENTURER_TURN:
        raise RuleViolation(rule, "resolve the engage's dice first")


def _only(hero: Hero, cmd: UseRaceAbility, *allowed: str) -> None:
    """Options that the race's ability does not take are malformed."""
    given = {"dice": cmd.dice, "slots": cmd.slots, "targets": cmd.targets, "hex": cmd.hex}
    extra = [k for k, v in given.items() if v not in ((), None) and k not in allowed]
    if extra:
        takes = ", ".join(f"--{a}" for a in allowed) or "no options"
        raise MalformedCommand(f"{NAMES[hero.race]} takes {takes}, not --{extra[0]}")


def _used(d: Decision, hero: Hero) -> None:
    d.emit(ev.RaceAbilityUsed(hero=hero.id, race=hero.race, rule=rule_of(hero)))


# --- own turn: Dark Elf, Redguard, High Elf, Orc --------------------------------------


def _dynamic(d: Decision, hero: Hero, cmd: UseRaceAbility) -> None:
    """RACE-DARK-ELF: recover up to 4 skill dice from the track, each
    leaving 1 Light fatigue in its place (one-for-one, no sliding)."""
    _only(hero, cmd, "dice")
    _own_turn(d, hero)
    rule = rule_of(hero)
    if not cmd.dice:
        raise MalformedCommand("name the skill dice to recover from the track (--dice)")
    if len(set(cmd.dice)) != len(cmd.dice):
        raise MalformedCommand("a die is named twice")
    if len(cmd.dice) > DYNAMIC_DICE:
        raise RuleViolation(rule, f"Dynamic recovers up to {DYNAMIC_DICE} skill dice, not {len(cmd.dice)}")
    on_track = {t.uid for t in hero.track if t.kind is DieKind.SKILL}
    for uid in cmd.dice:
        if uid not in on_track:
            raise RuleViolation(rule, f"die #{uid} is not a skill die on {hero.name}'s cooldown track")
    track = tuple(
        TrackDie(DieKind.LIGHT_FATIGUE) if t.kind is DieKind.SKILL and t.uid in cmd.dice else t for t in hero.track
    )
    recovered = tuple(t.uid for t in hero.track if t.kind is DieKind.SKILL and t.uid in cmd.dice)
    _used(d, hero)
    d.emit(ev.TrackDiceRecovered(hero=hero.id, recovered=recovered, track=track, rule=rule))


def _rush(d: Decision, hero: Hero, cmd: UseRaceAbility) -> None:
    """RACE-REDGUARD: remove up to 3 fatigue (Overfatigue too) or status
    dice from the track to the supply, the rest sliding left (TRACK-6);
    heal 1 HP each, the excess over the maximum as bonus HP."""
    _only(hero, cmd, "slots")
    _own_turn(d, hero)
    rule = rule_of(hero)
    check_positions(
        cmd.slots,
        len(hero.track),
        RUSH_DICE,
        rule=rule,
        too_many=f"Adrenaline Rush removes up to {RUSH_DICE} dice, not {len(cmd.slots)}",
        name_them="name the track positions of the dice to remove (--slots)",
        missing=f"{hero.name}'s track has no die at position {{n}}",
    )
    for i in cmd.slots:
        if hero.track[i].kind is DieKind.SKILL:
            raise RuleViolation(rule, f"the die at position {i + 1} is a skill die, not a fatigue or status die")
    removed = tuple(hero.track[i] for i in sorted(cmd.slots))
    track = tuple(t for i, t in enumerate(hero.track) if i not in cmd.slots)
    _used(d, hero)
    d.emit(ev.TrackDiceRemoved(hero=hero.id, removed=removed, track=track, rule=rule))
    n = len(removed)
    healed = min(n, max(0, hero.max_hp - hero.hp))
    d.emit(ev.Healed(unit=hero.id, amount=n, hp=hero.hp + healed, bonus_hp=hero.bonus_hp + n - healed))


def entrance_free(d: Decision, moving: str) -> list[Hex]:
    """Entrance hexes no other unit stands on (cache chips occupy nothing)."""
    taken = occupied(d) - {d.state.hero(moving).pos}
    return [h for h in d.ctx.board.entrance_hexes() if h not in taken]


def _boon(d: Decision, hero: Hero, cmd: UseRaceAbility) -> None:
    """RACE-HIGH-ELF: put one adventurer (yourself included, not a defeated
    one) on an unoccupied Entrance hex and heal it 3, up to its maximum."""
    _only(hero, cmd, "targets", "hex")
    _own_turn(d, hero)
    rule = rule_of(hero)
    if len(cmd.targets) > 1:
        raise MalformedCommand("Syrabane's Boon chooses one adventurer")
    target_id = cmd.targets[0] if cmd.targets else hero.id
    try:
        target = d.state.hero(target_id)
    except KeyError:
        raise MalformedCommand(f"no adventurer {target_id!r} in this battle") from None
    if target.defeated:
        raise RuleViolation(rule, f"{target.name} is defeated: Syrabane's Boon cannot revive")
    free = entrance_free(d, target.id)
    to = as_hex(cmd.hex) if cmd.hex is not None else (free[0] if free else None)
    if to is None:
        raise RuleViolation(rule, "no Entrance hex is unoccupied")
    if to not in d.ctx.board.entrance_hexes():
        raise RuleViolation(rule, f"hex {name(to)} is not on the Entrance tile")
    if to not in free:
        raise RuleViolation(rule, f"hex {name(to)} is occupied")
    _used(d, hero)
    d.emit(ev.HeroReplaced(hero=target.id, hex=to, rule=rule))
    heal_hero(d, target.id, BOON_HEAL)


def _swift(d: Decision, hero: Hero, cmd: UseRaceAbility) -> None:
    """RACE-ORC: as the turn ends (its end-of-turn effects done), gain 1
    Overfatigue and take an extra full turn: start of turn and Recovery
    (facts default)."""
    _only(hero, cmd)
    _own_turn(d, hero)
    flow.close_turn(d)
    _used(d, hero)
    gain_fatigue(d, hero.id, DieKind.OVERFATIGUE, 1, rule_of(hero))
    if d.delve is not None:  # the extra turn's exploration marks start fresh
        exploration.mark(d, TurnMarks(round=d.state.round, hero=hero.id))
    if not flow.start_turn(d, hero.id):
        flow.next_turn(d, after=hero.id)


# --- start of a turn: Wood Elf ------------------------------------------------------


def turn_starting(d: Decision) -> bool:
    """Whether the battle waits before a unit's turn starts (RACE-WOOD-ELF):
    at the end of a round, or an adventurer turn with nothing done yet."""
    s = d.state
    if s.phase is Phase.END_OF_ROUND:
        return True
    if s.phase is Phase.COMPANION_TURN:  # before the next companion's turn (ROUND-6)
        return s.ally_turn is None
    t = s.turn
    if s.phase is not Phase.ADVENTURER_TURN or t is None:
        return False
    marks = d.delve.marks_for(s.round, t.hero) if d.delve is not None else None
    explored = marks is not None and (marks.explored or marks.spent)
    return t.moves == 0 and t.engages == 0 and not t.rolled and not explored


def _hunter(d: Decision, hero: Hero, cmd: UseRaceAbility) -> None:
    """RACE-WOOD-ELF: before a turn starts, up to 2 party members on the map
    gain a Stealth status die; a companion is a party member and a valid
    choice (facts §2)."""
    _only(hero, cmd, "targets")
    rule = rule_of(hero)
    if cmd.arm:
        _own_turn(d, hero)
        if hero.race_armed:
            raise RuleViolation(rule, "Hunter's Eye is already readied for the next enemy's turn")
    elif not turn_starting(d):
        raise RuleViolation(
            rule,
            "Hunter's Eye is used before a turn starts: at the end of a round, "
            "or at the start of an adventurer's turn before anything is done; for an"
            " enemy's turn, ready it on your own turn (--arm)",
        )
    if not cmd.targets:
        raise MalformedCommand("name up to 2 party members to gain Stealth (--targets)")
    if len(set(cmd.targets)) != len(cmd.targets):
        raise MalformedCommand("a party member is named twice")
    if len(cmd.targets) > HUNTER_TARGETS:
        raise RuleViolation(rule, f"Hunter's Eye chooses up to {HUNTER_TARGETS} party members")
    for target_id in cmd.targets:
        if ally_status.is_ally(d.state, target_id):
            ally_status.check_deployed(d, target_id, rule)
            continue
        try:
            target = d.state.hero(target_id)
        except KeyError:
            raise MalformedCommand(f"no party member {target_id!r} in this battle") from None
        if target.defeated or target.pos is None:
            raise RuleViolation(rule, f"{target.name} is not deployed on the battlefield")
    if cmd.arm:
        d.emit(ev.HuntersEyeArmed(hero=hero.id, targets=cmd.targets, rule=rule))
        return
    _used(d, hero)
    for target_id in cmd.targets:
        _stealth(d, target_id, rule)


def before_enemy_turn(d: Decision) -> None:
    """RACE-WOOD-ELF: an armed Hunter's Eye acts before an enemy's turn
    starts (party order), on its targets still deployed then."""
    for hero_id in d.state.order:
        hero = d.state.hero(hero_id)
        if hero.race != "wood-elf" or not hero.race_armed or hero.race_used or hero.defeated:
            continue
        _used(d, hero)
        for target_id in hero.hunter_targets:
            if ally_status.is_ally(d.state, target_id):
                _stealth(d, target_id, rule_of(hero))
                continue
            target = d.state.hero(target_id)
            if not target.defeated and target.pos is not None:
                gain_status(d, target_id, Status.STEALTH)


def _stealth(d: Decision, unit_id: str, rule: str) -> None:
    """Hunter's Eye's Stealth die, on an adventurer's track or on a companion."""
    if ally_status.is_ally(d.state, unit_id):
        ally_status.gain(d, unit_id, Status.STEALTH, rule)
    else:
        gain_status(d, unit_id, Status.STEALTH)


# --- armed reactions: Argonian, Imperial, Nord, Khajiit ------------------------------------


def _arm(d: Decision, hero: Hero, cmd: UseRaceAbility) -> None:
    """Arm a reaction on the own turn; it fires on its next trigger."""
    _only(hero, cmd)
    _own_turn(d, hero)
    if hero.race_armed:
        raise RuleViolation(rule_of(hero), f"{NAMES[hero.race]} is already armed")
    d.emit(ev.RaceAbilityArmed(hero=hero.id, race=hero.race, rule=rule_of(hero)))


def reaction_prevents(hero: Hero, left: int) -> int:
    """What ``hero``'s unused race reaction would prevent of ``left`` damage
    (facts default: damage left after Defense, active dice and Armor); 0
    when it does not apply. True damage never reaches here."""
    if hero.race_used or left <= 0:
        return 0
    if hero.race == "argonian":
        return left  # RACE-ARGONIAN: all of it
    if hero.race == "imperial" and left <= METTLE_LIMIT:
        return left  # RACE-IMPERIAL: 3 or less
    return 0


def react(d: Decision, hero_id: str, left: int, use_it: bool | None) -> int:
    """The race reaction against ``left`` physical damage: used when the
    player chose it (``use_it``), or, with no choice made, when it was
    armed and applies. Returns the damage it prevented."""
    hero = d.state.hero(hero_id)
    amount = reaction_prevents(hero, left)
    if use_it is None:
        use_it = hero.race_armed and hero.race in REACTIONS
    if not use_it or not amount:
        return 0
    rule = rule_of(hero)
    _used(d, hero)
    d.emit(ev.DamagePrevented(hero=hero_id, amount=amount, rule=rule))
    if hero.race == "imperial":  # and gain that much Tenacity, up to its maximum
        tenacity = min(MAX_TENACITY, hero.tenacity + amount)
        if tenacity > hero.tenacity:
            d.emit(ev.TenacityGained(hero=hero_id, amount=tenacity - hero.tenacity, tenacity=tenacity))
    return amount


def reveler_dice(hero: Hero, form: BattleForm) -> int:
    """Free enemy Combat dice an armed Nord adds to an Engage in a weapon
    form (RACE-NORD): 1, +1 per Weapon in the inventory."""
    if hero.race != "nord" or not hero.race_armed or hero.race_used or form not in WEAPON_FORMS:
        return 0
    return REVELER_DICE + weapons_in_inventory(hero)


def fire_reveler(d: Decision, hero: Hero) -> None:
    """The Engage took Reveler's dice: the ability is spent."""
    _used(d, hero)


def reveler(d: Decision, hero: Hero, cmd: Engage) -> EngageExtra:
    """An Engage about to be declared (``hooks.ENGAGE_DECLARING``, RACE-NORD):
    Reveler's free dice, and the ability spent once the Engage is declared."""
    dice = reveler_dice(hero, cmd.form)
    return EngageExtra(dice=dice, declared=(lambda: fire_reveler(d, hero)) if dice else None)


def bypass_lock(d: Decision, hero_id: str, what: str, h: Hex) -> bool:
    """RACE-KHAJIIT: an armed Khajiit succeeds at its lockpick test without
    rolling, and may then move up to 5 hexes freely this turn."""
    hero = d.state.hero(hero_id)
    if hero.race != "khajiit" or not hero.race_armed or hero.race_used:
        return False
    _used(d, hero)
    d.emit(ev.LockpickBypassed(hero=hero_id, what=what, hex=h, free_move=CUTPURSE_MOVE, rule=rule_of(hero)))
    return True


def _free_move(d: Decision, hero: Hero, cmd: UseRaceAbility, to: Hex) -> None:
    """RACE-KHAJIIT: Cutpurse's free move to ``to`` (the command's hex;
    facts default: free movement, not a Move action), in a delve stopping
    for what entered hexes set off."""
    _only(hero, cmd, "hex")
    _own_turn(d, hero)
    rule = rule_of(hero)
    board = d.ctx.board
    if not board.contains(to) or not board.passable(to):
        raise RuleViolation(rule, f"hex {name(to)} cannot be entered")
    taken = occupied(d) - {hero.pos}
    if to == hero.pos or to in taken:
        raise RuleViolation(rule, f"hex {name(to)} is occupied")
    route = board.path(hero.at, to, taken)
    if route is None:
        raise RuleViolation(rule, "no free route reaches that hex")
    steps = len(route) - 1
    if steps > hero.free_move:
        raise RuleViolation(rule, f"that hex is {steps} hexes away; {hero.free_move} hexes of Cutpurse's move are left")
    left = hero.free_move - steps
    start = 0
    for i in range(1, len(route)):
        stop = exploration.interrupts(d, route[i], route[i - 1])
        if not stop and i < len(route) - 1:
            continue
        d.emit(
            ev.HeroMovedFreely(
                hero=hero.id, path=tuple(route[start + 1 : i + 1]), left=left + len(route) - 1 - i, rule=rule
            )
        )
        if not stop:
            break
        start = i
        exploration.entered(d, hero.id, route[i], route[i - 1])
        if d.state.hero(hero.id).defeated:
            break
    flow.finish_if_fallen(d, hero.id)


_USES = {
    "argonian": _arm,
    "imperial": _arm,
    "nord": _arm,
    "khajiit": _arm,
    "dark-elf": _dynamic,
    "redguard": _rush,
    "high-elf": _boon,
    "orc": _swift,
    "wood-elf": _hunter,
}


# --- the choose-defense option (COMBAT-4) ----------------------------------------------


def reaction_offered(d: Decision, hero: Hero) -> bool:
    """Whether ``hero`` has a race reaction to choose in a Defend: an unused
    Argonian or Imperial one, armed or not (``hooks.DEFENSE_OFFERED``)."""
    return hero.race in REACTIONS and not hero.race_used


# --- legal commands --------------------------------------------------------------------


def legal(d: Decision, check) -> list[BattleCommand]:
    """Race ability commands usable now, one per sensible choice (not every
    combination): ``check(cmd)`` says whether the rules accept one."""
    s = d.state
    out: list[BattleCommand] = []
    current = s.turn.hero if s.turn is not None and s.phase is Phase.ADVENTURER_TURN else None
    for hero in s.heroes:
        if hero.defeated or hero.race not in _USES:
            continue
        who = None if hero.id == current else hero.id
        for cmd in _candidates(d, hero, who, mine=hero.id == current):
            if check(cmd):
                out.append(cmd)
    return out


def _candidates(d: Decision, hero: Hero, who: str | None, mine: bool) -> list[UseRaceAbility]:
    if hero.race == "wood-elf":
        if hero.race_used:
            return []
        deployed = tuple(h.id for h in d.state.heroes if not h.defeated and h.pos is not None)[:HUNTER_TARGETS]
        if turn_starting(d):
            return [UseRaceAbility(hero=who, targets=deployed)]
        return [UseRaceAbility(targets=deployed, arm=True)] if mine and not hero.race_armed else []
    if not mine:
        return []
    if hero.race == "khajiit" and hero.free_move:
        taken = occupied(d) - {hero.pos}
        reach = d.ctx.board.reachable(hero.at, taken, hero.free_move)
        return [UseRaceAbility(hex=h) for h in sorted(reach, key=lambda h: (h[1], h[0])) if h != hero.pos]
    if hero.race_used:
        return []
    if hero.race in ARMED:
        return [] if hero.race_armed else [UseRaceAbility()]
    if hero.race == "dark-elf":
        uids = tuple(t.uid for t in hero.track if t.kind is DieKind.SKILL)[:DYNAMIC_DICE]
        return [UseRaceAbility(dice=uids)] if uids else []
    if hero.race == "redguard":
        slots = tuple(i for i, t in enumerate(hero.track) if t.kind is not DieKind.SKILL)[:RUSH_DICE]
        return [UseRaceAbility(slots=slots)] if slots else []
    if hero.race == "high-elf":
        out = []
        for target in d.state.heroes:
            free = entrance_free(d, target.id)
            if not target.defeated and free:
                out.append(UseRaceAbility(targets=(target.id,), hex=free[0]))
        return out
    return [UseRaceAbility()]  # orc


# --- hooks: where the core battle rules call the race abilities (hooks.py) ----------------

hooks.REACT_TO_DAMAGE.register(hooks.Layer.RACE, react)
hooks.BEFORE_ENEMY_TURN.register(hooks.Layer.RACE, before_enemy_turn)
hooks.DEFENSE_OFFERED.register(hooks.Layer.RACE, reaction_offered)
hooks.LOCKPICK.register(hooks.Layer.RACE, bypass_lock)
hooks.ENGAGE_DECLARING.register(hooks.Layer.RACE, reveler)
