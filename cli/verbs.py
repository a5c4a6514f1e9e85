"""Running what the rulesets declare: a verb's words become its ruleset's
command on the game acted on (``give``), a setup's words a new game
(``set_up``), a query's words its answer (``ask``). No ruleset is named
here: each is found through its surface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.surface import Setup, Surface, Verb, read
from domain.kernel.surface.grammar import make

from .session import Session

if TYPE_CHECKING:
    from .declarations import Shared


def _pull(words: list[str], names: tuple[str, ...]) -> tuple[str | None, list[str]]:
    """The value of the option ``names`` call (``--battle x``, ``-b x``,
    ``--battle=x``) and the other words."""
    found = None
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            rest += words[i:]
            break
        name, eq, value = word.partition("=")
        if name in names and name:
            if eq:
                found = value
            elif i + 1 < len(words):
                found = words[i + 1]
                i += 1
            else:
                raise MalformedCommand(f"{name} needs a value")
            i += 1
            continue
        rest.append(word)
        i += 1
    return found, rest


def _globals(s: Session, words: list[str], declared: set[str]) -> list[str]:
    """Take ``--store`` and ``--json`` out of ``words`` (unless a verb
    declares them itself) into the session."""
    if "--store" not in declared:
        store, words = _pull(words, ("--store",))
        if store is not None:
            s.store = store
    if "--json" not in declared and "--json" in words:
        words = [w for w in words if w != "--json"]
        s.json = True
        s.out.json = True
    return words


USAGE = "usage"  # marks a refusal of words a verb cannot read: a usage error, naming the verb's help


def _read(verb: Verb, words: list[str]) -> tuple[type, dict[str, Any]]:
    """``read``, its refusals marked as usage errors (``cli.declared``
    names the help to read in them)."""
    try:
        return read(verb, words)
    except MalformedCommand as e:
        setattr(e, USAGE, True)
        raise


def _options(verbs: list[Verb]) -> set[str]:
    return {name for v in verbs for p in v.params for name in (p.option, p.short) if name}


def give(s: Session, word: str, entries: list[tuple[Surface, Verb]], words: list[str]) -> None:
    """``rk <word> <words>``: the command of the game acted on, by the verb
    its ruleset declares under ``word`` (``words``: what follows it)."""
    words = _named_game(s, words, _options([v for _, v in entries]), {surface.selector for surface, _ in entries})
    if len(entries) == 1:  # one ruleset's verb: its words are read before any game is looked for
        _read(entries[0][1], words)
    _give(s, _entry(s, word, entries, words)[1], words)


def give_to_game(s: Session, word: str, shared: Shared, words: list[str]) -> None:
    """``give``, for a word several packages declare only as a plain verb
    (``shared``: what ``cli.declarations.shared_verb`` keeps of their
    surfaces): the game is found first, then only its package's surfaces
    are loaded (`rk move` of a Betrayal battle never imports the
    labyrinth's). The same reads, refusals and command as ``give`` given
    every package's verbs of ``word``."""
    from domain.kernel.surface import surface_of

    packages, declared, selectors = shared
    words = _named_game(s, words, set(declared), {(option, short) for option, short in selectors})
    rs = s.ruleset  # as ``_entry`` finds it: no verb of these finds a game of its own
    mine: dict[str, Verb] = {}
    if rs.name.partition("-")[0] in packages:  # only the game's own surface is loaded
        try:
            mine = {rs.name: verb for verb in surface_of(rs.name).verbs if verb.words[0] == word}
        except KeyError:
            pass  # its package declares no surface for it
    if rs.name not in mine:
        from .declarations import verbs_named

        raise MalformedCommand(_not_here(s, word, rs, verbs_named(word)))
    _give(s, mine[rs.name], words)


def _named_game(s: Session, words: list[str], declared: set[str], selectors: set[tuple[str, str]]) -> list[str]:
    """``words`` without ``--store``, ``--json`` and the options naming the
    game (``selectors``, and ``--battle``), which go to the session, unless
    a verb of the word declares them (``declared``) itself."""
    words = _globals(s, words, declared)
    # --battle names any game, as it does before the command (`rk --battle NAME ...`)
    for selector in selectors | {("--battle", "-b")}:
        if selector[0] not in declared:
            named, words = _pull(words, tuple(n for n in selector if n))
            if named is not None:
                s.battle = named
    return words


def _give(s: Session, verb: Verb, words: list[str]) -> None:
    """The command ``verb`` reads in ``words``, executed on the game acted on."""
    from .game import act

    cls, fields = _read(verb, words)
    fields = _read_files(verb, fields)
    if verb.complete is not None:
        fields = verb.complete(s.app, s.battle_id, fields)
    act(s, make(verb, cls, fields))


def _entry(s: Session, word: str, entries: list[tuple[Surface, Verb]], words: list[str]) -> tuple[Surface, Verb]:
    """The ruleset's verb for the game acted on: the one named, else (a verb
    of games that are not battles, such as a campaign's) the game its
    ruleset finds for the command, else the current game, when it is of a
    ruleset declaring the verb. The game found may be another ruleset's,
    whose verb of these words is then given (a promotion mid-battle)."""
    mine = {surface.ruleset: (surface, verb) for surface, verb in entries}
    if not s.battle:
        _find(s, entries, words)
    rs = s.ruleset
    if rs.name not in mine:
        raise MalformedCommand(_not_here(s, word, rs, entries))
    return mine[rs.name]


def _find(s: Session, entries: list[tuple[Surface, Verb]], words: list[str]) -> None:
    """Point ``s`` at the game the first verb of ``entries`` that finds its
    own game finds for ``words`` ("" from it, or words that verb cannot
    read while another ruleset's verb may: the current game)."""
    for surface, verb in entries:
        finder = verb.find_game or surface.find_game
        if finder is None:
            continue
        try:
            _, fields = _read(verb, words)
        except MalformedCommand:
            if all((v.find_game or sf.find_game) is not None for sf, v in entries):
                raise
            return
        found = finder(s.app, fields)
        if found:
            s.set_game(found)
        return


def _not_here(s: Session, word: str, rs: Any, entries: list[tuple[Surface, Verb]]) -> str:
    """Why ``word`` cannot be given to this game, in the players' words."""
    from domain.kernel.surface import surface_of

    titles = sorted({surface.title for surface, _ in entries})
    try:
        ours = surface_of(rs.name)
        noun, title = ours.noun, ours.title
    except KeyError:
        noun, title = "game", rs.title
    return (
        f"{word} is not a command of a {title} {noun} ({' and '.join(titles)} have it): "
        f"`rk legal` lists what may be done in {s.called}"
    )


def set_up(s: Session, surface: Surface, setup: Setup, words: list[str]) -> None:
    """``rk new <setup> <words>``: the game set up by its ruleset's builder."""
    from .battle_names import started
    from .game import report

    declared = _options([setup.verb])
    words = _globals(s, words, declared)
    if "--position" not in declared and any(w.partition("=")[0] == "--position" for w in words):
        return from_position(s, surface.ruleset, words)
    # the old spelling of --name, kept: `rk new clash --battle NAME`; and
    # --name where a setup takes the name as its argument (`rk new campaign NAME`)
    named, words = _pull(words, ("--battle", "-b") + (() if "--name" in declared else ("--name",)))
    _, fields = _read(setup.verb, words)
    fields = _read_files(setup.verb, fields)
    given_pack = fields.pop("pack", None)
    if given_pack:
        _use_pack(s, surface, given_pack)
    if named is not None and "name" not in fields:
        fields["name"] = named
    if "name" not in fields and s.battle:
        fields["name"] = s.battle
    try:
        request: Any = msgspec.convert(fields, setup.request)
    except msgspec.ValidationError as e:
        raise MalformedCommand(f"new {setup.name}: {e}") from None
    result = setup.start(s.app, request)
    game_id = result.battle.state.battle_id
    if s.app.ruleset(game_id).battles:
        started(s, game_id)
    else:  # a game that is not a battle (a campaign) never becomes the current battle
        s.set_game(game_id)
    report(s, result, None, full=True)


def from_position(s: Session, ruleset: str, words: list[str]) -> None:
    """``rk new <ruleset or setup> --position FILE [--name NAME]``: the
    game a position file holds (``cli.positions``)."""
    from .positions import start

    words = _globals(s, words, set())
    file, words = _pull(words, ("--position",))
    named, words = _pull(words, ("--name", "--battle", "-b"))
    if file is None:
        raise _usage(MalformedCommand("--position FILE is needed: the position file to start from"))
    if words:
        raise _usage(MalformedCommand(f"a game from a position takes no other words: {' '.join(words)}"))
    start(s, ruleset, file, named)


def _usage(e: MalformedCommand) -> MalformedCommand:
    setattr(e, USAGE, True)
    return e


def _use_pack(s: Session, surface: Surface, given: str) -> None:
    """``--pack DIR|NAME``: the pack read and checked as the starter pack
    is (a refusal names the file and line, and nothing is written), a copy
    kept under its hash for replay, undo and verify, and the game set up
    with it."""
    from domain.kernel.stores import pack_dirs
    from domain.kernel.ruleset import load

    rs = load(surface.ruleset)
    files = pack_dirs.read(pack_dirs.locate(given))
    pack = rs.load_pack(files)
    pack_dirs.keep(files, pack.hash)
    s.app.use_pack(rs, pack)


MAX_FILE = 1024 * 1024  # bytes of a file named on the command line (a sheet): more is refused


def _read_files(verb: Verb, fields: dict[str, Any]) -> dict[str, Any]:
    """The files a command's parameters name (``File`` kinds), read: each
    value becomes ``{"file": name, "text": content}``."""
    from domain.kernel.surface.kinds import File

    def load(value: dict[str, str]) -> dict[str, str]:
        name = value["file"]
        try:
            with open(name, "rb") as f:
                data = f.read(MAX_FILE + 1)
        except OSError as e:
            raise MalformedCommand(f"cannot read {name}: {e.strerror or e}") from None
        if len(data) > MAX_FILE:
            raise MalformedCommand(f"{name}: larger than {MAX_FILE // 1024} KiB")
        try:
            return {"file": name, "text": data.decode("utf-8")}
        except UnicodeDecodeError as e:
            raise MalformedCommand(f"{name}: not UTF-8 text (byte {e.start})") from None

    out = dict(fields)
    for p in verb.params:
        if isinstance(p.kind, File) and p.name in out:
            out[p.name] = tuple(load(v) for v in out[p.name]) if p.repeat else load(out[p.name])
    return out


def ask(s: Session, surface: Surface, query: Any, words: list[str]) -> None:
    """``rk <query> <words>``: the ruleset's answer, as a document or JSON."""
    words = _globals(s, words, _options([query.verb]))
    if query.game:
        named, words = _pull(words, tuple(n for n in surface.selector if n))
        if named is not None:
            s.battle = named
    _, values = _read(query.verb, words)
    answer = query.answer(s, **values)
    if s.json:
        s.out.emit(answer.data)
        return
    view = answer.view
    if isinstance(view, str) or view is None:
        s.out.print(view or "")
        return
    s.out.document(view)


__all__ = ["NotFound", "ask", "give", "set_up"]
