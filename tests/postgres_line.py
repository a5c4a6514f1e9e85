"""PostgreSQL going down and coming back, for one test's connections only.

Stopping the database server itself (``pg_ctlcluster stop``) would fail
every other test using it meanwhile, in this run and in any other run on
the machine; a test that needs the database gone talks to it through a
``Line`` and cuts that instead.
"""

from __future__ import annotations

import socket
import time
import threading
from urllib.parse import urlsplit, urlunsplit


class Line:
    """A TCP relay between this test's clients and PostgreSQL whose line can
    be cut and mended: PostgreSQL going down and coming back as this test's
    connections see it, while the database serves every other test (and
    every other test run) on. While cut, each new connection is closed as
    soon as it is accepted and the open ones are closed at once."""

    def __init__(self, store: str) -> None:
        """A line to the database of ``store`` (a postgresql:// setting);
        ``self.store`` names the same database through the line."""
        real = urlsplit(store)
        self.upstream = (real.hostname, real.port or 5432)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.store = urlunsplit(real._replace(netloc=f"{real.netloc.rsplit('@', 1)[0]}@127.0.0.1:{self.port}"))
        self.cut = threading.Event()
        self.frozen = threading.Event()  # set: nothing passes, nothing is closed (a server SIGSTOPped)
        self.waiting: list[socket.socket] = []  # connections accepted while frozen, never answered
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return  # closed
            if self.cut.is_set():
                near.close()
                continue
            if self.frozen.is_set():
                self.waiting.append(near)
                continue
            try:
                far = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                near.close()
                continue
            far.settimeout(None)
            with self.lock:
                self.open |= {near, far}
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                while self.frozen.is_set():  # held, as a stopped server holds what it was sent
                    time.sleep(0.05)
                sink.sendall(chunk)
        except OSError:
            pass
        self._drop(source, sink)

    def _drop(self, *ends: socket.socket) -> None:
        with self.lock:
            for end in ends:
                self.open.discard(end)
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

    def down(self) -> None:
        self.cut.set()
        with self.lock:
            ends = list(self.open)
        self._drop(*ends)

    def up(self) -> None:
        self.cut.clear()

    def freeze(self) -> None:
        """As a server whose processes were stopped (SIGSTOP): connections
        stay open and are accepted, and nothing is answered."""
        self.frozen.set()

    def thaw(self) -> None:
        """The server goes on: what was held passes; connections accepted
        while frozen are closed (they would have timed out)."""
        self.frozen.clear()
        waiting, self.waiting = self.waiting, []
        for near in waiting:
            near.close()

    def close(self) -> None:
        self.down()
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        except OSError:
            pass
        self.listener.close()
