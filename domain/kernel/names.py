"""Names people give (adventurers, battles, anything later shown in a
terminal): printable text only, so a name can never carry a terminal escape
code or a bidirectional override into someone else's screen."""

from __future__ import annotations

import unicodedata

from domain.kernel.errors import MalformedCommand

MAX_NAME = 64  # characters: as a battle id (domain.kernel.games)

# Control characters (C0, DEL, C1), formatting ones (bidirectional
# overrides, zero-width spaces), surrogates, private use and line separators.
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def check_name(name: str, what: str = "name") -> None:
    """Refuse a name that is empty, longer than ``MAX_NAME`` or holds a
    character that is not printable (MalformedCommand: no rule sets it).

    >>> check_name("Ysolda")
    >>> check_name("Evil\\x1b]0;PWNED\\x07")
    Traceback (most recent call last):
    ...
    domain.kernel.errors.MalformedCommand: name 'Evil\\x1b]0;PWNED\\x07' holds a control character (\\x1b); use printable characters
    """  # noqa: E501 (the doctest's expected exception message is one line)
    if not name.strip():
        raise MalformedCommand(f"{what}: give a name")
    shown = repr(name if len(name) <= 40 else name[:40] + "...")
    if len(name) > MAX_NAME:
        raise MalformedCommand(f"{what} {shown} is longer than {MAX_NAME} characters")
    for ch in name:
        if unicodedata.category(ch) in _REFUSED:
            code = f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
            raise MalformedCommand(f"{what} {shown} holds a control character ({code}); use printable characters")
