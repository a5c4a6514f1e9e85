"""uvicorn's server, stopping on SIGINT or SIGTERM with exit status 0.

uvicorn catches the signal, stops gracefully, then raises the signal again
so the process dies of it; our ``rk server`` would then never remove its
address file nor exit 0 as `rk serve` does. Here the signal only asks for
the graceful stop."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

import uvicorn

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class CleanStopServer(uvicorn.Server):
    """A ``uvicorn.Server`` whose stop signals are not raised again, and
    which calls ``every_second`` (if given) once a second while it serves."""

    def __init__(self, config: uvicorn.Config, every_second: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self.every_second = every_second

    async def on_tick(self, counter: int) -> bool:
        # uvicorn's main loop ticks every 0.1 s.
        if counter % 10 == 0 and self.every_second is not None:
            self.every_second()
        return await super().on_tick(counter)

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
