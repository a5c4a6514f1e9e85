"""What became of a game's commitment to its seed, as a log's pass
finds it (``domain.kernel.fairness``): the setup commits, the command that
ends the game reveals, and the reveal must match."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.kernel import fairness
from domain.kernel.commandlog import CommandIssued
from domain.kernel.portable.diff import Divergence, divergence
from domain.kernel.ruleset import Ruleset

if TYPE_CHECKING:
    from domain.kernel.portable.redecide import Step


class SeedCheck:
    """The commitment to a game's seed against its reveal
    (``domain.kernel.fairness``): the setup's commitment must be the hash
    of the seed the game was set up with and its salt (SEED-1); the command
    that ends the game reveals the seed and salt (SEED-2), which must hash
    to the commitment (SEED-1) and be the seed every roll and draw derived
    from (SEED-2); no other command reveals it."""

    def __init__(self) -> None:
        self.commitment = ""
        self.committed_at = 0
        self.revealed_at = 0

    def check(self, rs: Ruleset, step: Step, label: Callable[[CommandIssued], Any]) -> Divergence | None:
        head = step.group[0]
        issued = head.event
        if not isinstance(issued, CommandIssued):
            if self.revealed_at and step.after is not None and not rs.summary(step.after.state).over:
                self.revealed_at = 0  # a forced undo took the end back: the game goes on, with its seed known
            return None
        if not (self.commitment or issued.commitment or issued.salt or issued.revealed):
            return None  # a game set up before seeds were committed
        line, name = head.line, _Lazy(label, issued)  # spelled only for a divergence
        if step.before is None:
            return self._setup(step, issued, line, name)
        if issued.commitment or issued.salt:
            return divergence(
                line,
                name(),
                fairness.COMMITTED,
                "a commitment in the setup's line only",
                f"commitment {issued.commitment!r} on a later command",
            )
        ended = rs.summary(step.after.state).over and not rs.summary(step.before.state).over
        reveal = issued.revealed
        if reveal is None:
            if ended and self.commitment:
                return divergence(
                    line,
                    name(),
                    fairness.REVEALED,
                    "the seed and salt revealed with the command that ends the game",
                    "no reveal",
                )
            return None
        if not ended:
            return divergence(
                line,
                name(),
                fairness.REVEALED,
                "a reveal only with the command that ends the game",
                f"seed {reveal.seed} revealed while the game goes on",
            )
        if not self.commitment:
            return divergence(
                line,
                name(),
                fairness.COMMITTED,
                "a reveal only of a seed committed at the setup",
                f"seed {reveal.seed} revealed, no commitment at the setup",
            )
        if not fairness.matches(self.commitment, reveal.seed, reveal.salt):
            hashed = _hashed(reveal.seed, reveal.salt)
            return divergence(
                line,
                name(),
                fairness.COMMITTED,
                f"a seed and salt that hash to the commitment of line {self.committed_at}, {self.commitment}",
                f"seed {reveal.seed} with salt {reveal.salt!r}, which hash to {hashed}: the reveal"
                " does not match the commitment",
            )
        used = fairness.seed_of(step.before.state)
        if reveal.seed != used:
            return divergence(
                line,
                name(),
                fairness.REVEALED,
                f"seed {used}, the one every roll and draw derived from",
                f"seed {reveal.seed} revealed",
            )
        self.revealed_at = line
        return None

    def _setup(self, step: Step, issued: CommandIssued, line: int, name: Any) -> Divergence | None:
        if issued.revealed is not None:
            return divergence(line, name(), fairness.REVEALED, "no reveal at the setup", "a reveal at the setup")
        if not issued.commitment and not issued.salt:
            return None  # set up before seeds were committed
        seed = fairness.seed_of(step.after.state)
        if seed is None or not fairness.matches(issued.commitment, seed, issued.salt):
            return divergence(
                line,
                name(),
                fairness.COMMITTED,
                "a commitment that is the hash of the game's seed and the salt beside it",
                f"commitment {issued.commitment!r}, but seed {seed} with salt {issued.salt!r}"
                f" hash to {_hashed(seed, issued.salt)}",
            )
        self.commitment, self.committed_at = issued.commitment, line
        return None

    def words(self) -> str:
        """What verification found of the seed, in a line."""
        if not self.commitment:
            return "seed: no commitment (a game set up before seeds were committed)"
        if not self.revealed_at:
            return (
                f"seed: committed at line {self.committed_at} ({fairness.short(self.commitment)}),"
                " not yet revealed: the game goes on"
            )
        return (
            f"seed: revealed at line {self.revealed_at}; it matches the commitment of line"
            f" {self.committed_at} ({fairness.short(self.commitment)}) and every roll and draw derived from it"
        )


class _Lazy:
    """A command's label, spelled when first asked for."""

    def __init__(self, label: Callable[[CommandIssued], Any], issued: CommandIssued) -> None:
        self.label, self.issued = label, issued

    def __call__(self) -> Any:
        return self.label(self.issued)


def _hashed(seed: Any, salt: Any) -> str:
    try:
        return fairness.commit(int(seed), str(salt))
    except (ValueError, TypeError, OverflowError):
        return "nothing (not a seed and a salt of hex digits)"
