"""`rk why`: why an enemy moved where it did and struck whom, registered on
the app of ``cli.main``.

It finds the enemy's turn in the battle's log (``activations``), loads the
battle and its rules context as they stood just before the decision
showed, and replays the decision (``domain.betrayal.explain``): one line
per finding, each under the rule it applies (ENEMY-6a, EMOVE-1 to
EMOVE-10, ENEMY-6b/f/g), ties named with the default that broke them.
Nothing is stored; the explanation is derived whenever it is asked for.
A delve's map is taken as the enemy's command left it: no tile is ever
placed during the enemies' turns. Conquest has no enemy AI: refused in
one line. The domain is imported only when the verb runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from .app import LOOK, MAX_VERSION, BattleId, Json, Store, _run, app

if TYPE_CHECKING:
    from domain.betrayal.activations import Activation

    from .session import Session


@app.command(rich_help_panel=LOOK)
def why(
    ctx: typer.Context,
    event: Annotated[Optional[int], typer.Argument(
        metavar="[EVENT]", min=1, max=MAX_VERSION, show_default=False,
        help="An event of an enemy's turn (the numbers `rk log` shows); default: the last enemy turn.")] = None,
    enemy: Annotated[Optional[str], typer.Option(
        "--enemy", "-e", metavar="ENEMY", show_default=False,
        help="Explain this enemy's (e2) last turn, or its last turn up to EVENT.")] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Explain an enemy's move and engage: candidates, priority, ranges, HP, ties, each with its rule.

    Example: rk why 57 (the enemy turn event 57 belongs to), rk why --enemy e2.
    """
    _run(ctx, "why.show", store, battle, json, event, enemy)


def show(s: Session, event: int | None, enemy: str | None) -> None:
    """Print the explanation of the enemy turn ``event`` and ``enemy`` pick
    (JSON: the explanation, its lines, and what the log recorded)."""
    from textwrap import wrap

    from rich.text import Text

    from domain.betrayal.activations import activations
    from domain.betrayal.explain import explain
    from domain.betrayal.explain_text import lines, summary
    from domain.kernel.commandlog import CommandUndone
    from domain.kernel.errors import NotFound

    rs = s.ruleset
    if rs.name != "betrayal":
        raise NotFound(f"`rk why` explains Betrayal enemies; battle {s.battle_id} is a"
                       f" {rs.name.capitalize()} battle, which has no enemy AI")
    envelopes = s.app.stream(s.battle_id)
    turn = _pick(s, envelopes, activations((e.originator_version, e.event) for e in envelopes), event, enemy)
    before = turn.decided - 1
    state = s.app.battle(s.battle_id, before).state
    reasons = explain(state, s.app.rules_context(s.battle_id, before), turn.foe)
    pack = s.app.pack_of(rs)
    said = lines(reasons, state, pack)
    agrees = (reasons.path, reasons.targets) == (turn.path, turn.targets)
    undone_ids = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
    undone = envelopes[turn.decided - 1].command_id in undone_ids
    if s.json:
        s.out.emit({
            "battle": s.battle_id, "foe": turn.foe, "first": turn.first, "last": turn.last,
            "decided": turn.decided, "undone": undone, "agrees": agrees,
            "recorded": {"path": turn.path, "targets": turn.targets},
            "explanation": reasons, "lines": [{"rule": r, "text": t} for r, t in said],
        })
        return
    head = f"Events {turn.first} to {turn.last}, round {reasons.round}: {summary(reasons, state, pack)}."
    s.out.print(Text("\n".join(wrap(head, s.out.console.width)), style="bold"))
    if undone:
        s.out.print(Text("(that command was undone later)", style="dim"))
    s.out.print(_cited(said, s.out.console.width))
    if not agrees:
        s.out.print(Text("The rules as they stand decide otherwise than the log recorded; `rk verify` finds "
                         "where they part.", style="bold"))


def _cited(said: list[tuple[str, str]], width: int):
    """Each line under its rule ID, the words wrapped to ``width`` beside
    the IDs (no trailing spaces, so piped text stays clean)."""
    from textwrap import wrap

    from rich.text import Text

    indent = max(len(rule) for rule, _ in said) + 2
    out = Text()
    for rule, text in said:
        rows = wrap(text, max(width - indent, 20)) or [""]
        out.append(rule.ljust(indent), style="dim")
        out.append(("\n" + " " * indent).join(rows) + "\n")
    out.rstrip()
    return out


def _pick(s: Session, envelopes, turns: list[Activation], event: int | None, enemy: str | None) -> Activation:
    """The enemy turn asked for; NotFound, in one line, when there is none
    or when it decided nothing."""
    from domain.kernel.errors import NotFound

    last = envelopes[-1].originator_version if envelopes else 0
    if event is not None and event > last:
        raise NotFound(f"battle {s.battle_id} has no event {event} (its events are 1 to {last}; see `rk log`)")
    if enemy is not None:
        enemy = enemy.strip().lower()
        mine = [t for t in turns if t.foe == enemy and (event is None or t.first <= event)]
        if not mine:
            up_to = "" if event is None else f" up to event {event}"
            raise NotFound(f"enemy {enemy} took no turn{up_to} in battle {s.battle_id} (see `rk status`)")
        chosen = mine[-1]
    elif event is None:
        if not turns:
            raise NotFound(f"no enemy has taken a turn yet in battle {s.battle_id}")
        chosen = turns[-1]
    else:
        chosen = next((t for t in turns if t.first <= event <= t.last), None)
        if chosen is None:
            raise NotFound(f"event {event} is not part of an enemy's turn (`rk log` reads:"
                           f" {_said(s, envelopes, event)}); `rk why` explains an enemy's move and engage")
    if not chosen.decided:
        raise NotFound(f"{chosen.foe} was defeated at the start of its turn (event {chosen.first}, ENEMY-4):"
                       " it neither moved nor engaged")
    return chosen


def _said(s: Session, envelopes, event: int) -> str:
    """Event ``event`` as `rk log` words it."""
    rs = s.ruleset
    state = s.app.battle(s.battle_id, event - 1).state if event > 1 else None
    text = rs.describe_event(envelopes[event - 1].event, state, s.app.pack_of(rs))
    return f"“{text}”"
