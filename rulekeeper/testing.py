"""Given / when / then for tests of your own, over the API.

    def test_a_second_engage_is_refused(given):
        start = given.setup("clash", setup="waystone-crossing", party=[{"name": "Ria", "race": "nord"}], seed=1)
        start.after("move c3").when("engage e1").then_refused("ENGAGE-4")

``given`` is the pytest plugin's fixture (``rulekeeper.pytest_plugin``): a
``Given`` with no game yet, on the test's own in-memory store. A ``Given``
is a game to test against, set up (``setup``), loaded from a portable log
(``log``, optionally taken back to a version), or one in hand (``game``),
with commands given first (``after``). ``when`` gives one command for
real and returns a ``Then``, whose checks say what should have happened:
these events (``then``), these among them (``then_has``), these rules
cited (``then_cites``), this refusal (``then_refused``, with its rule ID).
A failed check shows what happened, narrated as `rk` says it, beside what
was expected (pytest's assertion rewriting is on for this module).

An expected event is an event class (any event of that class), an event
(equal, every field), or a line as the narrator says it (exact, or its
beginning when it ends with ``...``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.kernel.errors import MalformedCommand, RulekeeperError, RuleViolation

from .game import Command, Game, Played
from .keeper import Rulekeeper

ELLIPSIS = "..."

Expected = Any  # an event class, an event, or a narrated line (see the module docstring)


@dataclass(frozen=True)
class Given:
    """A game to test against (``game`` None: none set up yet), in
    ``keeper``'s store. Each builder returns a new ``Given``."""

    keeper: Rulekeeper
    game: Game | None = None

    # -- how the game starts ---------------------------------------------------

    def setup(self, setup: str, /, **fields: Any) -> Given:
        """A new game, as ``Rulekeeper.new(setup, **fields)`` sets it up
        (pass a ``seed`` for the same dice every run)."""
        return Given(self.keeper, self.keeper.new(setup, **fields))

    def log(self, log: Any, *, at: int | None = None) -> Given:
        """The game of a portable log (bytes, a path, a file), imported;
        ``at``: taken back, by forced undos, to its state at that version
        (``Game.undo_to``), so that ``when`` plays on from there."""
        game = self.keeper.load(log)
        if at is not None:
            game.undo_to(at)
        return Given(self.keeper, game)

    def of(self, game: Game) -> Given:
        """A game in hand (of this ``keeper``'s store)."""
        return Given(self.keeper, game)

    def position(self, position: Any) -> Given:
        """A new game started from a position file (a path or its text), as
        ``Rulekeeper.from_position`` starts it."""
        return Given(self.keeper, self.keeper.from_position(position))

    def after(self, *commands: Command | str) -> Given:
        """The game with ``commands`` given to it first (lines or commands,
        played on it for real), each of which must be accepted (else the
        test fails, saying which)."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        game = self._game()
        for command in commands:
            try:
                game.play(command)
            except RulekeeperError as refused:
                pytest.fail(f"given: {_shown(game, command)} was refused: {refused}", pytrace=False)
        return self

    # -- when ------------------------------------------------------------------

    def when(self, command: Command | str) -> Then:
        """Give ``command`` (a line or a command) for real; the ``Then``
        holds what it did, or why it was refused."""
        game = self._game()
        return _then(self, _shown(game, command), lambda: game.play(command))

    def when_undo(self, *, force: bool = False) -> Then:
        """Undo the last command (``force``: past dice or a draw)."""
        game = self._game()
        return _then(self, "undo" + (" --force" if force else ""), lambda: game.undo(force=force))

    def when_redo(self) -> Then:
        """Redo the last undone command."""
        game = self._game()
        return _then(self, "redo", game.redo)

    # -- reading ---------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The game's state now."""
        return self._game().state

    def legal_lines(self) -> list[str]:
        """What may be given now, as lines."""
        return self._game().legal_lines()

    def _game(self) -> Game:
        if self.game is None:
            raise ValueError("given no game: start with given.setup(...), given.log(...) or given.of(game)")
        return self.game


@dataclass(frozen=True)
class Then:
    """What one command did (``played``) or why it was refused
    (``refused``), with checks that fail the test, readably, when it is
    not what was expected. Each check returns the ``Then`` again (but
    ``then_refused``, which returns the refusal)."""

    given: Given = field(repr=False)
    command: str
    version_before: int
    played: Played | None = None
    refused: RulekeeperError | None = None

    @property
    def game(self) -> Game:
        """The game the command was given to."""
        return self.given._game()

    @property
    def events(self) -> tuple[Any, ...]:
        """The command's events (none if it was refused)."""
        return self.played.events if self.played is not None else ()

    @property
    def lines(self) -> tuple[str, ...]:
        """The command's events, narrated."""
        return self.played.lines if self.played is not None else ()

    @property
    def state(self) -> Any:
        """The game's state after the command."""
        return self.game.state

    def then(self, *expected: Expected) -> Then:
        """The command was accepted, and its events are exactly these, in order."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        happened = _rendered(self._accepted(), expected)
        wanted = [_wanted(e) for e in expected]
        assert happened == wanted, f"`{self.command}`: the events differ from those expected; it did:\n" + _listed(
            self.lines
        )
        return self

    def then_has(self, *expected: Expected) -> Then:
        """The command was accepted, and these are among its events, in this order."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        played = self._accepted()
        at = 0
        for want in expected:
            while at < len(played.events) and not _matches(played.events[at], played.lines[at], want):
                at += 1
            if at == len(played.events):
                pytest.fail(
                    f"`{self.command}`: no event {_wanted(want)!r} (after those before it in the "
                    f"list) among:\n" + _listed(played.lines),
                    pytrace=False,
                )
            at += 1
        return self

    def then_lacks(self, *unwanted: Expected) -> Then:
        """The command was accepted, and none of its events is any of these."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        played = self._accepted()
        found = [
            line for event, line in zip(played.events, played.lines) if any(_matches(event, line, u) for u in unwanted)
        ]
        assert found == [], f"`{self.command}`: events that should not be there"
        return self

    def then_cites(self, *rules: str) -> Then:
        """The command was accepted, and its events cite exactly these rule
        IDs, in order (an event citing none is skipped)."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        played = self._accepted()
        cited = [r for r in (_cited(self.game, e) for e in played.events) if r]
        assert cited == list(rules), f"`{self.command}`: the rules its events cite differ:\n" + _listed(played.lines)
        return self

    def then_state(self, check: Callable[[Any], Any] | None = None, /, **fields: Any) -> Then:
        """The command was accepted, and the state after it has these field
        values (``phase=...``), and ``check(state)`` is true."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        self._accepted()
        state = self.state
        got = {name: getattr(state, name) for name in fields}
        assert got == fields, f"`{self.command}`: the state after it differs"
        if check is not None:
            assert check(state), f"`{self.command}`: the state after it fails {getattr(check, '__name__', check)}"
        return self

    def then_refused(self, rule: str, reason: str | None = None) -> RuleViolation:
        """The rules refused the command citing ``rule`` (and, if given,
        saying ``reason`` in their message), and nothing was written."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        refused = self.refused
        if refused is None:
            pytest.fail(
                f"`{self.command}` was accepted, where {rule} should refuse it; it did:\n" + _listed(self.lines),
                pytrace=False,
            )
        if not isinstance(refused, RuleViolation):
            pytest.fail(
                f"`{self.command}` was refused as {type(refused).__name__}, not by rule {rule}: {refused}",
                pytrace=False,
            )
        assert refused.rule == rule, f"`{self.command}` was refused by another rule: {refused}"
        if reason is not None:
            assert reason in refused.message, f"`{self.command}` was refused for another reason"
        assert self.game.version == self.version_before, f"`{self.command}` was refused but wrote events"
        return refused

    def then_malformed(self, words: str | None = None) -> MalformedCommand:
        """The command could not be understood (``MalformedCommand``, whose
        message holds ``words`` if given); nothing was written."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        refused = self.refused
        if not isinstance(refused, MalformedCommand):
            pytest.fail(
                f"`{self.command}` should be malformed; "
                + ("it was accepted:\n" + _listed(self.lines) if refused is None else f"it was refused: {refused}"),
                pytrace=False,
            )
        if words is not None:
            assert words in str(refused), f"`{self.command}` is malformed for another reason"
        assert self.game.version == self.version_before, f"`{self.command}` was refused but wrote events"
        return refused

    def and_when(self, command: Command | str) -> Then:
        """The next command, from the game as this one left it."""
        __tracebackhide__ = True  # a failure points at the test's line, not here
        self._accepted()
        return self.given.when(command)

    def _accepted(self) -> Played:
        __tracebackhide__ = True
        if self.played is None:
            pytest.fail(f"`{self.command}` was refused: {self.refused}", pytrace=False)
        return self.played


def _then(given: Given, command: str, act: Callable[[], Played]) -> Then:
    before = given._game().version
    try:
        return Then(given, command, before, played=act())
    except RulekeeperError as refused:
        return Then(given, command, before, refused=refused)


def _shown(game: Game, command: Command | str) -> str:
    return command if isinstance(command, str) else game.spell(command)


def _matches(event: Any, line: str, want: Expected) -> bool:
    if isinstance(want, type):
        return isinstance(event, want)
    if isinstance(want, str):
        return line.startswith(want[: -len(ELLIPSIS)]) if want.endswith(ELLIPSIS) else line == want
    return bool(event == want)


def _wanted(want: Expected) -> str:
    """An expected event as a failure shows it."""
    if isinstance(want, type):
        return f"<{want.__name__}>"
    return want if isinstance(want, str) else repr(want)


def _rendered(played: Played, expected: tuple[Expected, ...]) -> list[str]:
    """Each event as the expectation at its place is written (its class,
    its repr, its line); those past the expected ones as lines."""
    out = []
    for n, (event, line) in enumerate(zip(played.events, played.lines)):
        want = expected[n] if n < len(expected) else line
        if _matches(event, line, want):
            out.append(_wanted(want))
        elif isinstance(want, type):
            out.append(f"<{type(event).__name__}>  {line}")
        elif isinstance(want, str):
            out.append(line)
        else:
            out.append(repr(event))
    return out


def _cited(game: Game, event: Any) -> str:
    from domain.kernel import narration, ruleset

    return narration.cited(ruleset.load(game.ruleset), event)


def _listed(lines: tuple[str, ...] | list[str]) -> str:
    return "\n".join(f"  {line}" for line in lines) or "  (no events)"
