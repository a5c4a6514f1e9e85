"""A whole log answered as it is read: a worker of the heavy lane reads it
and hands it over a page at a time, never more than ``AHEAD`` pages
before the client took them, so the server's memory does not grow with
the log (a 100,000-event export was 348 MB read whole).

``produce(app)`` runs on the worker: it checks what it must (the pass,
SEAT-5) and returns a head (what the answer's headers need) and the
log's pieces (bytes), read lazily. Until the head and the first page are
there a failure is the request's refusal; after that the answer has
begun, so a failure ends it early (the export's missing trailer says it
was cut) and is one line in the server's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel

from domain.kernel.games import GameApp

from .store_down import StoreDown, is_store_error, one_line, store_down
from .workers import Workers

PAGE_BYTES = 64 * 1024  # bytes handed over at a time
AHEAD = 2  # pages read ahead of the client
log = logging.getLogger("rulekeeper.server")
_pumps: set[asyncio.Task[Any]] = set()  # running pumps, kept from the garbage collector


@dataclass(frozen=True)
class _Failed:
    error: BaseException


def pages(pieces: Iterable[bytes], size: int | None = None) -> Iterator[bytes]:
    """``pieces`` joined into pages of about ``size`` bytes (default
    ``PAGE_BYTES``; the last may be shorter)."""
    size = size or PAGE_BYTES
    page = bytearray()
    for piece in pieces:
        page += piece
        if len(page) >= size:
            yield bytes(page)
            page.clear()
    if page:
        yield bytes(page)


async def streamed(
    workers: Workers, produce: Callable[[GameApp], tuple[Any, Iterable[bytes]]], deadline: float
) -> tuple[Any, AsyncIterator[bytes]]:
    """The head ``produce`` returned and the pages of its pieces, read on
    one of ``workers``; ``StoreDown`` when the head or any page takes longer
    than ``deadline`` seconds."""
    send, receive = anyio.create_memory_object_stream[Any](max_buffer_size=AHEAD)
    loop = anyio.lowlevel.current_token()  # the workers' threads are no anyio threads: the way back named

    def hand(item: Any) -> None:
        anyio.from_thread.run(send.send, item, token=loop)

    def pump(app: GameApp) -> None:
        try:
            head, pieces = produce(app)
            it = pages(pieces)
            first = next(it, b"")
            hand(head)
            hand(first)
            for page in it:
                hand(page)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            return  # the client went away: stop reading
        except Exception as e:  # told to the request, on the loop
            error = store_down(e, workers.store) if is_store_error(e) else e
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                hand(_Failed(error))
        finally:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody to tell
                anyio.from_thread.run_sync(send.close, token=loop)

    def finished(task: asyncio.Task[Any]) -> None:
        # A call refused before the pump ran (the store unreachable as the
        # worker's application is made, the server stopping) is told here.
        _pumps.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None:
            with contextlib.suppress(anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                send.send_nowait(_Failed(error))
        send.close()

    task = asyncio.ensure_future(workers.run(pump))
    _pumps.add(task)
    task.add_done_callback(finished)
    try:
        head = await _next(receive, deadline)
        first = await _next(receive, deadline)
    except BaseException:
        receive.close()
        raise

    async def rest() -> AsyncIterator[bytes]:
        try:
            yield first
            while True:
                yield await _next(receive, deadline)
        except anyio.EndOfStream:
            return
        except Exception as e:  # the answer has begun: end it, say why in one line
            log.warning("a whole log was cut short: %s", one_line(str(e)) or type(e).__name__)
        finally:
            receive.close()

    return head, rest()


async def _next(receive: Any, deadline: float) -> Any:
    with anyio.move_on_after(deadline):
        item = await receive.receive()
        if isinstance(item, _Failed):
            raise item.error
        return item
    raise StoreDown(f"the store did not answer within {deadline:g} s")
