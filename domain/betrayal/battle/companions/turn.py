"""A companion's turn (ROUND-6, ROUND-6a, EXPLORATION-3d; facts §2): Start
of Turn (late entry, mandatory skills) -> an optional move of up to 2
hexes, freely chosen -> an optional engage: its Combat value in enemy dice
rolled once, the total applied to each target -> End of Turn. The party
picks who acts next by naming a companion; after the last one the
enemies act (ENEMY-1)."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, as_hex, distance, name

from domain.betrayal.packs.catalog_companions import CompanionSkill
from domain.betrayal.vocab import Status

from .. import events as bev
from .. import flow
from ..context import ENEMY_DIE, ENEMY_DIE_FACES
from ..damage import hurt_foe, hurt_hero
from ..decision import Decision
from ..enemies.targeting import can_target
from ..enemies.turn import turn_order
from ..reach import occupied
from ..state import PHASE_NAMES, Foe, Hero, Phase, Rolled
from . import events as ev
from .commands import CompanionEngage, CompanionMove, EndCompanionTurn
from .damage import heal_ally, hurt_ally
from .setup import place
from .state import Ally
from .status import lose
from .step import in_party


def acting(d: Decision, named: str | None) -> Ally:
    """The companion a command is for, its turn started if none is under
    way (ROUND-6: in the order the party wishes). Refused outside the
    Companion Turns step, for a companion that acted or left, and while
    another one's turn is under way."""
    s = d.state
    if s.phase is not Phase.COMPANION_TURN:
        raise RuleViolation(
            "ROUND-6",
            f"companions act in the Companion Turns step, after every adventurer's turn (now: {PHASE_NAMES[s.phase]})",
        )
    if named is None:
        if s.ally_turn is None:
            raise MalformedCommand("name the companion who acts next (`rk legal` lists them)")
        return s.companion(s.ally_turn.companion)
    a = _find(d, named)
    if s.ally_turn is not None:
        if s.ally_turn.companion != a.id:
            current = s.companion(s.ally_turn.companion).name
            raise RuleViolation("ROUND-6", f"{current}'s turn is under way: end it before {a.name} acts")
        return a
    if a.defeated:
        raise RuleViolation("ROUND-6", f"{a.name} was defeated and has left the party")
    if a.withdrawn:
        raise RuleViolation("ROUND-6", f"{a.name} has left the map with the fallen party")
    if a.acted:
        raise RuleViolation("ROUND-6", f"{a.name} has already taken its turn this round")
    _start(d, a)
    return d.state.companion(a.id)


def _able(a: Ally) -> Hex:
    """Where a companion that may act stands; refuses an action of one that
    fell as its turn started (Bane) or still waits beside a full Entrance
    (ROUND-6a)."""
    if a.defeated:
        raise RuleViolation("STATUS-1", f"{a.name} falls to Bane as its turn starts: end its turn (rk companion-end)")
    if a.pos is None:
        raise RuleViolation("ROUND-6a", f"{a.name} waits beside the Entrance tile: no Entrance hex is empty")
    return a.pos


def _find(d: Decision, named: str) -> Ally:
    word = named.strip().lower()
    for a in d.state.companions:
        if word in (a.id, a.name.lower()):
            return a
    raise MalformedCommand(f"no companion {named!r} in this battle")


def _start(d: Decision, a: Ally) -> None:
    """Start of Turn: a companion still beside the Entrance enters on an
    empty Entrance hex and then takes its turn (ROUND-6a; facts default);
    a regenerating one heals 1 (its skills are mandatory)."""
    s = d.state
    units: tuple[Hero | Foe | Ally, ...] = (*s.heroes, *s.foes, *s.companions)
    positions = tuple((u.id, u.pos) for u in units if u.pos is not None)
    d.emit(ev.CompanionTurnStarted(companion=a.id, start_positions=positions))
    if a.pos is None:
        place(d, a.id, "ROUND-6a", "ROUND-6a")
    if Status.BANE in a.statuses:  # 1 true damage at the start of each of its turns (facts: STATUS-1)
        hurt_ally(d, a.id, 1, true_damage=True, source="bane", rule="STATUS-1")
    if CompanionSkill.REGENERATE in skills(d.state.companion(a.id)):
        heal_ally(d, a.id, 1)


def move(d: Decision, cmd: CompanionMove) -> None:
    """The optional move: up to its move (2) in hexes by a free route, once,
    before it engages (facts §2; MOVE-1: no unit moves through another).
    A companion never explores, whatever hex it ends on (EXPLORATION-3d)."""
    a = acting(d, cmd.companion)
    at = _able(a)
    if d.state.ally_acting.moved:
        raise RuleViolation("ROUND-6", f"{a.name} has already moved this turn")
    to = as_hex(cmd.to)
    taken = occupied(d) - {at}
    reach = d.ctx.board.reachable(at, taken, a.move)
    path = d.ctx.board.path(at, to, taken) if to != at and to in reach else None
    if path is None:
        raise RuleViolation("ROUND-6", f"{a.name} cannot reach {name(to)}: up to {a.move} hexes by a free route")
    d.emit(ev.CompanionMoved(companion=a.id, path=tuple(path[1:])))


def engage(d: Decision, cmd: CompanionEngage) -> None:
    """The optional engage (facts §2): targetable enemies in sight and range,
    up to its target value, priority icon ignored; its Combat value in enemy
    dice rolled once and the total (its skills applied) dealt to each as
    one damage instance; then its turn ends."""
    a = acting(d, cmd.companion)
    at = _able(a)
    if Status.DAZE in a.statuses and d.state.ally_acting.moved:
        raise RuleViolation("STATUS-1", f"{a.name} is dazed: it cannot move and roll dice in the same turn")
    targets = tuple(cmd.targets)
    if not targets:
        raise MalformedCommand("name the enemies it engages, e.g. --targets e1")
    if len(set(targets)) != len(targets):
        raise RuleViolation("ROUND-6", "each unit is targeted once per engage")
    if len(targets) > a.targets:
        raise RuleViolation("ROUND-6", f"{a.name} may target up to {a.targets} unit(s) (its target value)")
    for t in targets:
        if Status.BLIND in a.statuses:
            check_blind_target(d, a, at, t, len(targets))
        else:
            check_target(d, a, at, t)
    physical = d.state.options.physical_dice
    typed = cmd.faces
    if physical and (typed is None or len(typed) != a.combat or any(not 0 <= f < len(ENEMY_DIE_FACES) for f in typed)):
        raise MalformedCommand(f"physical dice: type {a.combat} faces, each 1 to {len(ENEMY_DIE_FACES)}")
    if not physical and typed is not None:
        raise MalformedCommand("faces are typed only in a battle played with physical dice")
    d.emit(ev.CompanionEngaged(companion=a.id, targets=targets))
    faces: list[int] = []
    if a.combat:
        if typed is not None:  # physical dice (checked above)
            faces = list(typed)
            d.emit(
                bev.DiceRolled(
                    unit=a.id, counter=d.state.rng, typed=True, dice=tuple(Rolled(0, ENEMY_DIE, f) for f in faces)
                )
            )
        else:
            faces, counter = d.roll(a.combat)
            d.emit(bev.DiceRolled(unit=a.id, counter=counter, dice=tuple(Rolled(0, ENEMY_DIE, f) for f in faces)))
    total = sum(ENEMY_DIE_FACES[f] for f in faces)
    if Status.MAIM in a.statuses:  # damage rolled on its dice is halved, rounded down (facts: STATUS-1)
        total //= 2
    own = skills(a)
    if CompanionSkill.BRUTAL in own and total > 0:
        total += 1
    true_strike = CompanionSkill.TRUE_STRIKE in own
    dealt = 0
    for t in targets:
        dealt += _hit(d, a, t, total, true_strike)
    if dealt:  # Stealth is removed once it deals damage (facts: STATUS-1)
        lose(d, a.id, Status.STEALTH, "STATUS-1")
    finish(d, a.id)


def skills(a: Ally) -> tuple[str, ...]:
    """Its skills as they act now: none under Fear (facts: STATUS-1, its
    non-Combat skills do nothing)."""
    return () if Status.FEAR in a.statuses else a.skills


def _hit(d: Decision, a: Ally, target_id: str, total: int, true_strike: bool) -> int:
    """One damage instance of the engage to its target, whoever it is (a
    Blind companion may hit an ally); the HP it took."""
    if any(h.id == target_id for h in d.state.heroes):
        return hurt_hero(d, target_id, total, true_damage=true_strike, source=a.id, rule="ROUND-6")
    if any(x.id == target_id for x in d.state.companions):
        return hurt_ally(d, target_id, total, true_damage=true_strike, source=a.id, rule="ROUND-6")
    return hurt_foe(d, target_id, 0 if true_strike else total, total if true_strike else 0, source=a.id, rule="ROUND-6")


def check_blind_target(d: Decision, a: Ally, at: Hex, target_id: str, count: int) -> None:
    """Blind: every unit is opposing, and it may target only the strongest
    adjacent unit (facts: STATUS-1). ``at``: where the companion stands."""
    s = d.state
    units: tuple[Hero | Foe | Ally, ...] = (*s.heroes, *s.foes, *s.companions)
    near = [u for u in units if u.id != a.id and not u.defeated and u.pos is not None and distance(u.pos, at) == 1]
    best = max((u.hp for u in near), default=None)
    if count != 1 or not any(u.id == target_id and u.hp == best for u in near):
        raise RuleViolation("STATUS-1", f"{a.name} is blind: it may target only the strongest adjacent unit")


def check_target(d: Decision, a: Ally, at: Hex, target_id: str) -> None:
    """An enemy on the map, in sight and within its range (facts §2);
    Stealth keeps it out unless the companion stood adjacent to it when
    its turn began (facts: STATUS-1). ``at``: where the companion stands."""
    foe = next((f for f in d.state.foes if f.id == target_id), None)
    if foe is None:
        raise MalformedCommand(f"no enemy {target_id!r} in this battle")
    if foe.defeated or foe.pos is None:
        raise RuleViolation("ROUND-6", f"{target_id} is no longer on the map")
    if not can_target(d.ctx.board, at, foe.pos, a.range):
        raise RuleViolation("ROUND-6", f"{target_id} is not in {a.name}'s sight and range {a.range}")
    if any(m.status is Status.STEALTH for m in foe.marks):
        start = dict(d.state.ally_acting.start_positions).get(a.id, at)
        if distance(start, foe.pos) != 1:
            raise RuleViolation(
                "STATUS-1", f"{target_id} is in Stealth: only units adjacent to it when the turn began may target it"
            )


def end(d: Decision, cmd: EndCompanionTurn) -> None:
    """End the companion's turn (naming one that has not acted: it takes
    its turn and does nothing)."""
    a = acting(d, cmd.companion)
    finish(d, a.id)


def finish(d: Decision, companion_id: str) -> None:
    """End of Turn (Daze comes off: facts STATUS-1); after the last
    companion, the enemies (ENEMY-1)."""
    lose(d, companion_id, Status.DAZE, "STATUS-1")
    d.emit(ev.CompanionTurnEnded(companion=companion_id))
    if flow.all_heroes_down(d):  # a Blind companion felled the last adventurer: the round's turns are over
        flow.end_round(d)
        return
    if any(in_party(a) and not a.acted for a in d.state.companions):
        return
    flow.run_enemies(d, turn_order(d))


def legal(d: Decision, is_legal) -> list:
    """What the party may do in the Companion Turns step: for each companion
    that may act next (or the one acting), its moves, an engage of each
    target it may hit, and ending its turn."""
    s = d.state
    names = (
        [s.ally_turn.companion]
        if s.ally_turn is not None
        else [a.id for a in s.companions if in_party(a) and not a.acted]
    )
    out: list = []
    for cid in names:
        probe = Decision(s, d.ctx)
        a = acting(probe, cid)  # as its turn starts: a late entry is on the map by then
        if a.pos is not None:
            if not probe.state.ally_acting.moved:
                taken = occupied(probe) - {a.pos}
                reach = probe.ctx.board.reachable(a.pos, taken, a.move)
                out += [
                    CompanionMove(companion=cid, to=h) for h in sorted(reach, key=lambda h: (h[1], h[0])) if h != a.pos
                ]
            faces = (0,) * a.combat if s.options.physical_dice else None
            units: tuple[Foe | Hero | Ally, ...] = (
                *probe.state.foes,
                *probe.state.heroes,
                *probe.state.companions,
            )  # allies: when Blind
            for u in units:
                cmd = CompanionEngage(companion=cid, targets=(u.id,), faces=faces)
                if u.id != cid and not u.defeated and u.pos is not None and is_legal(cmd):
                    out.append(cmd)
        out.append(EndCompanionTurn(companion=cid))
    return out
