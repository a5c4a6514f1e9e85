"""The decision atlas: what the rules answer to many commands in many states,
written down once and compared on every run (a golden file per ruleset).

Random legal play (a ``kernel_play.Player``) takes each game of a ruleset's
atlas to its end. Every command listed as legal on the way goes into the
game's pool. At a few states spread over the game, every command of the pool
is decided again, legal there or not, and the answer written as one line:

- refused: the rule ID and the reason, as a player reads them
  (``ROUND-5: ...``), or ``malformed: ...``;
- accepted: ``ok``, the event types and a digest of everything the decision
  writes (the game's events and the other streams'), so a changed roll, a
  changed rule ID an event records or a changed number changes the line.

The legal commands of each of those states are written too, in order. So the
atlas pins what the rule-by-rule tests check one at a time (a refusal's rule
and words, what an accepted command records, what is offered) over states
nobody wrote by hand: a change to any of them shows as a changed line, to be
read and, when the change is meant, accepted by writing the atlas again::

    RK_WRITE_ATLAS=1 .venv/bin/pytest tests/RULESET/test_RULESET_decision_atlas.py

The tests citing rules stay the proof of each rule; the atlas is the net
under them (mutation testing, tests/MUTATION.md, showed the tests let about
one changed refusal or event in eight through).
"""

from __future__ import annotations

import difflib
import os
import random
from hashlib import blake2b
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.games import GameApp
from domain.kernel.surface import surfaces
from kernel_play import Player

WRITE = "RK_WRITE_ATLAS"  # set to 1 to write the atlas anew instead of comparing


@dataclass(frozen=True)
class AtlasGame:
    """One game of the atlas: a name for its header, who plays it and how long."""

    name: str
    player: Player
    seed: int
    stops: int = 10  # states decided again, spread over the game
    pool: int = 120  # most commands tried in each of them (those the stops list, at least)
    max_commands: int = 400
    open_ended: bool = False  # plays on with nothing listed (a campaign between battles)


@dataclass
class _Stop:
    version: int
    state: Any
    legal: list[Any]


@dataclass
class _Played:
    stops: list[_Stop] = field(default_factory=list)
    pool: dict[bytes, Any] = field(default_factory=dict)


_ENCODER = msgspec.json.Encoder()


RARELY = 0.03  # the chance a game-ending command (``rarely``) is picked when others are listed


def example_player(
    ruleset: str, setup_name: str, example: int = 0, rarely: tuple[str, ...] = (), **options: Any
) -> Player:
    """A player that starts ``setup_name``'s example number ``example`` as the
    ruleset's surface declares it, with ``options`` added to its request (a
    random seed where it takes one), and then picks any legal command, those
    of the classes named in ``rarely`` (a surrender, an escape) only now and
    then, so games run their course."""
    surface = next(s for s in surfaces() if s.ruleset == ruleset)
    setup = next(s for s in surface.setups if s.name == setup_name)
    fields = {**setup.examples[example], **options}
    takes_seed = any(f.name == "seed" for f in msgspec.structs.fields(setup.request))
    rs = registry.load(ruleset)

    def start(app: GameApp, battle_id: str, rnd: random.Random) -> Any:
        given = {**fields, "name": battle_id}
        if takes_seed:
            given["seed"] = rnd.randrange(2**31)
        return setup.start(app, msgspec.convert(given, setup.request))

    def choose(state: Any, ctx: Any, rnd: random.Random) -> Any:
        legal = rs.legal_commands(state, ctx)
        staying = [c for c in legal if type(c).__name__ not in rarely]
        if staying and rnd.random() >= RARELY:
            return rnd.choice(staying)
        return rnd.choice(legal)

    return Player(ruleset, start, choose)


def _key(command: Any) -> bytes:
    return type(command).__name__.encode() + _ENCODER.encode(command)


def _play(app: GameApp, game: AtlasGame) -> _Played:
    rnd = random.Random(game.seed)
    battle_id = f"atlas-{game.seed}"
    game.player.start(app, battle_id, rnd)
    rs = app.ruleset(battle_id)
    seen: list[_Stop] = []
    offered: dict[bytes, Any] = {}  # every command listed or given, first seen first
    for _ in range(game.max_commands):
        now = app.battle(battle_id)
        ctx = app.rules_context(battle_id)
        legal = rs.legal_commands(now.state, ctx)
        seen.append(_Stop(now.version, now.state, legal))
        for command in legal:
            offered.setdefault(_key(command), command)
        if not legal and not game.open_ended:
            break
        command = game.player.choose(now.state, ctx, rnd)
        offered.setdefault(_key(command), command)
        try:
            app.execute(battle_id, command)
        except (RuleViolation, MalformedCommand):
            continue  # a player of an open-ended game may try what is refused
    last = len(seen) - 1
    picks = sorted({round(i * last / max(game.stops - 1, 1)) for i in range(game.stops)})
    played = _Played(stops=[seen[i] for i in picks])
    # The pool: what the stops list, then a fixed sample of the rest.
    wanted = {_key(c) for stop in played.stops for c in stop.legal}
    rest = [k for k in offered if k not in wanted]
    room = max(game.pool - len(wanted), 0)
    if len(rest) > room:
        wanted |= set(random.Random(game.seed ^ 0xA71A5).sample(rest, room))
    else:
        wanted |= set(rest)
    played.pool = {k: c for k, c in offered.items() if k in wanted}
    return played


def _answer(app: GameApp, rs: Any, stop: _Stop, command: Any) -> str:
    ctx = registry.rules_context(
        rs,
        app.pack_for(rs, stop.state),
        stop.state,
        lambda kind, stream: app.companion(rs, kind, stream, stop.version),
        command,
    )
    try:
        outcome = rs.decide(stop.state, command, ctx)
    except RuleViolation as refused:
        return f"{refused.rule}: {refused.message}"
    except MalformedCommand as malformed:
        return f"malformed: {malformed}"
    except Exception as crash:  # a crash is an answer too: the atlas shows it
        return f"crash {type(crash).__name__}: {crash}"
    digest = blake2b(_ENCODER.encode([outcome.events, outcome.writes]), digest_size=6).hexdigest()
    kinds = " ".join(type(e).__name__ for e in outcome.events)
    return f"ok {digest} {kinds}".rstrip()


def _spans(numbers: Sequence[int]) -> str:
    """``1 3 4 5 9`` as ``c1 c3-5 c9``."""
    out: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"c{start}" if start == prev else f"c{start}-{prev}")
        if n is not None:
            start = prev = n
    return " ".join(out)


def atlas_lines(app_factory: Callable[[], GameApp], games: Iterable[AtlasGame]) -> list[str]:
    """Every game played and its stops decided again, as the atlas's lines."""
    lines: list[str] = []
    spell = {s.ruleset: s.grammar.spell for s in surfaces()}
    for game in games:
        with app_factory() as app:
            played = _play(app, game)
            rs = registry.load(game.player.ruleset)
            commands = list(played.pool.values())
            number = {_key(c): n for n, c in enumerate(commands, 1)}
            lines.append(f"== {game.name}, seed {game.seed}")
            words = spell.get(rs.name)
            for n, command in enumerate(commands, 1):
                text = words(command) if words is not None else _ENCODER.encode(command).decode()
                lines.append(f"c{n} = {text}")
            for stop in played.stops:
                legal = [number[_key(c)] for c in stop.legal]
                shown = " ".join(f"c{n}" for n in legal)
                lines.append(f"-- at version {stop.version}: legal {shown or 'nothing'}")
                answers: dict[str, list[int]] = {}
                for n, command in enumerate(commands, 1):
                    answers.setdefault(_answer(app, rs, stop, command), []).append(n)
                for answer, which in answers.items():
                    lines.append(f"{answer} <- {_spans(which)}")
    return lines


def check_atlas(path: Path, lines: list[str], header: str) -> None:
    """Compare ``lines`` with the atlas at ``path`` (or write it when
    ``RK_WRITE_ATLAS`` is set); a difference fails with its first lines."""
    text = header + "\n" + "\n".join(lines) + "\n"
    if os.environ.get(WRITE):
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        raise AssertionError(f"{path} is missing: write it with {WRITE}=1")
    old = path.read_text(encoding="utf-8")
    if old != text:
        diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(), "atlas", "now", lineterm="", n=1))
        shown = "\n".join(diff[:60])
        raise AssertionError(
            f"the rules answer differently from {path.name} ({len(diff)} diff lines; if the change is meant, "
            f"write it again with {WRITE}=1 and review the diff):\n{shown}"
        )
