"""Betrayal's battles as the table sees them: their verbs, their three
setups (a clash, a dungeon, a delve), the listings of the content and
`rk why`, declared for the adapters (``domain.kernel.surface``). The views
of a battle are ``views``; the setups' one builder each is ``new_game``.

Imports the commands and light declarations only; the rules are loaded
when a command is decided, a view drawn or a question answered.
``BATTLE_SURFACE`` is the battles'; the campaign between them declares its
own beside it (``campaign_surface``), and ``surface`` gives the kernel both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import Hex
from domain.kernel.surface import NAME, SEED, Demo, Param, Query, Setup, Surface, Verb
from domain.kernel.surface.declared import MAX_SEED
from domain.kernel.surface.kinds import Choice, Dice, Faces, Flag, HexKind, Names, Number, Optional_, Positions
from domain.kernel.surface.kinds import Text, Unit

from domain.betrayal.battle import commands as c
from domain.betrayal.read_models.declared import READ_MODEL_QUERIES
from domain.betrayal.vocab import BattleForm, Difficulty

from .companion_kind import CompanionKind
from .kinds import Hexes
from .party import MEMBER, PartySpec

PLAY = "Playing"
SETTING_UP = "Setting up"
LOOKING = "Looking"
MAX_VERSION = 2**63 - 1  # events are counted in signed 64-bit integers, as `rk status --at` takes them

# --- the verbs of a battle ----------------------------------------------------------------

HERO = Param("hero", Unit("adventurer"), "Who uses it (default: the adventurer whose turn it is).", metavar="HERO")
HEX = Param("hex", Optional_(HexKind()), "Where it goes, e.g. c4.", option="--hex")
FACES = "Physical dice only: the faces the rerolled dice show, 1 to 6."
REROLL = "A reroll: roll positions (from 1) of the dice to reroll."


def _verb(
    name: str,
    command: type,
    summary: str,
    *params: Param,
    details: str = "",
    variants: tuple[tuple[str, type], ...] = (),
    build: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    opens: Callable[[Any, Any, list[Any]], list[Any]] | None = None,
    title: str = "",
) -> Verb:
    return Verb(
        name=name,
        command=command,
        summary=summary,
        params=params,
        details=details,
        panel=PLAY,
        variants=variants,
        build=build,
        opens=opens,
        title=title,
    )


def _engage_opens(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """The engages open now (ENGAGE-5 to ENGAGE-7): per battle form, the
    targets, Weapons and Overtax the rules listed (ENGAGE-6, ENGAGE-7e,
    OVERTAX-2), and any of the adventurer's free dice that the form allows
    (ENGAGE-7b: no icon or the form's; ENGAGE-7d: no Combat dice in Magic),
    at most as many Stamina and Magicka dice as its stats (ENGAGE-7a): not
    only the dice gathered first. Forms that offer the same merge."""
    from domain.kernel.surface import open as op

    from domain.betrayal.battle.abilities import race as race_abilities
    from domain.betrayal.battle.decision import Decision
    from domain.betrayal.battle.heroes import available_dice, die_of

    from .open_labels import labelled

    verb = next(v for v in VERBS if v.command is c.Engage)
    if state.turn is None:
        return labelled(state, ctx, verb.name, op.group(verb, commands))
    d = Decision(state, ctx)
    hero = state.hero(state.turn.hero)
    dice_kind = verb.param("dice").kind
    out = []
    for o in op.group(verb, commands, by=lambda p: p.name == "form"):
        form = BattleForm(o.domains["form"].values[0].value)
        values = []
        for uid in available_dice(d, hero):
            die = die_of(d, hero, uid)
            if (die.line == "combat" and form is BattleForm.MAGIC) or (die.form is not None and die.form is not form):
                continue
            values.append(op.value(dice_kind, (uid,), label=die.name, group=die.pool.value))
        values = [op.Value(value=v.value[0], word=v.word, label=v.label, group=v.group) for v in values]
        domains = dict(o.domains)
        if values:
            # no die at all rolls nothing: offered only when a Weapon or free dice act without them
            alone = race_abilities.reveler_dice(hero, form) > 0 or any(
                bool(v.value) for v in o.domains["weapon"].values
            )
            domains["dice"] = op.some(
                values, 0 if alone else 1, len(values), {"stamina": hero.stamina, "magicka": hero.magicka}
            )
        if o.domains["faces"].how != op.FIXED:  # physical dice: a face per die rolled, and the free ones
            domains["faces"] = op.typed(
                size=race_abilities.reveler_dice(hero, form), per="--dice", note="and one per free die a Weapon adds"
            )
        out.append(op.Open(verb=verb, cls=o.cls, domains=domains, example=o.example))
    return labelled(state, ctx, verb.name, op.merge(out, "form"))


def _resolve_opens(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """Resolving: any of the rolled dice may be left unresolved (ENGAGE-8e),
    each named by its die and the face it shows."""
    from domain.kernel.surface import open as op

    from .open_labels import labelled

    verb = next(v for v in VERBS if v.command is c.Resolve)
    n = len(state.pending.dice) if state.pending is not None else 0
    values = [op.Value(value=i, word=str(i + 1)) for i in range(n)]
    opens = [
        op.Open(
            verb=verb,
            cls=o.cls,
            example=o.example,
            domains={**o.domains, "skip": op.some(values, 0, n) if n else o.domains["skip"]},
        )
        for o in op.group(verb, commands, by=lambda p: False)
    ]
    return labelled(state, ctx, verb.name, opens)


def _named(state: Any, ctx: Any, commands: list[Any]) -> list[Any]:
    """A verb's open commands as ``open.group`` makes them, their values in
    the players' words (``open_labels``): items, abilities, units, slots,
    the dice of the roll waiting."""
    from domain.kernel.surface import open as op

    from .open_labels import labelled

    verb = next(v for v in VERBS if type(commands[0]) in v.classes)
    return labelled(state, ctx, verb.name, op.group(verb, commands))


def _faces_typed(fields: dict[str, Any]) -> dict[str, Any]:
    """``roll-enemy``: the faces are the whole command."""
    if not fields.get("faces"):
        raise MalformedCommand("type the faces the enemy's dice show, e.g. 1,6,3")
    return fields


VERBS = (
    _verb(
        "move",
        c.Move,
        "Move the current adventurer to HEX by a shortest free route (MOVE-1).",
        Param("to", HexKind(), "Where to, e.g. c4.", metavar="HEX"),
        details="In a delve, --explore explores HEX on arrival, using no action (EXPLORATION-3a, 3c); "
        "what the rest of the move allows may follow (EXPLORATION-3b).",
        variants=(("--explore", c.MoveToExplore),),
    ),
    _verb(
        "explore",
        c.Explore,
        "In a delve: explore a Connection hex, drawing a delve card and its tile (EXPLORATION-6).",
        Param(
            "hex",
            Optional_(HexKind()),
            "An explorable hex in sight and reach: the Explore action "
            "(EXPLORE-1, EXPLORATION-4). Without it, the hex you stand on as your turn starts "
            "(EXPLORATION-3a, DELVE-10d).",
            metavar="HEX",
        ),
    ),
    _verb(
        "place-tile",
        c.PlaceTile,
        "In a delve: connect the revealed tile (EXPLORATION-9); `rk legal` lists every way it may go.",
        Param(
            "rotation",
            Number(0, 99, of="sixths"),
            "Sixths of a turn clockwise, 0 to 5 (EXPLORATION-9b).",
            option="--rotation",
        ),
        Param("origin", HexKind(), "Where the tile's first hex goes, e.g. ag27.", option="--origin"),
        title="Place the tile",
    ),
    _verb(
        "engage",
        c.Engage,
        "Engage: declare a form, a target and dice, and roll them (ENGAGE-4 to ENGAGE-7).",
        Param(
            "form",
            Choice(enum=BattleForm, of="form"),
            "Battle form: defensive, heavy, light, ranged or magic (ENGAGE-5).",
            option="--form",
            metavar="FORM",
        ),
        Param(
            "target", Unit("enemy"), "The one enemy to target, e.g. e2 (ENGAGE-6).", option="--target", metavar="ENEMY"
        ),
        Param(
            "dice",
            Dice(),
            "Die uids to gather and roll, e.g. 1,2 (the free dice of `rk status`).",
            option="--dice",
            metavar="UIDS",
        ),
        Param(
            "faces", Faces(), "Physical dice only: the face each die shows, 1 to 6, in --dice order.", option="--faces"
        ),
        Param(
            "weapon",
            Text("item"),
            "The one ready Weapon to apply, chosen before rolling (WEAPON-2, WEAPON-3).",
            option="--weapon",
            metavar="ITEM",
        ),
        Param(
            "overtax",
            Flag(),
            "Trigger the Weapon's Overtax too; it is discarded after the engage (OVERTAX-2, -4).",
            option="--overtax",
        ),
        opens=_engage_opens,
    ),
    _verb(
        "resolve",
        c.Resolve,
        "Resolve the rolled dice (ENGAGE-8).",
        Param(
            "skip",
            Positions(),
            "Positions of rolled dice to leave unresolved (exhausted, ENGAGE-8e), e.g. 2,3.",
            option="--skip",
            metavar="POSITIONS",
        ),
        opens=_resolve_opens,
    ),
    _verb(
        "clear",
        c.ClearActive,
        "Remove the die in an active slot without resolving it (ACTIVE-4).",
        Param("slot", Number(1, 99, shown_from=1, of="slot"), "The active slot, counted from 1.", metavar="SLOT"),
        opens=_named,
    ),
    _verb(
        "race-ability",
        c.UseRaceAbility,
        "Use a race ability, once per battle (RACE-*).",
        Param(
            "hero",
            Unit("adventurer"),
            "Who uses it (default: the adventurer whose turn it is), e.g. faen.",
            metavar="HERO",
        ),
        Param(
            "dice",
            Dice(),
            "Dark Elf: skill dice on the track to recover, up to 4, e.g. 1,3.",
            option="--dice",
            metavar="UIDS",
        ),
        Param(
            "slots",
            Positions(),
            "Redguard: track positions (from 1) of fatigue or status dice to remove, up to 3.",
            option="--slots",
            metavar="POSITIONS",
        ),
        Param(
            "targets",
            Names("adventurers"),
            "High Elf: the adventurer to place (default: yourself); Wood Elf: up to 2 to hide.",
            option="--targets",
            metavar="HEROES",
        ),
        Param(
            "hex",
            Optional_(HexKind()),
            "High Elf: the Entrance hex; Khajiit: where the free move goes, e.g. c4.",
            option="--hex",
        ),
        Param("arm", Flag(), "Wood Elf: ready it on your turn for the start of the next enemy's turn.", option="--arm"),
        details="Dark Elf (--dice), Redguard (--slots), High Elf (--targets, --hex) and Orc (an extra turn) "
        "act on your own turn; Wood Elf (--targets) as a turn starts. Argonian, Imperial, Nord and "
        "Khajiit ready it on your turn for its next trigger; after Cutpurse opened a lock, --hex "
        "takes the Khajiit's free move.",
        opens=_named,
    ),
    _verb(
        "defend",
        c.Defend,
        "Choose how the adventurer about to take damage defends (COMBAT-4; choose-defense battles).",
        Param(
            "blocks",
            Positions(empty="none"),
            "Active slots (from 1) to block with, or none (default: the rules' own choice).",
            option="--blocks",
            metavar="SLOTS",
        ),
        Param("race", Flag(), "Use the race reaction (Argonian, Imperial) on the damage left.", option="--race"),
        Param(
            "gear",
            Names("items", empty="none"),
            "Ready Armor and Pets to use, or none (default: every one, ARMOR-2).",
            option="--gear",
            metavar="ITEMS",
        ),
        Param(
            "overtax",
            Names("items"),
            "Armor whose Overtax to trigger too; discarded after the engage (OVERTAX-3, -4).",
            option="--overtax",
            metavar="ITEMS",
        ),
        opens=_named,
    ),
    _verb(
        "use-item",
        c.UseGear,
        "Use a ready item (ITEM-3 to ITEM-6).",
        Param("item", Text("item"), "A ready item's id (see `rk status`).", metavar="ITEM"),
        HERO,
        Param(
            "target",
            Text("adventurer"),
            "Enchantment: the adventurer to attach it to (default: yourself).",
            option="--target",
            metavar="HERO",
        ),
        Param(
            "overtax",
            Flag(),
            "Armor: ready its Overtax for the next enemy engage against you (OVERTAX-3).",
            option="--overtax",
        ),
        Param("dice", Positions(), "Reroll items: " + REROLL[2:], option="--dice", metavar="POSITIONS"),
        Param("faces", Faces(), FACES, option="--faces"),
        Param("hex", Optional_(HexKind()), "Move items: where the free move goes, e.g. c4.", option="--hex"),
        details="A Potion, Consumable or other item on your turn, an Enchantment to attach, an Armor or Pet to "
        "put on guard (--overtax: an Armor's Overtax to ready), a reroll while dice wait; a Breton "
        "after Opportunist readies a Pack item.",
        opens=_named,
        title="Use an item",
    ),
    _verb(
        "ability",
        c.UseClassAbility,
        "Use a class ability on your turn, spending its tenacity (CLASS-1, CLASS-2).",
        Param(
            "ability",
            Text("ability"),
            "The class ability's id (its class sheet, Master side or a ready Clothing).",
            metavar="ABILITY",
        ),
        HERO,
        Param(
            "target",
            Text("unit"),
            "An enemy (damage, status) or an adjacent adventurer (heal, bonus HP, recover; default: yourself).",
            option="--target",
            metavar="UNIT",
        ),
        Param("hex", Optional_(HexKind()), "A move: where it goes, e.g. c4.", option="--hex"),
        Param("dice", Positions(), REROLL, option="--dice", metavar="POSITIONS"),
        Param("faces", Faces(), FACES, option="--faces"),
        Param(
            "change_form",
            Flag(),
            "Gain 1 Light fatigue to take the battle form the ability needs (CLASS-5).",
            option="--change-form",
        ),
        Param(
            "slot",
            Optional_(Number(1, 4, shown_from=1, of="slot")),
            "An ability that removes an active die: its slot, 1 to 4 (default: the highest block die).",
            option="--slot",
            metavar="N",
        ),
        details="An Interrupt is armed and fires on its trigger (CLASS-4); Innate and Enduring abilities act "
        "by themselves, but for a move or a reroll.",
        opens=_named,
        title="Class ability",
    ),
    _verb(
        "promote",
        c.TurnClassSheet,
        "Turn an adventurer's class sheet to its Master side in the battle, once its promotion is earned (ADVANCE-16).",
        Param("hero", Unit("adventurer"), "Whose sheet (default: the adventurer whose turn it is).", metavar="HERO"),
    ),
    _verb("end-turn", c.EndTurn, "End the current adventurer's turn (TURN-6); enemies act when the party is done."),
    _verb("next-round", c.NextRound, "At the end of a round, go on to the next one (ROUND-8)."),
    _verb("retreat", c.Retreat, "At the end of a round, retreat: the battle ends as a failure (RETREAT-1, RETREAT-4)."),
    _verb(
        "companion-move",
        c.CompanionMove,
        "In the Companion Turns step: move a companion up to 2 hexes by a free route, before it engages (ROUND-6).",
        Param("to", HexKind(), "Where to, e.g. c4.", metavar="HEX"),
        Param(
            "companion",
            Unit("companion"),
            "Which companion (default: the one whose turn it is); naming one starts its turn.",
            option="--companion",
            metavar="COMPANION",
        ),
        opens=_named,
    ),
    _verb(
        "companion-engage",
        c.CompanionEngage,
        "A companion engages: its Combat value in enemy dice, rolled once, hits each target; its turn ends (ROUND-6).",
        Param(
            "targets",
            Names("enemies"),
            "Enemies in its sight and range, up to its target value, e.g. e1,e2.",
            option="--targets",
            metavar="ENEMIES",
        ),
        Param(
            "companion",
            Unit("companion"),
            "Which companion (default: the one whose turn it is).",
            option="--companion",
            metavar="COMPANION",
        ),
        Param("faces", Faces(), "Physical dice only: the face each enemy die shows, 1 to 6.", option="--faces"),
        opens=_named,
    ),
    _verb(
        "companion-end",
        c.EndCompanionTurn,
        "End a companion's turn; naming one that has not acted, it takes "
        "its turn doing nothing (ROUND-6). The enemies act after the last companion.",
        Param(
            "companion", Unit("companion"), "Which companion (default: the one whose turn it is).", metavar="COMPANION"
        ),
        opens=_named,
        title="End a companion's turn",
    ),
    _verb(
        "roll-enemy",
        c.RollEnemyDice,
        "Physical dice: type the faces of the enemy's roll (ENEMY-6c).",
        Param("faces", Faces(), "The faces the enemy's dice show, 1 to 6, e.g. 1,6,3.", metavar="FACES"),
        build=_faces_typed,
        title="The enemy's roll",
    ),
)


# --- setting a battle up ------------------------------------------------------------------


class NewBattle(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What every Betrayal setup takes: the ``party`` in turn order, the
    first player first; ``xp``, the party's XP on the dial (EP-2; default
    the dial of the party's campaign, else 1), or ``climax`` for a
    session's climax battle (SESSION-EP-2); ``placements``, each
    adventurer's Entrance hex in party order (default the first free ones);
    ``choose_defense``: damage to an adventurer waits for `rk defend`
    (COMBAT-4)."""

    party: tuple[PartySpec, ...]
    xp: int | None = None
    climax: bool = False
    choose_defense: bool = False
    seed: int | None = None
    difficulty: Difficulty = Difficulty.ADEPT
    physical_dice: bool = False
    placements: tuple[Hex, ...] = ()
    name: str | None = None
    companions: tuple[c.Escort, ...] = ()  # companion chips and who controls each (CLASH-9)


class NewClash(NewBattle, forbid_unknown_fields=True, kw_only=True):
    """A clash battle from the setup diagram ``setup`` (CLASH-5 to CLASH-10)."""

    setup: str


class NewDungeon(NewClash, forbid_unknown_fields=True, kw_only=True):
    """A dungeon from its diagram ``setup`` (DUNGEON-6 to DUNGEON-11);
    ``specials``: the special hex of each objective unit, in order
    (DUNGEON-8e; default the first ones)."""

    specials: tuple[Hex, ...] = ()


class NewDelve(NewBattle, forbid_unknown_fields=True, kw_only=True):
    """A delve of the encounter ``delve`` (DELVE-7 to DELVE-12)."""

    delve: str


PARTY = Param(
    "party",
    MEMBER,
    "An adventurer, once per party member, in turn order: Name for an existing one, "
    "or Name:race, Name:race:line+line, Name:race:line+line:form to create one (see `rk races`, "
    "`rk lines`).",
    option="--party",
    metavar="MEMBER",
    repeat=True,
    required=True,
)
XP = Param(
    "xp",
    Number(0, MAX_SEED, of="xp"),
    "The party's XP on the dial, 0 to 80; EP = XP x party size "
    "(EP-2). Default: the dial of the party's campaign, else 1.",
    option="--xp",
    metavar="XP",
)
CLIMAX = Param(
    "climax",
    Flag(),
    "A session's climax battle: EP from the session-end table, not the dial (SESSION-EP-2).",
    option="--climax",
)
DEFENSE = Param(
    "choose_defense",
    Flag(),
    "Stop before an enemy's damage to let the adventurer choose its block "
    "dice and reactions (rk defend; COMBAT-4). Default: the engine chooses.",
    option="--choose-defense",
)
DIFFICULTY = Param(
    "difficulty",
    Choice(enum=Difficulty, of="difficulty"),
    "apprentice, adept or expert.",
    option="--difficulty",
    metavar="LEVEL",
)
PHYSICAL = Param(
    "physical_dice", Flag(), "Roll real dice and type their faces (--faces, rk roll-enemy).", option="--physical-dice"
)
ENTRANCE = "An Entrance hex for each adventurer, in party order (default: the first free ones)."
AT = Param("placements", HexKind(), ENTRANCE, option="--at", metavar="HEX", repeat=True)
PLACE = Param("placements", HexKind(), ENTRANCE, option="--place", short="--at", metavar="HEX", repeat=True)
COMPANIONS = Param(
    "companions",
    CompanionKind(),
    "A companion chip and the adventurer who controls it, once per "
    "companion, e.g. fox:Ria (see `rk companions`): placed on the Entrance after the party, in "
    "turn order (CLASH-9, DELVE-11, DUNGEON-10).",
    option="--companion",
    metavar="CHIP:ADVENTURER",
    repeat=True,
)
SPECIALS = Param(
    "specials",
    Hexes(),
    "The special hex of each objective unit, in order, e.g. c4,d5 (DUNGEON-8e; default: the first ones).",
    option="--specials",
)


def _common(place: Param) -> tuple[Param, ...]:
    """The parameters every setup takes after what it is set up from, in
    the order a setup's line writes them."""
    return (PARTY, XP, CLIMAX, SEED, DIFFICULTY, PHYSICAL, DEFENSE, place, COMPANIONS)


def _fields(command: Any) -> dict[str, Any]:
    """A setup command's request fields (or a request's own), for writing
    its line back: the party by name (its adventurers exist once the
    battle is set up)."""
    party = tuple(m if isinstance(m, PartySpec) else PartySpec(m.name) for m in command.party)
    out = {
        "party": party,
        "xp": command.xp,
        "seed": command.seed,
        "difficulty": command.difficulty,
        "physical_dice": command.physical_dice,
        "choose_defense": command.choose_defense,
        "placements": command.placements,
        "companions": tuple(getattr(command, "companions", ())),
    }
    for name in ("setup", "delve", "specials"):  # what it is set up from, and a dungeon's special hexes
        if hasattr(command, name):
            out[name] = getattr(command, name)
    return out


def _builder(name: str) -> Callable[[Any, Any], Any]:
    def start(app: Any, request: Any) -> Any:
        from . import new_game

        return getattr(new_game, name)(app, request)

    return start


def _offers(kind: str) -> Callable[[Any], Any]:
    def offers(app: Any) -> Any:
        from .listings import offers as offered

        return offered(app, kind)

    return offers


# The first example of each setup: the contract suite plays it, and the lobby starts from it. Its party is
# the README tour's Ria and Tarn (a reader of it has them already: the same races, so they join as they are).
CLASH_EXAMPLE = {
    "setup": "waystone-crossing",
    "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "dark-elf", "form": "ranged"}],
    "xp": 2,
}
DUNGEON_EXAMPLE = {"setup": "sentinel-vault", "party": [{"name": "Ria", "race": "nord"}], "xp": 2}
DELVE_EXAMPLE = {"delve": "whispering-barrow", "party": [{"name": "Ria", "race": "nord"}], "xp": 2}


def _starts_with(example: dict[str, Any]) -> Callable[[Any], Any]:
    def starts_with(app: Any) -> Any:
        from .first_party import starting

        return starting(example)(app)

    return starts_with


CLASH = Setup(
    name="clash",
    summary="Set up a clash battle (CLASH-5 to CLASH-10) and show it.",
    details='Example: rk new clash --setup waystone-crossing --party "Ysolda:nord" '
    '--party "Tarn:dark-elf:bow+destruction-staff:ranged" --xp 2 --seed 7',
    request=NewClash,
    params=(
        Param(
            "setup",
            Text("setup"),
            "The setup diagram to play (see `rk setups`).",
            option="--setup",
            metavar="SETUP",
            required=True,
        ),
        *_common(AT),
        NAME,
    ),
    start=_builder("start_clash"),
    makes=(c.StartClash,),
    fields=_fields,
    offers=_offers("clash"),
    examples=(
        CLASH_EXAMPLE,
        {"setup": "waystone-crossing", "party": [{"name": "Ria", "race": "orc"}], "difficulty": "expert"},
    ),
    starts_with=_starts_with(CLASH_EXAMPLE),
)

DUNGEON = Setup(
    name="dungeon",
    summary="Set up a dungeon from its diagram (DUNGEON-6 to DUNGEON-11) and show it.",
    details='Example: rk new dungeon --setup sentinel-vault --party "Ysolda:nord" --xp 2 --seed 7',
    request=NewDungeon,
    params=(
        Param(
            "setup",
            Text("setup"),
            "The dungeon's setup diagram (see `rk setups`).",
            option="--setup",
            metavar="SETUP",
            required=True,
        ),
        *_common(PLACE),
        SPECIALS,
        NAME,
    ),
    start=_builder("start_dungeon"),
    makes=(c.StartDungeon,),
    fields=_fields,
    offers=_offers("dungeon"),
    examples=(DUNGEON_EXAMPLE,),
    starts_with=_starts_with(DUNGEON_EXAMPLE),
)

DELVE = Setup(
    name="delve",
    summary="Set up a delve (DELVE-7 to DELVE-12): the Entrance on the table, the party on it, and show it.",
    details="Each tile revealed gets its own EP, XP x party size (DELVE-4). Example: rk new delve --delve "
    'whispering-barrow --party "Ysolda:nord" --party "Tarn:dark-elf" --xp 2 --seed 7',
    request=NewDelve,
    params=(
        Param(
            "delve",
            Text("delve"),
            "The delve encounter (see `rk delves`).",
            option="--delve",
            metavar="DELVE",
            required=True,
        ),
        *_common(PLACE),
        NAME,
    ),
    start=_builder("start_delve"),
    makes=(c.StartDelve,),
    fields=_fields,
    offers=_offers("delve"),
    examples=(DELVE_EXAMPLE,),
    starts_with=_starts_with(DELVE_EXAMPLE),
)


# --- questions ---------------------------------------------------------------------------


def _answer(module: str, name: str) -> Callable[..., Any]:
    def answer(asked: Any, **values: Any) -> Any:
        from importlib import import_module

        return getattr(import_module(f"{__package__}.{module}"), name)(asked, **values)

    return answer


QUERIES = (
    Query(
        "setups",
        "List the setup diagrams of the content pack, clashes and dungeons: id, name, mode, objective, size.",
        _answer("listings", "setups"),
        panel=SETTING_UP,
    ),
    Query(
        "races",
        "List the races a new adventurer may be, with their starting stats.",
        _answer("listings", "races"),
        panel=SETTING_UP,
    ),
    Query(
        "lines",
        "List the starting skill lines and their dice, face by face (1 to 6).",
        _answer("listings", "lines"),
        panel=SETTING_UP,
    ),
    Query(
        "companions",
        "List the companion chips a setup may bring: HP, Combat, range, targets, move, skills.",
        _answer("listings", "companions"),
        panel=SETTING_UP,
    ),
    Query(
        "delves",
        "List the delve encounters of the content pack: id, name, objective, skyshards required.",
        _answer("listings", "delves"),
        panel=SETTING_UP,
    ),
    Query(
        "why",
        "Explain an enemy's move and engage: candidates, priority, ranges, HP, ties, each with its rule.",
        _answer("why", "why"),
        panel=LOOKING,
        game=True,
        details="Example: rk why 57 (the enemy turn event 57 belongs to), rk why --enemy e2.",
        params=(
            Param(
                "event",
                Number(1, MAX_VERSION, of="event"),
                "An event of an enemy's turn (the numbers `rk log` shows); default: the last enemy turn.",
                metavar="EVENT",
                required=False,
            ),
            Param(
                "enemy",
                Text("enemy", lower=True),
                "Explain this enemy's (e2) last turn, or its last turn up to EVENT.",
                option="--enemy",
                short="-e",
                metavar="ENEMY",
                required=False,
            ),
        ),
    ),
)


# --- the surface --------------------------------------------------------------------------


def _view(name: str) -> Callable[..., Any]:
    def draw(*args: Any) -> Any:
        from . import views

        return getattr(views, name)(*args)

    return draw


def _typed_faces(state: Any) -> bool:
    """With physical dice the table types the faces: a listing writes ``F``."""
    return state.options.physical_dice


def _board(seen: Any) -> Any:
    from .board_view import board

    return board(seen)


def _demo(name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        from . import demo

        return getattr(demo, name)(*args)

    return call


DEMO = Demo(
    setup="clash",
    request=_demo("request"),
    choose=_demo("choose"),
    told=_demo("told"),
    who=_demo("who"),
    shows_undo=_demo("shows_undo"),
    taken=_demo("taken"),
)

BATTLE_SURFACE = Surface(
    ruleset="betrayal",
    title="Betrayal of the Second Era",
    verbs=VERBS,
    setups=(CLASH, DUNGEON, DELVE),
    queries=QUERIES + READ_MODEL_QUERIES,
    panel=PLAY,
    status=_view("status"),
    compact=_view("compact"),
    extra=_view("extra"),
    legal_note=_view("legal_note"),
    typed_faces=_typed_faces,
    board=_board,
    demo=DEMO,
)
