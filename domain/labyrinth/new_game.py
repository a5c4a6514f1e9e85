"""Setting a labyrinth battle up from a request (``surface.NewLabyrinth``):
the one builder behind `rk new labyrinth`, the API and the lobby.

What exists (a class, an encounter, an Enemy slot) is the rules' question;
the shape of what was asked (a level that is a number, a row that is front
or back, an option the table has, a sheet file that reads) is answered
here, before anything is written. A member typed ``CLASS[:LEVEL[:NAME[:ROW]]]``
is refused naming its option as typed (``--party 'vanguard:x'``), one given
as an object by where it stands in the request (``party[1].sheet.skills[0]``),
a sheet file by its name and line.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.surface import random_seed

from .catalog import Pack
from .commands import Member, StartLabyrinth
from .options import Options, passive_settings
from .sheet_files import MAX_LEVEL, parse_sheets
from .sheets import problem
from .request import MEMBER, NewLabyrinth, PartyMember, SheetFile
from .vocab import Row, Side

RULESET = "labyrinth"
MAX_OPTION_NUMBER = 99  # the only numbers among the options are a count of turns and an FP cost
SIDES = {"pcs": Side.PC, "pc": Side.PC, "party": Side.PC, "enemies": Side.ENEMY, "enemy": Side.ENEMY}
TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def start(app: Any, r: NewLabyrinth) -> Any:
    """Start the battle ``r`` asks for; refused with the reason, writing nothing."""
    battle_id = r.name or app.new_battle_id(r.encounter.strip() or RULESET)
    command = setup_command(r, app.pack_of(RULESET), battle_id)
    return app.start(RULESET, command, battle_id=battle_id)


def setup_command(r: NewLabyrinth, pack: Pack, battle_id: str) -> StartLabyrinth:
    """The setup command ``r`` asks for, on ``pack`` (a random seed unless
    it names one)."""
    seed = r.seed if r.seed is not None else random_seed()
    party = _members(r.party, r.sheets, pack, "party", "--party")
    if not party:
        raise MalformedCommand(f"a party needs at least one PC: --party {MEMBER} or --sheet FILE, once per PC")
    allies = _members(r.allies, r.ally_sheets, pack, "allies", "--ally")
    return StartLabyrinth(
        battle_id=battle_id,
        encounter=r.encounter.strip(),
        party=party,
        allies=allies,
        seed=seed,
        options=options(r),
        rare=rare_slots(r.rare),
    )


# --- the party and its allies -------------------------------------------------------------


def _members(
    given: list[str | PartyMember], files: list[SheetFile], pack: Pack, field: str, option: str
) -> tuple[Member, ...]:
    """The members ``given`` in order, then each sheet file's in file order."""
    out = [
        member(m, option) if isinstance(m, str) else member_of(m, pack, f"{field}[{i}]") for i, m in enumerate(given)
    ]
    for f in files:
        out += parse_sheets(f.file, f.text.encode(), pack)
    return tuple(out)


def member(text: str, option: str = "--party") -> Member:
    """``CLASS[:LEVEL[:NAME[:ROW]]]`` -> a party member or an allied NPC
    (level 1 and the class's row unless given; an empty part keeps its
    default); ``option`` names it in a refusal."""
    parts = [p.strip() for p in text.split(":")]
    where = f"{option} {text if len(text) <= 60 else text[:40] + '...'!r}"
    if not parts[0] or len(parts) > 4:
        raise MalformedCommand(f"{where}: write {MEMBER}, e.g. vanguard:2:Ada:front")
    level = _level(parts[1], where) if len(parts) > 1 and parts[1] else 1
    row = _row(parts[3], where) if len(parts) > 3 and parts[3] else None
    return Member(cls=parts[0].lower(), level=level, name=parts[2] if len(parts) > 2 else "", row=row)


def member_of(m: PartyMember, pack: Pack, where: str) -> Member:
    """A member given as an object, ``where`` (``party[1]``) naming it. A
    class the pack lacks is left to the rules, which say so; a sheet is
    checked here against its class, so its refusal names its field."""
    level = _level(m.level, where)
    row = _row(m.row, where) if m.row is not None else None
    cls = pack.classes.get(m.cls)
    if m.sheet is not None and cls is not None:
        wrong = problem(cls, level, m.sheet, pack)
        if wrong is not None:
            raise MalformedCommand(f"{where}.sheet.{wrong[0]}: {wrong[1]}")
    return Member(cls=m.cls, level=level, name=m.name or "", row=row, sheet=m.sheet)


def _level(value: str | int, where: str) -> int:
    text = str(value)
    if type(value) not in (str, int) or not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_LEVEL:
        raise MalformedCommand(f"{where}: the level is a whole number from 1 to {MAX_LEVEL}, not {text[:12]}")
    return int(text)


def _row(text: str, where: str) -> Row:
    try:
        return Row(text.strip().lower())
    except ValueError:
        raise MalformedCommand(f"{where}: the row is front or back, not {text[:20]!r}") from None


def rare_slots(slots: list[str]) -> tuple[str, ...]:
    """The Enemy slots met as their kind's rare variant (facts section 8);
    whether the encounter has such a slot is the rules' question."""
    out: list[str] = []
    for i, slot in enumerate(slots):
        slot = slot.strip().lower()
        if slot in out:
            raise MalformedCommand(f"rare[{i}]: {slot!r} is named twice")
        out.append(slot)
    return tuple(out)


# --- the table options ------------------------------------------------------------------------


def options(r: NewLabyrinth) -> Options:
    """The table options: those ``passives`` sets (PASSIVE-2), then each
    named outright, then ``ambush``, ``gm_enemies``, ``ask_fp`` and ``physical_dice``."""
    settings = passive_settings(r.passives.strip().lower())
    if settings is None:
        raise MalformedCommand(f"passives: {r.passives[:20]!r} is not ask, auto or off")
    chosen: dict[str, bool | int | Side | None] = {**settings}
    named = r.options.items() if isinstance(r.options, dict) else (_named(text) for text in r.options)
    fields = {f.name: f for f in msgspec.structs.fields(Options)}
    for name, value in named:
        key = name.strip().lower().replace("-", "_")
        if key not in fields:
            raise MalformedCommand(f"no table option {name[:40]!r}; the options are: {', '.join(fields)}")
        chosen[key] = _value(key, fields[key].default, value)
    if r.ambush is not None:
        chosen["ambush"] = side(r.ambush, "ambush")
    if r.gm_enemies:
        chosen["gm_enemies"] = True
    if r.ask_fp:
        chosen["ask_fp"] = True
    if r.physical_dice:
        chosen["physical_dice"] = True
    return msgspec.structs.replace(Options(), **chosen)


def _named(text: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise MalformedCommand(f"--option {text[:40]!r}: write NAME=VALUE, e.g. default_buff_turns=4")
    return name, value.strip()


def _value(name: str, default: Any, value: Any) -> Any:
    """``value`` of option ``name`` (typed text, or a JSON value) as the option holds it."""
    word = value.strip().lower() if isinstance(value, str) else value
    if name == "ambush":
        return None if word in (None, "none") else side(str(value), f"option {name}")
    if isinstance(default, bool):
        if isinstance(word, bool):
            return word
        if word not in TRUE + FALSE:
            raise MalformedCommand(f"option {name}: {value!r} is not true or false")
        return word in TRUE
    if isinstance(default, int):
        text = str(word)
        if (
            isinstance(word, bool)
            or not text.isascii()
            or not text.isdigit()
            or not 1 <= int(text) <= MAX_OPTION_NUMBER
        ):
            raise MalformedCommand(f"option {name}: {value!r} is not a whole number from 1 to {MAX_OPTION_NUMBER}")
        return int(text)
    try:  # a kind of option this builder does not know yet: let msgspec say
        return getattr(msgspec.convert({name: value}, Options, strict=False), name)
    except msgspec.ValidationError as e:
        raise MalformedCommand(f"option {name}: {e}") from None


def side(text: str, where: str) -> Side:
    """``pcs`` or ``enemies``: the side caught by surprise."""
    found = SIDES.get(text.strip().lower())
    if found is None:
        raise MalformedCommand(f"{where}: {text[:20]!r} is not a side: pcs or enemies")
    return found
