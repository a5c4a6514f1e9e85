"""`rk why`: why an enemy moved where it did and struck whom.

It finds the enemy's turn in the battle's log (``activations``), loads the
battle and its rules context as they stood just before the decision
showed, and replays the decision (``explain``): one line per finding, each
under the rule it applies (ENEMY-6a, EMOVE-1 to EMOVE-10, ENEMY-6b/f/g),
ties named with the default that broke them. Nothing is stored; the
explanation is derived whenever it is asked for. A delve's map is taken
as the enemy's command left it: no tile is ever placed during the
enemies' turns. A battle of another ruleset has no enemy AI: refused in
one line.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.commandlog import CommandUndone
from domain.kernel.errors import NotFound
from domain.kernel.surface import Report
from domain.kernel.surface.document import Lines

from domain.betrayal.battle.enemies.activations import Activation, activations
from domain.betrayal.battle.enemies.explain import explain
from domain.betrayal.battle.enemies.explain_text import lines, summary


def why(asked: Any, event: int | None = None, enemy: str | None = None) -> Report:
    """The explanation of the enemy turn ``event`` belongs to, or of
    ``enemy``'s last turn (up to ``event``), or of the last enemy turn:
    the explanation, its lines and what the log recorded (JSON), and the
    lines under their rules (a screen)."""
    app, battle_id = asked.app, asked.game_id
    rs = app.ruleset(battle_id)
    if rs.name != "betrayal":
        raise NotFound(
            f"`rk why` explains Betrayal enemies; battle {battle_id} is a {rs.name.capitalize()} battle, "
            "which has no enemy AI"
        )
    envelopes = app.stream(battle_id)
    turn = _pick(
        app, battle_id, envelopes, activations((e.originator_version, e.event) for e in envelopes), event, enemy
    )
    before = turn.decided - 1
    state = app.battle(battle_id, before).state
    reasons = explain(state, app.rules_context(battle_id, before), turn.foe)
    pack = app.pack_of(rs)
    said = lines(reasons, state, pack)
    agrees = (reasons.path, reasons.targets) == (turn.path, turn.targets)
    undone_ids = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
    undone = envelopes[turn.decided - 1].command_id in undone_ids
    data = {
        "battle": battle_id,
        "foe": turn.foe,
        "first": turn.first,
        "last": turn.last,
        "decided": turn.decided,
        "undone": undone,
        "agrees": agrees,
        "recorded": {"path": turn.path, "targets": turn.targets},
        "explanation": reasons,
        "lines": [{"rule": r, "text": t} for r, t in said],
    }
    blocks: list[Any] = [
        Lines(
            (f"Events {turn.first} to {turn.last}, round {reasons.round}: {summary(reasons, state, pack)}.",),
            strong=True,
        )
    ]
    if undone:
        blocks.append(Lines(((("(that command was undone later)", "dim"),),)))
    blocks.append(_cited(said))
    if not agrees:
        blocks.append(
            Lines(
                ("The rules as they stand decide otherwise than the log recorded; `rk verify` finds where they part.",),
                strong=True,
            )
        )
    return Report(data, tuple(blocks))


def _cited(said: list[tuple[str, str]]) -> Lines:
    """Each line under its rule ID: the words beside the IDs, and where a
    line goes on, under the words again."""
    indent = max(len(rule) for rule, _ in said) + 2
    return Lines(tuple(((rule.ljust(indent), "dim"), (text, "")) for rule, text in said), hang=indent)


def _pick(
    app: Any, battle_id: str, envelopes: list[Any], turns: list[Activation], event: int | None, enemy: str | None
) -> Activation:
    """The enemy turn asked for; NotFound, in one line, when there is none
    or when it decided nothing."""
    last = envelopes[-1].originator_version if envelopes else 0
    chosen: Activation | None
    if event is not None and event > last:
        raise NotFound(f"battle {battle_id} has no event {event} (its events are 1 to {last}; see `rk log`)")
    if enemy is not None:
        enemy = enemy.strip().lower()
        mine = [t for t in turns if t.foe == enemy and (event is None or t.first <= event)]
        if not mine:
            up_to = "" if event is None else f" up to event {event}"
            raise NotFound(f"enemy {enemy} took no turn{up_to} in battle {battle_id} (see `rk status`)")
        chosen = mine[-1]
    elif event is None:
        if not turns:
            raise NotFound(f"no enemy has taken a turn yet in battle {battle_id}")
        chosen = turns[-1]
    else:
        chosen = next((t for t in turns if t.first <= event <= t.last), None)
        if chosen is None:
            raise NotFound(
                f"event {event} is not part of an enemy's turn (`rk log` reads:"
                f" {_said(app, battle_id, envelopes, event)}); `rk why` explains an enemy's move and "
                "engage"
            )
    if not chosen.decided:
        raise NotFound(
            f"{chosen.foe} was defeated at the start of its turn (event {chosen.first}, ENEMY-4):"
            " it neither moved nor engaged"
        )
    return chosen


def _said(app: Any, battle_id: str, envelopes: list[Any], event: int) -> str:
    """Event ``event`` as `rk log` words it."""
    rs = app.ruleset(battle_id)
    state = app.battle(battle_id, event - 1).state if event > 1 else None
    text = rs.describe_event(envelopes[event - 1].event, state, app.pack_of(rs))
    return f"“{text}”"
