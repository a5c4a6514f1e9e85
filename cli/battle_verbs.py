"""The `rk` verbs that name and choose battles, registered on the app of
``cli.main``: `rk use` (the current battle), `rk rename`, `rk delete` and
`rk restore`, and `rk adventurers`. The work is done in
``cli.battle_names`` and ``cli.history``, imported only when a verb runs.
"""

from typing import Annotated, Optional

import typer

from .app import SETUP, Json, Store, _run, app

Name = Annotated[
    str,
    typer.Argument(
        metavar="NAME",
        show_default=False,
        help="A battle's name or id, as `rk battles` lists it (any case, if only one battle matches).",
    ),
]


@app.command(rich_help_panel=SETUP)
def use(
    ctx: typer.Context,
    name: Annotated[
        Optional[str],
        typer.Argument(
            metavar="NAME",
            show_default=False,
            help="The battle to act on from now on, by name or id (default: say which is current).",
        ),
    ] = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Choose the current battle: the one commands act on without --battle.

    `rk new` makes the battle it starts current; `rk demo` leaves the choice
    alone. The choice is yours, kept per store in $RULEKEEPER_HOME/current.json;
    without one, the latest battle is current.
    """
    from . import battle_names

    _run(ctx, battle_names.use, store, None, json, name)


@app.command(rich_help_panel=SETUP)
def rename(
    ctx: typer.Context,
    old: Name,
    new: Annotated[
        str,
        typer.Argument(
            metavar="NEW",
            show_default=False,
            help="The new name: 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit.",
        ),
    ],
    store: Store = None,
    json: Json = False,
) -> None:
    """Rename a battle in this store (appends to the index; the battle's log is untouched).

    The log keeps the battle's id, which still finds it; `rk export` writes
    the id, so an imported copy is called by its id again.
    """
    from . import battle_names

    _run(ctx, battle_names.rename, store, None, json, old, new)


@app.command(rich_help_panel=SETUP)
def delete(ctx: typer.Context, name: Name, store: Store = None, json: Json = False) -> None:
    """Delete a battle softly: `rk battles` no longer lists it and it is never the current one.

    Nothing is erased: its log can still be read, exported and verified
    with --battle NAME, `rk battles --all` lists it, `rk restore NAME` brings it back.
    """
    from . import battle_names

    _run(ctx, battle_names.delete, store, None, json, name)


@app.command(rich_help_panel=SETUP)
def restore(ctx: typer.Context, name: Name, store: Store = None, json: Json = False) -> None:
    """Bring a deleted battle back into `rk battles`."""
    from . import battle_names

    _run(ctx, battle_names.restore, store, None, json, name)
