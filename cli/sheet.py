"""What a campaign adds to an adventurer's sheet (`rk adventurer NAME`):
class, XP and Tenacity, the mat's rows with what the next slot costs, and
the items ready and in the Pack."""

from __future__ import annotations

from domain.betrayal.adventurer_state import AdventurerState
from domain.betrayal.mat import mat_of, next_slot
from domain.kernel.errors import RuleViolation

from .session import Session


def sheet_rows(s: Session, a: AdventurerState) -> list[tuple[str, str]]:
    """What the campaign adds to an adventurer's sheet: class, XP, the mat
    rows with the next slot's cost, items."""
    pack = s.app.pack_of("betrayal")
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
