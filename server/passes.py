"""Who is asking: the host, a seat of one game, or a spectator of one game.

Every pass is a secret token derived from the server's secret with HMAC,
so nothing about passes is stored and any number of server processes that
share the secret accept the same links. A seat's token names its game and
its seat; it is no pass for another game (SEAT-4, ours). The host's token
is the table's: it may do everything the table allows in every game.

The secret is ``RULEKEEPER_SERVER_SECRET`` if set (processes on several
machines share it so), else the file ``server.secret`` in the home,
created on first use, readable by its owner only.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import os
import secrets
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.stores.store_setting import home

SECRET_VARIABLE = "RULEKEEPER_SERVER_SECRET"
SECRET_FILE = "server.secret"
TOKEN_BYTES = 18  # 144 bits: 24 characters of URL-safe base64
KEPT_TOKENS = 4096  # tokens kept once made: every request checks the host's and its game's seats' again


class Role(enum.StrEnum):
    """What a pass may do."""

    HOST = "host"
    SEAT = "seat"
    SPECTATOR = "spectator"


@dataclass(frozen=True)
class Pass:
    """A checked token: its role, and for a seat or spectator, its game
    (and the seat's key)."""

    role: Role
    game: str = ""
    seat: str = ""

    @property
    def is_host(self) -> bool:
        return self.role is Role.HOST


class Keyring:
    """Makes and checks the tokens of one server secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the server secret must be at least 16 bytes")
        self._secret = secret
        self._made: dict[tuple[str, ...], str] = {}

    def _token(self, *parts: str) -> str:
        made = self._made.get(parts)
        if made is None:
            mac = hmac.new(self._secret, "\0".join(parts).encode(), hashlib.sha256).digest()
            made = base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode()
            if len(self._made) >= KEPT_TOKENS:
                self._made.clear()
            self._made[parts] = made
        return made

    def host(self) -> str:
        """The host's token."""
        return self._token("host")

    def seat(self, game: str, seat: str) -> str:
        """The token of seat ``seat`` of game ``game``."""
        return self._token("seat", game, seat)

    def spectator(self, game: str) -> str:
        """The token that reads game ``game`` and nothing else."""
        return self._token("spectator", game)

    def check(self, token: str, game: str | None, seats: Iterable[str] = ()) -> Pass | None:
        """The pass ``token`` is for ``game`` (None: outside any game), or
        None when it is none of them: a wrong token, or another game's."""
        if not token or not token.isascii():  # every token is ASCII; compare_digest refuses anything else
            return None
        if hmac.compare_digest(token, self.host()):
            return Pass(Role.HOST)
        if game is None:
            return None
        if hmac.compare_digest(token, self.spectator(game)):
            return Pass(Role.SPECTATOR, game)
        for seat in seats:
            if hmac.compare_digest(token, self.seat(game, seat)):
                return Pass(Role.SEAT, game, seat)
        return None


def load_secret(path: Path | None = None) -> bytes:
    """The server secret: the environment's, else the home's file (made
    on first use, mode 0600)."""
    given = os.environ.get(SECRET_VARIABLE, "")
    if given:
        return given.encode()
    path = path or Path(home()) / SECRET_FILE
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole under a temporary name, then linked into place: a
    # process starting at the same moment reads either no file or all of it.
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".server-secret-")
    try:
        with os.fdopen(fd, "wb") as f:  # mkstemp makes it 0600
            f.write(secrets.token_urlsafe(32).encode())
        try:
            os.link(temporary, path)
        except FileExistsError:  # another process made it first: use theirs
            pass
    finally:
        os.unlink(temporary)
    return path.read_bytes().strip()
