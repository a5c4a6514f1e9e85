"""Bounds on the connections `rk server` holds, so that idle ones cannot
starve real requests of file descriptors.

uvicorn (0.55, h11) closes a kept-alive connection only once it has
answered a request on it: a connection that never sends its headers, or
sends half of them, is held forever, and at the process's file limit
every accept fails (and Python 3.11's asyncio logs the failure once per
queued connection, every loop turn). Here:

- a request's headers must arrive within ``header_timeout`` seconds of the
  connection (or of their first byte, on a kept-alive one), else it closes;
- a request's body must arrive whole within ``body_timeout`` seconds of its
  headers, else the connection closes and the server says so (once, then
  with a count): the application, waiting for the rest of a body trickled
  or never sent, would otherwise hold it for ever (the clock stops while
  the server itself is not reading, the application having not yet taken
  what came);
- an idle kept-alive connection closes after ``keep_alive`` seconds
  (uvicorn's own timer);
- past ``max_connections``, the connection idle the longest (no request
  under way) is closed to make room, so a real request is answered; when
  every one is busy, the new one is closed instead.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from dataclasses import dataclass
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0  # seconds a connection may take to send a request's headers
# Seconds a request's body may take once its headers are in: the largest body
# taken (4 MB, a log to import) needs about 70 kB/s.
BODY_TIMEOUT = 60.0
KEEP_ALIVE = 5.0  # seconds an idle kept-alive connection stays open
# Descriptors kept back from the connections: the store's files or sockets
# (one SQLite connection holds up to three per worker thread), the event
# loop's own, stdio, the logs.
RESERVED_FILES = 128
MOST_CONNECTIONS = 4096  # the default cap when the file limit allows more

log = logging.getLogger("rulekeeper.server")


@dataclass(frozen=True)
class ConnectionLimits:
    """How long a connection may stay silent, and how many may be open."""

    header_timeout: float = HEADER_TIMEOUT
    keep_alive: float = KEEP_ALIVE
    max_connections: int | None = None  # None: MOST_CONNECTIONS, or fewer as the file limit says
    body_timeout: float = BODY_TIMEOUT


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (as
    far as the system lets it); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an unlimited hard limit the kernel caps lower: keep the soft one
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_cap(asked: int | None, file_limit: int) -> int:
    """The most connections to hold: ``asked`` (default ``MOST_CONNECTIONS``),
    but always below the file limit, ``RESERVED_FILES`` short of it."""
    room = max(1, file_limit - RESERVED_FILES) if file_limit != resource.RLIM_INFINITY else MOST_CONNECTIONS
    return min(asked or MOST_CONNECTIONS, room)


def guarded_protocol(limits: ConnectionLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol class with these limits (``uvicorn.Config(http=...)``)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits})


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with deadlines on a request's headers and
    body and a cap on the connections open at once (``limits``)."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self.idle_since = self.loop.time()
        super().connection_made(transport)
        self._await_headers()
        cap = self.limits.max_connections or MOST_CONNECTIONS
        # Counted twice only past the cap: connections being closed stay in the set until they are gone.
        if len(self.connections) > cap and sum(not c.transport.is_closing() for c in self.connections) > cap:
            self._make_room(cap)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            if self._header_timer is None:
                self._await_headers()  # the first bytes of a request: the rest of its headers within the bound
        else:
            self._stop_header_timer()  # a request's headers came whole: the application has it now
        if self.conn.their_state is h11.SEND_BODY:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_late)
        else:
            self._stop_body_timer()

    def on_response_complete(self) -> None:
        self.idle_since = self.loop.time()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._stop_body_timer()
        super().connection_lost(exc)

    def idle(self) -> bool:
        """No request under way: nothing would be lost by closing it."""
        return (self.cycle is None or self.cycle.response_complete) and self.conn.their_state is h11.IDLE

    def _await_headers(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self.limits.header_timeout, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.idle() and not self.transport.is_closing():
            self.transport.close()  # nothing to answer: no request was read

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_late(self) -> None:
        self._body_timer = None
        if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
            return
        if self.flow.read_paused:
            # The server stopped reading (the application has not taken what came yet): not the client's delay.
            self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_late)
            return
        log.warning(
            "a request's body did not arrive within %g s (--body-timeout): its connection was closed",
            self.limits.body_timeout,
        )
        self.transport.close()  # the application's receive() is told the client left

    def _make_room(self, cap: int) -> None:
        """Close the connection idle the longest, or this one if none is."""
        idle = [
            c
            for c in self.connections
            if c is not self and isinstance(c, GuardedH11Protocol) and c.idle() and not c.transport.is_closing()
        ]
        if idle:
            min(idle, key=lambda c: c.idle_since).transport.close()
            return
        log.warning("%d connections open (--max-connections), each with a request under way: new ones are closed", cap)
        self.transport.close()
