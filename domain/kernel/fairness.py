"""Dice nobody can predict, and a seed everyone can check afterwards.

Every roll and draw of a game derives from its seed (``domain.kernel.rng``),
so whoever reads the seed knows every future outcome. While a game goes on
the seed is therefore the host's alone: a seat or a spectator reads the
state with its ``seed`` withheld (``withheld``), the log's first line with
the seed hidden (``hide_seed``), and no export or verification of a running
game (SEAT-5).

So that the table can still check afterwards that the host did not change
the seed as it went, the game commits to it at its setup: the setup's
``CommandIssued`` (the first event of the game stream, shown to everyone)
carries ``commitment``, ``sha256:`` and the hex of SHA-256 over a
domain-separated encoding of the seed and a salt (``commit``). The salt
travels beside it (``salt``, secret like the seed): a seed as small as 7
could be found from a plain hash of it by trying every small number.

When a command ends the game, the kernel writes the seed and the salt into
that command's ``CommandIssued`` (``revealed``); ``rk verify`` hashes them
again and checks them against the commitment and against the seed the
rolls were drawn from (SEED-1, SEED-2). Undoing that command needs force,
as a roll does (UNDO-2): the dice are no longer secret.

A seed the host chose (``--seed 7``) is a fixture: its salt derives from
it (``fixture_salt``), so the same fixture gives the same log byte for byte.
A seed the setup drew (``random_seed``) gets a random salt of its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import msgspec

from domain.kernel.rng import MAX_SEED

COMMITTED = "SEED-1"  # the setup commits to the seed; the reveal must hash to the commitment
REVEALED = "SEED-2"  # the seed revealed is the one every roll and draw derived from, at the game's end

SCHEME = "sha256"
_COMMIT_TAG = b"rulekeeper/seed-commitment/v1\x00"
_SALT_TAG = b"rulekeeper/fixture-salt/v1\x00"
SALT_BYTES = 16


class Reveal(msgspec.Struct, frozen=True, kw_only=True):
    """The seed of a game and the salt of its commitment, told when it ends."""

    seed: int
    salt: str


def _seed_bytes(seed: int) -> bytes:
    return int(seed).to_bytes(8, "big", signed=False)


def commit(seed: int, salt: str) -> str:
    """The commitment to ``seed`` with ``salt`` (hex): ``sha256:<hex>`` of
    the tag, the seed as 8 bytes big-endian, and the salt's bytes."""
    import hashlib  # a setup or a check: a command that reads a game never loads OpenSSL's digests

    return f"{SCHEME}:" + hashlib.sha256(_COMMIT_TAG + _seed_bytes(seed) + bytes.fromhex(salt)).hexdigest()


def matches(commitment: str, seed: Any, salt: Any) -> bool:
    """Whether ``seed`` and ``salt`` open ``commitment``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return False
    if not isinstance(salt, str) or len(salt) != 2 * SALT_BYTES:
        return False
    try:
        expected = commit(seed, salt)
    except ValueError:
        return False
    import hmac

    return hmac.compare_digest(expected, commitment)


def fixture_salt(seed: int) -> str:
    """The salt of a seed the host chose: derived from it, so a fixture
    replays identically (and hides nothing from one who guesses the seed,
    which its chooser knows anyway)."""
    import hashlib

    return hashlib.sha256(_SALT_TAG + _seed_bytes(seed)).hexdigest()[: 2 * SALT_BYTES]


# Seeds this process drew for a setup, with a random salt each, until the
# setup that uses the seed takes it (``salt_for``). Bounded: a drawn seed
# no setup used is forgotten in time.
_DRAWN: OrderedDict[int, str] = OrderedDict()
_DRAWN_KEPT = 1024
_LOCK = threading.Lock()


def random_seed() -> int:
    """A seed drawn for a game set up without one: 63 random bits (too many
    to find by trying seeds against the rolls a log shows), remembered with a
    random salt of its own for the setup that takes it."""
    import secrets  # only a setup without a seed draws one: no other command pays for it

    seed = secrets.randbelow(MAX_SEED + 1)
    with _LOCK:
        _DRAWN[seed] = secrets.token_hex(SALT_BYTES)
        while len(_DRAWN) > _DRAWN_KEPT:
            _DRAWN.popitem(last=False)
    return seed


def salt_for(seed: int) -> str:
    """The salt to commit to ``seed`` with: the random one drawn with it
    (``random_seed``), else the fixture's (a seed the host chose)."""
    with _LOCK:
        drawn = _DRAWN.pop(seed, None)
    return drawn if drawn is not None else fixture_salt(seed)


def seed_of(state: Any) -> int | None:
    """The seed of a game state (the ruleset contract names it ``seed``),
    or None for a game without one."""
    seed = getattr(state, "seed", None)
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def withheld(state: Any) -> Any:
    """``state`` with its seed withheld (None), for a reader who is not the
    host while the game goes on."""
    if state is None or seed_of(state) is None or not isinstance(state, msgspec.Struct):
        return state
    return msgspec.structs.replace(state, seed=None)


# How a line writes a seed its reader may not see.
HIDDEN = "(hidden)"


def hide_seed(value: Any) -> Any:
    """A command, event or state with its ``seed`` field the word
    ``(hidden)`` (itself when it has none), for narration only: a narrator
    or a command's spelling writes that where it would write the seed."""
    if isinstance(value, msgspec.Struct) and seed_of(value) is not None:
        return msgspec.structs.replace(value, seed=HIDDEN)
    return value


def short(commitment: str) -> str:
    """A commitment as a line shows it: the scheme and the first 16 hex digits."""
    scheme, _, hexits = commitment.partition(":")
    return f"{scheme}:{hexits[:16]}…" if hexits else commitment


def committed_words(commitment: str) -> str:
    """What the setup's line adds for everyone: the commitment."""
    return f"seed committed: {commitment}"


def revealed_words(reveal: Reveal) -> str:
    """What the line of the command that ended the game adds."""
    return f"{REVEALED}: the game is over; its seed was {reveal.seed} (salt {reveal.salt})"
