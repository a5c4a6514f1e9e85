"""What the `rk` client (``cli.client``) and `rk serve` (``cli.serve``) agree
on: where the socket is, which command lines a server may run, and which
store a command line names.

Only the standard library and ``domain.kernel.stores.store`` (whose store settings
this reads with its own functions; it imports nothing heavy): the client
imports this module before it knows whether a server will answer.
"""

import os

from domain.kernel.stores.store_setting import STORE_VARIABLE, home

SOCKET_NAME = "rk.sock"
# Kept in the caller's process: a shell and a server are processes of their
# own, and the demo is a long session of its own too.
IN_PROCESS = frozenset({"serve", "server", "play", "demo", "projections"})
# Typer's options that set up shell completion look at the caller's shell
# and home: they run in-process too.
COMPLETION_OPTIONS = ("--install-completion", "--show-completion")
_VALUED_GLOBALS = ("--store", "--battle", "-b")  # root options that take a value


def socket_dir() -> str:
    """``$RULEKEEPER_HOME/rk-<uid>``: this user's private directory for the
    socket (the home defaults to ``~/.local/share/rulekeeper``)."""
    return os.path.join(home(), f"rk-{os.getuid()}")


def socket_path() -> str:
    """``$RULEKEEPER_HOME/rk-<uid>/rk.sock``."""
    return os.path.join(socket_dir(), SOCKET_NAME)


def command_of(argv: list[str]) -> str | None:
    """The command word of an ``rk`` argument list (``status`` in
    ``rk --store x status``), or None when there is none (``rk --help``)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _VALUED_GLOBALS:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def in_process(argv: list[str]) -> bool:
    """Whether ``argv`` must run in the caller's process, server or not: a
    session (``IN_PROCESS``), a ``-`` that reads the caller's stdin, or the
    set-up of shell completion."""
    return (
        command_of(argv) in IN_PROCESS or "-" in argv or any(arg.split("=", 1)[0] in COMPLETION_OPTIONS for arg in argv)
    )


def store_option(argv: list[str]) -> str | None:
    """The value of the last ``--store`` in ``argv`` (a command's own option
    comes after the root's and wins over it), or None."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--store" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--store="):
            found = arg[len("--store=") :]
    return found


def effective_store(argv: list[str]) -> str:
    """The store setting a command would use: ``--store``, else
    ``$RULEKEEPER_STORE``, else "" (the default SQLite file)."""
    option = store_option(argv)
    return option if option is not None else os.environ.get(STORE_VARIABLE) or ""
