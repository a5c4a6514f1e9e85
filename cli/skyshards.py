"""`rk skyshards`: a delve's skyshard progress (``projections.views.skyshards``),
registered on the app of ``cli.main``.

One line per fact, each citing its rules: the skyshards required
(SKYSHARD-3), each card drawn with its icons and the tile it lies beside
(SKYSHARD-1, SKYSHARD-8), each face-down shortage card (EXPLORATION-7a,
SKYSHARD-4), each skyshard obtained and by whom (SKYSHARD-5, SKYSHARD-9),
the totals, and what the objective still needs (OBJ-4 Survey, OBJ-8 Uncover
and RETREAT-5) or how the delve ended (OBJ-10, OBJ-11). A battle that is not
a delve is refused in one line, as `rk track` refuses a Conquest battle.
The domain and the views are imported only when the verb runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from .app import VIEWS, BattleId, Json, Store, _run, app

if TYPE_CHECKING:
    from .session import Session


@app.command(rich_help_panel=VIEWS)
def skyshards(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """A delve's skyshards: required, drawn, obtained, and what the objective still needs (a projection)."""
    _run(ctx, "skyshards.show", store, battle, json)


def show(s: Session) -> None:
    """Print the skyshard rows of the session's battle (JSON: the rows)."""
    from rich import box
    from rich.table import Table

    from projections import views

    rows = views.skyshards(s.app, s.battle_id)
    if s.json:
        s.out.emit(rows)
        return
    count = {r.kind: r.count for r in rows}
    s.out.print(f"Skyshards of delve battle {s.battle_id}: gained {count.get('gained', 0)} of"
                f" {count.get('required', 0)}, drawn {count.get('drawn-total', 0)}")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("n", justify="right", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("what")
    for r in rows:
        table.add_row(r.kind, str(r.count), r.rule, r.note)
    s.out.print(table)
