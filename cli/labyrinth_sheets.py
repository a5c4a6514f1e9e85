"""Reading PC sheet files for `rk new labyrinth --sheet FILE` (and
``--ally-sheet FILE``): the bytes are read here, then parsed and checked by
``domain.labyrinth.sheet_files`` against the pack the battle is played
with. A file that cannot be read is refused naming it; a malformed one with
its name, the line and the reason (a ``ContentError``), before anything is
written. The format: examples/labyrinth/sheet-tracker.toml and the
docstring of ``domain.labyrinth.sheet_files``.
"""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand
from domain.labyrinth.commands import Member
from domain.labyrinth.sheet_files import parse_sheets

MAX_BYTES = 256 * 1024  # far above any sheet; a file this big is not one


def read_sheets(path: str, pack: object, option: str = "--sheet") -> tuple[Member, ...]:
    """The party members sheet file ``path`` describes, in file order."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise MalformedCommand(f"{option} {path}: cannot read it ({e.strerror or type(e).__name__})") from None
    if len(raw) > MAX_BYTES:
        raise MalformedCommand(f"{option} {path}: larger than {MAX_BYTES // 1024} KiB, too big for a sheet file")
    return parse_sheets(path, raw, pack)  # type: ignore[arg-type]
