"""Ed25519 signatures of portable logs (DESIGN: Logs).

A hash chain shows a log is internally consistent, but anyone can compute
one: a forged log, chained afresh, is as consistent as a real one. A
signature shows the log was made by the holder of a private key. The
``cryptography`` package is imported only here, and only when a log is
signed or a signature checked (``rk`` start-up time matters).

Keys on disk: the private key as unencrypted PKCS#8 PEM in a file only its
owner may read (0600); the public key as 64 hex digits, the form a log's
trailer and ``rk verify --key`` use.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from domain.kernel.errors import MalformedCommand


def generate(path: str | os.PathLike[str]) -> str:
    """Write a new private key to ``path`` (created 0600; an existing file
    is never overwritten) and return the public key as hex."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise MalformedCommand(f"{path} exists; keys are never overwritten") from None
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return public_hex(key)


def load_private(path: str | os.PathLike[str]) -> Any:
    """The private key in ``path`` (as ``generate`` writes it)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except OSError as e:
        raise MalformedCommand(f"cannot read {path}: {e.strerror or e}") from None
    except (ValueError, TypeError) as e:
        raise MalformedCommand(f"{path} is not a private key: {e}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise MalformedCommand(f"{path} is not an Ed25519 private key")
    return key


def public_hex(key: Any) -> str:
    """The public half of a private key, as 64 hex digits."""
    from cryptography.hazmat.primitives import serialization

    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def read_public(text: str) -> str:
    """A public key given as 64 hex digits or as a file holding them
    (``rk keygen`` writes KEYFILE.pub); returned as lower-case hex."""
    candidate = text.strip()
    if not _is_hex_key(candidate):
        try:
            candidate = Path(text).read_text().strip()
        except OSError as e:
            raise MalformedCommand(
                f"{text!r} is neither a public key (64 hex digits) nor a readable file ({e.strerror or e})"
            ) from None
    if not _is_hex_key(candidate):
        raise MalformedCommand(f"{text}: a public key is 64 hex digits")
    return candidate.lower()


def sign(key: Any, message: bytes) -> dict[str, str]:
    """The signature of ``message`` as a log's trailer holds it."""
    return {"alg": "ed25519", "key": public_hex(key), "sig": key.sign(message).hex()}


def check(signature: dict[str, str], message: bytes) -> bool:
    """Whether ``signature`` (as ``sign`` gives it) is its key's over ``message``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(signature["key"]))
        public.verify(bytes.fromhex(signature["sig"]), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def _is_hex_key(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)
