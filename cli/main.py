"""The `rk` (and `rulekeeper`) command line: its core commands, every other
module of commands imported so that it registers, and the console script.

Each command parses its options, opens a ``Session`` and hands over to a
small module (``cli.battle``, ``cli.history``...). Those modules, and the
domain behind them, are imported inside the command functions: play is one
process per command, and ``rk --help`` should not pay for eventsourcing.
The app and the options its commands share are ``cli.app``'s.

Exit status: 0 done; 2 the rules refused the command (stderr says
``RULE-ID: reason``); 1 anything else was refused (malformed, not found,
an unknown rule ID, a bad log, the battle moved on, a usage error).
"""

import copy
import os
import sys
from typing import Annotated, Any, Optional

import typer

from .app import (
    ACT,
    LOGS,
    LOOK,
    MAX_SEED,
    MAX_VERSION,
    SESSIONS,
    VIEWS,
    BattleId,
    Json,
    Store,
    _run,
    app,
)
from .declared import GameCommand
from .session import Defaults, Refused


# --- looking ----------------------------------------------------------------------


@app.command(cls=GameCommand, rich_help_panel=LOOK)
def status(
    ctx: typer.Context,
    at: Annotated[
        Optional[int],
        typer.Option(
            "--at",
            metavar="VERSION",
            min=1,
            max=MAX_VERSION,
            help="Replay the battle only up to this event (the numbers `rk log` shows), to see it as it stood then.",
            show_default=False,
        ),
    ] = None,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Show the game as its ruleset draws it: the board, whose turn, the units and their dice.

    The names it shows (hexes, units, dice) are the ones the game's commands take.
    """
    from . import game

    _run(ctx, game.status, store, battle, json, at)


@app.command(cls=GameCommand, rich_help_panel=LOOK)
def legal(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """List what may be done now: each command open now, one per line, with the values each part may take.

    Where a part is open (which dice, which order of cards), its line says what it may be chosen from.
    """
    from . import game

    _run(ctx, game.legal, store, battle, json)


NoPager = Annotated[
    bool,
    typer.Option(
        "--no-pager",
        help="Write straight to the terminal; long output is otherwise shown with $PAGER"
        " (default: less -FRX). A pipe or a file never gets a pager.",
    ),
]


@app.command(cls=GameCommand, rich_help_panel=LOOK)
def log(
    ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False, no_pager: NoPager = False
) -> None:
    """Every event of the battle, narrated and numbered as `rk status --at` counts; undone commands marked."""
    from . import history

    _run(ctx, history.log, store, battle, json, page=not no_pager)


@app.command(rich_help_panel=LOOK)
def battles(
    ctx: typer.Context,
    all_: Annotated[bool, typer.Option("--all", help="Also list the deleted battles (marked x).")] = False,
    store: Store = None,
    json: Json = False,
) -> None:
    """List the battles in the store, oldest first, with where each stands; * marks the current one."""
    from . import battle_list

    _run(ctx, battle_list.battles, store, None, json, all_)


@app.command(rich_help_panel=LOOK)
def rule(
    ctx: typer.Context,
    rule_id: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="A rule ID, in any case: MOVE-1, exploration-9e, REINF-4.", show_default=False
        ),
    ],
    ruleset: Annotated[
        Optional[str],
        typer.Option(
            "--ruleset",
            metavar="NAME",
            show_default=False,
            help="The ruleset whose spec to read (`rk --version` names them; default: the one whose spec has ID; "
            "if several have it, the current battle's, else the first by name).",
        ),
    ] = None,
    all_: Annotated[
        bool, typer.Option("--all", help="Also print its sub-rules (EXPLORATION-9a to 9f under 9).")
    ] = False,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Print a rule's text from the spec, its notes, and the facts that fill it.

    Exit status 1 for an ID the spec does not have (the message suggests close ones).
    """
    from . import rulebook

    _run(ctx, rulebook.show, store, battle, json, rule_id, ruleset, all_)


# --- acting -----------------------------------------------------------------------


@app.command(cls=GameCommand, rich_help_panel=ACT)
def undo(
    ctx: typer.Context,
    force: Annotated[
        bool, typer.Option("--force", help="Also undo a command that revealed dice or a draw (the audit marks it).")
    ] = False,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Undo the last command of the battle (appends an undo; nothing is erased)."""
    from . import game

    _run(ctx, game.undo, store, battle, json, force)


@app.command(cls=GameCommand, rich_help_panel=ACT)
def redo(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """Redo the command undone last, if nothing was done since."""
    from . import game

    _run(ctx, game.redo, store, battle, json)


# --- logs -------------------------------------------------------------------------


@app.command(cls=GameCommand, rich_help_panel=LOGS)
def export(
    ctx: typer.Context,
    output: Annotated[
        Optional[str],
        typer.Option("--output", "-o", metavar="FILE", help="Write to FILE instead of stdout.", show_default=False),
    ] = None,
    sign: Annotated[
        Optional[str],
        typer.Option(
            "--sign",
            metavar="KEYFILE",
            help="Sign the log with this private key (see `rk keygen`).",
            show_default=False,
        ),
    ] = None,
    alone: Annotated[
        bool, typer.Option("--alone", help="Of a game that leads others (a campaign): its own log only, without them.")
    ] = False,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Export the battle as a portable, hash-chained JSON Lines log (signed with --sign).

    A campaign (`rk export --campaign NAME -o FILE`) is exported whole, as one
    log: the campaign, its adventurers and every battle they fought, in the
    order they were played; `rk import FILE` brings them all into a store
    that has none of them, and `rk verify FILE` re-decides every one.
    """
    from . import portable

    _run(ctx, portable.export, store, battle, json, output, sign, alone)


@app.command(cls=GameCommand, rich_help_panel=LOGS)
def position(
    ctx: typer.Context,
    output: Annotated[
        Optional[str],
        typer.Option("--output", "-o", metavar="FILE", help="Write to FILE instead of stdout.", show_default=False),
    ] = None,
    at: Annotated[
        Optional[int],
        typer.Option(
            "--at",
            metavar="VERSION",
            min=1,
            max=MAX_VERSION,
            help="The game as it stood at this event (the numbers `rk log` shows).",
            show_default=False,
        ),
    ] = None,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Write the game's position: a TOML file of where everything stands, any ruleset.

    `rk new <ruleset> --position FILE` starts a game from it (a position written
    by hand or edited too: a position the rules cannot hold is refused with its
    line). The game keeps the position in its first event, so it undoes,
    exports, imports and verifies as any other.
    """
    from . import positions

    _run(ctx, positions.write, store, battle, json, output, at)


@app.command("import", rich_help_panel=LOGS)
def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log written by `rk export`.", show_default=False)],
    store: Store = None,
    json: Json = False,
) -> None:
    """Import a battle log; a broken or edited log is refused whole, naming the line.

    The imported battle becomes the current one, as a new battle does (`rk use`).
    A campaign's log (`rk export --campaign NAME`) brings the campaign and every
    battle, each under its name, into a store that has none of them.
    """
    from . import portable

    _run(ctx, portable.import_log, store, None, json, file)


@app.command(cls=GameCommand, rich_help_panel=LOGS)
def verify(
    ctx: typer.Context,
    file: Annotated[
        Optional[str],
        typer.Argument(
            metavar="FILE", help="A log file to check (default: the battle in the store).", show_default=False
        ),
    ] = None,
    key: Annotated[
        Optional[str],
        typer.Option(
            "--key",
            metavar="PUBKEY",
            show_default=False,
            help="Require a signature by this public key: 64 hex digits, or a file holding them (KEYFILE.pub).",
        ),
    ] = None,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Replay a log through the current rules and report the first divergence.

    Exit status 0 when the log holds, 1 when it does not. A campaign in the
    store (`rk verify --campaign NAME`) is verified with all its battles.
    """
    from . import portable

    _run(ctx, portable.verify, store, battle, json, file, key)


# --- read models ------------------------------------------------------------------


@app.command(rich_help_panel=VIEWS)
def audit(
    ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False, no_pager: NoPager = False
) -> None:
    """One line per event citing rule IDs, undos marked (a projection)."""
    from . import views

    _run(ctx, views.show, store, battle, json, "audit", page=not no_pager)


# --- whole sessions ---------------------------------------------------------------


@app.command(rich_help_panel=SESSIONS)
def demo(
    ctx: typer.Context,
    seed: Annotated[
        int, typer.Option(metavar="N", min=0, max=MAX_SEED, help="Seed of the battle and of the bot's choices.")
    ] = 7,
    ruleset: Annotated[
        Optional[str],
        typer.Option(
            "--ruleset",
            metavar="NAME",
            show_default=False,
            help="The ruleset whose demo to play (default: the first by name that has one).",
        ),
    ] = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Play a short game to the end with a simple bot, showing an undo and a redo.

    The game stays in the store under a new id, to look at with `rk log` or `rk verify`.
    """
    from . import demo

    _run(ctx, demo.run, store, None, json, seed, ruleset)


@app.command(rich_help_panel=SESSIONS)
def play(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """An interactive shell for a table session: the same commands without `rk`.

    Type status, legal, any of the game's commands, undo, help; quit or Ctrl-D leaves.
    """
    from .shell import run

    root = ctx.find_root().obj
    run(
        main,
        app,
        store=store if store is not None else getattr(root, "store", None),
        battle=battle if battle is not None else getattr(root, "battle", None),
        json=json or getattr(root, "json", False),
    )


@app.command(rich_help_panel=SESSIONS)
def serve(
    ctx: typer.Context,
    store: Store = None,
    deadline: Annotated[
        float,
        typer.Option(
            envvar="RULEKEEPER_SERVE_DEADLINE",
            min=0.1,
            help="Seconds a command may run (ten times that for log, export, import, verify and audit) "
            'before its client is answered "the store did not answer within N s" (status 1): a '
            "frozen database answers nothing. Until the command ends, commands run in their own "
            "process.",
        ),
    ] = 30.0,
) -> None:
    """Keep one resident process for the store: every `rk` command then runs in it,
    in a few milliseconds instead of a process's start-up.

    Listens on $RULEKEEPER_HOME/rk-UID/rk.sock until Ctrl-C (or SIGTERM). Commands for
    another store, and `rk play`, still run in their own process.
    """
    from .serve import serve as run_server

    root = ctx.find_root().obj
    code = run_server(store if store is not None else getattr(root, "store", None), main, deadline)
    if code:
        raise typer.Exit(code)


@app.command(rich_help_panel=SESSIONS)
def server(
    ctx: typer.Context,
    store: Store = None,
    host: Annotated[
        str,
        typer.Option(help="Address to listen on: 127.0.0.1 keeps it to this machine; 0.0.0.0 opens it to the network."),
    ] = "127.0.0.1",
    port: Annotated[
        Optional[int],
        typer.Option(
            help="Port to listen on. Default: the one this home's server listened on last, else 8700; "
            "0: the one used last, else any free one; either way a taken port gives way to a free "
            "one, said in one line. Given a port N, that port or an error. The port is remembered "
            "($RULEKEEPER_HOME/server-port.json): links handed out stay good across a restart.",
            show_default="the port used last, else 8700",
            min=0,
            max=65535,
        ),
    ] = None,
    game: Annotated[
        Optional[str], typer.Option("--game", help="Print the seat links of this game (default: the current battle).")
    ] = None,
    workers: Annotated[
        Optional[int], typer.Option(help="Store threads (default: 1 on SQLite, 4 on PostgreSQL).", min=1, max=64)
    ] = None,
    public_url: Annotated[
        Optional[str],
        typer.Option("--public-url", help="The address players reach the server by, for the links (behind a proxy)."),
    ] = None,
    header_timeout: Annotated[
        float,
        typer.Option(help="Seconds a connection may take to send a request's headers before it is closed.", min=0.1),
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a request's body may take to arrive whole once "
            "its headers are in, before the connection is closed.",
            min=0.1,
        ),
    ] = 60.0,
    keep_alive: Annotated[float, typer.Option(help="Seconds an idle kept-alive connection stays open.", min=0.1)] = 5.0,
    max_connections: Annotated[
        Optional[int],
        typer.Option(
            help="Connections open at once; past it the one idle the longest is closed. Always kept below "
            "the open-files limit (its soft limit is raised to the hard one at start).",
            show_default="4096, or the open-files limit less 128",
            min=1,
        ),
    ] = None,
) -> None:
    """Serve the table over HTTP: an API and a live table view in the browser.

    Prints a link for the host, one per seat of the game and one for spectators;
    each carries its own secret token (kept in $RULEKEEPER_HOME/server.secret, or
    $RULEKEEPER_SERVER_SECRET). Runs until Ctrl-C. Several servers on one PostgreSQL
    store share its games and live updates. The API's document: /api/openapi.json.
    """
    from server.connections import ConnectionLimits
    from server.run import serve as run_http

    root = ctx.find_root().obj
    code = run_http(
        store if store is not None else getattr(root, "store", None),
        host,
        port,
        game or getattr(root, "battle", None),
        workers,
        public_url,
        limits=ConnectionLimits(
            header_timeout=header_timeout,
            keep_alive=keep_alive,
            max_connections=max_connections,
            body_timeout=body_timeout,
        ),
    )
    if code:
        raise typer.Exit(code)


@app.command(rich_help_panel=SESSIONS)
def links(
    ctx: typer.Context,
    base: Annotated[
        Optional[str],
        typer.Option(
            "--base",
            help="The server's address (default: the `rk server` running on this home, else http://127.0.0.1:8700).",
        ),
    ] = None,
    seat: Annotated[
        Optional[str],
        typer.Option(
            "--seat",
            metavar="NAME",
            help="Only this seat's link (an adventurer's or player's name, spectators, or host).",
        ),
    ] = None,
    battle: BattleId = None,
    store: Store = None,
    json: Json = False,
) -> None:
    """Print the links of `rk server` again: the host's, each seat's of the battle and the spectators'."""
    from . import table_links

    _run(ctx, table_links.show, store, battle, json, base, seat)


projections_app = typer.Typer(
    help="The read models behind rk track, rk pool, rk audit, rk battles...", no_args_is_help=True
)
app.add_typer(projections_app, name="projections", rich_help_panel=VIEWS)


@projections_app.command("follow")
def projections_follow(
    ctx: typer.Context,
    once: Annotated[bool, typer.Option("--once", help="Catch up, say how many events that read, and stop.")] = False,
    store: Store = None,
    json: Json = False,
) -> None:
    """Keep every read model caught up with the store, in a process of its own.

    Catches up, then follows new events (on PostgreSQL as they are saved, on
    SQLite every half second) until Ctrl-C or SIGTERM; the views' readers then
    find them up to date.
    """
    from . import follow

    _run(ctx, follow.follow, store, None, json, once)


# --- entry point ------------------------------------------------------------------


def main(argv: list[str] | None = None, obj: Defaults | None = None, prog_name: str = "rk") -> int:
    """Run one command line and return its exit status. Usage errors exit 1,
    keeping 2 for the rules' refusals. ``prog_name`` is what help and usage
    errors call the program: "" in `rk play`, where commands are typed without it."""
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    args = sys.argv[1:] if argv is None else list(argv)
    command = root_command(args)
    try:
        result = command.main(args=args, prog_name=prog_name, standalone_mode=False, obj=obj)
    except ClickException as e:
        if isinstance(e, NoArgsIsHelpError):  # `rk` or `rk new` alone: the help
            e.show()
        else:
            _usage_error(e, json="--json" in args or (obj is not None and obj.json))
        return 1
    except typer.Abort:
        sys.stderr.write("aborted\n")
        return 1
    except Refused as e:  # a refusal, its line printed by the session
        return int(e.code or 0)
    return result if isinstance(result, int) else 0


# The root options that take a value (``cli.app``): the word after one is not the command.
_VALUED_ROOT_OPTIONS = frozenset({"--store", "--battle", "-b"})


def _registered_name(info: Any) -> str:
    """The word a registered command is run by: its name, or its function's."""
    return str(info.name or typer.main.get_command_name(info.callback.__name__))


def root_command(args: list[str]) -> Any:
    """The click command that runs ``args``: the root group with only the
    command named in ``args`` when it is one of the core commands, else with
    all of them. Typer makes a click command of each registered function
    (its signature and type hints read, its options built) when the group
    is made: doing so for every command cost two thirds of `rk battles`."""
    name = _command_word(args)
    if name is not None and not os.environ.get("_RK_COMPLETE"):  # completion lists every command
        only = [info for info in app.registered_commands if _registered_name(info) == name]
        if len(only) == 1:
            lean = copy.copy(app)
            lean.registered_commands, lean.registered_groups = only, []
            return typer.main.get_command(lean)
    return typer.main.get_command(app)


def _command_word(args: list[str]) -> str | None:
    """The first word of ``args`` that is neither a root option nor its value."""
    after_valued = False
    for arg in args:
        if after_valued:
            after_valued = False
        elif arg == "--":
            return None
        elif arg in _VALUED_ROOT_OPTIONS:
            after_valued = True
        elif not arg.startswith("-"):
            return arg
    return None


USAGE_MESSAGE = 300  # characters of a usage error shown (it may echo 5,000 typed digits)


def _usage_error(error: Exception, json: bool) -> None:
    """A usage error of the command line as one line on stderr (whatever was
    typed, control characters escaped), naming the help to read."""
    from .output import Output, printable

    message = printable(" ".join(error.format_message().split()))  # type: ignore[attr-defined]
    if len(message) > USAGE_MESSAGE:
        message = message[: USAGE_MESSAGE - 1] + "…"
    ctx = getattr(error, "ctx", None)
    if ctx is not None and not json:
        path = ctx.command_path.strip()  # "" at the top of `rk play`, which has its own help
        message += f" (see `{path} -h`)" if path else " (see `help`)"
    error.format_message = lambda: message  # type: ignore[attr-defined]
    Output(json=json).error(error)


def run() -> None:
    """The console script: `rk ...` and `rulekeeper ...`."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `rk log | head`: the reader left, which is fine
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


# Each ruleset's own verbs, and other verbs of their own modules, register
# themselves on the app (``cli.app``) as they are imported here: after the
# core commands above, the order `rk --help` lists them in.
from . import battle_verbs  # noqa: E402,F401
from . import log_verbs  # noqa: E402,F401

if __name__ == "__main__":  # python -m cli.main ...
    run()
