"""`rk play`: one process for a whole table session. Each line is an `rk`
command without the ``rk`` (``move c4``, ``status``, ``undo``), run by the
same typer app as the one-shot commands, on one application kept open, so
nothing is re-imported or re-opened between commands."""

from __future__ import annotations

import shlex
import sys

from .session import Defaults

PROMPT = "rk> "
QUIT = {"quit", "exit", "q"}
HELP = """Commands (as after `rk`, e.g. `move c4`):
  status, legal, log, battles, adventurer NAME, track, pool, audit
  move HEX, engage --form F [--target e1] [--dice 1,2] [--faces 6,2],
  resolve [--skip 2], clear SLOT, end-turn, next-round, retreat, roll-enemy 1,6
  undo [--force], redo, new clash ..., new conquest ..., export -o FILE, verify
  Delves: new delve ..., new dungeon ..., move HEX --explore, explore [HEX],
  place-tile --rotation N --origin HEX (legal lists them)
  Conquest: choose-arrival, pick-arrivals, order-stack, roll-off, draw-card,
  march, charge, volley, clash, end-activation, end-round (legal lists them)
  COMMAND --help for details; quit (or Ctrl-D) to leave."""


def run(store: str | None = None, battle: str | None = None, json: bool = False) -> None:
    """Read commands until quit or end of input. Errors are printed and the
    session goes on. With ``json`` every command answers in JSON (a script
    can drive a session through stdin)."""
    from .main import main

    defaults = Defaults(store=store, battle=battle, json=json, keep_open=True)
    interactive = sys.stdin.isatty()
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
        print("rulekeeper shell: `help` lists the commands, `quit` leaves.")
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
                print(HELP)
                continue
            if words[0] == "play":
                print("already playing", file=sys.stderr)
                continue
            main(words, obj=defaults)
            sys.stdout.flush()
    finally:
        defaults.close()


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
