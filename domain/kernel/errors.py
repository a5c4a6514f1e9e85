"""The three ways a command can fail, kept apart as python-chess keeps
malformed, illegal and ambiguous moves apart; plus errors for bad content
and bad logs."""

from __future__ import annotations


class RulekeeperError(Exception):
    """Base of every error rulekeeper raises on purpose."""


class RuleViolation(RulekeeperError):
    """A well-formed command that the rules forbid now.

    ``rule`` is the rule ID it breaks (``ENGAGE-4``), ``message`` says why in
    one line. Nothing is written when a command raises this.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class MalformedCommand(RulekeeperError):
    """A command that cannot be understood at all (bad syntax, unknown unit)."""


class AmbiguousCommand(RulekeeperError):
    """A command that could mean more than one legal thing; say which."""


class ContentError(RulekeeperError):
    """A content pack that is not valid: names the file, the field and why,
    and the ``line`` the field is written on where it is known."""

    def __init__(self, file: str, field: str, reason: str, line: int | None = None) -> None:
        where = f"line {line} ({field})" if line is not None else field
        super().__init__(f"{file}: {where}: {reason}")
        self.file = file
        self.field = field
        self.reason = reason
        self.line = line


class LogError(RulekeeperError):
    """A battle log that cannot be imported: names the line and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


# What a second writer is told (``ConcurrencyError``), whoever wrote first.
MOVED_ON = "the battle moved on: another command was saved first; reload and try again"


class ConcurrencyError(RulekeeperError):
    """Another writer appended to the same battle first; nothing was written.
    ``version``: where the battle is now, when known."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.version = version


class InternalError(Exception):
    """What the rules never let happen happened: a bug, never a refusal.

    Raised by a narrowing helper that reads as set a value every path of the
    rules sets before it is read (a waiting roll in the phase that waits on
    it, the hex of the unit whose turn it is), so that a type checker knows
    it is set. Not a ``RulekeeperError``: no adapter shows it to a player as
    a refused command. Where a player's command can reach the unset case,
    the rules refuse it with a rule ID instead."""


class NotFound(RulekeeperError):
    """No battle (or adventurer) with that id or name."""
