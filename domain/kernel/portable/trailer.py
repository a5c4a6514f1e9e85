"""How a log must end: with a trailer that closes it (its event count,
the hash of the line before it and the final state digest agree with the
log), a final state that replays to the header's digest, and a signature
that checks, by the key asked for if one is."""

from __future__ import annotations

from typing import Any

from domain.kernel.portable.chain import FORMAT, signed_bytes
from domain.kernel.portable.diff import Found, divergence
from domain.kernel.portable.reader import Reader


def check_end(reader: Reader, trailer: dict[str, Any] | None, digest: str, key: str | None) -> str:
    """Check the end of a log read whole by ``reader``, whose game (or
    group of games) replayed to the final state ``digest``; raise ``Found`` at the first divergence (CUT, TRAILER,
    DIGEST, SIGNATURE). Returns the key that signed it, "" if none did."""
    last = reader.lines
    if trailer is None:
        # The last command may be missing lines: it is not judged, the cut is.
        raise Found(
            divergence(
                last,
                None,
                "CUT",
                f"a trailer closing the log ({FORMAT})",
                f"the log ends at line {last} without one: it was cut",
            )
        )
    line = reader.ended
    header_digest = reader.header["final_state_digest"]
    for what, want, got in (
        ("events", line - 2, trailer["events"]),
        ("last_hash", reader.before_trailer, trailer["last_hash"]),
        ("final_state_digest", header_digest, trailer["final_state_digest"]),
    ):
        if want != got:
            raise Found(divergence(line, None, "TRAILER", f"{what} {want}", f"{what} {got}"))
    if digest != header_digest:
        raise Found(
            divergence(1, None, "DIGEST", f"final_state_digest {digest} (the replayed final state)", header_digest)
        )
    return _signer(line, trailer, key)


def _signer(line: int, trailer: dict[str, Any], key: str | None) -> str:
    """The key whose signature over the log checks ("" for none), or
    ``Found`` when it does not, or is not by ``key``."""
    sig = trailer["signature"]
    if sig is None:
        if key:
            raise Found(divergence(line, None, "SIGNATURE", f"a signature by key {key}", "the log is not signed"))
        return ""
    from domain.kernel import signing

    if key and sig["key"] != key:
        raise Found(
            divergence(line, None, "SIGNATURE", f"a signature by key {key}", f"a signature by key {sig['key']}")
        )
    if not signing.check(sig, signed_bytes(trailer)):
        raise Found(
            divergence(
                line,
                None,
                "SIGNATURE",
                f"a signature of this log by key {sig['key']}",
                "a signature that does not check: the log or its signature was changed",
            )
        )
    return sig["key"]
