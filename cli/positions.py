"""Positions on the command line: `rk new <ruleset> --position FILE`
starts a game from a position file, `rk position` writes one. The work is
``domain.kernel.position``'s; this module reads and writes files and
reports. No ruleset is named here."""

from __future__ import annotations

import sys

from domain.kernel.errors import MalformedCommand

from .paths import check_writable, writing
from .session import Session

MAX_FILE = 1024 * 1024  # bytes of a position file: more is refused


def start(s: Session, ruleset: str, file: str, name: str | None = None) -> None:
    """Start a game of ``ruleset`` from position file ``file`` (its name:
    the position's own, ``name`` must agree); a refusal names the file,
    the line and the reason, and nothing is written."""
    from domain.kernel.position.document import PositionRefused
    from domain.kernel.position.rules import checked
    from domain.kernel.position.messages import StartFromPosition
    from domain.kernel.ruleset import load

    from .battle_names import started
    from .game import report

    rs = load(ruleset)
    if rs.positioned is None:
        raise MalformedCommand(f"{rs.title} games cannot start from a position")
    text = _read(file)
    try:
        # the position's own refusals first: a file the rules cannot hold is said so, whatever the store holds
        battle_id = checked(rs, s.app.pack_of(rs), text).state.battle_id
        if name is not None and name != battle_id:
            raise MalformedCommand(
                f"{file}: the position is of battle {battle_id!r}: to call it {name!r}, change"
                " game.battle_id in the file (or `rk rename` it after)"
            )
        result = s.app.start(rs.name, StartFromPosition(position=text), battle_id=battle_id)
    except PositionRefused as e:
        raise MalformedCommand(f"{file} {e}") from None
    if rs.battles:
        started(s, battle_id)
    else:  # a game that is not a battle (a campaign) never becomes the current battle
        s.set_game(battle_id)
    report(s, result, None, full=True)


def write(s: Session, output: str | None, at: int | None) -> None:
    """The position of the game acted on, at version ``at`` (None: now),
    to ``output`` or to stdout."""
    from domain.kernel.position.at import position_text

    battle_id = s.battle_id
    text = position_text(s.app, battle_id, at)
    version = s.app.battle(battle_id, at).version
    if output is None:
        if s.json:
            s.out.emit({"battle": battle_id, "version": version, "position": text})
        else:
            sys.stdout.write(text)
        return
    target = check_writable(output, "the position")
    with writing(output, "the position"):
        target.write_text(text, encoding="utf-8")
    if s.json:
        s.out.emit({"battle": battle_id, "version": version, "file": output})
    else:
        s.out.print(
            f"Wrote the position of {battle_id} at version {version} to {output}"
            f" (`rk new {s.app.ruleset(battle_id).name} --position {output}` starts a game from it)"
        )


def _read(file: str) -> str:
    try:
        with open(file, "rb") as f:
            data = f.read(MAX_FILE + 1)
    except OSError as e:
        raise MalformedCommand(f"cannot read {file}: {e.strerror or e}") from None
    if len(data) > MAX_FILE:
        raise MalformedCommand(f"{file}: larger than {MAX_FILE // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise MalformedCommand(f"{file}: not UTF-8 text (byte {e.start})") from None


__all__ = ["start", "write"]
