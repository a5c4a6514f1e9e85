"""Class abilities in battle (CLASS-1 to CLASS-5, FORM-1, CLOTHING-1,
CLOTHING-2, ADVANCE-15), betrayal.md §A9.

An adventurer's abilities are those of its class sheet, the Master side's
too once promoted, and one per ready Clothing (``abilities``). Our
defaults (betrayal-facts.md §6 "Fills CLASS-2a, FORM-1, ADVANCE-16" and
ours, listed in RULES-COVERAGE.md):

- Action: used on its owner's own turn, between actions (never while an
  engage's dice wait), by spending its tenacity; the same one once per turn
  (CLASS-2). A reroll is the exception: it acts on the owner's own engage
  while its dice wait to be resolved.
- Innate (the sheet's top ability) is free and passive: a ward or block
  while in its form, a heal's bonus on other adventurers, tenacity for an
  enemy defeated in its form. A move or reroll Innate is used by the
  command, free, once per engage in its form (CLASS-2a).
- Enduring: on by itself while tenacity is at least its cost (CLASS-3): a
  ward or block on each damage (block: from an enemy), or a start-of-turn
  effect (cleanse, heal, bonus HP, recover, tenacity). A move or reroll
  Enduring is used by the command, free, once per turn or engage.
- Interrupt: armed by the command on the owner's own turn, it fires on its
  next trigger if tenacity still pays for it (then it is spent and
  disarmed), before anything else resolves (CLASS-4). Interrupts that
  trigger together resolve in party turn order, each owner's in the order
  armed (CLASS-4a default).
- A needed battle form (FORM-1: the ability's form) is the adventurer's
  current form; ``change_form`` gains 1 Light fatigue to take it (CLASS-5).
- Reach: an ability with a weapon or Magic form reaches as an engage in
  that form; one without (or Defensive) reaches adjacent units. Heals,
  bonus HP and recovery go to yourself or an adjacent adventurer.
- A status an ability puts on an enemy has no die of its owner's behind
  it, so none returns to a track when it comes off.
- Active slots (ACTIVE-5, ACTIVE-8): a ``fatigue-block`` Action places a
  Light fatigue die from the supply in the user's active slots as a block
  of its amount, refused while the 4 slots are full (ACTIVE-3: clear one
  first, ACTIVE-4); a ``hurl-block`` Action forces one of the user's
  active block dice out (the one of the slot named, by default the highest)
  and deals its value, up to the amount, to an enemy in reach: a skill die
  is exhausted to the user's track (ACTIVE-6), a fatigue die goes to it
  (ACTIVE-9a).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, as_hex, distance, name

from domain.betrayal.packs.catalog import Pack
from domain.betrayal.packs.catalog_campaign import ClassAbility
from domain.betrayal.packs.classes import ENDURING_EFFECTS
from domain.betrayal.vocab import AbilityTiming, BattleForm, EffectKind, ItemKind, Status, Trigger

from .. import exploration
from .. import events as ev
from .. import flow, hooks
from ..choices import check_positions
from ..commands import BattleCommand, UseClassAbility
from ..context import ACTIVE_SLOTS, MAX_TENACITY
from ..damage import heal_hero, hurt_foe
from ..decision import Decision
from ..heroes import exhaust, gain_fatigue, gain_status, lose_status, statuses
from ..reach import check_target, occupied
from ..state import ActiveDie, DieKind, Foe, Hero, Phase, Rolled, StatusMark

K = EffectKind
T = AbilityTiming
CHOSEN = frozenset({K.MOVE, K.REROLL})  # Innate and Enduring effects a player uses by the command
GUARDS = frozenset({K.WARD, K.BLOCK})  # effects that prevent damage
TURN_START_EFFECTS = ENDURING_EFFECTS - GUARDS - CHOSEN  # an Enduring one acts as the turn starts
RULE_OF = {T.ACTION: "CLASS-1", T.INNATE: "CLASS-2a", T.ENDURING: "CLASS-3", T.INTERRUPT: "CLASS-4"}
REACH_FORMS = (BattleForm.LIGHT, BattleForm.HEAVY, BattleForm.RANGED, BattleForm.MAGIC)


# --- which abilities an adventurer has (CLASS-1, ADVANCE-15, CLOTHING-1) -------------------


def clothing_grants(pack: Pack, hero: Hero) -> dict[str, str]:
    """Ability id to the ready Clothing that grants it (CLOTHING-1); a
    discarded item grants nothing."""
    out: dict[str, str] = {}
    for item in hero.ready:
        gear = pack.gear.get(item)
        if item in hero.discarded or gear is None or gear.ability is None:
            continue
        if gear.kind == ItemKind.CLOTHING:
            out.setdefault(gear.ability.id, item)
    return out


def abilities(pack: Pack, hero: Hero) -> list[ClassAbility]:
    """Every class ability ``hero`` may use: its sheet's, its Master side's
    once promoted (ADVANCE-15: the Master side adds to the Novice one, our
    default), and those its ready Clothing grant (CLOTHING-1)."""
    sheet = pack.classes.get(hero.class_id)
    out = list(sheet.abilities) if sheet else []
    if sheet and hero.master:
        out += sheet.master
    seen = {a.id for a in out}
    for ability_id, item in clothing_grants(pack, hero).items():
        granted = pack.gear[item].ability  # set: clothing_grants names only items that grant one
        if granted is not None and ability_id not in seen:
            out.append(granted)
            seen.add(ability_id)
    return out


def _find(d: Decision, hero: Hero, ability_id: str) -> ClassAbility:
    """The ability, or the refusal saying why ``hero`` does not have it."""
    pack = d.ctx.pack
    for ability in abilities(pack, hero):
        if ability.id == ability_id:
            return ability
    sheet = pack.classes.get(hero.class_id)
    if sheet and any(a.id == ability_id for a in sheet.master):
        raise RuleViolation(
            "ADVANCE-15",
            f"{ability_id} is on the Master side of the {sheet.name} sheet; {hero.name} has not been promoted",
        )
    for item in pack.gear.values():
        if item.ability is not None and item.ability.id == ability_id:
            raise RuleViolation(
                "CLOTHING-1",
                f"{item.ability.name} is granted by {item.name}, which is not in {hero.name}'s ready slots",
            )
    if any(a.id == ability_id for s in pack.classes.values() for a in (*s.abilities, *s.master)):
        what = f"the {sheet.name} sheet" if sheet else "no class sheet"
        raise RuleViolation("CLASS-1", f"{ability_id} is not on {hero.name}'s class sheet ({hero.name} has {what})")
    raise MalformedCommand(f"no class ability {ability_id!r}")


def _innate(pack: Pack, hero: Hero, kind: EffectKind, form: BattleForm | None = None) -> ClassAbility | None:
    """``hero``'s Innate ability of ``kind``, if it is on: in its form (the
    adventurer's, or ``form`` when given)."""
    sheet = pack.classes.get(hero.class_id)
    if sheet is None or not sheet.abilities:
        return None
    top = sheet.abilities[0]
    if top.timing is T.INNATE and top.effect.kind is kind and top.form in (None, form or hero.form):
        return top
    return None


def _enduring(pack: Pack, hero: Hero, kinds: frozenset[EffectKind]) -> list[ClassAbility]:
    """``hero``'s Enduring abilities of ``kinds`` that are on (CLASS-3:
    tenacity at least their cost; in their form if they name one)."""
    return [
        a
        for a in abilities(pack, hero)
        if a.timing is T.ENDURING
        and a.effect.kind in kinds
        and hero.tenacity >= a.cost
        and (a.form is None or a.form is hero.form)
    ]


# --- the command --------------------------------------------------------------------


def use(d: Decision, cmd: UseClassAbility) -> None:
    """Decide a UseClassAbility: refuse with the rule it breaks, else spend
    the tenacity and apply the effect (or arm the Interrupt)."""
    hero = _user(d, cmd)
    ability = _find(d, hero, cmd.ability)
    rule = _rule(d, hero, ability)
    kind = ability.effect.kind
    if hero.defeated:
        raise RuleViolation("CLASS-1", f"{hero.name} is defeated")
    if ability.timing is T.INNATE and kind not in CHOSEN:
        raise RuleViolation("CLASS-2a", f"{ability.name} is Innate: passive and free, it applies by itself")
    if ability.timing is T.ENDURING and kind not in CHOSEN:
        raise RuleViolation(
            "CLASS-3",
            f"{ability.name} is Enduring: it is on by itself while {hero.name}'s tenacity is at least {ability.cost}",
        )
    _own_turn(d, hero, ability)
    if ability.timing is T.INTERRUPT:
        _arm(d, hero, ability, cmd)
        return
    if ability.timing is T.ACTION and hero.tenacity < ability.cost:
        raise RuleViolation("CLASS-1", f"{ability.name} costs {ability.cost} tenacity; {hero.name} has {hero.tenacity}")
    if ability.timing is T.ENDURING and hero.tenacity < ability.cost:
        raise RuleViolation(
            "CLASS-3",
            f"{ability.name} is on only while tenacity is at least {ability.cost}; {hero.name} has {hero.tenacity}",
        )
    mark = _mark(d, ability)
    if mark in hero.class_used:
        if ability.timing is T.ACTION:
            raise RuleViolation(
                "CLASS-2", f"{hero.name} used {ability.name} this turn already: the same ability once per turn"
            )
        per = "engage" if "@" in mark else "turn"
        raise RuleViolation("CLASS-2a", f"{ability.name} is used once per {per}, and {hero.name} used it already")
    change = _form_change(d, hero, ability, cmd.change_form)
    apply = _prepare(d, hero, ability, cmd)
    if change is not None:  # CLASS-5: just before resolving it
        gain_fatigue(d, hero.id, DieKind.LIGHT_FATIGUE, 1, "CLASS-5")
        d.emit(ev.HeroFormChanged(hero=hero.id, form=change, rule="CLASS-5"))
    spent = ability.cost if ability.timing is T.ACTION else 0
    d.emit(
        ev.ClassAbilityUsed(
            hero=hero.id, ability=ability.id, spent=spent, tenacity=hero.tenacity - spent, mark=mark, rule=rule
        )
    )
    apply()


def _user(d: Decision, cmd: UseClassAbility) -> Hero:
    return d.user(cmd.hero, "class ability")


def _rule(d: Decision, hero: Hero, ability: ClassAbility) -> str:
    """The rule an ability's use cites: its timing's, CLOTHING-2 for one a
    Clothing grants."""
    sheet = d.ctx.pack.classes.get(hero.class_id)
    mine = sheet is not None and any(a.id == ability.id for a in (*sheet.abilities, *sheet.master))
    return RULE_OF[ability.timing] if mine else "CLOTHING-2"


def _own_turn(d: Decision, hero: Hero, ability: ClassAbility) -> None:
    """Refuse outside the owner's own turn (facts: class abilities are
    actions on your own turn), inside an engage but for a reroll (TURN-5),
    and a reroll with no dice waiting."""
    s = d.state
    if s.turn is None or s.turn.hero != hero.id:
        what = "armed" if ability.timing is T.INTERRUPT else "used"
        raise RuleViolation("CLASS-1", f"{ability.name} is {what} on {hero.name}'s own turn")
    reroll = ability.effect.kind is K.REROLL and ability.timing is not T.INTERRUPT
    if s.phase is Phase.ENGAGE_RESOLVE and not reroll:
        raise RuleViolation(
            "TURN-5", "resolve the engage's dice first: a class ability is never used inside another action"
        )
    if reroll and (s.phase is not Phase.ENGAGE_RESOLVE or s.pending is None or s.pending.hero != hero.id):
        raise RuleViolation(
            "CLASS-1", f"{ability.name} rerolls the dice of {hero.name}'s engage while they wait to be resolved"
        )
    if s.phase not in (Phase.ADVENTURER_TURN, Phase.ENGAGE_RESOLVE):
        raise RuleViolation("CLASS-1", f"{ability.name} is used on {hero.name}'s own turn")


def _mark(d: Decision, ability: ClassAbility) -> str:
    """What CLASS-2 remembers: an Action or a move once per turn, an Innate
    or Enduring reroll (or an Innate move) once per engage."""
    t = d.state.acting
    per_engage = ability.timing is not T.ACTION and (ability.effect.kind is K.REROLL or ability.timing is T.INNATE)
    return f"{ability.id}@{t.engages}" if per_engage else ability.id


def _form_change(d: Decision, hero: Hero, ability: ClassAbility, change: bool) -> BattleForm | None:
    """CLASS-5, FORM-1: the form the ability needs; with ``change`` the
    adventurer takes it for 1 Light fatigue. An Innate is on only in the
    form it names: it cannot be changed into."""
    needed = ability.form
    if needed is None or needed is hero.form:
        if change:
            raise RuleViolation("CLASS-5", f"{ability.name} needs no other battle form")
        if ability.timing is T.INNATE:
            _innate_ready(d, hero, ability)
        return None
    if ability.timing is T.INNATE:
        raise RuleViolation(
            "CLASS-5",
            f"{ability.name} is Innate in {needed.value} form only, after an engage in it; it cannot change the form",
        )
    if not change:
        raise RuleViolation(
            "CLASS-5",
            f"{ability.name} needs the {needed.value} form and {hero.name} is in"
            f" {hero.form.value}; change it for 1 Light fatigue (--change-form)",
        )
    return needed


def _innate_ready(d: Decision, hero: Hero, ability: ClassAbility) -> None:
    """An Innate move follows an engage this turn, in the form it names."""
    s = d.state
    if ability.effect.kind is K.MOVE and (s.acting.engages == 0 or s.phase is not Phase.ADVENTURER_TURN):
        raise RuleViolation("CLASS-2a", f"{ability.name} is used after an engage this turn")
    if ability.effect.kind is K.REROLL and ability.form is not None and s.engage_waiting.form is not ability.form:
        raise RuleViolation("CLASS-2a", f"{ability.name} rerolls an engage in {ability.form.value} form only")


def _arm(d: Decision, hero: Hero, ability: ClassAbility, cmd: UseClassAbility) -> None:
    """CLASS-4: an Interrupt is armed on the own turn and fires on its
    trigger; arming needs the tenacity it will spend."""
    _only(ability, cmd)
    if ability.id in hero.class_armed:
        raise RuleViolation("CLASS-4", f"{ability.name} is already armed; it fires on its trigger")
    if hero.tenacity < ability.cost:
        raise RuleViolation("CLASS-1", f"{ability.name} costs {ability.cost} tenacity; {hero.name} has {hero.tenacity}")
    if ability.form is not None and ability.form is not hero.form and not cmd.change_form:
        raise RuleViolation(
            "CLASS-5",
            f"{ability.name} needs the {ability.form.value} form; change it for 1 Light fatigue (--change-form)",
        )
    change = _form_change(d, hero, ability, True) if cmd.change_form else None
    if change is not None:
        gain_fatigue(d, hero.id, DieKind.LIGHT_FATIGUE, 1, "CLASS-5")
        d.emit(ev.HeroFormChanged(hero=hero.id, form=change, rule="CLASS-5"))
    d.emit(ev.ClassAbilityArmed(hero=hero.id, ability=ability.id, rule="CLASS-4"))


def _only(ability: ClassAbility, cmd: UseClassAbility, *allowed: str) -> None:
    """Options the ability does not take are malformed."""
    given = {"target": cmd.target, "hex": cmd.hex, "dice": cmd.dice, "faces": cmd.faces, "slot": cmd.slot}
    extra = [k for k, v in given.items() if v not in ("", (), None) and k not in allowed]
    if extra:
        takes = ", ".join(f"--{a}" for a in allowed) or "no options"
        raise MalformedCommand(f"{ability.name} takes {takes}, not --{extra[0]}")


# --- effects of the command (one per EffectKind) ---------------------------------------


def _prepare(d: Decision, hero: Hero, ability: ClassAbility, cmd: UseClassAbility) -> Callable[[], object]:
    """Check the command's choices for the ability's effect and return what
    applies it (after the tenacity is spent; what it returns is not read)."""
    effect = ability.effect
    kind, amount = effect.kind, effect.amount
    if kind in (K.DAMAGE, K.TRUE_DAMAGE):
        _only(ability, cmd, "target")
        foe = _enemy(d, hero, ability, cmd.target)
        physical, true = (0, amount) if kind is K.TRUE_DAMAGE else (amount, 0)
        return lambda: hurt_foe(d, foe.id, physical, true, source=hero.id, rule="CLASS-1")
    if kind is K.STATUS:
        return _prepare_status(d, hero, ability, cmd)
    if kind is K.FATIGUE_BLOCK:
        _only(ability, cmd)
        if len(hero.active) >= ACTIVE_SLOTS:
            raise RuleViolation(
                "ACTIVE-3", f"{hero.name}'s {ACTIVE_SLOTS} active slots are full: clear one first (ACTIVE-4)"
            )
        return lambda: _brace(d, hero.id, amount)
    if kind is K.HURL_BLOCK:
        _only(ability, cmd, "target", "slot")
        slot = _block_slot(hero, ability, cmd.slot)
        foe = _enemy(d, hero, ability, cmd.target)
        return lambda: _hurl(d, hero.id, slot, foe.id, amount)
    if kind in (K.HEAL, K.BONUS_HP, K.RECOVER):
        _only(ability, cmd, "target")
        ally = _ally(d, hero, ability, cmd.target)
        return lambda: apply_to(d, hero.id, ability, ally.id)
    if kind is K.MOVE:
        _only(ability, cmd, "hex")
        route = _route(d, hero, ability, cmd.hex, amount)
        return lambda: _walk(d, hero.id, route, RULE_OF[ability.timing])
    if kind is K.REROLL:
        _only(ability, cmd, "dice", "faces")
        positions, faces = _reroll_choice(d, ability, cmd)
        return lambda: _reroll(d, hero.id, positions, faces)
    _only(ability, cmd)  # cleanse, tenacity, ward, block, extra-engage: on yourself
    return lambda: apply_to(d, hero.id, ability, hero.id)


def _brace(d: Decision, hero_id: str, amount: int) -> None:
    """ACTIVE-8: a Light fatigue die from the supply fills an active slot and
    blocks like a block die of ``amount``; spent, cleared, on defeat or at
    the battle's end it goes to the track (ACTIVE-9a to 9d: damage,
    actions and the cleanup do that)."""
    hero = d.state.hero(hero_id)
    die = ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, amount)
    d.emit(ev.ActiveChanged(hero=hero_id, active=hero.active + (die,), rule="ACTIVE-8"))


def _block_slot(hero: Hero, ability: ClassAbility, slot: int | None) -> int:
    """The active slot whose block die the ability removes: the one named,
    by default the highest value (the leftmost of equals)."""
    blocks = [i for i, a in enumerate(hero.active) if a.amount > 0]
    if slot is None:
        if not blocks:
            raise RuleViolation(
                "ACTIVE-5", f"{ability.name} removes one of {hero.name}'s active block dice; {hero.name} has none"
            )
        return max(blocks, key=lambda i: (hero.active[i].amount, -i))
    if not 0 <= slot < len(hero.active):
        raise MalformedCommand(f"{hero.name} has no active die in slot {slot + 1}")
    if slot not in blocks:
        raise RuleViolation("ACTIVE-5", f"the die in slot {slot + 1} has no block value left to throw")
    return slot


def _hurl(d: Decision, hero_id: str, slot: int, foe_id: str, most: int) -> None:
    """ACTIVE-5: the ability forces the die out of its slot unresolved: a
    skill die is exhausted to its placer's track (ACTIVE-6; the user
    placed it), a fatigue die goes there as the text says (ACTIVE-9a); then
    its value, up to ``most``, hits the enemy."""
    hero = d.state.hero(hero_id)
    die = hero.active[slot]
    keep = tuple(a for i, a in enumerate(hero.active) if i != slot)
    d.emit(ev.ActiveChanged(hero=hero_id, active=keep, rule="ACTIVE-5"))
    if die.kind is DieKind.SKILL:
        exhaust(d, hero_id, die.uid, die.face, "ACTIVE-6")
    else:
        gain_fatigue(d, hero_id, die.kind, 1, "ACTIVE-9a")
    hurt_foe(d, foe_id, min(die.amount, most), 0, source=hero_id, rule="CLASS-1")


def apply_to(d: Decision, owner: str, ability: ClassAbility, target: str) -> None:
    """Apply an effect that needs no choice to adventurer ``target``:
    heal (an Innate heal bonus of the owner on another adventurer), bonus
    HP, recover skill dice from the track's left end, cleanse statuses
    (track order), tenacity, a ward or block guard, extra Engage actions."""
    kind, amount = ability.effect.kind, ability.effect.amount
    hero = d.state.hero(target)
    if kind is K.HEAL:
        bonus = _innate(d.ctx.pack, d.state.hero(owner), K.HEAL) if target != owner else None
        heal_hero(d, target, amount + (bonus.effect.amount if bonus else 0))
    elif kind is K.BONUS_HP:
        heal_hero(d, target, amount, bonus=True)
    elif kind is K.RECOVER:
        picked = [i for i, t in enumerate(hero.track) if t.kind is DieKind.SKILL][:amount]
        if picked:
            track = tuple(t for i, t in enumerate(hero.track) if i not in picked)
            d.emit(
                ev.TrackDiceRemoved(
                    hero=target, removed=tuple(hero.track[i] for i in picked), track=track, rule=RULE_OF[ability.timing]
                )
            )
    elif kind is K.CLEANSE:
        for status in [t.status for t in hero.track if t.kind is DieKind.STATUS and t.status is not None][:amount]:
            lose_status(d, target, status, RULE_OF[ability.timing])
    elif kind is K.TENACITY:
        tenacity = min(MAX_TENACITY, hero.tenacity + amount)
        if tenacity > hero.tenacity:
            d.emit(ev.TenacityGained(hero=target, amount=tenacity - hero.tenacity, tenacity=tenacity))
    elif kind is K.WARD:
        d.emit(
            ev.ClassGuardSet(
                hero=target, ward=hero.class_ward + amount, block=hero.class_block, rule=RULE_OF[ability.timing]
            )
        )
    elif kind is K.BLOCK:
        d.emit(
            ev.ClassGuardSet(
                hero=target, ward=hero.class_ward, block=hero.class_block + amount, rule=RULE_OF[ability.timing]
            )
        )
    elif kind is K.EXTRA_ENGAGE:
        d.emit(ev.ClassEngagesGranted(hero=target, engages=hero.class_engages + amount, rule=RULE_OF[ability.timing]))


def _enemy(d: Decision, hero: Hero, ability: ClassAbility, target: str) -> Foe:
    """An enemy in the ability's reach and sight (ENGAGE-6, FORM-4 to FORM-7;
    melee for an ability without a weapon or Magic form), not hidden by
    Stealth (STATUS-1)."""
    if not target:
        raise MalformedCommand(f"{ability.name} needs an enemy to target (--target)")
    form = ability.form if ability.form in REACH_FORMS else BattleForm.LIGHT
    unit = check_target(d, hero, form, target)
    if not isinstance(unit, Foe):
        raise RuleViolation("CLASS-1", f"{ability.name} targets an enemy, not {unit.name}")
    return unit


def _ally(d: Decision, hero: Hero, ability: ClassAbility, target: str) -> Hero:
    """Yourself (by default) or an adjacent adventurer on the map."""
    if not target or target == hero.id:
        return hero
    try:
        ally = d.state.hero(target)
    except KeyError:
        raise MalformedCommand(f"no adventurer {target!r} in this battle") from None
    if ally.defeated or ally.pos is None or hero.pos is None:
        raise RuleViolation("CLASS-1", f"{ally.name} is not on the battlefield")
    if distance(ally.pos, hero.pos) != 1:
        raise RuleViolation(
            "CLASS-1",
            f"{ability.name} reaches you or an adjacent adventurer;"
            f" {ally.name} is {distance(ally.pos, hero.pos)} hexes away",
        )
    return ally


def _prepare_status(d: Decision, hero: Hero, ability: ClassAbility, cmd: UseClassAbility) -> Callable[[], object]:
    """Stealth goes on yourself; any other status on an enemy in reach, one
    of each at a time (STATUS-7), none on a quest unit (STATUS-3)."""
    status = ability.effect.placed
    if status is Status.STEALTH:
        _only(ability, cmd)
        return lambda: gain_status(d, hero.id, status)
    _only(ability, cmd, "target")
    foe = _enemy(d, hero, ability, cmd.target)
    if foe.quest:
        raise RuleViolation("STATUS-3", f"{foe.id} is a quest unit: adventurers put no status on it")
    if any(m.status is status for m in foe.marks):
        raise RuleViolation("STATUS-7", f"{foe.id} already has {status.value}")
    return lambda: place_status(d, hero.id, foe.id, status)


def place_status(d: Decision, owner: str, foe_id: str, status: Status) -> bool:
    """Put ``status`` on an enemy for a class ability (uid 0: no die)."""
    foe = d.state.foe(foe_id)
    if foe.defeated or foe.quest or any(m.status is status for m in foe.marks):
        return False
    d.emit(ev.StatusPlaced(foe=foe_id, mark=StatusMark(status, owner, 0)))
    return True


def _route(d: Decision, hero: Hero, ability: ClassAbility, to: Hex | None, reach: int) -> list[Hex]:
    """A free route of up to ``reach`` hexes (free movement, not a Move action)."""
    if to is None:
        raise MalformedCommand(f"{ability.name} needs the hex to move to (--hex)")
    rule = RULE_OF[ability.timing]
    to = as_hex(to)
    board = d.ctx.board
    if not board.contains(to) or not board.passable(to):
        raise RuleViolation(rule, f"hex {name(to)} cannot be entered")
    taken = occupied(d) - {hero.pos}
    if to == hero.pos or to in taken:
        raise RuleViolation(rule, f"hex {name(to)} is occupied")
    route = board.path(hero.at, to, taken)
    if route is None:
        raise RuleViolation(rule, "no free route reaches that hex")
    if len(route) - 1 > reach:
        raise RuleViolation(rule, f"{ability.name} moves up to {reach} hexes; that hex is {len(route) - 1} away")
    return route


def _walk(d: Decision, hero_id: str, route: list[Hex], rule: str) -> None:
    """Free movement along ``route``; in a delve it stops for what entered
    hexes set off (MOVE-5) and goes on unless the adventurer fell."""
    start = 0
    for i in range(1, len(route)):
        stop = exploration.interrupts(d, route[i], route[i - 1])
        if not stop and i < len(route) - 1:
            continue
        left = d.state.hero(hero_id).free_move  # a Khajiit's own free move is kept
        d.emit(ev.HeroMovedFreely(hero=hero_id, path=tuple(route[start + 1 : i + 1]), left=left, rule=rule))
        if not stop:
            break
        start = i
        exploration.entered(d, hero_id, route[i], route[i - 1])
        if d.state.hero(hero_id).defeated:
            break
    flow.finish_if_fallen(d, hero_id)


def _reroll_choice(
    d: Decision, ability: ClassAbility, cmd: UseClassAbility
) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Up to the amount of roll positions, and with physical dice their typed faces."""
    dice = d.state.engage_waiting.dice
    positions = tuple(cmd.dice)
    check_positions(
        positions,
        len(dice),
        ability.effect.amount,
        rule=RULE_OF[ability.timing],
        too_many=f"{ability.name} rerolls up to {ability.effect.amount} dice, not {len(positions)}",
        name_them=f"name the roll positions to reroll with {ability.name} (--dice)",
        missing="there is no rolled die at position {n}",
    )
    if not d.state.options.physical_dice:
        if cmd.faces is not None:
            raise MalformedCommand("this battle rolls its own dice; faces can be typed only with physical dice")
        return positions, None
    if cmd.faces is None or len(cmd.faces) != len(positions):
        raise MalformedCommand(f"physical dice: type one face (1-6) for each of the {len(positions)} dice rerolled")
    for f, i in zip(cmd.faces, positions):
        sides = _sides(d, dice[i])
        if not 0 <= f < sides:
            raise MalformedCommand(f"the die at position {i + 1} has faces 1 to {sides}, not {f + 1}")
    return positions, tuple(cmd.faces)


def _sides(d: Decision, rolled: Rolled) -> int:
    from ..context import ENEMY_DIE, ENEMY_DIE_FACES

    return len(ENEMY_DIE_FACES) if rolled.die == ENEMY_DIE else len(d.ctx.die(rolled.die).faces)


def _reroll(d: Decision, hero_id: str, positions: tuple[int, ...], faces: tuple[int, ...] | None) -> None:
    """New faces for the chosen dice of the waiting roll, from the battle's
    RNG (or typed), each die by its own number of faces."""
    dice = list(d.state.engage_waiting.dice)
    if faces is None:
        counter = d.state.rng
        from domain.kernel import rng

        new = [rng.draw(d.state.seed, counter + n, _sides(d, dice[i])) for n, i in enumerate(positions)]
        typed = False
    else:
        counter, new, typed = d.state.rng, list(faces), True
    for i, f in zip(positions, new):
        dice[i] = Rolled(dice[i].uid, dice[i].die, f)
    d.emit(
        ev.ClassDiceRerolled(
            hero=hero_id, positions=positions, dice=tuple(dice), counter=counter, typed=typed, rule="CLASS-1"
        )
    )


# --- passive effects and Interrupts, called from the battle flow (hooks) -----------------


def _armed(d: Decision, trigger: Trigger) -> list[tuple[Hero, ClassAbility]]:
    """Armed Interrupts of ``trigger`` in party turn order, each owner's in
    the order armed (CLASS-4a default: the party's order)."""
    out = []
    pack = d.ctx.pack
    for hero_id in d.state.order:
        hero = d.state.hero(hero_id)
        if hero.defeated or not hero.class_armed:
            continue
        mine = {a.id: a for a in abilities(pack, hero)}
        out += [(hero, mine[i]) for i in hero.class_armed if i in mine and mine[i].trigger == trigger.value]
    return out


def _fire(d: Decision, hero_id: str, ability: ClassAbility, first: bool) -> bool:
    """Spend an armed Interrupt's tenacity (CLASS-1, CLASS-4); it does not
    fire while tenacity is short or out of the form it names, and stays armed."""
    hero = d.state.hero(hero_id)
    if hero.defeated or hero.tenacity < ability.cost or (ability.form is not None and ability.form is not hero.form):
        return False
    d.emit(
        ev.ClassAbilityUsed(
            hero=hero_id,
            ability=ability.id,
            spent=ability.cost,
            tenacity=hero.tenacity - ability.cost,
            mark="",
            rule="CLASS-4" if first else "CLASS-4a",
        )
    )
    return True


def _has_classes(d: Decision) -> bool:
    return any(h.class_id or h.ready for h in d.state.heroes)


def prevent(d: Decision, hero_id: str, amount: int, source: str) -> int:
    """Physical damage about to hit ``hero_id``: what class abilities
    prevent of it, Interrupts first (CLASS-4: its own ``damaged``, then
    adjacent allies' ``ally-damaged``, party order, CLASS-4a), then its
    Innate guard in form (CLASS-2a), its Enduring guards (CLASS-3; a block
    only against an enemy), its ward and block from abilities used."""
    if amount <= 0 or not _has_classes(d):
        return 0
    left = amount
    target = d.state.hero(hero_id)
    fired = 0
    for owner, ability in _armed(d, Trigger.DAMAGED) + _armed(d, Trigger.ALLY_DAMAGED):
        mine = owner.id == hero_id
        if ability.trigger == Trigger.DAMAGED.value and not mine:
            continue
        if ability.trigger == Trigger.ALLY_DAMAGED.value and (
            mine or owner.pos is None or target.pos is None or distance(owner.pos, target.pos) != 1
        ):
            continue
        if left <= 0 or not _fire(d, owner.id, ability, fired == 0):
            continue
        fired += 1
        if ability.effect.kind in GUARDS:
            left -= _prevented(d, owner.id, ability.id, hero_id, left, ability.effect.amount, "CLASS-4")
        else:  # bonus HP before the damage lands
            heal_hero(d, hero_id, ability.effect.amount, bonus=True)
    pack = d.ctx.pack
    hero = d.state.hero(hero_id)
    from_enemy = any(f.id == source for f in d.state.foes)
    for kind in (K.WARD, K.BLOCK):
        innate = _innate(pack, hero, kind)
        if innate is not None and left > 0:
            left -= _prevented(d, hero_id, innate.id, hero_id, left, innate.effect.amount, "CLASS-2a")
    for ability in _enduring(pack, hero, GUARDS):
        if left > 0 and (ability.effect.kind is K.WARD or from_enemy):
            left -= _prevented(d, hero_id, ability.id, hero_id, left, ability.effect.amount, "CLASS-3")
    if hero.class_ward and left > 0:
        left -= _prevented(d, hero_id, "ward", hero_id, left, hero.class_ward, "CLASS-1")
    if hero.class_block and left > 0:
        left -= _prevented(d, hero_id, "block", hero_id, left, hero.class_block, "CLASS-1")
        d.emit(ev.ClassGuardSet(hero=hero_id, ward=hero.class_ward, block=0, rule="CLASS-1"))
    return amount - left


def _prevented(d: Decision, owner: str, ability_id: str, target: str, left: int, amount: int, rule: str) -> int:
    p = min(left, amount)
    if p > 0:
        d.emit(ev.ClassDamagePrevented(hero=owner, ability=ability_id, target=target, amount=p, rule=rule))
    return p


def turn_started(d: Decision, hero_id: str) -> None:
    """As ``hero_id``'s turn starts: last turn's uses are forgotten and its
    ward ends (ClassTurnBegan); its armed ``turn-start`` Interrupts fire
    before anything else (CLASS-4); then its Enduring start-of-turn effects
    (CLASS-3)."""
    if not _has_classes(d):
        return
    hero = d.state.hero(hero_id)
    if hero.class_used or hero.class_ward or hero.class_engages:
        d.emit(ev.ClassTurnBegan(hero=hero_id, rule="CLASS-2"))
    fired = 0
    for owner, ability in _armed(d, Trigger.TURN_START):
        if owner.id == hero_id and _fire(d, hero_id, ability, fired == 0):
            fired += 1
            apply_to(d, hero_id, ability, hero_id)
    hero = d.state.hero(hero_id)
    for ability in _enduring(d.ctx.pack, hero, TURN_START_EFFECTS):
        _passive(d, hero_id, ability)


def _passive(d: Decision, hero_id: str, ability: ClassAbility) -> None:
    """An Innate or Enduring ability acting by itself, free (CLASS-2a,
    CLASS-3): said in a ClassAbilityUsed that spends nothing, then done."""
    hero = d.state.hero(hero_id)
    kind = ability.effect.kind
    idle = (
        (kind is K.CLEANSE and not statuses(hero))
        or (kind is K.HEAL and hero.hp >= hero.max_hp)
        or (kind is K.RECOVER and not any(t.kind is DieKind.SKILL for t in hero.track))
        or (kind is K.TENACITY and hero.tenacity >= MAX_TENACITY)
    )
    if idle:  # nothing to do: nothing said
        return
    d.emit(
        ev.ClassAbilityUsed(
            hero=hero_id, ability=ability.id, spent=0, tenacity=hero.tenacity, mark="", rule=RULE_OF[ability.timing]
        )
    )
    apply_to(d, hero_id, ability, hero_id)


def engaged(d: Decision, foe_id: str, targets: tuple[str, ...]) -> bool:
    """An enemy engages ``targets``: their armed ``engaged`` Interrupts act
    on it before its roll (CLASS-4), in party order (CLASS-4a). True when
    the enemy fell to them."""
    if not _has_classes(d):
        return False
    fired = 0
    for owner, ability in _armed(d, Trigger.ENGAGED):
        if owner.id not in targets or d.state.foe(foe_id).defeated:
            continue
        effect = ability.effect
        if effect.kind is K.STATUS and not _status_fits(d, foe_id, effect.status):
            continue
        if not _fire(d, owner.id, ability, fired == 0):
            continue
        fired += 1
        if effect.kind is K.STATUS:
            place_status(d, owner.id, foe_id, effect.placed)
        else:
            physical, true = (0, effect.amount) if effect.kind is K.TRUE_DAMAGE else (effect.amount, 0)
            hurt_foe(d, foe_id, physical, true, source=owner.id, rule="CLASS-4")
    return d.state.foe(foe_id).defeated


def _status_fits(d: Decision, foe_id: str, status: Status | None) -> bool:
    foe = d.state.foe(foe_id)
    return status is not None and not foe.quest and all(m.status is not status for m in foe.marks)


def enemy_defeated(d: Decision, hero_id: str, in_form: BattleForm, by_engage: bool) -> None:
    """An enemy ``hero_id`` dealt the last damage to fell, ``hero_id`` being
    in ``in_form`` then: its Innate tenacity in that form (CLASS-2a) and,
    when its own engage felled it on its own turn, its armed
    ``enemy-defeated`` Interrupts (CLASS-4)."""
    hero = d.state.hero(hero_id)
    if hero.defeated:
        return
    innate = _innate(d.ctx.pack, hero, K.TENACITY, in_form)
    if innate is not None:
        _passive(d, hero_id, innate)
    t = d.state.turn
    if not by_engage or t is None or t.hero != hero_id:
        return
    fired = 0
    for owner, ability in _armed(d, Trigger.ENEMY_DEFEATED):
        if owner.id == hero_id and _fire(d, hero_id, ability, fired == 0):
            fired += 1
            apply_to(d, hero_id, ability, hero_id)


def free_engage(d: Decision, hero_id: str) -> bool:
    """An Engage from the second on: whether it is an extra Engage action
    of a class ability, free of the ENGAGE-4 fatigue (spending it)."""
    hero = d.state.hero(hero_id)
    if not hero.class_engages:
        return False
    d.emit(ev.ClassEngagesGranted(hero=hero_id, engages=hero.class_engages - 1, rule="CLASS-1"))
    return True


# --- legal commands --------------------------------------------------------------------


def legal(d: Decision, check: Callable[[BattleCommand], bool]) -> list[BattleCommand]:
    """One UseClassAbility per ability the current adventurer may use now,
    with a default choice (not every combination): the first enemy in
    reach, the adjacent adventurer (or yourself) who lacks the most HP,
    the nearest free hex, the first dice of the roll; changing form when
    the ability needs it. ``check(cmd)`` says whether the rules accept it."""
    s = d.state
    if s.turn is None or s.phase not in (Phase.ADVENTURER_TURN, Phase.ENGAGE_RESOLVE):
        return []
    hero = s.hero(s.turn.hero)
    if hero.defeated or not (hero.class_id or hero.ready):
        return []
    out: list[BattleCommand] = []
    for ability in abilities(d.ctx.pack, hero):
        cmd = _candidate(d, hero, ability)
        if cmd is not None and check(cmd):
            out.append(cmd)
    return out


def _candidate(d: Decision, hero: Hero, ability: ClassAbility) -> UseClassAbility | None:
    kind = ability.effect.kind
    if ability.timing in (T.INNATE, T.ENDURING) and kind not in CHOSEN:
        return None
    change = ability.form is not None and ability.form is not hero.form and ability.timing is not T.INNATE
    base = UseClassAbility(ability=ability.id, change_form=change)
    if ability.timing is T.INTERRUPT:
        return base
    resolving = d.state.phase is Phase.ENGAGE_RESOLVE
    if (kind is K.REROLL) != resolving:
        return None
    if kind in (K.DAMAGE, K.TRUE_DAMAGE, K.HURL_BLOCK) or (
        kind is K.STATUS and ability.effect.status is not Status.STEALTH
    ):
        for foe in d.state.foes:
            if not foe.defeated and foe.pos is not None and _reaches(d, hero, ability, foe.id):
                return UseClassAbility(ability=ability.id, target=foe.id, change_form=change)
        return None
    if kind in (K.HEAL, K.BONUS_HP, K.RECOVER):
        near = [
            h
            for h in d.state.heroes
            if h.id == hero.id
            or (not h.defeated and h.pos is not None and hero.pos is not None and distance(h.pos, hero.pos) == 1)
        ]
        best = max(near, key=lambda h: (h.max_hp - h.hp, h.id == hero.id))
        return UseClassAbility(ability=ability.id, target="" if best.id == hero.id else best.id, change_form=change)
    if kind is K.MOVE:
        if hero.pos is None:
            return None
        taken = occupied(d) - {hero.pos}
        reach = sorted(
            (h for h in d.ctx.board.reachable(hero.pos, taken, ability.effect.amount) if h != hero.pos),
            key=lambda h: (h[1], h[0]),
        )
        return UseClassAbility(ability=ability.id, hex=reach[0], change_form=change) if reach else None
    if kind is K.REROLL:
        n = min(ability.effect.amount, len(d.state.engage_waiting.dice))
        faces = (0,) * n if d.state.options.physical_dice else None
        return UseClassAbility(ability=ability.id, dice=tuple(range(n)), faces=faces, change_form=change)
    return base


def _reaches(d: Decision, hero: Hero, ability: ClassAbility, foe_id: str) -> bool:
    try:
        _enemy(d, hero, ability, foe_id)
    except (RuleViolation, MalformedCommand):
        return False
    return True


# --- hooks: where the core battle rules call the class abilities (hooks.py) ---------------

hooks.PREVENT_DAMAGE.register(hooks.Layer.CLASS, prevent)
hooks.TURN_START.register(hooks.Layer.CLASS, turn_started)
hooks.ENEMY_ENGAGED.register(hooks.Layer.CLASS, engaged)
hooks.FREE_ENGAGE.register(hooks.Layer.CLASS, free_engage)
