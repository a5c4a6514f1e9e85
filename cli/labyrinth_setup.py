"""Setting a labyrinth battle up from the command line: `rk new labyrinth`
(party members as CLASS[:LEVEL[:NAME[:ROW]]] or from sheet files, allied
NPCs the same way, the table options as NAME=VALUE), and the content to
choose from: `rk encounters` and `rk labyrinth-classes`, each a table that
fits 80 columns.

What exists (a class, an encounter) is the rules' question; the shape of
what was typed (a level that is a number, an option the table has) is
answered here, before anything is written.
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

import msgspec
from rich import box
from rich.table import Table

from domain.kernel.errors import MalformedCommand
from domain.labyrinth.commands import Member, StartLabyrinth
from domain.labyrinth.fp import cost_text
from domain.labyrinth.options import passive_settings
from domain.labyrinth.packs import starter_pack
from domain.labyrinth.state import Options
from domain.labyrinth.stats import pc_base
from domain.labyrinth.vocab import Row, Side

from .battle_names import started
from .game import narration, result_json
from .output import printable
from .session import Session

RULESET = "labyrinth"
MAX_LEVEL = 99  # a sanity bound on what is typed: far above any class sheet's levels
MAX_OPTION_NUMBER = 99  # the only number among the options is a count of turns
AMBUSHED = {"pcs": Side.PC, "pc": Side.PC, "party": Side.PC, "enemies": Side.ENEMY, "enemy": Side.ENEMY}
TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


# --- rk new labyrinth -------------------------------------------------------------


def new_labyrinth(s: Session, *, encounter: str, party: list[str], seed: int | None, ambush: str | None,
                  gm_enemies: bool, options: list[str], passives: str = "ask", ask_fp: bool = False,
                  rare: list[str] | None = None,
                  sheets: list[str] | None = None, allies: list[str] | None = None,
                  ally_sheets: list[str] | None = None) -> None:
    """Set up a battle of ``party`` against ``encounter`` and show it;
    the Enemy slots in ``rare`` (e2, ...) are their kind's rare variant.
    The party is the ``--party`` members, then the PCs of each ``sheets``
    file (in the order given, each file's in its order); the allied NPCs
    likewise ``allies`` then ``ally_sheets``. Every file is read and
    checked before anything is written."""
    seed = seed if seed is not None else secrets.randbelow(2**31)
    if not 0 <= seed < 2**63:
        raise MalformedCommand("--seed must be a whole number from 0 to 2^63-1")
    if not party and not sheets:
        raise MalformedCommand("name the party: --party CLASS[:LEVEL[:NAME[:ROW]]] or --sheet FILE, once per PC")
    from .labyrinth_sheets import read_sheets

    pack = s.app.pack_of(RULESET)
    members = tuple(member(text) for text in party)
    members += tuple(m for path in sheets or () for m in read_sheets(path, pack))
    helpers = tuple(member(text, "--ally") for text in allies or ())
    helpers += tuple(m for path in ally_sheets or () for m in read_sheets(path, pack, "--ally-sheet"))
    chosen = passive_options(passives) | option_values(options)
    if ambush is not None:
        chosen["ambush"] = ambushed_side(ambush, "--ambush")
    if gm_enemies:
        chosen["gm_enemies"] = True
    if ask_fp:
        chosen["ask_fp"] = True
    battle_id = s.battle or s.app.new_battle_id(encounter.strip() or RULESET)
    command = StartLabyrinth(battle_id=battle_id, encounter=encounter.strip(),
                             party=members, allies=helpers, seed=seed,
                             options=msgspec.structs.replace(Options(), **chosen),
                             rare=tuple(slot.strip().lower() for slot in rare or ()))
    result = s.app.start(RULESET, command, battle_id=battle_id)
    started(s, battle_id)
    if s.json:
        s.out.emit(result_json(s, result, None))
        return
    from .labyrinth import show_status  # the views, imported with the rules they draw

    for line in narration(s, result, None):
        s.out.print("  " + line)
    show_status(s, result.battle)


def member(text: str, option: str = "--party") -> Member:
    """``CLASS[:LEVEL[:NAME[:ROW]]]`` -> a party member or an allied NPC
    (level 1 and the class's row unless given; an empty part keeps its
    default); ``option`` names the option in a refusal."""
    parts = [p.strip() for p in text.split(":")]
    shown = repr(text if len(text) <= 60 else text[:40] + "...")
    if not parts[0] or len(parts) > 4:
        raise MalformedCommand(f"{option} {shown}: write CLASS[:LEVEL[:NAME[:ROW]]], e.g. vanguard:2:Ada:front")
    level = 1
    if len(parts) > 1 and parts[1]:
        if not parts[1].isdigit() or not 1 <= int(parts[1]) <= MAX_LEVEL:
            raise MalformedCommand(f"{option} {shown}: the level is a whole number from 1 to {MAX_LEVEL}")
        level = int(parts[1])
    row = None
    if len(parts) > 3 and parts[3]:
        try:
            row = Row(parts[3].lower())
        except ValueError:
            raise MalformedCommand(f"{option} {shown}: the row is front or back") from None
    return Member(cls=parts[0].lower(), level=level, name=parts[2] if len(parts) > 2 else "", row=row)


def passive_options(typed: str) -> dict[str, Any]:
    """``--passives ask|auto|off`` -> the table options it sets (PASSIVE-2;
    the mapping is the domain's, shared with the server); an ``--option``
    naming them too is applied after it."""
    chosen = passive_settings(typed.strip().lower())
    if chosen is None:
        raise MalformedCommand(f"--passives {typed!r}: write ask, auto or off")
    return dict(chosen)


def option_names() -> list[str]:
    """The table options a battle takes (``state.Options``), as typed."""
    return [f.name for f in msgspec.structs.fields(Options)]


def option_values(typed: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` texts -> {field: value} of ``Options``: an unknown
    name is refused with the list of known ones, a value of the wrong kind
    with the kind it takes."""
    fields = {f.name: f for f in msgspec.structs.fields(Options)}
    out: dict[str, Any] = {}
    for text in typed:
        name, eq, value = text.partition("=")
        name, value = name.strip().lower().replace("-", "_"), value.strip()
        if not eq or not name:
            raise MalformedCommand(f"--option {text!r}: write NAME=VALUE, e.g. default_buff_turns=4")
        if name not in fields:
            raise MalformedCommand(f"--option {name!r} is not a table option; the options are: "
                                   + ", ".join(fields))
        default = fields[name].default
        if name == "ambush":
            out[name] = None if value.lower() == "none" else ambushed_side(value, f"--option {name}")
        elif isinstance(default, bool):
            word = value.lower()
            if word not in TRUE + FALSE:
                raise MalformedCommand(f"--option {name}: {value!r} is not true or false")
            out[name] = word in TRUE
        elif isinstance(default, int):
            if not value.isdigit() or not 1 <= int(value) <= MAX_OPTION_NUMBER:
                raise MalformedCommand(f"--option {name}: {value!r} is not a whole number from 1 to "
                                       f"{MAX_OPTION_NUMBER}")
            out[name] = int(value)
        else:  # a kind of option this command line does not know yet: let msgspec say
            try:
                out[name] = getattr(msgspec.convert({name: value}, Options, strict=False), name)
            except msgspec.ValidationError as e:
                raise MalformedCommand(f"--option {name}: {e}") from None
    return out


def ambushed_side(text: str, option: str) -> Side:
    """``pcs`` or ``enemies`` (the side caught by surprise)."""
    side = AMBUSHED.get(text.strip().lower())
    if side is None:
        raise MalformedCommand(f"{option}: {text!r} is not a side: pcs or enemies")
    return side


# --- the content ------------------------------------------------------------------


def encounters(s: Session) -> None:
    """The encounters of the starter pack, with their Enemies and rows."""
    pack = starter_pack()
    if s.json:
        s.out.emit([{**msgspec.to_builtins(e), "id": key} for key, e in pack.encounters.items()])
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("encounter", no_wrap=True)
    table.add_column("name", min_width=10)
    table.add_column("Enemies (level; back row, link group)", min_width=24)
    for key, e in pack.encounters.items():
        counts = Counter((x.enemy, x.row, x.link) for x in e.enemies)
        enemies = []
        for (kind_id, row, link), n in counts.items():
            kind = pack.enemies.get(kind_id)
            what = [f"lv {kind.level}" if kind else "?"]
            what += ["back"] if row is Row.BACK else []
            what += [f"link {link}"] if link else []
            enemies.append(f"{printable(kind.name if kind else kind_id)}{f' ×{n}' if n > 1 else ''} "
                           f"({', '.join(what)})")
        table.add_row(key, printable(e.name), ", ".join(enemies))
    s.out.print(table)


def classes(s: Session) -> None:
    """The classes of the starter pack: where they stand, HP and TP at
    level 1, equipment, and the skills learned by level."""
    pack = starter_pack()
    if s.json:
        # each class with what its skills cost (TP, and FP: FUMBLE-2), as the table shows them
        s.out.emit([{**msgspec.to_builtins(c), "id": key,
                     "skill_costs": {sid: {"tp": pack.skills[sid].tp, "fp": pack.skills[sid].fp}
                                     for _, sid in c.skills if sid in pack.skills}}
                    for key, c in pack.classes.items()])
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("class", no_wrap=True)
    table.add_column("row", no_wrap=True)
    table.add_column("HP/TP", no_wrap=True)
    table.add_column("equipment", min_width=12)
    table.add_column("skills (level: ids)", min_width=20)
    for key, c in pack.classes.items():
        base = pc_base(c, 1)
        gear = [g for g in (c.weapon, c.other, c.armor) if g]
        gear += [f"{item} ×{n}" if n > 1 else item for item, n in Counter(c.items).items()]
        levels: dict[int, list[str]] = {}
        for level, skill in c.skills:
            found = pack.skills.get(skill)  # a skill with an FP cost shows its cost (FUMBLE-2)
            levels.setdefault(level, []).append(f"{skill} ({cost_text(found.tp, found.fp)})" if found and found.fp
                                                else skill)
        skills = "; ".join(f"{level}: {', '.join(ids)}" for level, ids in sorted(levels.items()))
        table.add_row(f"{key}\n{printable(c.name)}", c.row.value, f"{base.max_hp}/{base.max_tp}",
                      ", ".join(gear), skills)
    s.out.print(table)
    s.out.print("HP/TP at level 1, before equipment; a skill that also costs FP shows its cost; "
                "`rk new labyrinth --party CLASS:LEVEL` sets the level.")
