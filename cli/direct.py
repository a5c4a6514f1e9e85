"""The commonest command lines run without typer: `rk status`, `legal`,
`log`, `undo`, `redo`, `battles` with their plain options, and a verb of
the game (`rk move a2`). A command run in its own process (no `rk serve`) would
otherwise pay for importing typer and building its click commands, a
sixth of `rk status`'s start, to read options these few lines spell
plainly.

``run`` takes a command line only when typer would read it the same way
and print nothing of its own: the command first (no root option before
it), each option spelled as its command declares it, given once, with a
value that cannot be read as an option; no help, no `--`, no extra word.
Everything else (help, usage errors, every other command, completion) is
left to typer (``cli.main``), so help and usage errors are typer's own.
The commands run exactly as ``cli.main``'s do: the same handlers with a
``Session``, the same refusals and exit statuses (``tests/cli/test_direct.py``
runs each line both ways and compares). On an SQLite store its reads of
a game (status, legal, log) and its writes to one (undo, redo, a verb)
do without the eventsourcing library (a ``Session``'s ``plain``).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable
from typing import Any

from .collector import for_one_command
from .session import PLAIN_READS, PLAIN_WRITES, READS, Defaults, Refused, Session

# The commands and groups ``cli.main`` registers on the app (a test checks
# the list): a word of these is never a ruleset's verb.
CORE = frozenset(
    {
        "audit",
        "battles",
        "delete",
        "demo",
        "export",
        "import",
        "keygen",
        "legal",
        "links",
        "log",
        "play",
        "position",
        "redo",
        "rename",
        "restore",
        "rule",
        "serve",
        "server",
        "status",
        "undo",
        "use",
        "verify",
        "new",
        "projections",
    }
)
HELP = ("-h", "--help")
MAX_VERSION = 2**63 - 1  # as cli.app's: the largest --at typer takes
# The options every command here takes: the store and --json (``cli.app``'s Store, Json);
# those of a game's commands, the game too (BattleId).
VALUED = {"--store": "store"}
FLAGS = {"--json": "json"}
GAME = {"--battle": "battle", "-b": "battle"}
# Each core command run here: its own options (valued, then flags) and its handler.
OWN: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "status": (GAME | {"--at": "at"}, {}),
    "legal": (GAME, {}),
    "log": (GAME, {"--no-pager": "no_pager"}),
    "undo": (GAME, {"--force": "force"}),
    "redo": (GAME, {}),
    "battles": ({}, {"--all": "all_"}),  # every game: no --battle
}


def options(words: list[str], valued: dict[str, str], flags: dict[str, str]) -> dict[str, Any] | None:
    """The options ``words`` give, by name, or None when typer should read
    them: a word no option of these is, an option given twice, a value
    missing, empty or starting with ``-``, a flag given a value."""
    got: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if name in valued:
            if not eq:
                if i + 1 >= len(words):
                    return None
                i += 1
                value = words[i]
            if not value or value.startswith("-"):
                return None
            key: str = valued[name]
            found: Any = value
        elif name in flags and not eq:
            key, found = flags[name], True
        else:
            return None
        if key in got:
            return None
        got[key] = found
        i += 1
    return got


def _core(name: str, got: dict[str, Any]) -> Callable[[Session], None] | None:
    """What core command ``name`` does with the options ``got``, or None when typer should run it."""
    at = got.get("at")
    if at is not None:
        if not (at.isascii() and at.isdigit() and 1 <= int(at) <= MAX_VERSION):
            return None  # typer's own usage error
        at = int(at)
    if name == "log":
        from . import history

        return lambda s: history.log(s, page=not got.get("no_pager", False))
    if name == "battles":
        from . import battle_list

        return lambda s: battle_list.battles(s, got.get("all_", False))
    from . import game

    if name == "status":
        return lambda s: game.status(s, at)
    if name == "undo":
        return lambda s: game.undo(s, got.get("force", False))
    return game.legal if name == "legal" else game.redo


def main(argv: list[str]) -> int | None:
    """Run ``argv`` and return its exit status, or None (nothing done) when
    typer should run it (``cli.main.main``)."""
    if not argv or os.environ.get("_RK_COMPLETE"):
        return None
    name, words = argv[0], argv[1:]
    before = words[: words.index("--")] if "--" in words else words
    if name.startswith("-") or any(w in HELP for w in before):
        return None
    try:
        if name in OWN:
            if "--" in words:
                return None
            valued, flags = OWN[name]
            got = options(words, VALUED | valued, FLAGS | flags)
            handler = None if got is None else _core(name, got)
            if got is None or handler is None:
                return None
            reads = name in READS
            plain = name in PLAIN_READS or name in PLAIN_WRITES
            with Session(
                Defaults(), got.get("store"), got.get("battle"), bool(got.get("json")), reads, plain=plain
            ) as s:
                handler(s)
            return 0
        if name in CORE:
            return None
        return _verb(name, words)
    except Refused as e:  # a refusal, its line printed by the session
        return int(e.code or 0)
    except (EOFError, KeyboardInterrupt):  # as click does, then cli.main
        sys.stderr.write("\naborted\n")
        return 1


def _verb(word: str, words: list[str]) -> int | None:
    """``rk <verb> ...`` when ``word`` is only a verb of one word of the
    rulesets (no group of two words, no query, no game's noun): the
    command ``cli.declared.VerbCommand`` runs. A word several packages
    declare so (``rk move``) is given to the game found first, only its
    package's surface loaded (``cli.verbs.give_to_game``)."""
    from .declarations import games_named, queries_named, shared_verb, verbs_named

    shared = shared_verb(word)
    singles: list[Any] = []
    if shared is None:
        entries = verbs_named(word)
        singles = [e for e in entries if len(e[1].words) == 1]
        if not singles or len(singles) < len(entries) or games_named(word):
            return None
        if any(len(q.name.split()) == 2 for _, q in queries_named(word)):
            return None
    from domain.kernel.errors import MalformedCommand

    from .verbs import USAGE, give, give_to_game

    # A verb's command is executed on its game alone: the store written without the library where it allows.
    with Session(Defaults(), None, None, False, reads=False, plain=True) as s:
        try:
            if shared is not None:
                give_to_game(s, word, shared, words)
            else:
                give(s, word, singles, words)
        except MalformedCommand as e:
            if not getattr(e, USAGE, False):
                raise
            # a usage error, as click words its own: naming the help to read (``cli.declared``)
            raise MalformedCommand(f"{e} (see `rk {word} -h`)") from None
    return 0


def run(default: tuple[int, int, int] | None = None) -> None:
    """The console script's in-process run: here when ``main`` takes the
    command line, else through typer (``cli.main.run``). ``default``: the
    collector's thresholds before ``cli.client`` set them for this command
    (None: set here)."""
    if default is None:
        default = for_one_command()  # the collector's rhythm for one command (``cli.collector``)
    try:
        code = main(sys.argv[1:])
        if code is None:
            from cli.main import run as run_typer

            gc.set_threshold(*default)  # typer's commands, `rk play` and `rk serve` among them: as ever
            run_typer()
            return
        sys.stdout.flush()
    except BrokenPipeError:  # `rk log | head`: the reader left, which is fine (as in cli.main.run)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    # What the command built (modules, classes, the game) lives until the
    # process ends, where the interpreter's last collections walked all of
    # it (~8 % of `rk status`'s instructions) only to free memory the system
    # takes back whole. Frozen as the interpreter ends (the first exit
    # handler, ours being the last registered), they are left out of those
    # collections; anything made after is still collected, and objects are
    # still finalized as their modules are cleared.
    atexit.register(gc.freeze)
    sys.exit(code)
