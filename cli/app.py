"""The typer app of `rk` and what its commands share: the root options, the
options each command repeats, the help panels, and ``_run``, which hands a
command over to its module with a session.

Every module of commands registers on ``app`` and takes its options from
here (``cli.main`` the core commands, ``cli.battle_verbs``, ``cli.log_verbs``...
their own), and ``cli.main`` imports them all: imports go from the commands
to this module, never back. Run the app through ``cli.main.main``, which
has them all registered.
"""

from collections.abc import Callable
from typing import Annotated, Any, Optional

import msgspec
import typer

from .session import Defaults, Session

from .declared import RulesetsGroup, SetupGroup  # noqa: E402

app = typer.Typer(
    name="rk",
    cls=RulesetsGroup,
    help=(
        "rulekeeper: a referee and bookkeeper for tabletop battles.\n\n"
        "Start a game with `rk new` (`rk new --help` lists every ruleset's setups), look at it with `rk status`, "
        "see what may be done with `rk legal`, then give the commands it lists: each ruleset's verbs are below, "
        "under its own heading. Every command takes --json."
    ),
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (run in-process: cli.client)
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
new_app = typer.Typer(
    cls=SetupGroup, help="Start something new: a game of any ruleset (the list below).", no_args_is_help=True
)
app.add_typer(new_app, name="new", rich_help_panel="Setting up")

GLOBAL = "Global options"
SETUP, LOOK, ACT = "Setting up", "Looking", "Playing"
LOGS, VIEWS, SESSIONS = "Logs", "Read models", "Sessions"
Store = Annotated[
    Optional[str],
    typer.Option(
        "--store",
        metavar="STORE",
        rich_help_panel=GLOBAL,
        show_default=False,
        help="Where the events live: a .sqlite or .db file, sqlite:PATH, postgresql://user@host/db, "
        "or memory. Default: $RULEKEEPER_STORE, else ~/.local/share/rulekeeper/rulekeeper.sqlite.",
    ),
]
BattleId = Annotated[
    Optional[str],
    typer.Option(
        "--battle",
        "-b",
        metavar="NAME",
        rich_help_panel=GLOBAL,
        show_default=False,
        help="The battle to act on, by name or id (default: the current one, see `rk use`; `rk battles` lists them).",
    ),
]
# What `rk new ...` calls the battle it starts (--battle, as before, too).
NewName = Annotated[
    Optional[str],
    typer.Option(
        "--name",
        "--battle",
        "-b",
        metavar="NAME",
        show_default=False,
        help="A name for the new battle: 1 to 64 letters, digits, '-', '_' or '.'"
        " (default: from the setup and a number, e.g. waystone-1). It becomes the current battle.",
    ),
]
# Bounds of numbers typed as options, checked by the parser so that no huge
# number reaches the rules: seeds are stored as signed 64-bit integers
# (domain.kernel.rng.MAX_SEED), versions too.
MAX_SEED = 2**63 - 1
MAX_VERSION = 2**63 - 1
Json = Annotated[
    bool,
    typer.Option(
        "--json",
        rich_help_panel=GLOBAL,
        help="Machine-readable output: JSON on stdout, errors as JSON on stderr.",
    ),
]


def _run(
    ctx: typer.Context,
    handler: Callable[..., None],
    store: str | None,
    battle: str | None,
    json: bool,
    *args: Any,
    **kwargs: Any,
) -> None:
    """Call ``handler`` (a ``cli`` module's function, imported by the
    command only when it runs) with a session; refusals become one line on
    stderr and an exit status."""
    defaults = ctx.find_root().obj
    if not isinstance(defaults, Defaults):
        defaults = ctx.find_root().obj = Defaults()
    with Session(defaults, store, battle, json) as s:
        handler(s, *args, **kwargs)


def _show_version(value: bool) -> None:
    """``--version``: eager, so it prints and stops before any command runs."""
    if value:
        from .version import show

        show()
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    store: Store = None,
    battle: BattleId = None,
    json: Json = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_show_version,
            help="Show the version of rulekeeper and of each ruleset's rules, and exit.",
        ),
    ] = False,
) -> None:
    # A copy: options before one command must not stick to a shell session
    # (the copy shares the shell's open applications).
    base = ctx.obj if isinstance(ctx.obj, Defaults) else Defaults()
    ctx.obj = msgspec.structs.replace(
        base,
        store=store if store is not None else base.store,
        battle=battle if battle is not None else base.battle,
        json=json or base.json,
    )
