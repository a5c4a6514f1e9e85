"""The kernel's digests (``domain.kernel.digests``), taken without importing
hashlib, are hashlib's and uuid's to the byte: every stream id and pack
hash already stored depends on it."""

from __future__ import annotations

import hashlib
import uuid

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel import digests


@given(st.uuids(), st.text())
def test_uuid5_is_the_standard_librarys(namespace, name):
    assert digests.uuid5(namespace, name) == uuid.uuid5(namespace, name)


@given(st.binary(), st.integers(min_value=1, max_value=64))
def test_blake2b_and_sha1_are_hashlibs(data, size):
    assert digests.blake2b(data, digest_size=size).digest() == hashlib.blake2b(data, digest_size=size).digest()
    assert digests.sha1(data).digest() == hashlib.sha1(data).digest()


def test_the_stream_ids_are_unchanged():
    from domain.kernel.games import INDEX_STREAM

    assert INDEX_STREAM == uuid.uuid5(uuid.NAMESPACE_URL, "rulekeeper:index")
