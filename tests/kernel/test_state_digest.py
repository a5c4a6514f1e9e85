"""The digest of a game state (``state_digest``) leaves out fields a Struct
lists in ``__digest_skip_default__`` while they hold their default, so a
field added to the state after logs were written does not change the
digest those logs record."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel.portable.chain import canonical, digest, state_digest, without_skipped_defaults


class Inner(msgspec.Struct, frozen=True, kw_only=True):
    hp: int
    armed: bool = False

    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"armed"})


class OldInner(msgspec.Struct, frozen=True, kw_only=True):
    hp: int


class Outer(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    units: tuple[Inner, ...] = ()
    by_id: dict[str, Inner] = {}
    extra: int = 0

    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"extra"})


class OldOuter(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    units: tuple[OldInner, ...] = ()
    by_id: dict[str, OldInner] = {}


class Tagged(msgspec.Struct, frozen=True, tag=True):
    a: int
    b: Inner


class OldTagged(msgspec.Struct, frozen=True, tag="Tagged"):
    a: int
    b: OldInner


def test_a_skippable_field_at_its_default_digests_as_if_it_did_not_exist():
    new = Outer(name="x", units=(Inner(hp=3), Inner(hp=1)), by_id={"a": Inner(hp=2)})
    old = OldOuter(name="x", units=(OldInner(hp=3), OldInner(hp=1)), by_id={"a": OldInner(hp=2)})
    assert state_digest(new) == state_digest(old) == digest(canonical(old))


def test_a_skippable_field_off_its_default_changes_the_digest():
    plain = Outer(name="x", units=(Inner(hp=3),))
    assert state_digest(replace_armed(plain)) != state_digest(plain)
    assert state_digest(msgspec.structs.replace(plain, extra=1)) != state_digest(plain)
    # ... and is then digested exactly as msgspec encodes it
    used = msgspec.structs.replace(plain, extra=1, units=(Inner(hp=3, armed=True),))
    assert state_digest(used) == digest(canonical(used))


def test_a_tagged_struct_keeps_its_tag_when_a_field_inside_is_skipped():
    assert state_digest(Tagged(1, Inner(hp=2))) == state_digest(OldTagged(1, OldInner(hp=2)))


def test_values_without_structs_digest_unchanged():
    value = {"a": [1, 2, (3, "x")], "b": None}
    assert state_digest(value) == digest(canonical(value))
    assert state_digest(None) == digest(canonical(None))


def replace_armed(outer: Outer) -> Outer:
    return msgspec.structs.replace(outer, units=tuple(msgspec.structs.replace(u, armed=True) for u in outer.units))


def test_left_out_fields_keep_msgspecs_own_order_so_an_old_log_exports_byte_for_byte():
    new = Tagged(1, Inner(hp=2))
    assert msgspec.json.encode(without_skipped_defaults(new)) == msgspec.json.encode(OldTagged(1, OldInner(hp=2)))
    # nothing to leave out
    assert without_skipped_defaults(OldTagged(1, OldInner(hp=2))) == OldTagged(1, OldInner(hp=2))
