"""Hear at once that another process wrote to a PostgreSQL store.

Every insert into the store's events table runs ``NOTIFY <channel>`` in its
transaction (the library's recorder, and ``pgstore.ApplicationRecorder``),
so the notification arrives when the rows are committed and visible.
``Listener`` keeps a connection of its own that ``LISTEN``s on that
channel, on a thread of its own, and calls ``on_notify()`` for each
notification; what was written is read from the notification log as
before (the notification carries nothing but the database process that
sent it, given to ``on_sender`` if one is set). ``on_notify`` runs on the
listener's thread: it must be thread-safe (``threading.Event.set``, or
``loop.call_soon_threadsafe``).

A dropped connection is opened again after a back-off that doubles from
``RETRY_FIRST`` to at most ``RETRY_MAX`` seconds, and ``on_notify`` is
called once it listens again (whatever was written meanwhile was not
heard). Callers keep a slow poll as well: notifications are a shortcut,
never the only way to learn of a write. Imported only for a PostgreSQL
store (it pulls psycopg in).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg.sql import SQL, Identifier

RETRY_FIRST = 0.2  # seconds before the first reconnection attempt
RETRY_MAX = 5.0  # the longest wait between attempts
TICK = 0.2  # seconds between looks at the stop flag while nothing is heard

log = logging.getLogger("rulekeeper.store")


def listen_target(app: Any) -> tuple[dict[str, Any], str] | None:
    """The connection settings and channel name of ``app``'s PostgreSQL
    store (read from the recorder the library built), or None when the
    store is no PostgreSQL database."""
    recorder = app.recorder
    channel = getattr(recorder, "channel_name", None)
    pool = getattr(getattr(recorder, "datastore", None), "pool", None)
    kwargs = getattr(pool, "kwargs", None)
    if channel is None or kwargs is None:
        return None
    settings = {k: v for k, v in kwargs.items() if k != "row_factory"}
    settings["connect_timeout"] = getattr(pool, "connect_timeout", 5)
    return settings, channel


class Listener:
    """A thread that listens on ``channel`` and calls ``on_notify()``.

    ``settings``: psycopg connection keywords (``listen_target``). Use
    ``start()`` and ``stop()``; ``listening`` is set while a connection is
    listening (tests wait on it), ``connections`` counts the connections
    made so far. ``on_sender(pid)``, if given, is called before each
    ``on_notify()`` with the process id of the database connection whose
    commit sent the notification (None after a reconnection: whoever
    wrote meanwhile went unheard).
    """

    def __init__(
        self,
        settings: dict[str, Any],
        channel: str,
        on_notify: Callable[[], None],
        *,
        retry_first: float = RETRY_FIRST,
        retry_max: float = RETRY_MAX,
        on_sender: Callable[[int | None], None] | None = None,
    ) -> None:
        self.settings = settings
        self.channel = channel
        self.on_notify = on_notify
        self.on_sender = on_sender
        self.retry_first = retry_first
        self.retry_max = retry_max
        self.listening = threading.Event()
        self.connections = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start listening, on a daemon thread (it never holds a process up)."""
        self._thread = threading.Thread(target=self._run, name=f"listen {self.channel}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop, waiting at most ``timeout`` seconds for the thread (it
        looks at the stop flag every ``TICK`` seconds)."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        delay = self.retry_first
        while not self._stopping.is_set():
            made = self.connections
            try:
                self._listen()
            except psycopg.Error as e:
                if self.connections > made:
                    delay = self.retry_first  # it listened, then dropped: the first retry comes soon
                log.warning(
                    "no notifications from the store for now (%s); trying again in %.1f s",
                    " ".join(str(e).split()) or type(e).__name__,
                    delay,
                )
            finally:
                self.listening.clear()
            if self._stopping.wait(delay):
                return
            delay = min(delay * 2, self.retry_max)

    def _listen(self) -> None:
        with psycopg.connect(autocommit=True, **self.settings) as conn:
            conn.execute(SQL("LISTEN {}").format(Identifier(self.channel)))
            self.connections += 1
            self.listening.set()
            if self.connections > 1:
                self._tell(None)  # writes while no connection listened went unheard
            while not self._stopping.is_set():
                for notice in conn.notifies(timeout=TICK, stop_after=1):
                    self._tell(notice.pid)

    def _tell(self, sender: int | None) -> None:
        try:
            if self.on_sender is not None:
                self.on_sender(sender)
            self.on_notify()
        except Exception:  # a listener's bug must not end the listening
            log.exception("a notification's handler failed")
