"""A line deleted, two lines swapped or a line repeated is reported where
the hash chain breaks: a CHAIN divergence at the first line that does not
chain from the line before, saying what the line numbers and hashes the
lines record show, ahead of anything that follows from the change (a
version gap, a command cut short, a missing command id, a trailer that
counts other lines). Import refuses the same logs at the same line, in the
same words, and writes nothing.

Logs are edited here as raw lines, as with an editor or ``sed``: nothing
is re-chained unless a test says so.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import pytest

from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.errors import LogError
from domain.kernel.portable import Divergence, import_log, verify_log

LOGS = Path(__file__).resolve().parents[2] / "logs"
WON = LOGS / "won-waystone-crossing.jsonl"
CHAINED = "the hash chained from the previous line"


# ------------------------------------------------------------------ helpers


def raw(path: Path = WON) -> list[bytes]:
    """The log's lines, each with its newline."""
    return path.read_bytes().splitlines(keepends=True)


def deleted(lines: list[bytes], *numbers: int) -> bytes:
    return b"".join(line for n, line in enumerate(lines, start=1) if n not in numbers)


def swapped(lines: list[bytes], n: int) -> bytes:
    """Lines ``n`` and ``n + 1`` in each other's place."""
    return b"".join(lines[: n - 1] + [lines[n], lines[n - 1]] + lines[n + 1 :])


def repeated(lines: list[bytes], n: int) -> bytes:
    """Line ``n`` written twice."""
    return b"".join(lines[:n] + [lines[n - 1]] + lines[n:])


def renumbered(data: bytes) -> bytes:
    """Every line's ``n`` set to where it now stands, as someone tidying
    up a deletion would, without re-chaining (no hash is recomputed)."""
    objs = [msgspec.json.decode(line) for line in data.splitlines()]
    for n, obj in enumerate(objs[1:], start=2):
        obj["n"] = n
    return b"".join(msgspec.json.encode(obj) + b"\n" for obj in objs)


def number_of(lines: list[bytes], type_: str, nth: int = 0) -> int:
    """The line number of the ``nth`` line of event type ``type_``."""
    found = [n for n, line in enumerate(lines, start=1) if msgspec.json.decode(line).get("type") == type_]
    return found[nth]


def hash_of(lines: list[bytes], n: int) -> str:
    return msgspec.json.decode(lines[n - 1])["hash"]


def reported(data: bytes) -> Divergence:
    """What verify reports, once import is seen to refuse the log at the
    same line in the same words, writing nothing."""
    d = verify_log(data).divergence
    assert d is not None
    app = BetrayalApp(store="memory")
    with pytest.raises(LogError) as caught:
        import_log(app, data)
    assert app.max_notification_id() == 0
    assert (caught.value.line, caught.value.reason) == (d.line, f"{d.rule}: expected {d.expected}, found {d.found}")
    return d


# ------------------------------------------------------------ a line deleted


def test_a_deleted_event_line_is_a_chain_break_where_it_was_not_a_format_error():
    lines = raw()
    middle = len(lines) // 2
    d = reported(deleted(lines, middle))
    assert (d.line, d.rule, d.expected) == (middle, "CHAIN", CHAINED), d
    assert d.found == f"line {middle + 1} of the log as written: its line {middle} is missing (deleted or moved)"


def test_several_deleted_lines_are_named_as_a_range():
    d = reported(deleted(raw(), 79, 80, 81))
    assert (d.line, d.rule) == (79, "CHAIN"), d
    assert d.found == "line 82 of the log as written: its lines 79 to 81 are missing (deleted or moved)"


def test_a_deleted_header_is_a_chain_break_at_line_one():
    d = reported(deleted(raw(), 1))
    assert (d.line, d.rule) == (1, "CHAIN"), d
    assert d.found == "line 2 of the log as written: its line 1 (the header) is missing (deleted or moved)"


# The deletion takes away a command's first line (its id goes missing), its
# last line (the command is cut short and the next one closes it), a line of
# an adventurer's stream, or the setup: each would, read on, be a version
# gap or a divergence of its own, some on the line before the break.
CONSEQUENCES = {
    "a command's first line": lambda lines: number_of(lines, "betrayal.CommandIssued", 3),
    "a command's last line": lambda lines: number_of(lines, "betrayal.CommandIssued", 2) - 1,
    "an adventurer's line": lambda lines: number_of(lines, "betrayal.AdventurerCreated", 1),
    "the setup command": lambda lines: number_of(lines, "betrayal.CommandIssued"),
    "a write back to an adventurer": lambda lines: number_of(lines, "betrayal.BattleConcluded"),
}


@pytest.mark.parametrize("what", CONSEQUENCES)
def test_the_chain_break_comes_before_what_follows_from_a_deletion(what):
    lines = raw()
    n = CONSEQUENCES[what](lines)
    d = reported(deleted(lines, n))
    assert (d.line, d.rule) == (n, "CHAIN"), d
    assert "missing" in d.found


@pytest.mark.parametrize("what", CONSEQUENCES)
def test_a_deletion_with_the_line_numbers_tidied_is_still_the_chain_break(what):
    lines = raw()
    n = CONSEQUENCES[what](lines)
    d = reported(renumbered(deleted(lines, n)))
    assert (d.line, d.rule) == (n, "CHAIN"), d
    assert d.found == "a hash that does not match: this line (or its hash) was edited"


# ------------------------------------------------- the last event line deleted


def test_a_deleted_last_event_line_leaves_a_trailer_that_closes_other_lines():
    lines = raw()
    trailer, last = len(lines), len(lines) - 1
    d = reported(deleted(lines, last))
    assert (d.line, d.rule) == (last, "CHAIN"), d
    assert d.found == (
        f"line {trailer} (the trailer) of the log as written: its line {last} is missing (deleted or moved);"
        f" the trailer counts {last - 1} event lines, the last of hash {hash_of(lines, last)},"
        f" but follows {last - 2}, the last of hash {hash_of(lines, last - 1)}"
    )


def test_a_trailer_renumbered_after_the_deletion_still_counts_the_missing_line():
    lines = raw()
    last = len(lines) - 1
    d = reported(renumbered(deleted(lines, last)))
    assert (d.line, d.rule) == (last, "CHAIN"), d
    assert d.found == (
        f"the trailer counts {last - 1} event lines, the last of hash {hash_of(lines, last)},"
        f" but follows {last - 2}, the last of hash {hash_of(lines, last - 1)}:"
        " 1 event line(s) before it are missing (deleted)"
    )


def test_a_deleted_trailer_is_still_a_cut_log():
    lines = raw()
    d = reported(deleted(lines, len(lines)))
    assert (d.line, d.rule) == (len(lines) - 1, "CUT"), d


# --------------------------------------------------- lines swapped or repeated


def _swap_points(lines: list[bytes]) -> list[int]:
    # The header and the first event line, a command's last line and the
    # next command, two writes back to adventurers, the last event line
    # and the trailer.
    return [1, number_of(lines, "betrayal.CommandIssued", 2) - 1, len(lines) - 3, len(lines) - 1]


@pytest.mark.parametrize("at", range(4))
def test_two_swapped_lines_are_a_chain_break_at_the_first(at):
    lines = raw()
    n = _swap_points(lines)[at]
    d = reported(swapped(lines, n))
    assert (d.line, d.rule) == (n, "CHAIN"), d
    name = f"line {n + 1}" + (" (the trailer)" if n + 1 == len(lines) else "")
    assert d.found == f"{name} of the log as written, then its line {n}: the two lines were swapped"


@pytest.mark.parametrize("at", ["header", "setup", "middle", "last event line"])
def test_a_repeated_line_is_a_chain_break_at_the_copy(at):
    lines = raw()
    n = {
        "header": 1,
        "setup": number_of(lines, "betrayal.CommandIssued"),
        "middle": len(lines) // 2,
        "last event line": len(lines) - 1,
    }[at]
    d = reported(repeated(lines, n))
    assert (d.line, d.rule) == (n + 1, "CHAIN"), d
    assert d.found == f"line {n} again (the same line, hash and all): a line was repeated"


def test_a_line_moved_further_on_is_reported_where_it_was_taken_from():
    lines = raw()
    moved = b"".join(lines[:9] + lines[10:100] + [lines[9]] + lines[100:])
    d = reported(moved)
    assert (d.line, d.rule) == (10, "CHAIN"), d
    assert d.found == "line 11 of the log as written: its line 10 is missing (deleted or moved)"


# ------------------------------------------------------- every golden log


@pytest.mark.parametrize("log", sorted(p.name for p in LOGS.glob("*.jsonl")))
def test_every_golden_log_reports_a_deleted_swapped_or_repeated_line_at_its_place(log):
    lines = raw(LOGS / log)
    middle = len(lines) // 2
    for data, line, words in (
        (deleted(lines, middle), middle, "missing"),
        (swapped(lines, middle), middle, "swapped"),
        (repeated(lines, middle), middle + 1, "repeated"),
    ):
        d = reported(data)
        assert (d.line, d.rule) == (line, "CHAIN") and words in d.found, (log, d)


# ------------------------------------ what the chain does not catch, re-deciding does


def test_a_deletion_re_chained_throughout_is_still_caught_by_re_deciding():
    objs = [msgspec.json.decode(line) for line in raw()]
    n = number_of(raw(), "betrayal.DieExhausted")
    gone = objs.pop(n - 1)
    for number, obj in enumerate(objs[1:], start=2):
        obj["n"] = number
        if obj.get("stream") == gone["stream"] and obj["version"] > gone["version"]:
            obj["version"] -= 1
    previous, out = "", []
    for obj in objs:
        if "end" in obj:
            obj.update(events=len(objs) - 2, last_hash=previous)
        body = {k: v for k, v in obj.items() if k != "hash"}
        obj["hash"] = previous = hashlib.blake2b(
            previous.encode() + msgspec.json.encode(body, order="sorted"), digest_size=16
        ).hexdigest()
        out.append(msgspec.json.encode(obj) + b"\n")
    d = reported(b"".join(out))
    assert d.line == n and d.rule not in ("CHAIN", "FORMAT"), d


def test_rk_verify_prints_the_chain_break_and_fails(rk, tmp_path):
    log = tmp_path / "deleted.jsonl"
    log.write_bytes(deleted(raw(), 79))
    result = rk("verify", str(log), code=1)
    output = result.stdout + result.stderr
    assert output.startswith("line 79: CHAIN: expected the hash chained from the previous line")
    assert "its line 79 is missing" in " ".join(output.split())
