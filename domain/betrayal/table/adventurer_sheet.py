"""An adventurer's sheet between battles (`rk adventurer NAME`): race,
lines, stats, dice, track and battles, and what a campaign adds: class, XP
and Tenacity, the mat's rows with what the next slot costs, the items
ready and in the Pack. ``data`` is the adventurer's state as its stream
holds it."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import NotFound, RuleViolation
from domain.kernel.games import GameApp
from domain.kernel.surface import Report
from domain.kernel.surface.document import Lines

from domain.betrayal.adventurer.mat import mat_of, next_slot
from domain.betrayal.adventurer.state import AdventurerState
from domain.betrayal.battle.application import adventurer as find_adventurer
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.ruleset import BETRAYAL


def sheet(asked: Any, name: str) -> Report:
    """The sheet of the adventurer called ``name`` (any case): a label and
    its value a line, each value wrapping under itself between the items
    it lists (a die's number stays with its name)."""
    app = asked.app
    a = find_adventurer(app, name)
    rows = _rows(app, a, app.pack_of(BETRAYAL))
    width = max(len(label) for label, _ in rows)
    lines = tuple(((label.ljust(width), "strong"), (f"  {value}", "")) for label, value in rows)
    return Report(a, (Lines((((a.name, "ally"),),)), Lines(lines, hang=width + 2)))


def _rows(app: GameApp, a: AdventurerState, pack: Pack) -> list[tuple[str, str]]:
    dice = {
        uid: (pack.dice[d].name + (f" (level {pack.dice[d].level})" if pack.dice[d].level > 1 else ""))
        if d in pack.dice
        else d
        for uid, d in a.dice
    }
    race = pack.races.get(a.race)
    rows = [
        ("race", race.name if race else a.race),
        ("skill lines", ", ".join(a.lines) or "—"),
        ("HP", f"{a.hp}/{a.max_hp}"),
        ("Sta/Mag/Cool", f"{a.stamina} / {a.magicka} / {a.cooldown}"),
        ("Tenacity", str(a.tenacity)),
        ("dice", ", ".join(f"#{uid} {n}" for uid, n in dice.items())),
    ]
    track = []
    for t in a.track:
        if t.kind.value == "skill":
            track.append(f"#{t.uid} {dice.get(t.uid, '?')}" + (f" face {t.face + 1}" if t.face >= 0 else ""))
        elif t.status is not None:
            track.append(f"status {t.status.value}")
        else:
            track.append(t.kind.value.replace("-", " "))
    rows.append(("track", ", ".join(track) or "—"))
    names = _battle_names(app)
    rows.append(("battles", ", ".join(names.get(b, b) + _outcome(app, b) for b in a.battles) or "—"))
    if a.hp <= 0:
        rows.append(("", "defeated: cannot join a battle (HEALTH-5) until a rest heals it (rk rest)"))
    if a.wiped:
        rows.append(
            (
                "",
                f"its whole party fell in {names.get(a.wiped, a.wiped)}: its next rest is owed (END-1c;"
                " on Expert 1 HP without an item given up)",
            )
        )
    if a.campaign or a.class_id:
        rows.append(("campaign", a.campaign or "—"))
        rows += _campaign_rows(a, pack)
    return rows


def _campaign_rows(a: AdventurerState, pack: Pack) -> list[tuple[str, str]]:
    """What a campaign adds: class, XP, the mat rows with the next slot's
    cost, items."""
    rows: list[tuple[str, str]] = []
    sheet = pack.classes.get(a.class_id)
    rows.append(("class", sheet.name if sheet else "— (none: `rk campaign enlist` gives one)"))
    top = pack.campaign.max_tenacity if pack.campaign else 10
    rows.append(("XP", f"{a.xp} unspent, {a.earned} earned; Tenacity {a.tenacity} of {top}"))
    if pack.campaign is not None:
        for i, row in enumerate(mat_of(a, pack)):
            cells = []
            for attribute in (row.left, row.right):
                if not attribute:
                    cells.append("(empty)")
                    continue
                try:
                    slot = next_slot(a, attribute, pack)
                    cells.append(f"{attribute} (next {slot.cost} XP)")
                except RuleViolation:
                    cells.append(f"{attribute} (full)")
            rows.append((f"mat row {i + 1}", " | ".join(cells)))
    names = {k: v.name for k, v in pack.gear.items()}
    ready = [names.get(i, i) + (" (expended)" if i in a.expended else "") for i in a.ready]
    packed = [names.get(i, i) + (" (expended)" if i in a.expended else "") for i in a.packed]
    rows.append(("ready", ", ".join(ready) or "—"))
    rows.append(("pack", ", ".join(packed) or "—"))
    return rows


def _outcome(app: GameApp, battle_id: str) -> str:
    """`` (success)`` or `` (failure)`` for a battle this store holds; "" for
    one it does not (an adventurer imported with its campaign alone)."""
    try:
        outcome = getattr(app.battle(battle_id).state, "outcome", None)
    except NotFound:
        return ""
    return f" ({outcome.value})" if outcome is not None else ""


def _battle_names(app: GameApp) -> dict[str, str]:
    """Each battle's name in this store, by id (renamed ones differ)."""
    return {e.battle_id: e.name for e in app.index().entries(deleted=True) if e.name != e.battle_id}
