"""The labyrinth battle as the table sees it: its verbs, its setup and its
listings, declared for the adapters (``domain.kernel.surface``). Imports
its commands and table options only; the rules, the content and the views
are loaded when a command is decided or a game is drawn.

The verbs: in the Standby phase ``move PC ROW [PLACE]``, ``swap``,
``standby-skill``, ``full-defense``, ``escape``, ``pass``; in the Main
phase ``attack``, ``skill``, ``consume``, ``pass``, and in the fastest
window ``hold``; the GM's ``enemy`` under the gm_enemies option; a passive
action chosen by hand, ``react ID SKILL|none``; FP on a Suppression
defense roll, ``spend PC N``; with physical dice, every roll's faces,
``roll --faces F,F``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.surface import NAME, SEED, Param, Query, Setup, Surface, Verb
from domain.kernel.surface.kinds import Choice, File, Flag, Number, Numbers, Text, Unit

from . import commands as c
from .options import PASSIVES, Options, option_text, passive_mode, passive_settings
from .request import MEMBER, NewLabyrinth
from .vocab import Row, Side

PLAY = "Playing a labyrinth battle"
MAX_FP = 9  # FP spent on one check: far more than a PC ever holds
MAX_PLACE = 99  # a place in a row, 1 the leftmost: far more than a row holds

PC = Param("actor", Unit("pc"), "The PC, by id (p1, p2...; see `rk status`).", metavar="PC")
TARGET = Param(
    "target",
    Unit("combatant", empty="none"),
    "Whom it is aimed at: a combatant's id (e1, p2...); left out (or none) for the user or a whole side.",
    option="--target",
    metavar="ID",
)
FP = Param(
    "fp",
    Number(0, MAX_FP, of="fp"),
    "Spend N FP on the first check for N extra dice, the best 2 kept (that roll gives no FP; FUMBLE-2).",
    option="--fp",
    metavar="N",
    title="FP",
)
REROLL = Param(
    "reroll",
    Flag(),
    "If the first check fails, reroll it once for FP (a community reading sets the cost: 1; FUMBLE-2).",
    option="--reroll",
)


def _aimed(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """A Main or Standby action open now: per PC and skill (or item), whom
    it may be aimed at as one choice (TARGET-*); and, for a check a PC may
    boost, the FP it may spend on it, 0 to what it holds, and the reroll
    (FUMBLE-2), which the finished list leaves out."""
    from domain.kernel.surface import open as op

    cls = type(commands[0])
    verb = next(v for v in VERBS if cls in v.classes)
    names = {p.name for p in verb.params}
    out = []
    for o in op.merge(op.group(verb, commands), "target"):
        domains = dict(o.domains)
        actor = getattr(o.example, "actor", "")
        held = state.find(actor).fp if actor and state.find(actor) is not None else 0
        if "fp" in names and held > 0 and o.domains["fp"].how == op.FIXED:
            domains["fp"] = op.Domain(
                how=op.RANGE,
                low=0,
                high=min(held, MAX_FP),
                size=1,
                optional=True,
                note=f"FP to spend; {actor} holds {held}",
            )
            domains["reroll"] = op.one_of([op.value(REROLL.kind, True)], optional=True)
        out.append(op.Open(verb=verb, cls=o.cls, domains=domains, example=o.example))
    return _labelled(state, ctx, out)


def _labelled(state: Any, ctx: Any, opens: list[Any]) -> list[Any]:
    """``opens`` with their skills, items and targets in the players' words:
    a skill by its name and cost (``Rallying Shout · 2 TP``, its TP and any
    FP printed on it: MAIN-4, FUMBLE-2), an item by its name, a combatant
    by the name the table shows (a rare variant's only once spotted) and
    its row."""
    from domain.kernel.surface import open as op

    from .fp import cost_text

    pack = ctx.pack

    def label(name: str, v: Any) -> str:
        if name == "skill":
            if v == "":  # a passive answer left out (PASSIVE-1): said as a choice, not as the word typed
                return "None, the roll stands"
            found = pack.skills.get(v)
            return f"{found.name} · {cost_text(found.tp, found.fp)}" if found is not None else ""
        if name == "item":
            item = pack.items.get(v)
            return item.name if item is not None else ""
        if name == "target":
            who = state.find(v) if v else None
            return f"{who.name} ({who.row.value})" if who is not None else ""
        return ""

    return op.labelled(opens, label)


def _named(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """An open command of a verb naming a skill or a target (the GM's
    Enemy action, a passive answer): per action, whom it may be aimed at as
    one choice, in the players' words."""
    from domain.kernel.surface import open as op

    verb = next(v for v in VERBS if type(commands[0]) in v.classes)
    opens = op.group(verb, commands)
    return _labelled(state, ctx, op.merge(opens, "target") if "target" in {p.name for p in verb.params} else opens)


def _verb(name: str, command: type, summary: str, *params: Param, **more: Any) -> Verb:
    return Verb(name=name, command=command, summary=summary, params=params, panel=PLAY, **more)


def _acting(app: Any, game_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    """``attack TARGET``: the PC is the one acting now."""
    if fields.get("actor"):
        return fields
    acting = app.battle(game_id).state.acting
    if not acting:
        raise MalformedCommand("attack: no one is acting now: name the PC, rk attack PC TARGET")
    return {**fields, "actor": acting}


def _roller(app: Any, game_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    """``roll --faces F,F``: the roller is the one the battle asks."""
    if fields.get("actor"):
        return fields
    question = app.battle(game_id).state.question
    if question is None or question.kind != "faces":
        raise MalformedCommand("roll: no roll waits for typed faces (see `rk legal`)")
    return {**fields, "actor": question.who}


FACES = Numbers(of="faces", low=1, high=6)  # held as read off the dice, 1 to 6
TYPED = Param(
    "faces",
    FACES,
    "Physical dice only: the faces of the first roll (hit check or activation), 1 to 6; "
    "the rolls after it are typed when asked (rk roll).",
    option="--faces",
    metavar="FACES",
)


VERBS = (
    # --- the Standby phase
    _verb(
        "move",
        c.Move,
        "Standby: move the PC to the front or back row (STANDBY-2, STANDBY-3).",
        PC,
        Param("row", Choice(enum=Row, of="row"), "front or back.", metavar="ROW"),
        Param(
            "order",
            Number(1, MAX_PLACE, of="place"),
            "The place in the row, 1 = leftmost (default: rightmost).",
            metavar="PLACE",
        ),
    ),
    _verb("swap", c.SwapWeapons, "Standby: swap the weapons of the Weapon and Other slots (STANDBY-4).", PC),
    _verb(
        "standby-skill",
        c.UseStandbySkill,
        "Standby: use a Standby skill; it resolves in the Main-phase order (STANDBY-5).",
        PC,
        Param("skill", Text("skill"), "A Standby skill's id.", metavar="SKILL"),
        TARGET,
        opens=_aimed,
    ),
    _verb(
        "full-defense",
        c.FullDefense,
        "Standby: Full defense, Waiting with damage halved until the turn ends (STANDBY-6).",
        PC,
    ),
    _verb(
        "escape",
        c.Escape,
        "Standby: declare Escape; it is tried only if the whole party declares it (STANDBY-8, FUMBLE-2).",
        PC,
        Param(
            "fp",
            FP.kind,
            "Spend N FP on this PC's [Evasion] check for N extra dice, the best 2 kept; "
            "paid only if the escape is tried.",
            option="--fp",
            metavar="N",
        ),
        Param(
            "reroll",
            Flag(),
            "If the escape fails, reroll this PC's check once for FP (a community reading sets the cost: 1).",
            option="--reroll",
        ),
    ),
    _verb("pass", c.Pass, "Take no Standby action, or give up the PC's Main action.", PC),
    # --- the Main phase
    _verb(
        "hold",
        c.Hold,
        "Main, fastest window: take no fastest action now; act in [Speed] order instead (ORDER-3).",
        Param("actor", Unit("combatant"), "The PC asked (or, for the GM, the Enemy).", metavar="ID"),
    ),
    _verb(
        "attack",
        c.Attack,
        "Main: a Normal attack with the Weapon slot's weapon (MAIN-2).",
        Param("actor", Unit("pc"), "The PC (default: the one acting now).", metavar="PC", required=False),
        Param("target", Unit("enemy"), "The Enemy attacked, e.g. e2.", metavar="TARGET"),
        FP,
        REROLL,
        TYPED,
        complete=_acting,
        opens=_aimed,
    ),
    _verb(
        "skill",
        c.UseSkill,
        "Main: use a skill, paying its TP and any FP printed on it (MAIN-4, FUMBLE-2).",
        PC,
        Param("skill", Text("skill"), "A Main skill's id.", metavar="SKILL"),
        TARGET,
        FP,
        REROLL,
        TYPED,
        opens=_aimed,
    ),
    _verb(
        "consume",
        c.UseItem,
        "Main: use an item the PC carries; it is used up (MAIN-6).",
        PC,
        Param("item", Text("item"), "An item the PC carries.", metavar="ITEM"),
        TARGET,
        opens=_aimed,
    ),
    _verb(
        "enemy",
        c.EnemyAct,
        "GM (--gm-enemies): the acting Enemy's action.",
        Param("actor", Unit("enemy"), "The acting Enemy, e.g. e1.", metavar="ENEMY"),
        Param(
            "skill",
            Text("action", empty="attack"),
            "attack (a Normal attack), pass, or one of its skills' ids.",
            metavar="ACTION",
            required=True,
        ),
        TARGET,
        opens=_named,
        title="Enemy action",
    ),
    # --- asked in the middle of a step
    _verb(
        "spend",
        c.SpendFp,
        "Spend FP on the PC's Suppression defense roll now asked (FUMBLE-2; asked with --ask-fp).",
        PC,
        Param(
            "fp", FP.kind, "FP for extra dice (the best 2 kept); 0 for none.", metavar="N", required=True, title="FP"
        ),
        REROLL,
        title="Spend FP",
    ),
    _verb(
        "react",
        c.React,
        "Answer an attack roll with a passive skill, or none (PASSIVE-1 .. PASSIVE-3; asked with --passives ask).",
        Param("actor", Unit("combatant"), "The one attacked: a PC (or, for the GM, an Enemy).", metavar="ID"),
        Param(
            "skill",
            Text("skill", empty="none"),
            "The passive skill offered (see `rk legal`), or none.",
            metavar="SKILL",
            required=True,
        ),
        opens=_named,
    ),
    _verb(
        "roll",
        c.TypeFaces,
        "Physical dice: type the faces of the roll the battle waits for (see `rk legal`: its rule and how many dice).",
        Param("actor", Unit("combatant"), "Who rolls (default: the one asked).", metavar="ID", required=False),
        Param("faces", FACES, "The faces the dice show, 1 to 6, e.g. 3,5.", option="--faces", metavar="FACES"),
        complete=_roller,
    ),
)


# --- the setup ------------------------------------------------------------------------


# The options a flag or --passives sets; the others are written NAME=VALUE.
OWN_FLAGS = ("ambush", "gm_enemies", "ask_fp", "physical_dice")
AMBUSH_WORDS = {Side.PC: "pcs", Side.ENEMY: "enemies"}


def _start(app: Any, request: NewLabyrinth) -> Any:
    from .new_game import start

    return start(app, request)


def _member_text(m: c.Member, sheet_option: str) -> tuple[str, Any]:
    """A member as the option that gives it and its value: ``CLASS:LEVEL[:NAME[:ROW]]``,
    or one from a sheet file as ``<NAME: CLASS:LEVEL>`` (the file is not kept)."""
    if m.sheet is not None:
        return sheet_option, {"file": f"<{m.name or m.cls}: {m.cls}:{m.level}>", "text": ""}
    parts = [m.cls, str(m.level)]
    if m.name or m.row is not None:
        parts.append(m.name)
    if m.row is not None:
        parts.append(m.row.value)
    return "", ":".join(parts)


def _fields(command: c.StartLabyrinth) -> dict[str, Any]:
    """The setup's parameters that set ``command`` up again: the options
    ``--passives`` and the flags do not give, as ``NAME=VALUE``."""
    values: dict[str, Any] = {"encounter": command.encounter, "seed": command.seed, "rare": command.rare}
    for field, sheets, group in (("party", "sheets", command.party), ("allies", "ally_sheets", command.allies)):
        values[field], values[sheets] = [], []
        for m in group:
            option, value = _member_text(m, sheets)
            values[option or field].append(value)
    o = command.options
    mode = passive_mode(o)
    settings = passive_settings(mode)
    assert settings is not None  # passive_mode names one of the modes passive_settings knows
    given = msgspec.structs.replace(Options(), **settings)
    values |= {
        "passives": mode,
        "ambush": AMBUSH_WORDS.get(o.ambush) if o.ambush else None,
        "gm_enemies": o.gm_enemies,
        "ask_fp": o.ask_fp,
        "physical_dice": o.physical_dice,
        "options": [
            f"{f.name}={option_text(getattr(o, f.name))}"
            for f in msgspec.structs.fields(Options)
            if f.name not in OWN_FLAGS and getattr(o, f.name) != getattr(given, f.name)
        ],
    }
    return values


def _offers(app: Any) -> dict[str, list[Any]]:
    from .listings import offers

    return offers(app.pack_of("labyrinth"))


OPTION_NAMES = ", ".join(f.name for f in msgspec.structs.fields(Options))

SETUP = Setup(
    name="labyrinth",
    summary="Set up a labyrinth battle of a party against an encounter and show it.",
    details=(
        "Example: rk new labyrinth --encounter mossy-hollow --party vanguard --party mender:2:Iris --seed 7\n\n"
        "With a PC's own sheet and an allied NPC: rk new labyrinth --encounter mossy-hollow --sheet sheet.toml "
        f"--ally vanguard:2:Bram\n\nThe table options (--option NAME=VALUE): {OPTION_NAMES}."
    ),
    request=NewLabyrinth,
    params=(
        Param(
            "encounter", Text("encounter"), "The encounter (see `rk encounters`).", option="--encounter", metavar="ID"
        ),
        Param(
            "party",
            Text("member"),
            "A PC, once per party member (p1, p2... in this order), e.g. "
            "vanguard:2:Ada:front (see `rk labyrinth-classes`; default level 1, the class's name and row).",
            option="--party",
            metavar=MEMBER,
            repeat=True,
        ),
        Param(
            "sheets",
            File(),
            "A TOML sheet file of one PC or several: abilities, gear, skills, items (see "
            "examples/labyrinth/sheet-tracker.toml); its PCs join the party after the --party ones.",
            option="--sheet",
            repeat=True,
        ),
        Param(
            "allies",
            Text("member"),
            "An allied NPC (a1, a2...), acting by the seeded policy; it counts toward "
            "the party side's 6 and 3 to a row.",
            option="--ally",
            metavar=MEMBER,
            repeat=True,
        ),
        Param(
            "ally_sheets",
            File(),
            "A sheet file (as --sheet) whose characters join as allied NPCs, after the --ally ones.",
            option="--ally-sheet",
            repeat=True,
        ),
        SEED,
        Param(
            "passives",
            Choice(values=tuple(PASSIVES), of="passives"),
            "Passive actions against attack rolls: "
            "ask each PC's player (rk react; the GM too, for Enemies under --gm-enemies), auto (the first guard "
            "or counter that can be used), or off (none). Default: ask.",
            option="--passives",
            metavar="ask|auto|off",
        ),
        Param(
            "ambush",
            Choice(values=tuple(AMBUSH_WORDS.values()), of="side"),
            "The side caught by surprise, pcs or enemies: passive actions only in turn 1.",
            option="--ambush",
            metavar="SIDE",
        ),
        Param(
            "gm_enemies",
            Flag(),
            "The GM chooses each Enemy's action (rk enemy) instead of the seeded policy.",
            option="--gm-enemies",
        ),
        Param(
            "ask_fp",
            Flag(),
            "Ask each PC's player, before each of its Suppression defense rolls, what FP to spend on it (rk spend).",
            option="--ask-fp",
        ),
        Param(
            "physical_dice",
            Flag(),
            "Roll real dice and type their faces (rk roll --faces): every roll waits for them.",
            option="--physical-dice",
        ),
        Param(
            "options",
            Text("option"),
            "A table option, e.g. default_buff_turns=4 or reapply_raises_depth=false (the list is above).",
            option="--option",
            metavar="NAME=VALUE",
            repeat=True,
        ),
        Param(
            "rare",
            Text("enemy", lower=True),
            "An Enemy slot (e1, e2...) met as its kind's rare variant, once per rare Enemy.",
            option="--rare",
            metavar="ENEMY",
            repeat=True,
        ),
        NAME,
    ),
    start=_start,
    makes=(c.StartLabyrinth,),
    fields=_fields,
    offers=_offers,
    examples=(
        {"encounter": "mossy-hollow", "party": ["vanguard", "mender"], "passives": "auto"},
        {"encounter": "tallow-cellar", "party": ["vanguard:2", "mender:2"], "allies": ["vanguard"]},
    ),
)


# --- the listings and the views -----------------------------------------------------------


def _lazy(module: str, name: str) -> Any:
    """``name`` of module ``module`` of this package, imported when first called."""

    def call(*args: Any, **kwargs: Any) -> Any:
        from importlib import import_module

        return getattr(import_module(f"{__package__}.{module}"), name)(*args, **kwargs)

    call.__name__ = name
    return call


QUERIES = (
    Query(
        "encounters",
        "List the labyrinth encounters: their Enemies, levels, rows and link groups.",
        _lazy("listings", "encounters"),
        panel="Setting up",
    ),
    Query(
        "labyrinth-classes",
        "List the labyrinth classes: row, HP and TP, equipment, skills by level.",
        _lazy("listings", "classes"),
        panel="Setting up",
    ),
)

SURFACES = (
    Surface(
        ruleset="labyrinth",
        title="Labyrinth TRPG",
        verbs=VERBS,
        setups=(SETUP,),
        queries=QUERIES,
        panel=PLAY,
        status=_lazy("views", "status"),
        compact=_lazy("views", "compact"),
        extra=_lazy("views", "extra"),
        legal_note=_lazy("views", "legal_note"),
        typed_faces=_lazy("views", "typed_faces"),
        board=_lazy("board_view", "board"),
    ),
)
