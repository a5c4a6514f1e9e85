"""How a battle looks in a terminal: the header, the adventurers and
enemies as tables, the dice waiting to be resolved, and the two views
(`rk status` and the compact one after each command) built with the map.

Everything here reads a ``BattleState`` and the rules context (pack and
board) and returns rich renderables; nothing decides anything. Dynamic text
goes into ``Text`` objects, never through rich markup, so a name with
brackets prints as it is.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text


from domain.betrayal.catalog import Pack
from domain.betrayal.context import RulesContext
from domain.betrayal.decision import Decision
from domain.betrayal.heroes import available_dice, statuses
from domain.betrayal.state import MOVES_PER_TURN, BattleState, Hero, Phase
from domain.betrayal.track import TRACK_LIMIT
from domain.betrayal.vocab import Objective
from domain.kernel.hexes import name as hex_name

from .board import EXPLORABLE, FOE, HERO, SKYSHARD, board, open_hexes
from .phrases import Phrases
from domain.betrayal.names import (
    active_die,
    die_name,
    marks,
    rolled_face,
    track_lines,
    unit_name,
    where,
)

# --- the header -------------------------------------------------------------------


def header(state: BattleState, ctx: RulesContext, called: str | None = None) -> Phrases:
    """Two lines: which battle (``called``: its name, as
    ``cli.battle_names.called`` shows it; default its id), and where in the
    round it stands (each wrapping between its phrases)."""
    pack = ctx.pack
    setup = pack.setups.get(state.setup) or pack.dungeons.get(state.setup) or pack.delves.get(state.setup)
    if ctx.delve is not None:
        kind, ep = "Delve", f"EP {state.xp * len(state.heroes)} per tile (DELVE-4)"
    else:
        kind, ep = ("Dungeon" if state.setup in pack.dungeons else "Battle"), f"EP {state.ep}"
    first = (
        f"{kind} {called or state.battle_id} · {setup.name if setup else state.setup}"
        f" ({state.objective.value}) · {state.difficulty.value} · XP {state.xp}, {ep}"
        f" · seed {state.seed}"
        + (" · physical dice" if state.options.physical_dice else "")
    )
    text = Text(first, style="bold")
    text.append("\n")
    text.append(turn_line(state, ctx.pack))
    return Phrases(text)


def turn_line(state: BattleState, pack: Pack) -> Text:
    """The round (and Fatigue Round), whose turn, and what the phase waits for."""
    rnd = f"Round {state.round}" + (" (Fatigue Round)" if state.fatigue_round else "")
    if state.phase is Phase.ENDED:
        outcome = state.outcome.value.upper() if state.outcome else "over"
        line = Text(f"Battle over in round {state.round}: ")
        line.append(outcome, style="bold green" if outcome == "SUCCESS" else "bold red")
        line.append(f" — {state.ended_reason}")
        return line
    if state.phase is Phase.END_OF_ROUND:
        return Text(f"{rnd} is over: go on (rk next-round) or retreat (rk retreat)")
    if state.phase is Phase.ENEMY_ROLL and state.enemy_roll:
        roll = state.enemy_roll
        return Text(
            f"{rnd} · {unit_name(state, pack, roll.foe)}'s turn · type the faces of its"
            f" {roll.dice} {'die' if roll.dice == 1 else 'dice'}: rk roll-enemy "
            + ",".join("F" for _ in range(roll.dice))
        )
    if state.round == 0:
        return Text("Setting up (CLASH-5 to CLASH-10): the round counter is not yet at 1")
    if state.turn is None:
        return Text(f"{rnd} · enemy turns" if state.enemy_queue else f"{rnd} · {state.phase.value}")
    who = unit_name(state, pack, state.turn.hero)
    line = Text(f"{rnd} · ")
    line.append(f"{who}'s turn", style=HERO)
    if state.phase is Phase.ENGAGE_RESOLVE:
        line.append(" · dice rolled, waiting to be resolved (rk resolve)")
    else:
        line.append(f" · moves {state.turn.moves}/{MOVES_PER_TURN} · engages {state.turn.engages}")
    return line


def free_dice(state: BattleState, ctx: RulesContext, hero: Hero) -> list[int]:
    """The uids a player may pass to ``--dice`` now (the rules' own list)."""
    return available_dice(Decision(state, ctx), hero)


# --- tables -----------------------------------------------------------------------


def heroes_table(state: BattleState, ctx: RulesContext) -> Table:
    """The adventurers side by side, one column each, one row per thing a
    player looks up (free dice first among the dice: they are what
    ``--dice`` takes)."""
    pack = ctx.pack
    m = marks(state)
    table = Table(box=box.SIMPLE_HEAD, show_lines=False, pad_edge=False, expand=False)
    table.add_column("Adventurer", style="bold", no_wrap=True)
    for hero in state.heroes:
        table.add_column(Text(f"{m[hero.id]} {hero.name}", style=HERO), overflow="fold")

    def row(name: str, cell) -> None:
        table.add_row(name, *(cell(h) for h in state.heroes))

    row("race · hex", lambda h: f"{h.race} · {'defeated' if h.defeated else where(h.pos)}")
    row("HP", lambda h: f"{h.hp}/{h.max_hp}" + (f" +{h.bonus_hp} bonus" if h.bonus_hp else ""))
    row("Sta/Mag/Cool", lambda h: f"{h.stamina} / {h.magicka} / {h.cooldown}")
    row("Tenacity", lambda h: str(h.tenacity))
    row("form", lambda h: h.form.value)
    row("free dice", lambda h: "\n".join(die_name(pack, h, u) for u in free_dice(state, ctx, h)) or "—")
    row("active", lambda h: "\n".join(
        f"{i}. {active_die(pack, h, a)}" for i, a in enumerate(h.active, start=1)) or "—")
    row(f"track (/{TRACK_LIMIT})", lambda h: "\n".join(track_lines(pack, h)) or "—")
    row("drained", lambda h: ", ".join(die_name(pack, h, u) for u in h.drained) or "—")
    row("status", lambda h: ", ".join(sorted(s.value for s in statuses(h))) or "—")
    return table


def foes_table(state: BattleState, ctx: RulesContext) -> Table:
    """The enemies: id (what --target takes), chip, HP, hex, skill and
    statuses (a status names the adventurer's die that holds it)."""
    pack = ctx.pack
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify, wrap in (("id", "left", False), ("enemy", "left", False), ("lvl", "right", False),
                                ("HP", "right", False), ("hex", "left", False),
                                ("def/rng/dice", "center", False), ("skill", "left", False),
                                ("status", "left", True)):
        table.add_column(name, justify=justify, no_wrap=not wrap)
    for foe in state.foes:
        enemy = pack.enemies.get(foe.enemy)
        table.add_row(
            Text(foe.id, style="dim" if foe.defeated else FOE),
            enemy.name if enemy else foe.enemy,
            str(foe.level),
            f"{foe.hp}/{foe.max_hp}",
            "—" if foe.defeated else where(foe.pos),
            f"{enemy.defense}/{enemy.range}/{enemy.combat}" if enemy else "",
            (enemy.skill.value if enemy and enemy.skill else ""),
            ", ".join((["quest"] if foe.quest else [])
                      + [f"{mk.status.value} ({mk.owner} #{mk.uid})" for mk in foe.marks]),
            style="dim" if foe.defeated else "",
        )
    return table


def pending_table(state: BattleState, ctx: RulesContext) -> RenderableType | None:
    """The dice rolled in the engage waiting to be resolved, by position
    (what ``--skip`` takes)."""
    pending = state.pending
    if pending is None or not pending.dice:
        return None
    hero = state.hero(pending.hero)
    target = f" at {unit_name(state, ctx.pack, pending.target)}" if pending.target else ""
    title = Text(f"Rolled by {hero.name} in {pending.form.value} form{target}:", style="bold")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("pos", justify="right")
    table.add_column("die")
    table.add_column("face")
    for i, r in enumerate(pending.dice, start=1):
        table.add_row(str(i), die_name(ctx.pack, hero, r.uid), rolled_face(ctx.pack, r.die, r.face))
    return Group(title, table)


# --- delves -----------------------------------------------------------------------


def delve_progress(state: BattleState, ctx: RulesContext) -> Text:
    """The delve's progress on one line: objective, skyshards gained and
    drawn, the delve deck, the tiles left by shape."""
    delve = ctx.delve
    goal = {Objective.SURVEY: "Survey (OBJ-4)", Objective.UNCOVER: "Uncover, then retreat (OBJ-8)"}.get(
        delve.objective, delve.objective.value)
    line = Text(f"{goal} · skyshards ")
    line.append(f"gained {delve.gained}/{delve.required}", style=SKYSHARD)
    line.append(f", drawn {delve.drawn}/{delve.required} (SKYSHARD-4)")
    line.append(f"\nDelve deck {len(delve.deck)} card{'' if len(delve.deck) == 1 else 's'}")
    shapes = sorted({shape for shape, _ in delve.piles} | {shape for shape, _ in delve.bottom})
    left = ", ".join(f"{shape} {len(delve.pile(shape)) + len(delve.under(shape))}" for shape in shapes)
    line.append(f" · tiles left: {left or 'none'}")
    if delve.concluded:
        line.append(f" · the delve is over: {delve.concluded}", style="bold")
    return line


def placing_line(state: BattleState, ctx: RulesContext) -> Text | None:
    """The revealed tile waiting for the party to place it, and how many
    ways it may go (EXPLORATION-9b: `rk legal` lists them)."""
    from domain.betrayal.exploration import placements

    waiting = ctx.delve.placing if ctx.delve is not None else None
    if waiting is None:
        return None
    tile = ctx.pack.tiles.get(waiting.tile)
    ways = len(placements(Decision(state, ctx)))
    line = Text("Tile waiting to be placed: ", style="bold")
    line.append(f"{tile.name if tile else waiting.tile} ({tile.shape if tile else '?'}) against {hex_name(waiting.hex)},"
                f" explored by {unit_name(state, ctx.pack, waiting.hero)}\n  {ways} way{'' if ways == 1 else 's'}"
                " to place it (EXPLORATION-9b): see `rk legal` (rk place-tile --rotation N --origin HEX)")
    return line


def delve_details(state: BattleState, ctx: RulesContext) -> Group:
    """`rk status` of a delve, below the map: progress, what may be
    explored, the tiles with their cards, and what caches gave."""
    delve = ctx.delve
    pack = ctx.pack
    parts: list[RenderableType] = [Phrases(delve_progress(state, ctx))]
    waiting = placing_line(state, ctx)
    if waiting is not None:
        parts.append(Phrases(waiting))
    open_ = open_hexes(state, ctx)
    line = Text("Explorable now (EXPLORATION-5): ")
    none = "none until the tile is placed" if ctx.delve.pending is not None else "none"
    line.append(", ".join(hex_name(h) for h in open_) or none, style=EXPLORABLE if open_ else "")
    if open_:
        line.append(" — rk explore [HEX], rk move HEX --explore")
    parts.append(Phrases(line))
    kept = {k.tile: k for k in delve.kept}
    tiles = Text("Tiles:")
    for placed in ctx.map.tiles:
        content = ctx.map.content(placed)
        tiles.append(f"\n  {placed.key:<3} {content.name}" + (f" ({content.shape})" if placed.key != "E" else ""))
        card = kept.get(placed.key)
        if card is None:
            continue
        found = pack.cards.get(card.card)
        notes = []
        if card.skyshards:
            notes.append(f"{card.skyshards} skyshard{'' if card.skyshards == 1 else 's'} to take (SKYSHARD-5)")
        if found is not None and found.environment is not None:
            notes.append(f"{found.environment.kind.value}: {found.environment.text}")
        if found is not None and found.trap is not None:
            notes.append("trap" + (" (tested)" if placed.key in delve.sprung else f": {found.trap.text}"))
        tiles.append(f" · card {found.name if found else card.card}" + (": " + "; ".join(notes) if notes else ""))
    parts.append(Phrases(tiles, hang=6))  # under the tile's name
    if delve.loot:
        names = {h.id: h.name for h in state.heroes}
        loot = ", ".join(f"{names.get(hero, hero)}: {pack.items[i].name if i in pack.items else i}"
                         for hero, i in delve.loot)
        parts.append(Phrases(Text(f"Found in caches (DELVE-3): {loot}")))
    return Group(*parts)


# --- whole views ------------------------------------------------------------------


def status(state: BattleState, ctx: RulesContext, called: str | None = None) -> Group:
    """The full view of `rk status` (``called``: as ``header`` takes it)."""
    parts: list[RenderableType] = [header(state, ctx, called), Text(""), board(state, ctx)]
    if ctx.delve is not None:
        parts.append(delve_details(state, ctx))
    parts += [heroes_table(state, ctx), foes_table(state, ctx)]
    pending = pending_table(state, ctx)
    if pending is not None:
        parts.append(pending)
    return Group(*parts)


def compact(state: BattleState, ctx: RulesContext) -> Group:
    """The short view printed after each command: the map and one line per
    adventurer (free dice included, so the next --dice is at hand)."""
    pack = ctx.pack
    m = marks(state)
    parts: list[RenderableType] = [board(state, ctx), Phrases(turn_line(state, pack))]
    if ctx.delve is not None:
        parts.append(Phrases(delve_progress(state, ctx)))
        waiting = placing_line(state, ctx)
        if waiting is not None:
            parts.append(Phrases(waiting))
    for hero in state.heroes:
        line = Text("  ")
        line.append(f"{m[hero.id]} {hero.name}", style=HERO)
        if hero.defeated:
            line.append(" defeated", style="red")
        else:
            line.append(f" HP {hero.hp}/{hero.max_hp}" + (f"+{hero.bonus_hp}" if hero.bonus_hp else ""))
            line.append(f" · Ten {hero.tenacity} · {hero.form.value}")
            line.append(" · free " + (",".join(str(u) for u in free_dice(state, ctx, hero)) or "none"))
            line.append(f" · track {len(hero.track)}/{TRACK_LIMIT}")
            if hero.active:
                line.append(f" · active {len(hero.active)}")
            if hero.drained:
                line.append(" · drained " + ",".join(str(u) for u in hero.drained))
            st = statuses(hero)
            if st:
                line.append(" · " + ", ".join(sorted(s.value for s in st)), style="yellow")
        parts.append(Phrases(line))
    foes = [f for f in state.foes if not f.defeated]
    if foes:
        line = Text("  ")
        for foe in foes:
            enemy = pack.enemies.get(foe.enemy)
            line.append(foe.id, style=FOE)
            line.append(f" {enemy.name if enemy else foe.enemy} {foe.hp}/{foe.max_hp} {where(foe.pos)}")
            if foe.marks:
                line.append(" (" + ", ".join(mk.status.value for mk in foe.marks) + ")", style="yellow")
            line.append("  ")
        parts.append(Phrases(line))  # two spaces part the enemies: each stays on one line
    pending = pending_table(state, ctx)
    if pending is not None:
        parts.append(pending)
    return Group(*parts)
