"""PostgreSQL as rulekeeper uses it: every wait bounded, safe to start many at once.

Imported only when a PostgreSQL store is chosen (it pulls psycopg in).
``EventSourcedApp.construct_factory`` builds ``Factory`` instead of the
library's ``PostgresFactory``; the differences:

* **Connections** come from ``SimplePool``, not psycopg_pool. A connection is
  opened when needed with libpq's ``connect_timeout`` and kept for reuse; one
  idle for a while is pinged first. There are no background reconnect loops:
  with the server down a command fails at once (connection refused) or after
  ``POSTGRES_CONNECT_TIMEOUT`` seconds (an unreachable host), and the first
  command after the server is back simply connects.
* **A connection is bounded by this process too** (``client_bounds``): TCP
  keepalives and ``tcp_user_timeout``, so a server cut off is noticed
  without its help.
* **Every statement and lock wait is bounded**: ``statement_timeout``
  (``POSTGRES_STATEMENT_TIMEOUT``), ``lock_timeout`` (``POSTGRES_LOCK_TIMEOUT``,
  also the library's ``SET LOCAL`` before its table lock) and
  ``idle_in_transaction_session_timeout``
  (``POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT``), all in seconds. A
  statement cancelled by one of them raises ``StoreTimeout``, which the
  library does not retry.
* **Table creation** is skipped when the tables exist and otherwise runs
  under an advisory lock, so processes starting together on a fresh database
  do not collide ("tuple concurrently updated").
* ``insert_batches`` writes any number of batches in one transaction
  without psycopg's pipeline mode (which hung on large inserts), at most
  ``CHUNK`` rows per statement.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast
from uuid import UUID

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composed, Identifier

from eventsourcing.persistence import DatabaseError, InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from eventsourcing.utils import retry

STATEMENT_TIMEOUT = "POSTGRES_STATEMENT_TIMEOUT"
KEEPALIVES_IDLE = "POSTGRES_KEEPALIVES_IDLE"
KEEPALIVES_INTERVAL = "POSTGRES_KEEPALIVES_INTERVAL"
KEEPALIVES_COUNT = "POSTGRES_KEEPALIVES_COUNT"
TCP_USER_TIMEOUT = "POSTGRES_TCP_USER_TIMEOUT"
CHUNK = 1000  # rows per INSERT statement
PING_AFTER = 2.0  # seconds idle after which a pooled connection is checked before use
FAILED_FOR = 1.0  # seconds a failed connection attempt is remembered (no new attempt)
MAX_IDLE = 4  # connections kept for reuse
# One key for all table creation on a database: creation is rare and quick.
CREATE_LOCK_KEY = 0x726B_6372  # "rkcr"


class StoreTimeout(DatabaseError):
    """A statement or lock wait took longer than its bound (not retried)."""


class SimplePool:
    """Just enough of psycopg_pool's interface for ``PostgresDatastore``."""

    def __init__(
        self, kwargs: dict[str, Any], configure: Callable[[psycopg.Connection], None], connect_timeout: int
    ) -> None:
        self.kwargs = kwargs
        self.configure = configure
        self.connect_timeout = max(2, connect_timeout)  # libpq's minimum
        self._idle: list[tuple[psycopg.Connection, float]] = []
        self._lock = threading.Lock()
        self._failed: tuple[float, str] | None = None

    # psycopg_pool's interface, as far as the library uses it
    def open(self, wait: bool = False, timeout: float = 30.0) -> None:
        pass

    def __enter__(self) -> SimplePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, timeout: float | None = None) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            conn.close()

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection]:
        conn = self._take()
        try:
            yield conn
        finally:
            self._give_back(conn)

    def _take(self) -> psycopg.Connection:
        while True:
            with self._lock:
                if not self._idle:
                    break
                conn, since = self._idle.pop()
            if conn.closed or conn.broken:
                continue
            if time.monotonic() - since > PING_AFTER and not _answers(conn, self.connect_timeout):
                conn.close()
                continue
            return conn
        failed = self._failed
        if failed is not None and time.monotonic() - failed[0] < FAILED_FOR:
            raise psycopg.OperationalError(failed[1])
        try:
            conn = psycopg.Connection.connect(connect_timeout=self.connect_timeout, **self.kwargs)
        except psycopg.OperationalError as e:
            self._failed = (time.monotonic(), _one_line(e))
            raise psycopg.OperationalError(_one_line(e)) from None
        self._failed = None
        try:
            self.configure(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _give_back(self, conn: psycopg.Connection) -> None:
        if conn.closed or conn.broken:
            conn.close()
            return
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            try:
                conn.rollback()
            except psycopg.Error:
                conn.close()
                return
        with self._lock:
            if len(self._idle) < MAX_IDLE:
                self._idle.append((conn, time.monotonic()))
                return
        conn.close()


def _answers(conn: psycopg.Connection, within: float) -> bool:
    """Whether the server answers an empty query on ``conn`` within
    ``within`` seconds. A server frozen (its processes stopped) leaves the
    query waiting for ever: the kernel still acknowledges every packet, so
    no TCP bound notices. Past ``within`` the socket is shut down under
    the waiting query, which then fails, and the pool connects afresh
    (bounded by the connect timeout)."""
    done = threading.Lock()  # held by whichever comes first: the answer or the cut

    def cut() -> None:
        if done.acquire(blocking=False):
            _sever(conn)

    timer = threading.Timer(within, cut)
    timer.daemon = True
    timer.start()
    try:
        conn.execute("")
        return done.acquire(blocking=False)  # False: cut just as it answered; not to be trusted
    except psycopg.Error:
        return False
    finally:
        timer.cancel()


def _sever(conn: psycopg.Connection) -> None:
    """Shut ``conn``'s socket down (a duplicate of its descriptor: the
    connection still owns and closes its own)."""
    try:
        with socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except (OSError, psycopg.Error):
        pass  # closed meanwhile: nothing left to cut


def _one_line(error: BaseException) -> str:
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip())


class Datastore(PostgresDatastore):
    """The library's datastore whose cancelled statements raise ``StoreTimeout``."""

    statement_timeout: int = 0

    @contextmanager
    def get_connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        try:
            with super().get_connection() as conn:
                yield conn
        except (OperationalError, DatabaseError) as e:
            cause = e.__cause__
            if isinstance(cause, pg_errors.QueryCanceled):
                raise StoreTimeout(
                    f"a database statement took longer than {self.statement_timeout} s"
                    f" ({STATEMENT_TIMEOUT}) and was cancelled"
                ) from e
            if isinstance(cause, pg_errors.LockNotAvailable):
                raise StoreTimeout(
                    f"waited longer than {self.lock_timeout} s (POSTGRES_LOCK_TIMEOUT) for"
                    " another command's lock on the store"
                ) from e
            if isinstance(cause, pg_errors.IdleInTransactionSessionTimeout):
                raise StoreTimeout(
                    "the database ended a transaction left idle too long (POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT)"
                ) from e
            raise


class _CreatesSafely:
    """``create_table`` that is quick when the tables exist and serialised
    (advisory lock) when they do not."""

    datastore: Any  # our Datastore, as the library's recorders hold it
    events_table_name: str
    stored_event_type_name: str

    def create_table(self) -> None:
        ds = self.datastore
        if not self._missing():
            ds.register_type_adapters()
            return
        with ds.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (CREATE_LOCK_KEY,))
            try:
                if self._missing():
                    super().create_table()  # type: ignore[misc]
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (CREATE_LOCK_KEY,))
        ds.register_type_adapters()

    def _missing(self) -> bool:
        ds = self.datastore
        with ds.get_connection() as conn:
            table = Identifier(ds.schema, self.events_table_name).as_string(conn)
            kind = Identifier(ds.schema, self.stored_event_type_name).as_string(conn)
            row = conn.execute(
                "SELECT to_regclass(%s) IS NULL OR to_regtype(%s) IS NULL AS missing", (table, kind)
            ).fetchone()
        return bool(row["missing"])


class _LeanSelect:
    """The library's ``select_events`` reading only what it does not know
    already: not the stream id it was given (a ``uuid`` parsed from text
    for every row), and in binary (``state`` comes as bytes, not as
    escaped text to undo). A replay of 10,000 events spent more than half
    its time there."""

    datastore: Any
    events_table_name: str

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        # The id each row would give back: a uuid column's as a UUID, a text one's as text.
        if self.datastore.originator_id_type == "uuid":
            stream: UUID | str = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
        else:
            stream = str(originator_id)
        return [
            StoredEvent(originator_id=stream, originator_version=version, topic=topic, state=state)
            for version, topic, state in self.select_event_rows(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        ]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_event_rows(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[tuple[int, str, bytes]]:
        """The rows of ``select_events`` as they are stored, (version, topic,
        state), which ``EnvelopeStore.get`` decodes without a ``StoredEvent``
        per row."""
        params: list[Any] = [originator_id]
        if gt is not None:
            params.append(gt)
        if lte is not None:
            params.append(lte)
        if limit is not None:
            params.append(limit)
        names = (self.datastore.schema, self.events_table_name)
        shape = (*names, gt is not None, lte is not None, desc, limit is not None)
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            statement = _SELECTS.get(shape)
            if statement is None:
                statement = _SELECTS[shape] = _select_text(shape).as_string(conn)
            curs.execute(statement, params, prepare=True, binary=True)
            # A binary bytea is bytes already.
            return cast(list[tuple[int, str, bytes]], curs.fetchall())


# Each shape of ``select_events``'s statement as text, made once: psycopg
# caches what it makes of a statement given as text, but renders one given
# as SQL objects (names quoted through the connection) on every execution,
# which cost more than the rest of a short read. By (schema, table, gt, lte,
# desc, limit), each but the names whether it is given.
_SELECTS: dict[tuple[str, str, bool, bool, bool, bool], str] = {}


def _select_text(shape: tuple[str, str, bool, bool, bool, bool]) -> Composed:
    schema, table, gt, lte, desc, limit = shape
    select = SQL("SELECT originator_version, topic, state FROM {schema}.{table} WHERE originator_id = %s")
    statement: Composed = select.format(schema=Identifier(schema), table=Identifier(table))
    if gt:
        statement += SQL(" AND originator_version > %s")
    if lte:
        statement += SQL(" AND originator_version <= %s")
    statement += SQL(" ORDER BY originator_version DESC" if desc else " ORDER BY originator_version ASC")
    if limit:
        statement += SQL(" LIMIT %s")
    return statement


class AggregateRecorder(_CreatesSafely, _LeanSelect, PostgresAggregateRecorder):
    pass


class ApplicationRecorder(_CreatesSafely, _LeanSelect, PostgresApplicationRecorder):
    def insert_batches(self, batches: Iterable[Sequence[StoredEvent]]) -> int | None:
        """Insert every batch in one transaction (lock, then at most ``CHUNK``
        rows per statement); returns the last notification id, or None if
        there was nothing. Not retried: a failure rolls everything back."""
        last: int | None = None
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            self._as_text(conn)
            locked = False
            for batch in batches:
                for start in range(0, len(batch), CHUNK):
                    chunk = batch[start : start + CHUNK]
                    if not locked:
                        self._lock_table(curs)
                        self._notify_channel(curs)
                        locked = True
                    PostgresAggregateRecorder._insert_stored_events(self, curs, chunk)
                    rows = curs.fetchall()
                    if rows:
                        last = rows[-1]["notification_id"]
        return last

    def _as_text(self, conn: Any) -> None:
        """The library's lock, notify and insert statements as text, made
        once (see ``_SELECTS``: each write rendered all four again)."""
        if self._notify_text:
            return
        self.lock_table_statements = [
            q.as_string(conn) if isinstance(q, Composed) else q for q in self.lock_table_statements
        ]
        if isinstance(self.insert_events_statement, Composed):
            self.insert_events_statement = self.insert_events_statement.as_string(conn)  # type: ignore[assignment]
        self._notify_text = SQL("NOTIFY {0}").format(Identifier(self.channel_name)).as_string(conn)

    _notify_text = ""

    def _notify_channel(self, curs: Any) -> None:
        curs.execute(self._notify_text or SQL("NOTIFY {0}").format(Identifier(self.channel_name)))


class Factory(PostgresFactory):
    """The library's factory with the datastore, pool and recorders above."""

    aggregate_recorder_class = AggregateRecorder
    application_recorder_class = ApplicationRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        ds = cast(Datastore, self.datastore)
        statement_timeout = _seconds(self.env.get(STATEMENT_TIMEOUT) or "0", STATEMENT_TIMEOUT)
        connect_timeout = _seconds(self.env.get(self.POSTGRES_CONNECT_TIMEOUT) or "5", self.POSTGRES_CONNECT_TIMEOUT)
        # The library builds its datastore itself; give it our behaviour.
        ds.__class__ = Datastore
        ds.statement_timeout = statement_timeout
        kwargs = dict(ds.pool.kwargs or {})  # type: ignore[arg-type]  # a dict where the library made the pool
        kwargs["options"] = f"-c statement_timeout={statement_timeout * 1000} -c lock_timeout={ds.lock_timeout * 1000}"
        kwargs["application_name"] = "rulekeeper"
        kwargs.update(client_bounds(self.env))
        ds.pool = SimplePool(kwargs, ds.after_connect_func(), connect_timeout)  # type: ignore[assignment]  # ours, in the library's place


def client_bounds(env: Any) -> dict[str, int]:
    """libpq's own bounds on a connection, kept by this process, not the
    server: the server's timeouts above are enforced by the server, and a
    server that is frozen or cut off enforces nothing. TCP keepalives find
    a peer gone quiet on an idle connection (``POSTGRES_KEEPALIVES_IDLE``,
    ``_INTERVAL``, ``_COUNT``), ``tcp_user_timeout`` drops one whose sent
    data stays unacknowledged (``POSTGRES_TCP_USER_TIMEOUT``, seconds; 0:
    the system's). A stopped server process on a live host still has its
    packets acknowledged by the kernel: the server's per-request deadline
    (``server.workers``) bounds that case."""
    idle = _seconds(env.get(KEEPALIVES_IDLE) or "10", KEEPALIVES_IDLE)
    interval = _seconds(env.get(KEEPALIVES_INTERVAL) or "5", KEEPALIVES_INTERVAL)
    count = _seconds(env.get(KEEPALIVES_COUNT) or "3", KEEPALIVES_COUNT)
    user_timeout = _seconds(env.get(TCP_USER_TIMEOUT) or "30", TCP_USER_TIMEOUT)
    return {
        "keepalives": 1,
        "keepalives_idle": max(1, idle),
        "keepalives_interval": max(1, interval),
        "keepalives_count": max(1, count),
        "tcp_user_timeout": user_timeout * 1000,
    }


def _seconds(text: str, name: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OSError(f"{name} must be a whole number of seconds, not {text!r}") from None
    if value < 0:
        raise OSError(f"{name} must not be negative")
    return value
