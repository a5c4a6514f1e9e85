"""``Rulekeeper``: a store of games, and the ways a game starts in it.

The same application the command line, the server and the tests play
through (``domain.kernel.games.GameApp``), opened on an in-memory store
unless told otherwise, with the setups every ruleset declares
(``domain.kernel.surface``). No ruleset is named here: the setup a caller
names picks its ruleset.
"""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Union

import msgspec

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.games import GameApp
from domain.kernel.portable.parse import Source

from .game import Game

if TYPE_CHECKING:
    from domain.kernel.portable import Report

PackFiles = Union[str, "os.PathLike[str]", Mapping[str, bytes]]  # a pack's folder, or its files by name


class Rulekeeper:
    """Games of every ruleset in one store.

    ``store``: ``"memory"`` (the default: nothing outlives the object), an
    SQLite file (``"games.db"``, ``"sqlite:PATH"``), or
    ``"postgresql://..."``; ``None`` reads ``RULEKEEPER_STORE`` as `rk`
    does. Use it as a context manager, or ``close()`` it.

        with Rulekeeper() as keeper:
            game = keeper.new("conquest", scenario="border-clash", armies=["saltmarch", "cinderpact"], seed=7)
            print(game.legal_lines())
    """

    def __init__(self, store: str | os.PathLike[str] | None = "memory") -> None:
        self.app = GameApp(None if store is None else os.fspath(store))
        """The kernel's application underneath (``domain.kernel.games.GameApp``),
        for what this API does not cover; it may change between versions."""

    def __enter__(self) -> Rulekeeper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the store (its connections, for SQLite and PostgreSQL)."""
        self.app.close()

    # -- what can be set up --------------------------------------------------------

    @staticmethod
    def setups() -> dict[str, str]:
        """Every setup that starts a game (what ``new`` takes, as `rk new`
        lists them), with the ruleset it starts a game of."""
        from domain.kernel.surface import surfaces

        return {setup.name: surface.ruleset for surface in surfaces() for setup in surface.setups}

    @staticmethod
    def setup_fields(setup: str) -> list[str]:
        """The fields ``new(setup, ...)`` takes (those of its request)."""
        return [f.name for f in msgspec.structs.fields(_setup(setup)[1].request)]

    @staticmethod
    def setup_examples(setup: str) -> list[dict[str, Any]]:
        """Fields that set a game of ``setup`` up, as its ruleset offers them
        (what the contract suite plays every ruleset from)."""
        return [dict(example) for example in _setup(setup)[1].examples]

    @staticmethod
    def starter_pack(ruleset: str) -> dict[str, bytes]:
        """The files of ``ruleset``'s starter content pack, by name: the
        start of a house variant (change a file, pass the result to
        ``new(..., pack=...)``). Every ruleset keeps them in its package's
        ``content`` folder."""
        from importlib import resources

        from domain.kernel import ruleset as registry

        folder = resources.files(f"domain.{registry.load(ruleset).namespace}.content")
        return {
            p.name: p.read_bytes() for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".toml")
        }

    # -- starting a game -----------------------------------------------------------

    def new(self, setup: str, /, *, pack: PackFiles | None = None, **fields: Any) -> Game:
        """Set a game up, as `rk new SETUP ...` does: ``fields`` are the
        setup's request (``setup_fields``; as the server's JSON takes
        them, e.g. ``party=[{"name": "Ria", "race": "nord"}]``), ``name``
        the game's id (default: from the setup and a number) and ``seed``
        the seed of every roll (default: a random one). ``pack``: a
        content pack of your own, its folder or its files by name
        (``starter_pack``), checked as the starter pack is, for this game
        alone: the game records its hash, and is played with it from then
        on. A refusal raises ``MalformedCommand``, ``RuleViolation`` or
        ``ContentError`` and writes nothing."""
        surface, found = _setup(setup)
        try:
            request = msgspec.convert(fields, found.request)
        except msgspec.ValidationError as e:
            raise MalformedCommand(f"new {setup}: {e}") from None
        if pack is None:
            return Game(self.app, found.start(self.app, request).battle.state.battle_id)
        from domain.kernel import ruleset as registry

        rs = registry.load(surface.ruleset)
        usual = self.app.pack_of(rs)
        self.app.use_pack(rs, _pack(rs, pack))
        try:
            return Game(self.app, found.start(self.app, request).battle.state.battle_id)
        finally:
            self.app.use_pack(rs, usual)  # the next game is set up with the usual pack again

    def load(self, log: Source) -> Game:
        """A game from its portable log (``rk export``'s JSON Lines: bytes,
        a path or a binary file), imported into this store after every
        line was checked and every command re-decided; ``LogError`` names
        the first line at fault and nothing is written. A group log (a
        campaign with its battles) brings every game it holds and gives
        its lead game."""
        from domain.kernel.portable import import_log

        return Game(self.app, import_log(self.app, log))

    def from_position(self, position: str | os.PathLike[str]) -> Game:
        """A game started from a position file (a path, or the text of
        one), as `rk new <ruleset> --position FILE` starts it: under the
        ruleset and the name the position gives. A position the rules
        cannot hold raises ``PositionRefused`` (a ``MalformedCommand``)
        naming its line and why, and nothing is written."""
        from domain.kernel.position.at import start

        if isinstance(position, str) and "\n" in position:
            text = position
        else:
            text = Path(position).read_text(encoding="utf-8")
        return Game(self.app, start(self.app, text).battle.state.battle_id)

    # -- finding games -------------------------------------------------------------

    def game(self, name: str | None = None) -> Game:
        """The game called ``name`` (its id or the name it was renamed to);
        without a name, the battle set up last. ``NotFound`` if none."""
        if name is None:
            return Game(self.app, self.app.latest_battle())
        return Game(self.app, self.app.find_battle(name).battle_id)

    def games(self) -> list[Game]:
        """Every game in the store, not deleted, in the order they were set up."""
        index = self.app.index()
        return [
            Game(self.app, g.battle_id)
            for g in self.app.battles()
            if not getattr(index.get(g.battle_id), "deleted", False)
        ]


def verify(log: Source, pack: PackFiles | None = None) -> Report:
    """Check a portable log without importing it: the hash chain, every
    command re-decided and every roll re-derived with the current rules.
    A ``domain.kernel.portable.Report``: ``ok``, and ``summary()`` naming
    the first divergence (line, command, rule, expected, found).
    ``pack``: the content pack it was played with (its folder or its
    files, as ``Rulekeeper.new`` takes it), when not the starter pack."""
    from domain.kernel.portable import verify_log

    if pack is None:
        return verify_log(log)
    from domain.kernel import ruleset as registry

    data = _read(log)
    header = msgspec.json.decode(data.split(b"\n", 1)[0])  # the ruleset whose pack it is
    return verify_log(data, _pack(registry.load(str(header.get("ruleset", ""))), pack))


def _pack(rs: Any, pack: PackFiles) -> Any:
    """``rs``'s content pack from a folder or from its files, checked."""
    if isinstance(pack, Mapping):
        return rs.load_pack(dict(pack))
    from domain.kernel.stores import pack_dirs

    return rs.load_pack(pack_dirs.read(Path(pack)))


def _read(log: Source) -> bytes:
    """A log's bytes, from bytes, a path or a binary file."""
    if isinstance(log, (bytes, bytearray, memoryview)):
        return bytes(log)
    if isinstance(log, (str, os.PathLike)):
        return Path(log).read_bytes()
    return log.read()


def _setup(name: str) -> tuple[Any, Any]:
    """The surface and the setup called ``name``; ``NotFound`` names them all."""
    from domain.kernel.surface import surfaces

    for surface in surfaces():
        for setup in surface.setups:
            if setup.name == name:
                return surface, setup
    there = ", ".join(sorted(Rulekeeper.setups()))
    raise NotFound(f"no setup {name!r}; there are: {there}")
