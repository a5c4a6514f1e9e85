"""What the HTTP API reads and writes: msgspec Structs, so every request
is decoded strictly (unknown fields refused) and every answer has a schema
in the OpenAPI document (``server.openapi``).

A command travels as the ruleset's own command Struct, tagged by class
name (``{"type": "Move", "to": [1, 2]}``): the same JSON the log records.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

MAX_BODY = 4 * 1024 * 1024  # bytes: a log to import may be large; anything larger is refused (413)


class Strict(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every request: an unknown field is an error, not ignored."""


# -- requests -----------------------------------------------------------------


class PartyMember(Strict, frozen=True, kw_only=True):
    """An adventurer of the party: an existing one by name, or a new one
    with its race (and optionally starting lines and battle form)."""

    name: str
    race: str | None = None
    lines: list[str] = []
    form: str = "light"


class NewBetrayalGame(Strict, tag="betrayal", tag_field="ruleset", kw_only=True):
    """Set up a Betrayal battle: a ``clash`` or ``dungeon`` from ``setup``,
    or a ``delve`` of the encounter ``setup``. ``xp`` defaults to the
    campaign's dial (EP-2), else 1, or with ``climax`` to the session-end
    table's (SESSION-EP-2); ``seed`` to a random one; ``name`` to the
    setup's first word and a number."""

    kind: Literal["clash", "dungeon", "delve"] = "clash"
    setup: str
    party: list[PartyMember]
    xp: int | None = None
    climax: bool = False  # a session's climax battle: its XP from the session-end table (SESSION-EP-2)
    seed: int | None = None
    name: str | None = None
    difficulty: str = "adept"
    physical_dice: bool = False
    choose_defense: bool = False


class NewConquestGame(Strict, tag="conquest", tag_field="ruleset", kw_only=True):
    """Set up a Conquest battle of ``scenario`` between two armies, the
    first player's first."""

    scenario: str
    armies: list[str]
    seed: int | None = None
    name: str | None = None
    physical_dice: bool = False


class LabyrinthAbilities(Strict, frozen=True, kw_only=True):
    """A labyrinth PC's five abilities at its level, each a whole number from 1 to 99."""

    str: int
    tec: int
    vit: int
    agi: int
    luc: int


class LabyrinthSheet(Strict, frozen=True, kw_only=True):
    """A labyrinth PC's own sheet, as `rk new labyrinth --sheet` reads one:
    its ``abilities`` at its level (its derived stats come from them), and
    optionally its ``weapon``, ``other`` weapon ("" leaves the slot empty),
    ``armor`` ("" for none), ``skills`` (its class's, learned by its level,
    each once) and ``items`` (at most 20); a field left out keeps the class's."""

    abilities: LabyrinthAbilities
    weapon: str | None = None
    other: str | None = None
    armor: str | None = None
    skills: list[str] | None = None
    items: list[str] | None = None


class LabyrinthMember(Strict, frozen=True, kw_only=True):
    """A PC of a labyrinth party (or an allied NPC): its class and level,
    and optionally its name (default: the class's), row (front or back;
    default: the class's) and own ``sheet`` (default: its class's at its level)."""

    cls: str = msgspec.field(name="class")
    level: int = 1
    name: str | None = None
    row: str | None = None
    sheet: LabyrinthSheet | None = None


PassiveMode = Literal["ask", "auto", "off"]


class NewLabyrinthGame(Strict, tag="labyrinth", tag_field="ruleset", kw_only=True):
    """Set up a labyrinth battle of ``party`` (PCs p1, p2... in this order)
    and its ``allies`` (allied NPCs a1, a2..., acting by the seeded policy;
    they count toward the side's 6 and 3 to a row, SCALE-1) against
    ``encounter``, whose Enemy slots named in ``rare`` (e1, e2...) are their
    kind's rare variant. ``ambush``: the side caught by surprise, "pcs" or
    "enemies"; ``gm_enemies``: the host chooses each Enemy's action;
    ``passives``: who chooses the passive actions (PASSIVE-2): "ask" each
    seat its PC's (the default), "auto" used whenever they may be, "off"
    none; ``options``: any other table option by name (as `rk new labyrinth
    --option`), applied after ``passives``."""

    encounter: str
    party: list[LabyrinthMember]
    allies: list[LabyrinthMember] = []
    rare: list[str] = []
    seed: int | None = None
    name: str | None = None
    ambush: str | None = None
    gm_enemies: bool = False
    passives: PassiveMode = "ask"
    options: dict[str, Any] = {}


class NewCampaign(Strict, tag="betrayal-campaign", tag_field="ruleset", kw_only=True):
    """Begin a Betrayal campaign (its commands are the host's: a campaign
    has no seats). ``dial`` defaults to the pack's starting XP dial."""

    name: str | None = None
    difficulty: str = "adept"
    dial: int | None = None


NewGame = NewBetrayalGame | NewConquestGame | NewLabyrinthGame | NewCampaign


class CommandRequest(Strict, kw_only=True):
    """A command for the game (its ruleset's command, as JSON). ``version``:
    the game's version the client saw; if the game has moved on since, the
    command is refused with 409 and nothing is written (never a fork)."""

    command: msgspec.Raw
    version: int | None = None


class UndoRequest(Strict, kw_only=True):
    """Undo the last command. ``force`` passes the randomness barrier
    (UNDO-2), the host's alone; ``version`` as for a command."""

    force: bool = False
    version: int | None = None


class RedoRequest(Strict, kw_only=True):
    """Redo the command undone last; ``version`` as for a command."""

    version: int | None = None


# -- answers ----------------------------------------------------------------------


class Refusal(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Why a request was refused. ``error``: ``rule`` (a rule forbids it;
    ``rule`` is its ID, status 422), ``malformed`` (400), ``unauthorized``
    (no valid token, 401), ``forbidden`` (this pass may not, 403; ``rule``
    is the SEAT rule), ``not-found`` (404), ``moved-on`` (the game moved on,
    409; ``version`` is where it is now), ``too-large`` (413)."""

    error: str
    reason: str
    rule: str | None = None
    version: int | None = None


class GameSummary(msgspec.Struct, kw_only=True):
    """One game as a list shows it."""

    id: str
    name: str
    ruleset: str
    title: str
    setup: str
    version: int
    round: int
    where: str
    who: str
    over: bool
    deleted: bool = False


class SeatInfo(msgspec.Struct, kw_only=True):
    """A seat of a game, and for the host its link."""

    key: str
    name: str
    link: str | None = None


class Seats(msgspec.Struct, kw_only=True):
    """A game's seats and, for the host, every link to hand out."""

    game: str
    seats: list[SeatInfo]
    spectator: str | None = None
    host: str | None = None


class Whoami(msgspec.Struct, kw_only=True):
    """What the asking pass is."""

    role: str
    game: str | None = None
    seat: str | None = None
    seat_name: str | None = None


class LegalCommand(msgspec.Struct, kw_only=True):
    """A legal command: as a player would type it, as JSON to post, the
    seat it is given for (None: the table's), and whether the asking pass
    may give it."""

    label: str
    command: Any
    actor: str | None
    allowed: bool


class Narrated(msgspec.Struct, kw_only=True):
    """One event of the log, in the game's words."""

    version: int
    command_id: str
    text: str
    command: bool = False
    undone: bool = False
    stream: str = ""


class CommandResult(msgspec.Struct, kw_only=True):
    """What a command (or an undo, a redo) did."""

    game: str
    command_id: str
    version: int
    narrated: list[str]
    summary: GameSummary


class GameState(msgspec.Struct, kw_only=True):
    """A game's state now or at a version, as the log's JSON has it."""

    game: str
    version: int
    state: Any
    can_undo: bool
    can_redo: bool


class VerifyAnswer(msgspec.Struct, kw_only=True):
    """A log checked against the rules: ``ok``, a one-line summary, the
    first divergence if any."""

    ok: bool
    summary: str
    lines: int
    commands: int
    divergence: Any = None


class Imported(msgspec.Struct, kw_only=True):
    """A log written into the store as a new game."""

    game: str
    summary: GameSummary


class Choice(msgspec.Struct, kw_only=True):
    """One thing a new game may be set up with: ``id`` is what a request
    names, ``name`` what a person reads, ``note`` a line to choose by;
    ``row``, for a labyrinth class, where it stands unless placed otherwise."""

    id: str
    name: str
    note: str = ""
    row: str | None = None


class BetrayalChoices(msgspec.Struct, kw_only=True):
    """What a Betrayal battle (``NewBetrayalGame``) is set up from: the
    setups of each ``kind`` (clash setups, dungeon diagrams, delve
    encounters), the races of a new adventurer, the difficulties."""

    clash: list[Choice]
    dungeon: list[Choice]
    delve: list[Choice]
    races: list[Choice]
    difficulties: list[str]


class ConquestChoices(msgspec.Struct, kw_only=True):
    """What a Conquest battle (``NewConquestGame``) is set up from."""

    scenarios: list[Choice]
    armies: list[Choice]


class EnemySlot(msgspec.Struct, kw_only=True):
    """One Enemy of a labyrinth encounter: ``id`` its slot (e1, e2...: what
    ``NewLabyrinthGame.rare`` names), ``name`` as the battle calls it,
    ``row``; ``rare`` if the encounter always has it as its kind's rare
    variant, and ``rare_name`` what that variant is called once spotted."""

    id: str
    name: str
    row: str
    rare_name: str
    rare: bool = False


class LabyrinthEncounter(Choice, kw_only=True):
    """A labyrinth encounter to choose, with its ``enemies`` slot by slot."""

    enemies: list[EnemySlot] = []


class LabyrinthChoices(msgspec.Struct, kw_only=True):
    """What a labyrinth battle (``NewLabyrinthGame``) is set up from: its
    encounters (each with its Enemy slots, any of which may be made rare),
    the classes of a PC or an allied NPC, at most ``max_party`` PCs and
    allies together, of level 1 to ``max_level``, at most ``row_limit`` of
    them to a row (SCALE-1), the rows, the sides an ambush may catch, and
    the ways the passive actions are chosen (PASSIVE-2; the first is the
    default)."""

    encounters: list[LabyrinthEncounter]
    classes: list[Choice]
    max_party: int
    max_level: int
    row_limit: int
    rows: list[str]
    ambush: list[str]
    passives: list[Choice] = []


class CampaignChoices(msgspec.Struct, kw_only=True):
    """What a Betrayal campaign (``NewCampaign``) begins with: its
    difficulty and the XP dial (``dial`` where the pack starts it)."""

    difficulties: list[str]
    dial: int
    max_dial: int


class Choices(msgspec.Struct, kw_only=True):
    """Everything ``POST /api/games`` can set up, and what each is set up
    from (the content packs the server plays with). ``campaign`` is None
    when the Betrayal pack has no campaign content."""

    betrayal: BetrayalChoices
    conquest: ConquestChoices
    labyrinth: LabyrinthChoices
    campaign: CampaignChoices | None = None


def unknown_field(given: Any, decoded: Any, at: str = "$") -> str | None:
    """Where ``given`` (JSON decoded as plain values) has a field that
    ``decoded`` (the same JSON decoded into Structs) has none for, e.g.
    ``$.zz``; None when it has none. A ruleset's commands accept unknown
    fields (old logs stay readable), a request must not: a misspelt field
    would be dropped silently and another command given than the one meant."""
    if isinstance(decoded, msgspec.Struct) and isinstance(given, dict):
        kind = type(decoded)
        names = dict(zip(kind.__struct_encode_fields__, kind.__struct_fields__))
        for key, value in given.items():
            if key == kind.__struct_config__.tag_field:
                continue
            if key not in names:
                return f"{at}.{key}"
            found = unknown_field(value, getattr(decoded, names[key]), f"{at}.{key}")
            if found:
                return found
    elif isinstance(decoded, (list, tuple)) and isinstance(given, list):
        for i, (g, d) in enumerate(zip(given, decoded)):
            found = unknown_field(g, d, f"{at}[{i}]")
            if found:
                return found
    elif isinstance(decoded, dict) and isinstance(given, dict):
        for key, value in given.items():
            if key in decoded:
                found = unknown_field(value, decoded[key], f"{at}.{key}")
                if found:
                    return found
    return None
