"""A Betrayal battle as a table sees it on a screen (``rk status``): which
battle and where its round stands, the map, a delve's progress, the
adventurers and enemies, the dice waiting to be resolved; the few lines
after each command (``compact``); and what a listing of legal commands
and ``rk status --json`` add. Each view is a function of a ``Seen``
(``domain.kernel.surface``) returning document blocks; every view reads
the rules context as the game stood (a delve's map as it was then)."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface.declared import Seen
from domain.kernel.surface.document import Block, Lines, Piece, Words

from domain.betrayal.battle import commands as c
from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.heroes import statuses
from domain.betrayal.battle.names import marks, unit_name, where
from domain.betrayal.battle.state import MOVES_PER_TURN, BattleState, Phase
from domain.betrayal.battle.track import TRACK_LIMIT
from domain.betrayal.packs.catalog import Pack

from .view_delve import details, extra as delve_extra, placing, progress
from .view_map import board
from .view_tables import foes_table, free_dice, heroes_table, pending

TYPED = "(F: type the face each die shows, 1 to 6)"


def status(seen: Seen) -> tuple[Block, ...]:
    """The full view of `rk status`: the header, the map, a delve's
    details, the adventurers, the enemies and the dice waiting."""
    state: BattleState = seen.state
    ctx: RulesContext = seen.context()
    blocks: list[Block] = [header(state, ctx, seen.name), Lines(("",)), board(state, ctx)]
    if ctx.delve is not None:
        blocks += details(state, ctx)
    blocks.append(heroes_table(state, ctx))
    if state.companions:  # ROUND-6
        blocks.append(Lines((_companion_line(state),)))
    blocks += [foes_table(state, ctx), *pending(state, ctx)]
    return tuple(blocks)


def compact(seen: Seen) -> tuple[Block, ...]:
    """The short view printed after each command: the map, the round, and
    one line per adventurer (free dice included, so the next --dice is at
    hand) and for the enemies standing."""
    state: BattleState = seen.state
    ctx: RulesContext = seen.context()
    pack = ctx.pack
    blocks: list[Block] = [board(state, ctx), Lines((turn_line(state, pack),))]
    if ctx.delve is not None:
        blocks.append(progress(state, ctx))
        waiting = placing(state, ctx)
        if waiting is not None:
            blocks.append(waiting)
    blocks.append(Lines(tuple(_hero_line(state, ctx, hero) for hero in state.heroes)))
    if state.companions:
        blocks.append(Lines((_companion_line(state),)))
    foes = [f for f in state.foes if not f.defeated]
    if foes:
        line: list[Piece] = [("  ", "")]
        for foe in foes:
            enemy = pack.enemies.get(foe.enemy)
            line += [
                (foe.id, "foe"),
                (f" {enemy.name if enemy else foe.enemy} {foe.hp}/{foe.max_hp} {where(foe.pos)}", ""),
            ]
            if foe.marks:
                line.append((" (" + ", ".join(mk.status.value for mk in foe.marks) + ")", "warn"))
            line.append(("  ", ""))  # two spaces part the enemies: each stays on one line
        blocks.append(Lines((tuple(line),)))
    blocks += pending(state, ctx)
    return tuple(blocks)


def _companion_line(state: BattleState) -> Words:
    """The companions, each with its mark, HP, hex (or "waiting") and
    controller (ROUND-6)."""
    m = marks(state)
    line: list[Piece] = [("  ", "")]
    for a in state.companions:
        if a.defeated or a.withdrawn:
            line += [(f"{a.name} gone", "bad"), ("  ", "")]
            continue
        at = where(a.pos) if a.pos is not None else "waiting beside the Entrance"
        done = ", acted" if a.acted and state.phase is Phase.COMPANION_TURN else ""
        line += [
            (f"{m[a.id]} {a.name}", "ally"),
            (f" {a.hp}/{a.max_hp} {at} ({state.hero(a.controller).name}'s{done})", ""),
            ("  ", ""),
        ]
    return tuple(line)


def _hero_line(state: BattleState, ctx: RulesContext, hero: Any) -> Words:
    line: list[Piece] = [("  ", ""), (f"{marks(state)[hero.id]} {hero.name}", "ally")]
    if hero.defeated:
        return (*line, (" defeated", "bad"))
    said = (
        f" HP {hero.hp}/{hero.max_hp}"
        + (f"+{hero.bonus_hp}" if hero.bonus_hp else "")
        + f" · Ten {hero.tenacity} · {hero.form.value}"
        + " · free "
        + (",".join(str(u) for u in free_dice(state, ctx, hero)) or "none")
        + f" · track {len(hero.track)}/{TRACK_LIMIT}"
        + (f" · active {len(hero.active)}" if hero.active else "")
        + (" · drained " + ",".join(str(u) for u in hero.drained) if hero.drained else "")
    )
    line.append((said, ""))
    st = statuses(hero)
    if st:
        line.append((" · " + ", ".join(sorted(s.value for s in st)), "warn"))
    return tuple(line)


def header(state: BattleState, ctx: RulesContext, called: str | None = None) -> Lines:
    """Two lines: which battle (``called``: its name as the store calls
    it; default its id), and where in the round it stands."""
    pack = ctx.pack
    setup = pack.setups.get(state.setup) or pack.dungeons.get(state.setup) or pack.delves.get(state.setup)
    if ctx.delve is not None:
        kind, ep = "Delve", f"EP {state.xp * len(state.heroes)} per tile (DELVE-4)"
    else:
        kind, ep = ("Dungeon" if state.setup in pack.dungeons else "Battle"), f"EP {state.ep}"
    first = (
        f"{kind} {called or state.battle_id} · {setup.name if setup else state.setup}"
        f" ({state.objective.value}) · {state.difficulty.value} · XP {state.xp}, {ep} · seed {state.seed}"
        + (" · physical dice" if state.options.physical_dice else "")
    )
    return Lines((((first, "strong"),), turn_line(state, pack)))


def turn_line(state: BattleState, pack: Pack) -> Words:
    """The round (and Fatigue Round), whose turn, and what the phase waits for."""
    rnd = f"Round {state.round}" + (" (Fatigue Round)" if state.fatigue_round else "")
    if state.phase is Phase.ENDED:
        outcome = state.outcome.value.upper() if state.outcome else "over"
        return (
            (f"Battle over in round {state.round}: ", ""),
            (outcome, "good" if outcome == "SUCCESS" else "bad"),
            (f" — {state.ended_reason}", ""),
        )
    if state.phase is Phase.END_OF_ROUND:
        return f"{rnd} is over: go on (rk next-round) or retreat (rk retreat)"
    if state.phase is Phase.ENEMY_ROLL and state.enemy_roll:
        roll = state.enemy_roll
        return (
            f"{rnd} · {unit_name(state, pack, roll.foe)}'s turn · type the faces of its"
            f" {roll.dice} {'die' if roll.dice == 1 else 'dice'}: rk roll-enemy "
            + ",".join("F" for _ in range(roll.dice))
        )
    if state.round == 0:
        return "Setting up (CLASH-5 to CLASH-10): the round counter is not yet at 1"
    if state.phase is Phase.COMPANION_TURN:  # ROUND-6
        if state.ally_turn is not None:
            who = unit_name(state, pack, state.ally_turn.companion)
            return (
                (f"{rnd} · ", ""),
                (f"{who}'s turn", "ally"),
                (" (rk companion-move, companion-engage, companion-end)", ""),
            )
        return f"{rnd} · companions' turns: name the one who acts next (rk legal)"
    if state.turn is None:
        return f"{rnd} · enemy turns" if state.enemy_queue else f"{rnd} · {state.phase.value}"
    who = unit_name(state, pack, state.turn.hero)
    if state.phase is Phase.ENGAGE_RESOLVE:
        doing = " · dice rolled, waiting to be resolved (rk resolve)"
    else:
        doing = f" · moves {state.turn.moves}/{MOVES_PER_TURN} · engages {state.turn.engages}"
    return ((f"{rnd} · ", ""), (f"{who}'s turn", "ally"), (doing, ""))


def legal_note(state: BattleState, commands: list[Any]) -> str:
    """With physical dice, how the faces of a listed engage or enemy roll are typed."""
    if state.options.physical_dice and any(isinstance(cmd, (c.Engage, c.RollEnemyDice)) for cmd in commands):
        return TYPED
    return ""


def extra(seen: Seen) -> dict[str, Any]:
    """What `rk status --json` adds: a delve's Delve as it stood, the hexes
    explorable then and the legal placements of a waiting tile."""
    return delve_extra(seen.state, seen.context())
