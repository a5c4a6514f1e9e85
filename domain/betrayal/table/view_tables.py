"""A battle's units as tables: the adventurers side by side, the enemies
one a row, and the dice rolled in an engage waiting to be resolved. Each
shows what a player types next: the uids ``--dice`` takes, the ids
``--target`` takes, the positions ``--skip`` takes."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.surface.document import Block, Column, Lines, Table, Words

from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.heroes import available_dice, statuses
from domain.betrayal.battle.names import active_die, die_name, marks, rolled_face, track_lines, unit_name, where
from domain.betrayal.battle.state import BattleState, Hero
from domain.betrayal.battle.track import TRACK_LIMIT

NONE = "—"


def free_dice(state: BattleState, ctx: RulesContext, hero: Hero) -> list[int]:
    """The uids a player may pass to ``--dice`` now (the rules' own list)."""
    return available_dice(Decision(state, ctx), hero)


def heroes_table(state: BattleState, ctx: RulesContext) -> Table:
    """The adventurers side by side, one column each, one row per thing a
    player looks up (free dice first among the dice: they are what
    ``--dice`` takes)."""
    pack = ctx.pack
    m = marks(state)
    columns = (
        Column("Adventurer", wrap=False, tone="strong"),
        *(Column(((f"{m[hero.id]} {hero.name}", "ally"),)) for hero in state.heroes),
    )
    rows: list[tuple[Words, ...]] = []

    def row(name: str, cell: Callable[[Hero], str]) -> None:
        rows.append((name, *(cell(h) for h in state.heroes)))

    row("race · hex", lambda h: f"{h.race} · {'defeated' if h.defeated else where(h.pos)}")
    row("HP", lambda h: f"{h.hp}/{h.max_hp}" + (f" +{h.bonus_hp} bonus" if h.bonus_hp else ""))
    row("Sta/Mag/Cool", lambda h: f"{h.stamina} / {h.magicka} / {h.cooldown}")
    row("Tenacity", lambda h: str(h.tenacity))
    row("form", lambda h: h.form.value)
    row("free dice", lambda h: "\n".join(die_name(pack, h, u) for u in free_dice(state, ctx, h)) or NONE)
    row(
        "active", lambda h: "\n".join(f"{i}. {active_die(pack, h, a)}" for i, a in enumerate(h.active, start=1)) or NONE
    )
    row(f"track (/{TRACK_LIMIT})", lambda h: "\n".join(track_lines(pack, h)) or NONE)
    row("drained", lambda h: ", ".join(die_name(pack, h, u) for u in h.drained) or NONE)
    row("status", lambda h: ", ".join(sorted(s.value for s in statuses(h))) or NONE)
    return Table(columns, tuple(rows))


def foes_table(state: BattleState, ctx: RulesContext) -> Table:
    """The enemies: id (what --target takes), chip, HP, hex, skill and
    statuses (a status names the adventurer's die that holds it); the
    defeated dimmed."""
    pack = ctx.pack
    columns = (
        Column("id", wrap=False),
        Column("enemy", wrap=False),
        Column("lvl", "right", False),
        Column("HP", "right", False),
        Column("hex", wrap=False),
        Column("def/rng/dice", "center", False),
        Column("skill", wrap=False),
        Column("status"),
    )
    rows: list[tuple[Words, ...]] = []
    tones = []
    for foe in state.foes:
        enemy = pack.enemies.get(foe.enemy)
        rows.append(
            (
                foe.id if foe.defeated else ((foe.id, "foe"),),
                enemy.name if enemy else foe.enemy,
                str(foe.level),
                f"{foe.hp}/{foe.max_hp}",
                NONE if foe.defeated else where(foe.pos),
                f"{enemy.defense}/{enemy.range}/{enemy.combat}" if enemy else "",
                (enemy.skill.value if enemy and enemy.skill else ""),
                ", ".join(
                    (["quest"] if foe.quest else []) + [f"{mk.status.value} ({mk.owner} #{mk.uid})" for mk in foe.marks]
                ),
            )
        )
        tones.append("dim" if foe.defeated else "")
    return Table(columns, tuple(rows), row_tones=tuple(tones))


def pending(state: BattleState, ctx: RulesContext) -> tuple[Block, ...]:
    """The dice rolled in the engage waiting to be resolved, by position
    (what ``--skip`` takes); nothing when none wait."""
    waiting = state.pending
    if waiting is None or not waiting.dice:
        return ()
    hero = state.hero(waiting.hero)
    target = f" at {unit_name(state, ctx.pack, waiting.target)}" if waiting.target else ""
    title = Lines((f"Rolled by {hero.name} in {waiting.form.value} form{target}:",), strong=True)
    columns = (Column("pos", "right"), Column("die"), Column("face"))
    rows = tuple(
        (str(i), die_name(ctx.pack, hero, r.uid), rolled_face(ctx.pack, r.die, r.face))
        for i, r in enumerate(waiting.dice, start=1)
    )
    return title, Table(columns, rows)
