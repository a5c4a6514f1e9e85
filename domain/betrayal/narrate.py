"""One readable line per event, citing the rule an event carries.

``describe(event, state)`` is given the battle as it stood just before the
event, so names can be looked up and "before" values shown. A command's
header event narrates as the `rk` command that gave it.
"""

from __future__ import annotations

from functools import lru_cache, singledispatch

from . import events as ev
from .catalog import Pack
from .citations import cited_rule
from .state import BattleState, DieKind
from domain.kernel.hexes import label

from .names import die_name, rolled_face, unit_name
from .spell import spell


def describe(event: ev.BattleEvent, state: BattleState | None, pack: Pack | None = None) -> str:
    """A short line saying what ``event`` did, e.g.
    ``ENGAGE-4: Ysolda gains 1 light fatigue``. ``pack`` names dice and
    enemies; the starter pack by default."""
    return _describe(event, state, pack or _starter())


@lru_cache(maxsize=1)
def _starter() -> Pack:
    from domain.betrayal.packs import starter_pack

    return starter_pack()


@singledispatch
def _describe(event, state, pack) -> str:
    return type(event).__name__


def _cite(rule: str, text: str) -> str:
    return f"{rule}: {text}" if rule else text


def _who(state: BattleState | None, pack: Pack, unit: str) -> str:
    return unit_name(state, pack, unit) if state is not None else unit


def _path(path) -> str:
    return " → ".join(label(h) for h in path)


# --- the command log -------------------------------------------------------------


@_describe.register
def _(e: ev.CommandIssued, state, pack) -> str:
    text = f"rk {spell(e.command)}"
    return text + (f"  (redo of {e.redo_of})" if e.redo_of else "")


@_describe.register
def _(e: ev.CommandUndone, state, pack) -> str:
    forced = " with --force, past revealed dice (UNDO-2)" if e.forced else ""
    return f"undo: {e.command_id} is reverted{forced}; back to round {e.restored.round}"


# --- setup -----------------------------------------------------------------------


@_describe.register
def _(e: ev.BattleStarted, state, pack) -> str:
    names = ", ".join(h.name for h in e.party)
    return (
        f"Clash {e.battle_id} on {e.setup}: objective {e.objective.value}, {e.difficulty.value},"
        f" XP {e.xp} → EP {e.ep} (EP-2), seed {e.seed}; party {names}"
    )


@_describe.register
def _(e: ev.CachePlaced, state, pack) -> str:
    return _cite(cited_rule(e), f"a {e.kind.value} cache on {label(e.hex)}")


@_describe.register
def _(e: ev.EnemyPlaced, state, pack) -> str:
    enemy = pack.enemies.get(e.enemy)
    name = enemy.name if enemy else e.enemy
    kind = "quest unit" if e.quest else f"level {e.level}, {e.ep_left} EP left"
    return _cite(cited_rule(e), f"{e.foe} {name} ({e.hp} HP, {kind}) placed on {label(e.hex)}")


@_describe.register
def _(e: ev.EnemyPoolClosed, state, pack) -> str:
    return f"the enemy pool closes, {e.discarded} EP discarded ({e.reason})"


@_describe.register
def _(e: ev.AdventurerPlaced, state, pack) -> str:
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} placed on {label(e.hex)} in {e.form.value} form")


# --- rounds and turns ------------------------------------------------------------


@_describe.register
def _(e: ev.RoundStarted, state, pack) -> str:
    return f"Round {e.round} begins" + (" — FATIGUE-ROUND-1: the Fatigue Round" if e.fatigue_round else "")


@_describe.register
def _(e: ev.TurnStarted, state, pack) -> str:
    return f"{_who(state, pack, e.hero)}'s turn"


@_describe.register
def _(e: ev.DiceRecovered, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    got = [die_name(pack, hero, u) for u in e.recovered] if hero else [f"#{u}" for u in e.recovered]
    parts = []
    if got:
        parts.append("recovers " + ", ".join(got))
    if e.discarded:
        parts.append("discards " + ", ".join(_kind(t.kind, t.status) for t in e.discarded))
    if e.replaced_overfatigue:
        parts.append(f"moves {e.replaced_overfatigue} overfatigue to the end (RECOVER-4)")
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} " + ("; ".join(parts) or "has nothing to recover"))


@_describe.register
def _(e: ev.TurnEnded, state, pack) -> str:
    return f"{_who(state, pack, e.hero)} ends the turn"


@_describe.register
def _(e: ev.EnemyTurnStarted, state, pack) -> str:
    return f"{_who(state, pack, e.foe)}'s turn"


@_describe.register
def _(e: ev.EnemyTurnEnded, state, pack) -> str:
    return f"{e.foe} ends its turn"


@_describe.register
def _(e: ev.RoundEnded, state, pack) -> str:
    return f"Round {e.round} ends"


@_describe.register
def _(e: ev.PartyRetreated, state, pack) -> str:
    return _cite(cited_rule(e), f"the party retreats at the end of round {e.round}")


@_describe.register
def _(e: ev.BattleEnded, state, pack) -> str:
    return f"The battle ends in {e.outcome.value.upper()} — {e.reason}"


@_describe.register
def _(e: ev.HeroCleanedUp, state, pack) -> str:
    kept = f"{len(e.track)} dice stay on the track (CLEANUP-4c)" if e.track else "an empty track"
    back = f", recovers {len(e.drained_recovered)} drained (CLEANUP-4b)" if e.drained_recovered else ""
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} leaves with {e.hp} HP and {kept}{back}")


# --- actions ---------------------------------------------------------------------


@_describe.register
def _(e: ev.HeroMoved, state, pack) -> str:
    start = ""
    if state is not None and state.hero(e.hero).pos is not None:
        start = label(state.hero(e.hero).pos) + " → "
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} moves {start}{_path(e.path)}")


@_describe.register
def _(e: ev.EngageDeclared, state, pack) -> str:
    target = f" at {_who(state, pack, e.target)}" if e.target else " without a target"
    return f"{_who(state, pack, e.hero)} engages in {e.form.value} form{target} (engage {e.number} this turn)"


@_describe.register
def _(e: ev.FatigueGained, state, pack) -> str:
    text = f"{_who(state, pack, e.hero)} gains {e.count} {_kind(e.kind)}"
    return _cite(cited_rule(e), text + _newly_drained(state, pack, e.hero, e.drained))


@_describe.register
def _(e: ev.DiceRolled, state, pack) -> str:
    hero = None
    if state is not None:
        hero = next((h for h in state.heroes if h.id == e.unit), None)
    shown = []
    for r in e.dice:
        name = f"{die_name(pack, hero, r.uid)} " if hero else ""
        shown.append(f"{name}{rolled_face(pack, r.die, r.face)}")
    how = "'s dice as typed" if e.typed else " rolls"
    return f"{_who(state, pack, e.unit)}{how}: " + ", ".join(shown)


@_describe.register
def _(e: ev.TenacityGained, state, pack) -> str:
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} gains {e.amount} Tenacity (now {e.tenacity})")


@_describe.register
def _(e: ev.DieExhausted, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    name = die_name(pack, hero, e.uid) if hero else f"#{e.uid}"
    face = f" showing {e.face + 1}" if e.face >= 0 else ""
    text = f"{_who(state, pack, e.hero)}'s {name}{face} goes to the cooldown track"
    return _cite(cited_rule(e), text + _newly_drained(state, pack, e.hero, e.drained))


@_describe.register
def _(e: ev.DieDrained, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    name = die_name(pack, hero, e.uid) if hero else f"#{e.uid}"
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)}'s {name} is drained until the battle ends")


@_describe.register
def _(e: ev.ActiveChanged, state, pack) -> str:
    hero = state.hero(e.hero) if state else None
    slots = []
    for a in e.active:
        name = die_name(pack, hero, a.uid) if hero and a.kind is DieKind.SKILL else _kind(a.kind)
        slots.append(f"{name} ({a.amount})")
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)}'s active slots: " + (", ".join(slots) or "empty"))


@_describe.register
def _(e: ev.StatusPlaced, state, pack) -> str:
    owner = _who(state, pack, e.mark.owner)
    return _cite(cited_rule(e), f"{owner} puts {e.mark.status.value} on {_who(state, pack, e.foe)}")


@_describe.register
def _(e: ev.StatusLifted, state, pack) -> str:
    return _cite(cited_rule(e), f"{e.status.value} comes off {_who(state, pack, e.foe)}")


@_describe.register
def _(e: ev.HeroStatusGained, state, pack) -> str:
    again = " again (refreshed)" if e.refreshed else ""
    return f"{_who(state, pack, e.hero)} gains {e.status.value}{again}" + _newly_drained(state, pack, e.hero, e.drained)


@_describe.register
def _(e: ev.HeroStatusLost, state, pack) -> str:
    return _cite(cited_rule(e), f"{_who(state, pack, e.hero)} loses {e.status.value}")


@_describe.register
def _(e: ev.DamageDealt, state, pack) -> str:
    taken = e.to_hp + e.to_bonus
    kind = "true damage" if e.true_damage else "damage"
    notes = []
    if e.prevented:
        notes.append(f"{e.prevented} prevented")
    if e.to_bonus:
        notes.append(f"{e.to_bonus} from bonus HP")
    note = f" ({e.amount} dealt, " + ", ".join(notes) + ")" if notes else ""
    source = _who(state, pack, e.source)
    return _cite(cited_rule(e), f"{_who(state, pack, e.target)} takes {taken} {kind} from {source}{note}, {e.hp} HP left")


@_describe.register
def _(e: ev.Healed, state, pack) -> str:
    bonus = f" (+{e.bonus_hp} bonus)" if e.bonus_hp else ""
    return f"{_who(state, pack, e.unit)} heals {e.amount}: {e.hp} HP{bonus}"


@_describe.register
def _(e: ev.UnitDefeated, state, pack) -> str:
    return f"{_who(state, pack, e.unit)} is defeated"


@_describe.register
def _(e: ev.EngageResolved, state, pack) -> str:
    return f"{_who(state, pack, e.hero)}'s engage is resolved"


@_describe.register
def _(e: ev.EnemyMoved, state, pack) -> str:
    start = ""
    if state is not None and state.foe(e.foe).pos is not None:
        start = label(state.foe(e.foe).pos) + " → "
    return _cite(cited_rule(e), f"{_who(state, pack, e.foe)} moves {start}{_path(e.path)}")


@_describe.register
def _(e: ev.EnemyEngaged, state, pack) -> str:
    targets = ", ".join(_who(state, pack, t) for t in e.targets) or "nobody"
    return _cite(cited_rule(e), f"{_who(state, pack, e.foe)} engages {targets}")


@_describe.register
def _(e: ev.EnemyRollAwaited, state, pack) -> str:
    faces = ",".join("F" for _ in range(e.dice))
    dice = "die" if e.dice == 1 else "dice"
    return _cite(cited_rule(e), f"roll {e.foe}'s {e.dice} {dice} and type the faces: rk roll-enemy {faces}")


# --- helpers ---------------------------------------------------------------------


def _kind(kind: DieKind, status=None) -> str:
    if kind is DieKind.STATUS and status is not None:
        return f"{status.value} status die"
    return kind.value.replace("-", " ")


def _newly_drained(state, pack, hero_id: str, drained: tuple[int, ...]) -> str:
    """A full track drains dice (TRACK-9); say which, when it happens."""
    if state is None:
        return ""
    hero = state.hero(hero_id)
    new = [u for u in drained if u not in hero.drained]
    if not new:
        return ""
    return " — TRACK-9: the track overflows, draining " + ", ".join(die_name(pack, hero, u) for u in new)
