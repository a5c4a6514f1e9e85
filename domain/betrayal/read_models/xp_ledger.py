"""The XP ledger: per adventurer, every XP gained (from which battle's
Reward Phase, REWARD-1) and spent (on which advancement, ADVANCE-2 to
ADVANCE-11), and what the saved-XP cap turned into Tenacity or lost
(ADVANCE-12), with the balance after each line.

Rows carry the command that wrote them; an ``AdventurerRestored`` (an
undone command) names the command it undid, and that command's rows for
that adventurer go. Only campaign commands write XP, and a campaign's
command ids are its own, so the pair (stream, command) finds them.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec

from domain.betrayal.adventurer import events as ae
from domain.betrayal.adventurer.aggregate import AdventurerRestored
from domain.kernel.envelope import Envelope

from domain.kernel.read_model import Projection, handles


class XpLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of an adventurer's XP ledger: ``amount`` gained (positive)
    or spent (negative); ``what`` the battle or the advancement; ``rule``
    the rule it follows; ``balance`` the unspent XP after it."""

    adventurer: str
    command: str
    rule: str
    what: str
    amount: int
    balance: int


class XpLedgerView(Projection):
    """Every XP movement of every adventurer, in append order."""

    name = "xp-ledger-1"
    tables = ("xp_lines",)
    schema = (
        "CREATE TABLE IF NOT EXISTS xp_lines (nid INTEGER, part INTEGER, stream TEXT, command TEXT,"
        " rule TEXT, what TEXT, amount INTEGER, PRIMARY KEY (nid, part))",
        "CREATE INDEX IF NOT EXISTS xp_lines_stream ON xp_lines (stream, command)",
    )

    def _line(
        self, db: sqlite3.Connection, nid: int, env: Envelope, rule: str, what: str, amount: int, part: int = 0
    ) -> None:
        db.execute(
            "INSERT OR REPLACE INTO xp_lines VALUES (?, ?, ?, ?, ?, ?, ?)",
            (nid, part, str(env.originator_id), env.command_id, rule, what, amount),
        )

    @handles(ae.XpGained)
    def gained(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        self._line(db, nid, env, "REWARD-1", f"the rewards of {e.battle_id}", e.xp)

    @handles(ae.StatRaised)
    def stat(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        self._line(db, nid, env, "ADVANCE-4", f"a {e.stat} token, column {e.column + 1}", -e.cost)

    @handles(ae.DieAdded)
    def die(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        self._line(db, nid, env, "ADVANCE-6", f"die {e.uid} ({e.die}), column {e.column + 1}", -e.cost)

    @handles(ae.CooldownRaised)
    def cooldown(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        self._line(db, nid, env, "ADVANCE-9", f"Cooldown {e.to}", -e.cost)

    @handles(ae.TenacityBought)
    def tenacity(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        self._line(db, nid, env, "ADVANCE-11", f"{e.amount} Tenacity", -e.amount)

    @handles(ae.XpCapped)
    def capped(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        if e.tenacity:
            self._line(db, nid, env, "ADVANCE-12", f"{e.tenacity} Tenacity (over the saved cap)", -e.tenacity)
        if e.lost:
            self._line(db, nid, env, "ADVANCE-12", "lost (over the saved cap, Tenacity full)", -e.lost, part=1)

    @handles(AdventurerRestored)
    def restored(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        db.execute("DELETE FROM xp_lines WHERE stream = ? AND command = ?", (str(env.originator_id), e.command_id))


def xp_lines(db: sqlite3.Connection, stream: str, name: str) -> list[XpLine]:
    """The ledger of the adventurer of ``stream``, oldest first."""
    balance = 0
    lines = []
    for command, rule, what, amount in db.execute(
        "SELECT command, rule, what, amount FROM xp_lines WHERE stream = ? ORDER BY nid, part", (stream,)
    ):
        balance += amount
        lines.append(XpLine(adventurer=name, command=command, rule=rule, what=what, amount=amount, balance=balance))
    return lines
