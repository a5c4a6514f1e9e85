"""`rk play`: one process for a whole table session. Each line is an `rk`
command without the ``rk`` (``move c4``, ``status``, ``undo``), run by the
same typer app as the one-shot commands, on one application kept open, so
nothing is re-imported or re-opened between commands. Help and usage errors
name commands as typed here (``move -h``, not ``rk move -h``); Tab completes
command names, and a command's options after ``-``.

The session is handed what it runs, ``cli.main``'s ``main`` and app (with
every command registered), by `rk play` itself: this module never imports
``cli.main``, which imports it."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from typing import Any

import typer

from .protocol import COMPLETION_OPTIONS
from .session import Defaults

PROMPT = "rk> "
QUIT = {"quit", "exit", "q"}
SHELL_WORDS = ("help", "quit", "exit")  # the shell's own commands, completed beside the app's
HELP_END = "COMMAND --help for details; Tab completes; quit (or Ctrl-D) to leave."


def help_text(app: typer.Typer) -> str:
    """The shell's list of commands, by heading, as ``app`` has them (every
    ruleset's verbs included): made from the app, so it never drifts."""
    from typer._click import Context

    root: Any = typer.main.get_command(app)  # a group: it lists its commands
    ctx = Context(root)
    panels: dict[str, list[str]] = {}
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        if command is None or command.hidden or name == "play":
            continue
        panels.setdefault(getattr(command, "rich_help_panel", None) or "Commands", []).append(name)
    lines = ["Commands (as after `rk`, e.g. `status`):"]
    for panel, names in panels.items():
        lines.append(f"  {panel}: {', '.join(names)}")
    lines.append(f"  {HELP_END}")
    return "\n".join(lines)


def run(
    main: Callable[..., int], app: typer.Typer, store: str | None = None, battle: str | None = None, json: bool = False
) -> None:
    """Read commands until quit or end of input, running each with ``main``
    (``cli.main.main``: a command line to its exit status) and completing
    them from ``app``. Errors are printed and the session goes on. With
    ``json`` every command answers in JSON (a script can drive a session
    through stdin)."""
    defaults = Defaults(store=store, battle=battle, json=json, keep_open=True)
    interactive = sys.stdin.isatty()
    if interactive:
        _line_editing(app)
        print("rulekeeper shell: `help` lists the commands, Tab completes them, `quit` leaves.")
    try:
        while True:
            line = _read(interactive)
            if line is None:
                break
            try:
                words = shlex.split(line)
            except ValueError as e:
                print(f"cannot read that line: {e}", file=sys.stderr)
                continue
            if not words:
                continue
            if words[0] == "rk":  # typed out of habit
                words = words[1:]
            if not words:
                continue
            if words[0] in QUIT:
                break
            if words[0] in ("help", "?"):
                print(help_text(app))
                continue
            if words[0] == "play":
                print("already playing", file=sys.stderr)
                continue
            if any(w.split("=")[0] in COMPLETION_OPTIONS for w in words):  # typer's: for the shell rk runs in
                print("completion for your shell is set up from it: rk --install-completion", file=sys.stderr)
                continue
            main(words, obj=defaults, prog_name="")
            sys.stdout.flush()
    finally:
        defaults.close()


class Completer:
    """Tab completion for the shell (readline's completer protocol): the
    first word completes to a command name, the word after a group (``new``)
    to its commands, a word starting with ``-`` to the command's options,
    as ``app`` has them."""

    def __init__(self, app: typer.Typer) -> None:
        self._app = app
        self._root: Any = None  # the app's click command, built on the first Tab
        self._found: list[str] = []

    def matches(self, before: str, text: str) -> list[str]:
        """The completions of ``text``, the word under the cursor, when
        ``before`` is what the line holds before that word.

        >>> from cli.main import app
        >>> Completer(app).matches("", "end")
        ['end-activation', 'end-round', 'end-turn']
        >>> Completer(app).matches("new ", "c")
        ['clash', 'conquest']
        """
        words = before.split()
        if words[:1] == ["rk"]:  # typed out of habit: the shell drops it
            words = words[1:]
        command, rest = self._command(words)
        if text.startswith("-"):
            names = [
                name
                for param in getattr(command, "params", ())
                if not getattr(param, "hidden", False)
                for name in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ()))
                if name.startswith("-")
            ]
            names += ["--help"]
        elif not rest and hasattr(command, "commands"):
            from typer._click import Context

            ctx = Context(command)
            names = [
                name
                for name in command.list_commands(ctx)
                if name != "play" and not getattr(command.get_command(ctx, name), "hidden", False)
            ]
            if not words:
                names += SHELL_WORDS
        else:
            names = []
        return sorted({name for name in names if name.startswith(text)})

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th completion of ``text``."""
        import readline

        if state == 0:
            self._found = self.matches(readline.get_line_buffer()[: readline.get_begidx()], text)
        return self._found[state] if state < len(self._found) else None

    def _command(self, words: list[str]):
        """The command the words name (a group, or the app itself) and the
        words after it."""
        if self._root is None:
            self._root = typer.main.get_command(self._app)
        from typer._click import Context

        command = self._root
        for i, word in enumerate(words):
            sub = command.get_command(Context(command), word) if hasattr(command, "commands") else None
            if sub is None:
                return command, words[i:]
            command = sub
        return command, []


def _line_editing(app: typer.Typer) -> None:
    """Line editing, history and Tab completion for input(), where readline exists."""
    try:
        import readline
    except ImportError:  # no readline here (Windows): plain input()
        return
    readline.set_completer(Completer(app).complete)
    readline.set_completer_delims(" \t\n\"'")
    if "libedit" in (readline.__doc__ or ""):  # macOS's readline is libedit, bound its own way
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


def _read(interactive: bool) -> str | None:
    if interactive:
        try:
            return input(PROMPT)
        except EOFError:
            print()
            return None
        except KeyboardInterrupt:
            print()
            return ""
    line = sys.stdin.readline()
    return line if line else None
