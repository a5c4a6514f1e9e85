"""uvicorn's server, stopping on SIGINT or SIGTERM with exit status 0.

uvicorn catches the signal, stops gracefully, then raises the signal again
so the process dies of it; our ``rk server`` would then never remove its
address file nor exit 0 as `rk serve` does. Here the signal only asks for
the graceful stop."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

import uvicorn

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class CleanStopServer(uvicorn.Server):
    """A ``uvicorn.Server`` whose stop signals are not raised again."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only
            return
        before = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
