"""Who may do what at a table: the server's own rules, SEAT-1 to SEAT-5
(ours, shared by every ruleset; RULES-COVERAGE.md lists them). The rules
of the games are the kernel's; here a pass (``server.passes``) meets the
seat a command is given for (``Ruleset.actor``).

SEAT-1: a seat gives commands for its own adventurer, player or unit, and
the table's commands (the next round); not another seat's, nor the host's
(a GM's choices for the other side, ``Ruleset.actor`` naming ``HOST``).
SEAT-2: a seat undoes or redoes only a command of its own or of the table;
a forced undo (UNDO-2) and everything else are the host's.
SEAT-3: a spectator only reads.
SEAT-4: a seat's or spectator's token is a pass for its own game only;
listing, creating and importing games are the host's.
SEAT-5: what the rules hide from the other players (a Command Stack's
order) is shown only to its owner and the host while the game goes on:
masked in the state, named but not shown in the log; and so is the seed
every roll and draw derives from (``domain.kernel.fairness``): withheld
from the state and the log's lines. The whole log (export, verify) holds
both, so it is the host's until the game is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel.battle_index import BattleIndex
from domain.kernel.commandlog import CommandIssued, Done
from domain.kernel.errors import NotFound, RuleViolation
from domain.kernel.games import GameApp
from domain.kernel.ruleset import HOST, Ruleset

from .passes import Keyring, Pass, Role
from .refusals import Refused, forbidden, gone, unauthorized
from .wire import Refusal

# One answer whether the game exists or not: a stranger learns nothing.
NO_PASS_FOR_GAME = "this token is no pass for that game (SEAT-4: a seat's link opens its own game only)"


def check_pass(
    app: GameApp,
    keyring: Keyring,
    token: str,
    game: str | None,
    index: Callable[[GameApp], BattleIndex] | None = None,
) -> tuple[Pass, str | None]:
    """The pass ``token`` gives for ``game`` (by id or name), and the game's
    id. 401 for a token that is no pass; 404 only once the pass is known
    good (a stranger learns nothing of what games exist). ``index``: the
    index as it stands now, for the deleted-game check (default: read it;
    the server's ``server.index_watch`` reads it only when it may have moved)."""
    if not token:
        raise unauthorized("no token: open the link the host gave you (it carries #token=...)")
    if game is None:
        found = keyring.check(token, None)
        if found is None:
            # A seat's or spectator's token is known only with its game: out
            # of one (the list, a new game, an import) it is no pass at all.
            raise unauthorized(
                "this token is no pass here (SEAT-4: a seat's or spectator's link opens its own "
                "game only; the rest is the host's)"
            )
        return found, None
    host = keyring.check(token, None)
    try:
        # A game's own id, once found, needs no look in the index.
        battle_id = game if app.knows(game) else app.find_battle(game).battle_id
    except NotFound:
        if host is not None:
            raise
        raise unauthorized(NO_PASS_FOR_GAME) from None
    if host is not None:
        return host, battle_id
    rs = app.ruleset(battle_id)
    # The seats are the game's from its setup on: the game as last seen will do.
    game_now = app.cached(battle_id) or app.battle(battle_id)
    found = keyring.check(token, battle_id, [s.key for s in rs.seats(game_now.state)])
    if found is None:
        raise unauthorized(NO_PASS_FOR_GAME)
    check_not_deleted(app, found, battle_id, index=index)
    return found, battle_id


def check_not_deleted(
    app: GameApp,
    p: Pass,
    battle_id: str,
    writing: bool = False,
    index: Callable[[GameApp], BattleIndex] | None = None,
) -> None:
    """A deleted game (`rk delete`) is changed by no one, as on the
    command line (410); the host may still read it, a seat or spectator
    reads nothing of it. A seat's or spectator's pass was checked so in
    this request already (``check_pass``, with the index as it stood
    then): a write checks it again against that index, not another read
    of it. ``index``: as for ``check_pass`` (a read, when not given)."""
    if index is not None and not writing:
        entry = index(app).get(battle_id)
    else:
        entry = app.index(refresh=p.is_host or not writing).get(battle_id)
    if entry is None or not entry.deleted or not (writing or not p.is_host):
        return
    if p.is_host:
        raise gone(f"game {entry.name} is deleted: nothing is written (`rk restore {entry.name}` brings it back)")
    raise gone("the host deleted this game: it is played no more")


def host_only(p: Pass, what: str) -> None:
    """SEAT-4: ``what`` is the host's."""
    if not p.is_host:
        raise forbidden("SEAT-4", f"{what} is the host's")


def may_give(p: Pass, actor: str | None) -> bool:
    """SEAT-1, SEAT-3: whether ``p`` may give a command for ``actor``
    (None: the table's; ``HOST``: the host's alone, as a GM's)."""
    if p.role is Role.HOST:
        return True
    if p.role is Role.SPECTATOR or actor == HOST:
        return False
    return actor is None or actor == p.seat


def check_not_spectator(p: Pass) -> None:
    """SEAT-3: a spectator only reads."""
    if p.role is Role.SPECTATOR:
        raise forbidden("SEAT-3", "a spectator only reads")


def check_may(rs: Ruleset, p: Pass, state: Any, command: Any, rule: str, doing: str) -> None:
    """Refuse (403, ``rule``) a command ``p`` may not give in ``state``."""
    if p.role is Role.SPECTATOR:
        raise forbidden("SEAT-3", "a spectator only reads")
    actor = rs.actor(state, command)
    if not may_give(p, actor):
        who = "the host" if actor == HOST else next((s.name for s in rs.seats(state) if s.key == actor), actor)
        raise forbidden(rule, f"{doing} is {who}'s, not this seat's")


def check_take_back(app: GameApp, rs: Ruleset, p: Pass, battle_id: str, done: Done, doing: str) -> None:
    """SEAT-2: refuse a seat's undo or redo (``doing``) of another seat's command."""
    earlier = app.battle(battle_id, version=done.version_before).state
    said = f"`rk {rs.describe_command(done.command)}`"
    if rs.hides(done.command) and not may_give(p, rs.actor(earlier, done.command)):
        said = f"`rk {rs.describe_command(done.command).split(' ')[0]}` (hidden from you, SEAT-5)"
    check_may(rs, p, earlier, done.command, "SEAT-2", f"{doing} {said}")


def forced_undo_is_the_hosts(rs: Ruleset, done: Done) -> RuleViolation:
    """UNDO-2 as a seat hears it: its own command revealed dice or a draw,
    and passing that barrier (``--force``) is the host's (SEAT-2 says so;
    the rule that stops the undo is UNDO-2)."""
    return RuleViolation(
        "UNDO-2",
        f"`rk {rs.describe_command(done.command)}` revealed dice or a draw; only the host "
        "may force its undo (the audit marks it)",
    )


def take_back_refusal(
    app: GameApp, rs: Ruleset, p: Pass, battle_id: str, done: Done | None, doing: str
) -> Refusal | None:
    """Why ``p`` may not undo or redo ``done`` (``doing``: "undoing" or
    "redoing") as things stand, with the rule that says so, as the request
    would be refused; None when it may (or there is nothing to take back)."""
    if done is None or p.is_host:
        return None
    try:
        check_not_spectator(p)
        check_take_back(app, rs, p, battle_id, done, doing)
        if doing == "undoing" and done.random:
            raise forced_undo_is_the_hosts(rs, done)
    except Refused as refused:
        return refused.refusal
    except RuleViolation as e:
        return Refusal(error="rule", rule=e.rule, reason=str(e))
    return None


def may_take_back(app: GameApp, rs: Ruleset, p: Pass, battle_id: str, done: Done | None) -> bool:
    """SEAT-2: whether ``p`` may undo or redo ``done`` (a command on the undo
    or redo stack) without force: the host always; a seat its own or the
    table's, unless undoing it needs force (UNDO-2)."""
    if p.is_host:
        return True
    if done is None or not p.seat or done.random:
        return False
    actor = rs.actor(app.battle(battle_id, version=done.version_before).state, done.command)
    return actor is None or actor == p.seat


def check_no_secrets(app: GameApp, p: Pass, battle_id: str, what: str) -> None:
    """SEAT-5: a game's log holds its seed (whoever reads it knows every
    roll and draw to come) and what its rules hide from players (a ruleset
    that ``hides`` a command it played, even one undone since): the whole
    log is the host's alone until the game is over."""
    if p.is_host:
        return
    rs = app.ruleset(battle_id)
    game = app.battle(battle_id)
    if rs.summary(game.state).over:
        return
    # Every command the log holds, undone ones too: an undone secret is
    # still in the log (its events and the state its undo restored).
    issued = (
        env.event.command for env in app.events(rs.game_stream(battle_id)) if isinstance(env.event, CommandIssued)
    )
    hidden = " and other players' hidden choices" if any(rs.hides(command) for command in issued) else ""
    raise forbidden(
        "SEAT-5",
        f"{what} would show the seed every roll and draw derives from{hidden}; it is the host's until the game is over",
    )
