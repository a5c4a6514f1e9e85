"""A lean HTTP client for the server load benchmark (``--client lean``).

httpx costs its caller about 1.3 ms of CPU per request on the benchmark's
machine (the asyncio transport, httpcore's pool, h11, the request and
response models), more than the in-process ``execute`` a POST is set
beside, and on a 2-core machine that CPU is taken from the server and
PostgreSQL. ``LeanClient`` does what the tables need of a client and no
more: one kept-alive HTTP/1.1 connection on asyncio streams, each request
written at once (head and body), each answer read by its Content-Length
(every answer of the server's API has one). It speaks only that subset
of HTTP: no redirects, no chunked answers, no TLS.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit


class LeanResponse:
    """An answer: its status and body, read the way ``httpx.Response`` is."""

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code = status_code
        self.content = content

    def json(self) -> Any:
        return json.loads(self.content)

    @property
    def text(self) -> str:
        return self.content.decode()

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise RuntimeError(f"HTTP {self.status_code}: {self.text[:300]}")


class LeanClient:
    """``httpx.AsyncClient``'s ``request``, ``get``, ``post`` and ``aclose``
    (and ``async with``) on one kept-alive connection to ``base_url``;
    requests on one client wait for each other, as on one connection."""

    def __init__(self, base_url: str, timeout: float | None = None, headers: dict[str, str] | None = None) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"a lean client speaks plain HTTP to a host: not {base_url!r}")
        self.host, self.port = parts.hostname, parts.port or 80
        self.timeout = timeout
        self.headers = dict(headers or {})
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._turn = asyncio.Lock()

    async def request(
        self, method: str, path: str, json: Any = None, headers: dict[str, str] | None = None
    ) -> LeanResponse:
        async with self._turn:
            return await asyncio.wait_for(self._exchange(method, path, json, headers), self.timeout)

    async def get(self, path: str) -> LeanResponse:
        return await self.request("GET", path)

    async def post(self, path: str, json: Any = None) -> LeanResponse:
        return await self.request("POST", path, json=json)

    async def aclose(self) -> None:
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()

    async def __aenter__(self) -> LeanClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _exchange(self, method: str, path: str, body: Any, headers: dict[str, str] | None) -> LeanResponse:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        lines = [f"{method} {path} HTTP/1.1", f"host: {self.host}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in {**self.headers, **(headers or {})}.items()]
        data = b""
        if body is not None:
            data = json.dumps(body).encode()
            lines += ["content-type: application/json", f"content-length: {len(data)}"]
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
            head = await reader.readuntil(b"\r\n\r\n")
            status, length, close = _read_head(head)
            content = await reader.readexactly(length)
        except BaseException:
            await self.aclose()  # a connection left mid-answer is no use to the next request
            raise
        if close:
            await self.aclose()
        return LeanResponse(status, content)


def _read_head(head: bytes) -> tuple[int, int, bool]:
    """An answer's status, Content-Length and whether the server closes the
    connection after it."""
    status_line, *fields = head.decode("latin-1").split("\r\n")
    status = int(status_line.split(" ", 2)[1])
    length, close = None, False
    for line in fields:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "connection":
            close = value.strip().lower() == "close"
        elif name == "transfer-encoding":
            raise ValueError("a lean client reads no chunked answer")
    if length is None:
        raise ValueError("an answer without Content-Length")
    return status, length, close
