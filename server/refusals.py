"""Every refusal as one JSON answer with a fitting status: the same rule ID
and reason the CLI prints, never a traceback (DESIGN: errors)."""

from __future__ import annotations

import msgspec

from domain.kernel.errors import (
    AmbiguousCommand,
    ConcurrencyError,
    ContentError,
    LogError,
    MalformedCommand,
    NotFound,
    RuleViolation,
    RulekeeperError,
)

from .store_down import StoreDown
from .wire import Refusal


class Refused(RulekeeperError):
    """A request the server itself refuses (a pass without the right, a
    stale version, a body too large), with its status and answer."""

    def __init__(self, status: int, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.status = status
        self.refusal = refusal


def forbidden(rule: str, reason: str) -> Refused:
    """403: this pass may not (``rule`` is the SEAT rule it breaks)."""
    return Refused(403, Refusal(error="forbidden", rule=rule, reason=f"{rule}: {reason}"))


def unauthorized(reason: str) -> Refused:
    """401: no token, or one that is no pass here."""
    return Refused(401, Refusal(error="unauthorized", reason=reason))


def gone(reason: str) -> Refused:
    """410: the game was deleted (`rk delete`); `rk restore` brings it back."""
    return Refused(410, Refusal(error="gone", reason=reason))


def malformed(reason: str) -> Refused:
    """400: a request that cannot be understood."""
    return Refused(400, Refusal(error="malformed", reason=reason))


def refusal_of(error: BaseException) -> tuple[int, Refusal] | None:
    """The status and answer for an error of the rules or of the request;
    None for anything else (a bug: logged by the server, 500 to the client
    without its details)."""
    if isinstance(error, Refused):
        return error.status, error.refusal
    if isinstance(error, StoreDown):
        return 503, Refusal(error="unavailable", reason=str(error))
    if isinstance(error, RuleViolation):
        return 422, Refusal(error="rule", rule=error.rule, reason=str(error))
    if isinstance(error, ConcurrencyError):
        return 409, Refusal(error="moved-on", reason=str(error), version=error.version)
    if isinstance(error, NotFound):
        return 404, Refusal(error="not-found", reason=str(error))
    if isinstance(error, (MalformedCommand, AmbiguousCommand, LogError, ContentError)):
        return 400, Refusal(error="malformed", reason=str(error))
    if isinstance(error, msgspec.ValidationError):
        return 400, Refusal(error="malformed", reason=f"the request does not fit: {error}")
    if isinstance(error, msgspec.DecodeError):
        return 400, Refusal(error="malformed", reason=f"the body is not valid JSON: {error}")
    return None
