"""`rk` commands made from what the rulesets declare (their surfaces): a
verb for each command a ruleset's games take (``rk engage``, ``rk march``),
``rk new <setup>`` for each setup, and each query (``rk scenarios``).

A verb's words are read by the ruleset's own grammar
(``domain.kernel.surface.grammar``), the same that writes the lines `rk
legal` and the log print, so each is read back as it was written; click
only finds the command and draws its help. Several rulesets may declare
one verb (``rk move``): the game it acts on says whose it is.
"""

from __future__ import annotations

from typing import Any

from typer._click import Context
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from domain.kernel.surface import Param, Setup, Surface, Verb, usage

GLOBAL = "Global options"
HELP = ("-h", "--help")


# --- finding what the rulesets declare ------------------------------------------------


def _surfaces() -> list[Surface]:
    from domain.kernel.surface import surfaces

    return surfaces()


def verbs_named(word: str) -> list[tuple[Surface, Verb]]:
    """Every ruleset's verb whose first word is ``word``."""
    return [(s, v) for s in _surfaces() for v in s.verbs if v.words[0] == word]


def queries_named(word: str) -> list[tuple[Surface, Any]]:
    """Every ruleset's query whose first word is ``word``."""
    return [(s, q) for s in _surfaces() for q in s.queries if q.name.split()[0] == word]


def setups() -> list[tuple[Surface, Setup]]:
    return [(s, setup) for s in _surfaces() for setup in s.setups]


# --- help, drawn by typer from display-only parameters --------------------------------------


def _shown(p: Param, panel: str | None) -> Any:
    """A click parameter that only describes ``p`` in help (our grammar
    reads the words)."""
    metavar = p.value_name
    if p.positional:
        return TyperArgument(param_decls=[p.name], metavar=metavar, help=p.help, required=False,
                             rich_help_panel=panel, show_default=False)
    decls = [p.option, *([p.short] if p.short else [])]
    if p.flag and getattr(p.kind, "both", False):
        decls = [f"{p.option}/--no-{p.option[2:]}"]
    return TyperOption(param_decls=decls, metavar=None if p.flag else metavar, help=p.help, is_flag=p.flag or None,
                       rich_help_panel=panel, show_default=False, multiple=p.repeat)


def _global_params(selector: tuple[str, str] | None, noun: str = "battle") -> list[Any]:
    out = [TyperOption(param_decls=["--store"], metavar="STORE", rich_help_panel=GLOBAL, show_default=False,
                       help="Where the events live (default: $RULEKEEPER_STORE, else the home's SQLite file)."),
           TyperOption(param_decls=["--json"], is_flag=True, rich_help_panel=GLOBAL, show_default=False,
                       help="Machine-readable output: JSON on stdout, errors as JSON on stderr.")]
    if selector is not None:
        out.insert(1, TyperOption(param_decls=list(selector), metavar="NAME", rich_help_panel=GLOBAL,
                                  show_default=False, help=f"The {noun} to act on, by name or id (default: the "
                                                           f"current one; `rk battles` lists them)."))
    return out


class _Declared(TyperCommand):
    """A command whose words our grammar reads: click neither parses nor
    checks them, it only finds the command and shows its help. ``reads``:
    whether it only reads the store (None: as ``cli.session`` judges)."""

    reads: bool | None = None

    def __init__(self, name: str, help: str, short_help: str, panel: str | None, params: list[Any]) -> None:
        super().__init__(name, params=params, help=help, short_help=short_help, rich_help_panel=panel,
                         context_settings={"help_option_names": list(HELP), "ignore_unknown_options": True})

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        words = list(args)
        before = words[:words.index("--")] if "--" in words else words
        if any(w in HELP for w in before):
            from typer._click import echo

            echo(self.get_help(ctx), color=ctx.color)
            ctx.exit()
        ctx.params = {"words": words}
        ctx.args = []
        return []

    def invoke(self, ctx: Context) -> Any:
        from .session import Defaults, Session

        defaults = ctx.find_root().obj
        if not isinstance(defaults, Defaults):
            defaults = ctx.find_root().obj = Defaults()
        from domain.kernel.errors import MalformedCommand

        from .verbs import USAGE

        with Session(defaults, None, None, False, reads=self.reads) as s:
            try:
                self.run(s, ctx.params["words"])
            except MalformedCommand as e:
                if not getattr(e, USAGE, False):
                    raise
                # a usage error, as click words its own: naming the help to read
                path = ctx.command_path.strip()  # "" at the top of `rk play`
                raise MalformedCommand(f"{e} (see `{path} -h`)" if path else f"{e} (see `help`)") from None

    def run(self, session: Any, words: list[str]) -> None:
        raise NotImplementedError


def _summary(entries: list[tuple[Surface, Any]]) -> tuple[str, str]:
    """Help of a verb some rulesets declare: (the whole help, its first line)."""
    first = entries[0][1].summary
    if len(entries) == 1:
        surface, verb = entries[0]
        details = f"\n\n{verb.details}" if verb.details else ""
        return f"{verb.summary}{details}\n\nrk {usage(verb)}", first
    parts = []
    for surface, verb in entries:
        details = f" {verb.details}" if verb.details else ""
        parts.append(f"In a {surface.title} {surface.noun}: {verb.summary}{details}\n\nrk {usage(verb)}")
    return "\n\n".join(parts), first


class VerbCommand(_Declared):
    """``rk <verb> ...``: a command of the game acted on, whichever ruleset
    declared it (``entries``: each ruleset's verb of this name)."""

    def __init__(self, word: str, entries: list[tuple[Surface, Verb]]) -> None:
        self.word = word
        self.entries = entries
        several = len({s.ruleset for s, _ in entries}) > 1
        params: list[Any] = []
        for surface, verb in entries:
            panel = f"In a {surface.title} {surface.noun}" if several else None
            params += [_shown(p, panel) for p in verb.params]
        help_text, first = _summary(entries)
        selector = entries[0][0].selector
        super().__init__(word, help_text, first, entries[0][1].panel or entries[0][0].panel,
                         params + _global_params(selector, entries[0][0].noun))

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import give

        give(session, self.word, self.entries, words)


class VerbGroup(TyperGroup):
    """``rk <group> <word> ...``: verbs and queries of two words (``rk item
    gain``, ``rk campaign status``). ``about``: the group's help."""

    def __init__(self, word: str, entries: list[tuple[Surface, Verb]],
                 queries: list[tuple[Surface, Any]] = (), about: str = "") -> None:  # type: ignore[assignment]
        commands: dict[str, Any] = {}
        by_second: dict[str, list[tuple[Surface, Verb]]] = {}
        for surface, verb in entries:
            by_second.setdefault(verb.words[1], []).append((surface, verb))
        for second, found in by_second.items():
            commands[second] = VerbCommand(f"{word} {second}", found)
            commands[second].name = second
        for surface, query in queries:
            command = QueryCommand(surface, query)
            command.name = query.name.split()[1]
            commands[command.name] = command
        first = (entries or queries)[0]
        super().__init__(name=word, commands=commands, no_args_is_help=True,
                         rich_help_panel=getattr(first[1], "panel", "") or first[0].panel,
                         help=about or first[0].groups.get(word, ""),
                         context_settings={"help_option_names": list(HELP)})


class QueryCommand(_Declared):
    """``rk <query> ...``: a ruleset's question (``rk scenarios``)."""

    reads = True

    def __init__(self, surface: Surface, query: Any) -> None:
        self.surface = surface
        self.query = query
        details = f"\n\n{query.details}" if query.details else ""
        params = [_shown(p, None) for p in query.params]
        selector = surface.selector if query.game else None
        super().__init__(query.name, f"{query.summary}{details}", query.summary, query.panel or "Setting up",
                         params + _global_params(selector, surface.noun))

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import ask

        ask(session, self.surface, self.query, words)


class SetupCommand(_Declared):
    """``rk new <setup> ...``: set a game up (its ruleset's one builder)."""

    def __init__(self, surface: Surface, setup: Setup) -> None:
        self.surface = surface
        self.setup = setup
        details = f"\n\n{setup.details}" if setup.details else ""
        params = [_shown(p, None) for p in setup.params]
        super().__init__(setup.name, f"{setup.summary}{details}", setup.summary, None,
                         params + _global_params(None))

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import set_up

        set_up(session, self.surface, self.setup, words)


class SetupGroup(TyperGroup):
    """``rk new``: one command per setup every ruleset declares."""

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        for surface, setup in setups():
            if setup.name == cmd_name:
                return SetupCommand(surface, setup)
        return None

    def list_commands(self, ctx: Context) -> list[str]:
        names = list(super().list_commands(ctx))
        return names + sorted(setup.name for _, setup in setups() if setup.name not in names)


class RulesetsGroup(TyperGroup):
    """The top of `rk`: its own commands, then every verb and query the
    rulesets declare, made when they are asked for."""

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        entries = verbs_named(cmd_name)
        queries = queries_named(cmd_name)
        if any(len(v.words) == 2 for _, v in entries) or any(len(q.name.split()) == 2 for _, q in queries):
            return VerbGroup(cmd_name, [e for e in entries if len(e[1].words) == 2],
                             [q for q in queries if len(q[1].name.split()) == 2])
        if entries:
            return VerbCommand(cmd_name, entries)
        if queries:
            return QueryCommand(*queries[0])
        return None

    def list_commands(self, ctx: Context) -> list[str]:
        names = list(super().list_commands(ctx))
        seen = set(names)
        for surface in _surfaces():
            for word in [q.name.split()[0] for q in surface.queries] + [v.words[0] for v in surface.verbs]:
                if word not in seen:
                    seen.add(word)
                    names.append(word)
        return names
