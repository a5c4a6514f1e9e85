"""Incapacitation, the automatic row swap, wipe-out and drops (facts
section 8): [HP] <= 0 means no actions; a side whose front row is all out
swaps its rows; a side all incapacitated or petrified is wiped out and the
battle ends; after the Enemies are wiped out, 2D6 per defeated Enemy on
its drop table (no FP); tokens drop nothing."""

from __future__ import annotations

from . import events as ev
from . import tokens
from .decision import Decision
from .vocab import Row, Termination


def incapacitated(d: Decision, who: str) -> None:
    """``who`` has fallen (or been petrified): record it, its tokens vanish
    (facts section 8), and see to its side."""
    if d.state.get(who).hp <= 0:
        d.emit(ev.Incapacitated(who=who))
        tokens.vanish_with(d, who)
    settle(d)


def settle(d: Decision) -> None:
    """Swap the rows of a side whose front row is all out, then end the
    battle if a side is wiped out."""
    if d.state.over:
        return
    for pc in (True, False):
        side = d.state.side(pc)
        front = [c for c in side if c.row is Row.FRONT and not c.down]
        back = [c for c in side if c.row is Row.BACK and not c.down]
        if not front and back:
            flip = {Row.FRONT: Row.BACK, Row.BACK: Row.FRONT}
            d.emit(ev.RowsSwapped(places=tuple(ev.Place(id=c.id, row=flip[c.row], order=c.order) for c in side)))
    # The Enemies' wipe-out is checked first: a last blow that also fells its
    # striker (a Curse's backlash) still wins the battle.
    if all(c.down for c in d.state.side(False)):
        d.emit(ev.BattleEnded(termination=Termination.PCS_WIN))
        drops(d)
    elif all(c.down for c in d.state.side(True)):
        d.emit(ev.BattleEnded(termination=Termination.PCS_LOSE))


def drops(d: Decision) -> None:
    """One 2D6 per defeated Enemy: the best line whose roll the total reaches."""
    for enemy in d.state.side(False):
        kind = d.pack.enemies.get(enemy.kind)
        if kind is None or not kind.drops or enemy.placer:  # a token is no defeated Enemy
            continue
        # the GM rolls a drop (facts: Drops), cited by the rule of the battle against Enemies
        faces, counter = d.roll(2, who=enemy.id, rule="ENEMY-2", what=f"drop roll of {enemy.id}")
        total = sum(faces)
        lines = [line for line in kind.drops if total >= line.roll]
        item = max(lines, key=lambda line: line.roll).item if lines else ""
        d.emit(ev.DropRolled(enemy=enemy.id, faces=faces, counter=counter, total=total, item=item))
