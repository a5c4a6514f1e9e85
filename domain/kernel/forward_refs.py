"""Each annotation's text compiled once, not once per class that spells it.

Our modules postpone their annotations (``from __future__ import
annotations``): a Struct's are strings until msgspec first builds a decoder
or converter for it. msgspec then makes a ``typing.ForwardRef`` of each
string (``msgspec._utils._forward_ref``), and ``ForwardRef`` compiles its
text as it is made: some 500 compilations for `rk status` (a fifth of the
instructions msgspec spends building its decoders), most of them of the
same few texts (``int``, ``str``, ``Hex | None``...).

``share`` makes msgspec take, for a text seen before in the same thread,
the reference it made then. Evaluating one does not depend on where it was
made: msgspec evaluates every reference in the namespaces of the class it
reads (never cached: those are not the reference's own), so a shared one
resolves as a new one would. A reference keeps the value it last resolved
to until it is evaluated again, so each thread has its own (a server's
threads may build decoders at once, for classes whose names mean different
things).

If msgspec no longer has that function (another version), nothing is
changed: each reference is made as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

_SHARED = threading.local()  # .refs: text -> the reference made of it in this thread
_MAKER = "_forward_ref"  # msgspec's function making a reference of an annotation's text


def shared(make: Callable[[str], Any]) -> Callable[[str], Any]:
    """``make``, answering a text it was given before (in this thread) with
    the reference it made then."""

    def reference(text: str) -> Any:
        refs: dict[str, Any] | None = getattr(_SHARED, "refs", None)
        if refs is None:
            refs = _SHARED.refs = {}
        found = refs.get(text)
        if found is None:
            found = refs[text] = make(text)
        return found

    reference.made_by = make  # type: ignore[attr-defined]  # what ``share`` replaced (a test compares both)
    return reference


def share() -> None:
    """Have msgspec reuse the references it makes (once per process)."""
    from msgspec import _utils

    make = getattr(_utils, _MAKER, None)
    if make is None or hasattr(make, "made_by"):
        return  # another msgspec, or done already
    setattr(_utils, _MAKER, shared(make))
