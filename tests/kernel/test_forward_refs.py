"""msgspec reuses the reference it made of an annotation's text
(``domain.kernel.forward_refs``): every Struct of every ruleset reads as
with a reference made afresh, the same text still means what each class's
module says it means, and each thread has references of its own."""

from __future__ import annotations

import sys
import threading
import types
from typing import Any

import msgspec
from msgspec import _utils

import domain.kernel.messages  # noqa: F401 - shares the references, as every process reading events does
from domain.kernel import forward_refs
from domain.kernel.ruleset import all_rulesets


def _structs() -> list[type]:
    """Every Struct class of the domain package, every ruleset loaded."""
    all_rulesets()
    found: list[type] = []
    todo: list[type] = [msgspec.Struct]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("domain."):
                found.append(sub)
    return found


def test_msgspec_makes_its_references_through_the_shared_maker():
    assert hasattr(_utils._forward_ref, "made_by")
    assert _utils._forward_ref("int | None") is _utils._forward_ref("int | None")
    forward_refs.share()  # once only: not wrapped twice
    assert not hasattr(_utils._forward_ref.made_by, "made_by")


def test_every_struct_reads_as_with_references_made_afresh(monkeypatch):
    structs = _structs()
    assert len(structs) > 300
    shared = {cls: _utils.get_class_annotations(cls) for cls in structs}
    monkeypatch.setattr(_utils, "_forward_ref", _utils._forward_ref.made_by)
    fresh = {cls: _utils.get_class_annotations(cls) for cls in structs}
    assert shared == fresh
    assert sum(len(hints) for hints in fresh.values()) > 1000


def _module(name: str, kind: type) -> types.ModuleType:
    """A module of postponed annotations where ``Kind`` is ``kind``."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(
        "from __future__ import annotations\n"
        "import msgspec\n"
        "class Holder(msgspec.Struct):\n"
        "    kind: Kind\n"
        "    kinds: list[Kind]\n",
        module.__dict__ | {"Kind": kind},
        module.__dict__,
    )
    module.Kind = kind  # type: ignore[attr-defined]
    return module


def test_one_text_means_what_each_module_says(monkeypatch):
    first, second = _module("refs_first", int), _module("refs_second", str)
    try:
        for _ in range(2):  # in turns: each reads its own Kind, though the text is the same
            assert msgspec.json.decode(b'{"kind": 1, "kinds": [2]}', type=first.Holder) == first.Holder(1, [2])
            assert msgspec.convert({"kind": "a", "kinds": ["b"]}, second.Holder) == second.Holder("a", ["b"])
            assert _utils.get_class_annotations(first.Holder) == {"kind": int, "kinds": list[int]}
            assert _utils.get_class_annotations(second.Holder) == {"kind": str, "kinds": list[str]}
    finally:
        del sys.modules["refs_first"], sys.modules["refs_second"]


def test_each_thread_has_references_of_its_own():
    here = _utils._forward_ref("Kind")
    there: list[Any] = []
    thread = threading.Thread(target=lambda: there.extend([_utils._forward_ref("Kind"), _utils._forward_ref("Kind")]))
    thread.start()
    thread.join()
    assert there[0] is there[1]
    assert there[0] is not here
    assert there[0] == here  # the same text, made the same way
