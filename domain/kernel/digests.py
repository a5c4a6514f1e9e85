"""The digests every command takes, without importing ``hashlib``.

``hashlib`` loads OpenSSL's bindings (``_hashlib``) as it is imported:
about 4 ms of a short command's start (`rk status` as a process), for
digests it never takes from OpenSSL (BLAKE2b) or that CPython also builds
in (SHA-1, for the name-based UUIDs of every stream id). They are taken
here from the interpreter's own modules, which give the same bytes;
another interpreter without them gets hashlib's.
"""

from __future__ import annotations

from uuid import UUID

try:
    from _blake2 import blake2b  # what hashlib.blake2b is on CPython
except ImportError:  # pragma: no cover - an interpreter without CPython's built-in modules
    from hashlib import blake2b
try:
    from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's own SHA-1 (no stub)
except ImportError:  # pragma: no cover
    from hashlib import sha1

__all__ = ["blake2b", "sha1", "uuid5"]


def uuid5(namespace: UUID, name: str) -> UUID:
    """``uuid.uuid5(namespace, name)`` (RFC 4122: SHA-1 of the namespace's
    bytes and the name's UTF-8), which imports hashlib to take its SHA-1."""
    return UUID(bytes=sha1(namespace.bytes + name.encode("utf-8")).digest()[:16], version=5)
