"""`rk xp NAME`: an adventurer's XP ledger (a read model, rebuilt from the
log), registered on the app of ``cli.main``. Moved here as it was from the
campaign's own command modules, which the campaign's declared surface
replaced (``domain.betrayal.campaign_surface``)."""

from typing import Annotated

import typer

from .app import Json, Store, _run, app

Who = Annotated[str, typer.Argument(metavar="NAME", help="The adventurer's name (any case).", show_default=False)]


@app.command("xp", rich_help_panel="Between battles")
def xp_ledger(ctx: typer.Context, name: Who, store: Store = None, json: Json = False) -> None:
    """An adventurer's XP ledger: each XP gained (from which battle) and spent (on what), with the balance."""
    _run(ctx, "xp_verbs.ledger", store, None, json, name)


def ledger(s, name: str) -> None:
    """The XP ledger of one adventurer (a read model, rebuilt from the log)."""
    import msgspec

    from domain.betrayal.application import adventurer as find_adventurer
    from projections.views import xp_ledger as rows

    from .history import simple_table

    lines = rows(s.app, name)
    if s.json:
        s.out.emit([msgspec.to_builtins(line) for line in lines])
        return
    if not lines:
        s.out.print(f"{find_adventurer(s.app, name).name} has gained no XP yet (rk reward opens a Reward Phase).")
        return
    cells = [[line.rule, line.what, f"{line.amount:+d}", str(line.balance)] for line in lines]
    columns = (("rule", "left"), ("what", "left"), ("XP", "right"), ("left", "right"))
    s.out.print(simple_table(columns, cells, s.out.console.width, wrap=("what",)))
