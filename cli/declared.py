"""`rk` commands made from what the rulesets declare (their surfaces): a
verb for each command a ruleset's games take (``rk engage``, ``rk march``),
``rk new <setup>`` for each setup, and each query (``rk scenarios``).
Verbs and queries of two words make a group (``rk item gain``); a word
that is also a verb or query of its own stays one (``rk reward BATTLE``
and ``rk reward done``). A ruleset whose games are not battles has a
group named by their noun (``rk campaign ...``), holding its setup and
the generic commands of a game as aliases (``rk campaign new``, ``rk
campaign undo``); the generic commands themselves take its selector
(``rk undo --campaign saga``: ``GameCommand``).

A verb's words are read by the ruleset's own grammar
(``domain.kernel.surface.grammar``), the same that writes the lines `rk
legal` and the log print, so each is read back as it was written; click
only finds the command and draws its help. Several rulesets may declare
one verb (``rk move``): the game it acts on says whose it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typer._click import Context
from typer._click.types import ParamType
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from domain.kernel.surface import NEW, Param, Setup, Surface, Verb, usage

# What the rulesets declare, found by a command's words (typer-free, for ``cli.direct`` too).
from .declarations import _surfaces, games_named, queries_named, selectors, setups, verbs_named  # noqa: F401

GLOBAL = "Global options"
HELP = ("-h", "--help")


# --- help, drawn by typer from display-only parameters --------------------------------------


class _Words(ParamType):
    """The type help shows for a declared argument: none (its metavar says
    what it is; our grammar reads it)."""

    name = "words"

    def get_metavar(self, param: Any, ctx: Any = None) -> str:
        return ""


def _shown(p: Param, panel: str | None) -> Any:
    """A click parameter that only describes ``p`` in help (our grammar
    reads the words)."""
    metavar = p.value_name
    if p.positional:
        return TyperArgument(
            param_decls=[p.name],
            metavar=metavar,
            help=p.help,
            required=False,
            rich_help_panel=panel,
            show_default=False,
            type=_Words(),
        )
    decls = [p.option, *([p.short] if p.short else [])]
    if p.flag and getattr(p.kind, "both", False):
        decls = [f"{p.option}/--no-{p.option[2:]}"]
    return TyperOption(
        param_decls=decls,
        metavar=None if p.flag else metavar,
        help=p.help,
        is_flag=p.flag or None,
        rich_help_panel=panel,
        show_default=False,
        multiple=p.repeat,
    )


def _global_params(selector: tuple[str, str] | None, noun: str = "battle", finds: bool = False) -> list[Any]:
    out = [
        TyperOption(
            param_decls=["--store"],
            metavar="STORE",
            rich_help_panel=GLOBAL,
            show_default=False,
            help="Where the events live (default: $RULEKEEPER_STORE, else the home's SQLite file).",
        ),
        TyperOption(
            param_decls=["--json"],
            is_flag=True,
            rich_help_panel=GLOBAL,
            show_default=False,
            help="Machine-readable output: JSON on stdout, errors as JSON on stderr.",
        ),
    ]
    if selector is not None:
        # a game that is not a battle is found by the command (``Surface.find_game``), never the current battle
        default = "the one the command finds" if finds else "the current one; `rk battles` lists them"
        out.insert(
            1,
            TyperOption(
                param_decls=list(selector),
                metavar="NAME",
                rich_help_panel=GLOBAL,
                show_default=False,
                help=f"The {noun} to act on, by name or id (default: {default}).",
            ),
        )
    return out


class _Declared(TyperCommand):
    """A command whose words our grammar reads: click neither parses nor
    checks them, it only finds the command and shows its help. ``reads``:
    whether it only reads the store (None: as ``cli.session`` judges)."""

    reads: bool | None = None

    def __init__(self, name: str, help: str, short_help: str, panel: str | None, params: list[Any]) -> None:
        super().__init__(
            name,
            params=params,
            help=help,
            short_help=short_help,
            rich_help_panel=panel,
            context_settings={"help_option_names": list(HELP), "ignore_unknown_options": True},
        )

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        words = list(args)
        before = words[: words.index("--")] if "--" in words else words
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

    reads = False

    def __init__(self, word: str, entries: list[tuple[Surface, Verb]]) -> None:
        self.word = word
        self.entries = entries
        several = len({s.ruleset for s, _ in entries}) > 1
        params: list[Any] = []
        for surface, verb in entries:
            panel = f"In a {surface.title} {surface.noun}" if several else None
            params += [_shown(p, panel) for p in verb.params]
            params += [
                TyperOption(
                    param_decls=[option],
                    is_flag=True,
                    rich_help_panel=panel,
                    show_default=False,
                    help=" ".join((cls.__doc__ or "").split("\n\n")[0].replace("``", "").split()),
                )
                for option, cls in verb.variants
            ]
        help_text, first = _summary(entries)
        own = entries[0][0]
        globals_ = _global_params(own.selector, own.noun, own.find_game is not None)
        for surface in {s.selector: s for s, _ in entries if s.selector != own.selector}.values():
            # another ruleset's verb of this name names its game its own way (a battle's, a campaign's)
            globals_.insert(2, _global_params(surface.selector, surface.noun, surface.find_game is not None)[1])
        super().__init__(word, help_text, first, entries[0][1].panel or own.panel, params + globals_)

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import give

        give(session, self.word, self.entries, words)


class VerbGroup(TyperGroup):
    """``rk <group> <word> ...``: verbs and queries of two words (``rk item
    gain``, ``rk campaign list``). ``about``: the group's help.

    ``single``: the command the group's word also is on its own (``rk
    reward [BATTLE]`` beside ``rk reward done``; ``rk adventurer NAME``
    beside ``rk adventurer new``), run when the next word names none of
    the group's (``RulesetsGroup.resolve_command``). ``games``: the
    surfaces whose games the group is named after (``campaign``): their
    setup named so (``rk campaign new``) and the generic commands of a game
    (``rk campaign undo``, ``cli.aliases``) join the group."""

    def __init__(
        self,
        word: str,
        entries: list[tuple[Surface, Verb]],
        queries: Sequence[tuple[Surface, Any]] = (),
        about: str = "",
        single: Any = None,
        games: Sequence[Surface] = (),
    ) -> None:
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
        for surface in games:
            setup = surface.setup(word)
            if setup is not None and NEW not in commands:
                commands[NEW] = SetupCommand(surface, setup)
                commands[NEW].name = NEW
            for what in _aliases():
                if what not in commands:
                    commands[what] = GameAlias(surface, what)
        self.single = single
        if single is not None:  # its help names the group's other words
            others = "\n\n".join(f"rk {word} {name}: {c.short_help}" for name, c in commands.items())
            single.help = f"{single.help}\n\nAlso:\n\n{others}"
        first = [*entries, *queries][0] if entries or queries else (games[0], None)
        surface = first[0]
        panel = getattr(single, "rich_help_panel", None) or getattr(first[1], "panel", "") or surface.panel
        super().__init__(
            name=word,
            commands=commands,
            no_args_is_help=True,
            rich_help_panel=panel,
            help=about or surface.groups.get(word, "") or getattr(single, "short_help", ""),
            context_settings={"help_option_names": list(HELP)},
        )


def _aliases() -> tuple[str, ...]:
    from .aliases import COMMANDS

    return tuple(COMMANDS)


class GameAlias(_Declared):
    """``rk <noun> status|legal|log|undo|redo``: a generic command of a
    game, on a game of ``surface`` (``cli.aliases``)."""

    def __init__(self, surface: Surface, what: str) -> None:
        from .aliases import COMMANDS, verb

        self.surface = surface
        self.what = what
        self.reads = COMMANDS[what][2]
        alias = verb(surface, what)
        params = [_shown(p, None) for p in alias.params]
        super().__init__(
            what,
            f"{alias.summary}\n\nrk {usage(alias)}",
            alias.summary,
            None,
            params + _global_params(surface.selector, surface.noun, True),
        )

    def run(self, session: Any, words: list[str]) -> None:
        from .aliases import run

        run(session, self.surface, self.what, words)


class QueryCommand(_Declared):
    """``rk <query> ...``: a ruleset's question (``rk scenarios``)."""

    reads = True

    def __init__(self, surface: Surface, query: Any) -> None:
        self.surface = surface
        self.query = query
        details = f"\n\n{query.details}" if query.details else ""
        params = [_shown(p, None) for p in query.params]
        selector = surface.selector if query.game else None
        super().__init__(
            query.name,
            f"{query.summary}{details}",
            query.summary,
            query.panel or "Setting up",
            params + _global_params(selector, surface.noun, surface.find_game is not None),
        )

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import ask

        ask(session, self.surface, self.query, words)


def _position_param() -> Any:
    return TyperOption(
        param_decls=["--position"],
        metavar="FILE",
        show_default=False,
        help="Start the game from a position file (`rk position` writes one) instead: the other options are not taken.",
    )


class SetupCommand(_Declared):
    """``rk new <setup> ...``: set a game up (its ruleset's one builder), or
    from a position file (``--position``)."""

    reads = False

    def __init__(self, surface: Surface, setup: Setup) -> None:
        self.surface = surface
        self.setup = setup
        details = f"\n\n{setup.details}" if setup.details else ""
        params = [_shown(p, None) for p in setup.verb.params]
        super().__init__(
            setup.name,
            f"{setup.summary}{details}",
            setup.summary,
            None,
            params + [_position_param()] + _global_params(None),
        )

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import set_up

        set_up(session, self.surface, self.setup, words)


class PositionCommand(_Declared):
    """``rk new <ruleset> --position FILE``: a game of a ruleset that is no
    setup's name, started from a position file."""

    reads = False

    def __init__(self, ruleset: str, title: str) -> None:
        self.ruleset = ruleset
        name = TyperOption(
            param_decls=["--name"],
            metavar="NAME",
            show_default=False,
            help="The game's name: the position's own (game.battle_id).",
        )
        super().__init__(
            ruleset,
            f"Start a {title} game from a position file (`rk position` writes one).",
            f"A {title} game from a position file.",
            None,
            [_position_param(), name] + _global_params(None),
        )

    def run(self, session: Any, words: list[str]) -> None:
        from .verbs import from_position

        from_position(session, self.ruleset, words)


class SetupGroup(TyperGroup):
    """``rk new``: one command per setup every ruleset declares, and one
    per ruleset for a game from a position file."""

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        for surface, setup in setups():
            if setup.name == cmd_name:
                return SetupCommand(surface, setup)
        from domain.kernel import ruleset as registry

        if cmd_name.partition("-")[0] in registry.names():
            try:
                rs = registry.load(cmd_name)
            except LookupError:
                return None
            if rs.positioned is not None:
                return PositionCommand(rs.name, rs.title)
        return None

    def list_commands(self, ctx: Context) -> list[str]:
        from domain.kernel import ruleset as registry

        names = list(super().list_commands(ctx))
        names += sorted(setup.name for _, setup in setups() if setup.name not in names)
        return names + [rs.name for rs in registry.all_rulesets() if rs.positioned is not None and rs.name not in names]


class RulesetsGroup(TyperGroup):
    """The top of `rk`: its own commands, then every verb and query the
    rulesets declare, made when they are asked for."""

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        entries = verbs_named(cmd_name)
        queries = queries_named(cmd_name)
        singles = [e for e in entries if len(e[1].words) == 1]
        single_queries = [q for q in queries if len(q[1].name.split()) == 1]
        single = (
            VerbCommand(cmd_name, singles) if singles else QueryCommand(*single_queries[0]) if single_queries else None
        )
        pairs = [e for e in entries if len(e[1].words) == 2]
        paired = [q for q in queries if len(q[1].name.split()) == 2]
        games = games_named(cmd_name)
        if pairs or paired or games:
            return VerbGroup(cmd_name, pairs, paired, single=single, games=games)
        return single

    def resolve_command(self, ctx: Context, args: list[str]) -> Any:
        """A group's word alone, or followed by none of its words, is the
        command it is on its own (``rk reward w1``, ``rk adventurer Ria``)."""
        name, command, rest = super().resolve_command(ctx, args)
        if (
            isinstance(command, VerbGroup)
            and command.single is not None
            and (not rest or rest[0] not in command.commands)
        ):
            return name, command.single, rest
        return name, command, rest

    def list_commands(self, ctx: Context) -> list[str]:
        names = list(super().list_commands(ctx))
        seen = set(names)
        for surface in _surfaces():
            nouns = [surface.noun] if surface.find_game is not None else []
            for word in [q.name.split()[0] for q in surface.queries] + [v.words[0] for v in surface.verbs] + nouns:
                if word not in seen:
                    seen.add(word)
                    names.append(word)
        return names


class GameCommand(TyperCommand):
    """A command every game answers (``rk status``, ``legal``, ``log``,
    ``undo``, ``redo``): besides ``--battle`` it takes each ruleset's own
    selector for the game to act on (``rk undo --campaign saga``), found
    only when a word it does not know is typed or help is asked for, so
    that a plain command never loads the surfaces."""

    SELECTED = "selected_"  # the click names of those options

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._others: list[tuple[tuple[str, str], str]] = []

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        known = {name for p in super().get_params(ctx) for name in (*p.opts, *p.secondary_opts)}
        options = [w.partition("=")[0] for w in args if w.startswith("-") and w != "--"]
        if any(w not in known for w in options) or any(w in HELP for w in options):
            self._others = selectors()
        return super().parse_args(ctx, args)

    def get_params(self, ctx: Context) -> list[Any]:
        params = super().get_params(ctx)
        taken = {name for p in params for name in (*p.opts, *p.secondary_opts)}
        for i, (selector, noun) in enumerate(self._others):
            names = [n for n in selector if n and n not in taken]
            if names:
                params.append(
                    TyperOption(
                        param_decls=[f"{self.SELECTED}{i}", *names],
                        metavar="NAME",
                        rich_help_panel=GLOBAL,
                        show_default=False,
                        help=f"The {noun} to act on, by name or id (as --battle).",
                    )
                )
        return params

    def invoke(self, ctx: Context) -> Any:
        for name in [n for n in ctx.params if n.startswith(self.SELECTED)]:
            value = ctx.params.pop(name)
            if value is not None and ctx.params.get("battle") is None:
                ctx.params["battle"] = value
        return super().invoke(ctx)
