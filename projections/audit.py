"""The audit view: one readable line per event, citing rule IDs, undos marked.

Each line carries its stream (``battle:b3-1``, ``adventurer:Ysolda``,
``index``), version, command id and the rule it applies: the event's own
``rule`` when it carries one, else the rule its type stands for
(``EngageDeclared`` -> ENGAGE-5, ...), or the rule a ``reason`` starts with.

A battle's audit also holds the adventurer-stream events its commands wrote
(creation at setup, write-back at the end, restores on undo): a command's
``CommandIssued`` lists the streams it ``touched``, and those envelopes follow
it in the same append, so the projection attributes them to that battle.
When a ``CommandUndone`` arrives, every line of the undone command (in every
stream) is marked undone, and ``forced`` when the undo crossed a roll or a
draw.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import msgspec

from domain.betrayal import adventurer as adv
from domain.betrayal import commands as cmd
from domain.betrayal import events as ev
from domain.betrayal.application import INDEX_STREAM, BattleRegistered, battle_stream
from domain.betrayal.citations import cited_rule
from domain.kernel.envelope import Envelope
from domain.kernel.hexes import name

from .runner import Projection, handles


class AuditLine(msgspec.Struct, frozen=True, kw_only=True):
    """One event of a battle, in append order.

    ``stream`` names the stream (``battle:<id>``, ``adventurer:<name>``,
    ``index``); ``rule`` the rule IDs it applies ("" when none is specific);
    ``undone`` marks events of a command later undone, with ``undone_by``
    the undo's command id and ``forced`` when that undo crossed randomness.
    """

    notification_id: int
    stream: str
    version: int
    command_id: str
    at: str
    event: str
    rule: str
    text: str
    undone: bool
    forced: bool
    undone_by: str


class AuditView(Projection):
    """Lines by notification id, attributed to a battle stream."""

    name = "audit"
    tables = ("audit_lines", "audit_streams", "audit_touched")
    schema = (
        "CREATE TABLE IF NOT EXISTS audit_lines (notification_id INTEGER PRIMARY KEY,"
        " battle TEXT, stream TEXT, label TEXT, version INTEGER, command_id TEXT, at TEXT,"
        " event TEXT, rule TEXT, text TEXT, undone INTEGER, forced INTEGER, undone_by TEXT)",
        "CREATE INDEX IF NOT EXISTS audit_by_battle ON audit_lines (battle, command_id)",
        # battle: a battle stream's own id; for an adventurer stream, the
        # battle whose command is writing to it now ('' before any).
        "CREATE TABLE IF NOT EXISTS audit_streams (stream TEXT PRIMARY KEY, battle TEXT,"
        " label TEXT)",
        "CREATE TABLE IF NOT EXISTS audit_touched (battle TEXT, command_id TEXT, stream TEXT,"
        " PRIMARY KEY (battle, command_id, stream))",
    )

    @handles(*ev.all_event_types(), adv.AdventurerCreated, adv.BattleConcluded,
             adv.AdventurerRestored, BattleRegistered)
    def line(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        stream = str(env.originator_id)
        e = env.event
        self._learn(db, stream, env)
        battle, label = _stream(db, stream)
        if isinstance(e, BattleRegistered):
            battle = str(battle_stream(e.battle_id))
        rule, text = describe(e)
        db.execute(
            "INSERT OR REPLACE INTO audit_lines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, '')",
            (nid, battle, stream, label, env.originator_version, env.command_id,
             env.timestamp.isoformat(), type(e).__name__, rule, text),
        )
        if isinstance(e, ev.CommandUndone):
            db.execute(
                "UPDATE audit_lines SET undone = 1, forced = ?, undone_by = ?"
                " WHERE battle = ? AND command_id = ? AND notification_id < ?",
                (int(e.forced), env.command_id, battle, e.command_id, nid),
            )

    def _learn(self, db: sqlite3.Connection, stream: str, env: Envelope) -> None:
        """Keep stream labels and which battle an adventurer stream writes for."""
        e = env.event
        if isinstance(e, adv.AdventurerCreated):
            _set_stream(db, stream, "", f"adventurer:{e.state.name}")
        elif isinstance(e, ev.CommandIssued):
            if isinstance(e.command, cmd.StartClash):
                _set_stream(db, stream, stream, f"battle:{e.command.battle_id}")
                # The new adventurers were created just before, in the same
                # append, when no battle was known yet: claim their lines.
                for member in e.command.party:
                    _set_stream(db, member.adventurer_id, stream, f"adventurer:{member.name}")
                    db.execute(
                        "UPDATE audit_lines SET battle = ? WHERE stream = ? AND battle = ''",
                        (stream, member.adventurer_id),
                    )
            for touched, _version in e.touched:
                db.execute(
                    "INSERT OR IGNORE INTO audit_touched VALUES (?, ?, ?)",
                    (stream, e.command_id, touched),
                )
                _claim(db, touched, stream)
        elif isinstance(e, ev.CommandUndone):
            for (touched,) in db.execute(
                "SELECT stream FROM audit_touched WHERE battle = ? AND command_id = ?",
                (stream, e.command_id),
            ).fetchall():
                _claim(db, touched, stream)


def _stream(db: sqlite3.Connection, stream: str) -> tuple[str, str]:
    found = db.execute("SELECT battle, label FROM audit_streams WHERE stream = ?", (stream,)).fetchone()
    if found is not None:
        return found
    return ("", "index" if stream == str(INDEX_STREAM) else stream)


def _set_stream(db: sqlite3.Connection, stream: str, battle: str, label: str) -> None:
    db.execute("INSERT OR REPLACE INTO audit_streams VALUES (?, ?, ?)", (stream, battle, label))


def _claim(db: sqlite3.Connection, stream: str, battle: str) -> None:
    """The next events of adventurer ``stream`` belong to ``battle``."""
    db.execute(
        "INSERT INTO audit_streams VALUES (?, ?, ?)"
        " ON CONFLICT (stream) DO UPDATE SET battle = excluded.battle",
        (stream, battle, stream),
    )


# -- reading -------------------------------------------------------------------


def audit_lines(db: sqlite3.Connection, stream: str) -> list[AuditLine]:
    """Every line attributed to battle ``stream``, in append order."""
    rows = db.execute(
        "SELECT notification_id, label, version, command_id, at, event, rule, text,"
        " undone, forced, undone_by FROM audit_lines WHERE battle = ? ORDER BY notification_id",
        (stream,),
    )
    return [
        AuditLine(
            notification_id=nid, stream=label, version=version, command_id=command_id, at=at,
            event=event, rule=rule, text=text, undone=bool(undone), forced=bool(forced),
            undone_by=undone_by,
        )
        for nid, label, version, command_id, at, event, rule, text, undone, forced, undone_by in rows
    ]


# -- the words -----------------------------------------------------------------


def describe(e: Any) -> tuple[str, str]:
    """(rule IDs, a readable sentence) for one event."""
    say = _SAY.get(type(e))
    return cited_rule(e), (say(e) if say else type(e).__name__)


def _hex(h: tuple[int, int] | None) -> str:
    return "off the map" if h is None else name(tuple(h))


def _ids(values: Any) -> str:
    return ",".join(str(v) for v in values) or "none"


def _command(c: Any) -> str:
    """A command in a few words: "Move to 3,2", "Engage magic at e1 with 1,4"."""
    if isinstance(c, cmd.StartClash):
        names = ", ".join(m.name for m in c.party)
        return f"StartClash {c.battle_id} on {c.setup}, party {names}, XP {c.xp}, seed {c.seed}"
    if isinstance(c, cmd.Move):
        return f"Move to {_hex(c.to)}"
    if isinstance(c, cmd.Engage):
        at = f" at {c.target}" if c.target else ""
        typed = f", typed faces {_ids(c.faces)}" if c.faces is not None else ""
        return f"Engage {c.form.value}{at} with dice {_ids(c.dice)}{typed}"
    if isinstance(c, cmd.Resolve):
        return f"Resolve, skipping {_ids(c.skip)}" if c.skip else "Resolve"
    if isinstance(c, cmd.ClearActive):
        return f"ClearActive slot {c.slot}"
    if isinstance(c, cmd.RollEnemyDice):
        return f"RollEnemyDice faces {_ids(c.faces)}"
    return type(c).__name__




def _rolled(e: ev.DiceRolled) -> str:
    dice = ", ".join(f"{d.die}#{d.uid} face {d.face}" for d in e.dice)
    return f"{e.unit} rolls {dice}" + (" (typed)" if e.typed else "")


def _damage(e: ev.DamageDealt) -> str:
    kind = " true" if e.true_damage else ""
    return (
        f"{e.source} deals {e.amount}{kind} damage to {e.target}: {e.prevented} prevented,"
        f" {e.to_bonus} from bonus HP, {e.to_hp} from HP; {e.hp} HP left"
    )


_SAY: dict[type, Callable[[Any], str]] = {
    ev.CommandIssued: lambda e: f"command {e.command_id}: {_command(e.command)}"
    + (f" (redo of {e.redo_of})" if e.redo_of else ""),
    ev.CommandUndone: lambda e: f"undo of {e.command_id}"
    + ("; forced across dice or a draw already revealed" if e.forced else ""),
    ev.BattleStarted: lambda e: (
        f"clash {e.battle_id} set up on {e.setup} ({e.objective.value}, {e.difficulty.value});"
        f" party {', '.join(h.name for h in e.party)}; EP = XP {e.xp} x {len(e.party)} = {e.ep}"
    ),
    ev.CachePlaced: lambda e: f"{e.kind.value} cache placed at {_hex(e.hex)}",
    ev.EnemyPlaced: lambda e: (
        f"{e.foe}: quest unit {e.enemy} (level {e.level}) placed at {_hex(e.hex)}, outside the EP"
        if e.quest else
        f"{e.foe}: {e.enemy} (level {e.level}) drawn onto hex {e.number} at {_hex(e.hex)}; EP left {e.ep_left}"
    ),
    ev.EnemyPoolClosed: lambda e: f"enemy pool closed: {e.discarded} EP discarded ({e.reason})",
    ev.AdventurerPlaced: lambda e: f"{e.hero} placed at {_hex(e.hex)} in {e.form.value} form",
    ev.RoundStarted: lambda e: f"round {e.round} starts" + (" (Fatigue Round)" if e.fatigue_round else ""),
    ev.TurnStarted: lambda e: f"{e.hero}'s turn starts",
    ev.DiceRecovered: lambda e: (
        f"{e.hero} recovers dice {_ids(e.recovered)}, discards {len(e.discarded)},"
        f" moves {e.replaced_overfatigue} overfatigue to the end; {len(e.track)} on the track"
    ),
    ev.TurnEnded: lambda e: f"{e.hero}'s turn ends",
    ev.EnemyTurnStarted: lambda e: f"{e.foe}'s turn starts" + (f"; then {_ids(e.queue)}" if e.queue else ""),
    ev.EnemyTurnEnded: lambda e: f"{e.foe}'s turn ends",
    ev.RoundEnded: lambda e: f"round {e.round} ends",
    ev.PartyRetreated: lambda e: f"the party retreats in round {e.round}",
    ev.BattleEnded: lambda e: f"battle ends: {e.outcome.value} ({e.reason})",
    ev.HeroCleanedUp: lambda e: (
        f"{e.hero} cleaned up: {e.hp} HP, {len(e.track)} dice stay on the track,"
        f" drained {_ids(e.drained_recovered)} recovered"
    ),
    ev.HeroMoved: lambda e: f"{e.hero} moves {len(e.path)} hex(es) to {_hex(e.path[-1])}",
    ev.EngageDeclared: lambda e: (
        f"{e.hero} declares engage #{e.number} in {e.form.value} form"
        + (f" at {e.target}" if e.target else "")
    ),
    ev.FatigueGained: lambda e: f"{e.hero} gains {e.count} {e.kind.value} fatigue; {len(e.track)} on the track",
    ev.DiceRolled: _rolled,
    ev.TenacityGained: lambda e: f"{e.hero} gains {e.amount} Tenacity (now {e.tenacity})",
    ev.DieExhausted: lambda e: f"{e.hero} exhausts die {e.uid} (face {e.face}); {len(e.track)} on the track",
    ev.DieDrained: lambda e: f"{e.hero}'s die {e.uid} is drained",
    ev.ActiveChanged: lambda e: f"{e.hero}'s active slots now hold {len(e.active)} dice",
    ev.StatusPlaced: lambda e: f"{e.mark.owner} places {e.mark.status.value} on {e.foe}",
    ev.StatusLifted: lambda e: f"{e.status.value} comes off {e.foe}",
    ev.HeroStatusGained: lambda e: (
        f"{e.hero} gains {e.status.value}" + (" (refreshed)" if e.refreshed else "")
    ),
    ev.HeroStatusLost: lambda e: f"{e.hero} loses {e.status.value}",
    ev.DamageDealt: _damage,
    ev.Healed: lambda e: f"{e.unit} heals {e.amount}: {e.hp} HP, {e.bonus_hp} bonus HP",
    ev.UnitDefeated: lambda e: f"{e.unit} is defeated",
    ev.EngageResolved: lambda e: f"{e.hero}'s engage is resolved",
    ev.EnemyMoved: lambda e: f"{e.foe} moves {len(e.path)} hex(es) to {_hex(e.path[-1])}",
    ev.EnemyEngaged: lambda e: f"{e.foe} attacks {_ids(e.targets)}",
    ev.EnemyRollAwaited: lambda e: f"waiting for {e.foe}'s {e.dice} dice to be typed",
    adv.AdventurerCreated: lambda e: (
        f"adventurer {e.state.name} created: {e.state.race}, lines {_ids(e.state.lines)}, {e.state.hp} HP"
    ),
    adv.BattleConcluded: lambda e: (
        f"battle {e.battle_id} written back ({e.outcome.value}): {e.hp} HP,"
        f" {len(e.track)} dice stay on the track"
    ),
    adv.AdventurerRestored: lambda e: f"restored to before {e.command_id}",
    BattleRegistered: lambda e: f"battle {e.battle_id} registered ({e.setup})",
}
