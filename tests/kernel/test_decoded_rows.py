"""``EnvelopeDecoder.decoded`` (issue 25, eighth pass: what `rk log` and
the read models' catch-up decode a long log with) makes of each stored
row what ``to_domain_event`` makes of it: the same envelopes for every
row of every golden log, an older version upcast, a string stream id
parsed, and the same error at the same row for bytes that do not decode
or a topic no class has; under a cipher and a compressor as well."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.compressor import ZlibCompressor
from eventsourcing.persistence import MapperDeserialisationError

from domain.kernel.envelope import wrap
from domain.kernel.games import GameApp
from domain.kernel.portable import import_log
from domain.kernel.stores.decoding import StoredRow
from domain.kernel.stores.mapper import MsgspecMapper

from test_mapper import XorCipher
from test_stream_rows import TallyNamed, TallyStarted

LOGS = Path(__file__).resolve().parents[2] / "logs"
GOLDEN = sorted(p.name for p in LOGS.glob("*.jsonl"))


def _both(mapper: Any, rows: list[Any]) -> tuple[list[Any], list[Any]]:
    return list(mapper.decoded(rows)), [mapper.to_domain_event(r) for r in rows]


@pytest.mark.parametrize("name", GOLDEN)
def test_every_row_of_a_golden_log_decodes_as_to_domain_event_decodes_it(name):
    app = GameApp(store="memory")
    import_log(app, (LOGS / name).read_bytes())
    rows = list(app.recorder.select_notifications(start=1, limit=10**6))
    mine, theirs = _both(app.mapper, rows)
    assert mine == theirs and len(mine) == len(rows)


def _raw(stream: Any, version: int, topic: str, body: dict[str, Any]) -> StoredRow:
    return StoredRow(stream, version, topic, json.dumps(body).encode())


@pytest.mark.parametrize("cipher", [False, True])
def test_old_versions_string_ids_and_every_topic_decode_as_to_domain_event(cipher):
    mapper = MsgspecMapper(compressor=ZlibCompressor(), cipher=XorCipher()) if cipher else MsgspecMapper()
    stream = uuid4()
    rows: list[Any] = [
        mapper.to_stored_event(e) for e in wrap(stream, 0, [TallyStarted(start=3), TallyNamed(name="a")], "c1")
    ]
    if not cipher:
        rows += [
            _raw(stream, 3, TallyNamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {"title": "old"}}),
            _raw(str(stream), 4, TallyStarted.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c3", "d": {"start": 9}}),
        ]
    rows = rows * 3
    mine, theirs = _both(mapper, rows)
    assert mine == theirs and len(mine) == len(rows)


@pytest.mark.parametrize(
    ("topic", "body"),
    [
        (TallyStarted.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {"start": "three"}}),
        ("test.rows.NoSuchEvent", {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {}}),
    ],
)
def test_a_row_that_does_not_decode_raises_as_to_domain_event_raises_after_the_rows_before(topic, body):
    mapper = MsgspecMapper()
    stream = uuid4()
    good = [mapper.to_stored_event(e) for e in wrap(stream, 0, [TallyStarted(start=3)] * 2, "c1")]
    bad = _raw(stream, 3, topic, body)
    with pytest.raises(MapperDeserialisationError) as theirs:
        mapper.to_domain_event(bad)
    got = mapper.decoded([*good, bad, *good])
    assert [next(got), next(got)] == [mapper.to_domain_event(r) for r in good]
    with pytest.raises(MapperDeserialisationError) as mine:
        next(got)
    assert str(mine.value) == str(theirs.value)
