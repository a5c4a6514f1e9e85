"""A new game from a request (``wire.NewGame``): the same domain verbs as
`rk new` and `rk campaign new`, with the same defaults (a random seed; the campaign's XP dial,
else 1; a name from the setup's first word): a Betrayal battle by its ruleset's own builders."""

from __future__ import annotations

import enum
import secrets
from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.games import GameApp, Result

from .wire import LabyrinthMember, NewBetrayalGame, NewCampaign, NewConquestGame, NewGame, NewLabyrinthGame

MAX_SEED = 2**63
MAX_DIAL = 80  # as `rk campaign new --dial` takes it


def start(app: GameApp, request: NewGame) -> Result:
    """Set the game up; refused with the rules' reason, writing nothing."""
    if isinstance(request, NewCampaign):
        return _campaign(app, request)
    seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
    if not 0 <= seed < MAX_SEED:
        raise MalformedCommand("seed must be a whole number from 0 to 2^63-1")
    if isinstance(request, NewBetrayalGame):
        return _betrayal(app, request, seed)
    if isinstance(request, NewLabyrinthGame):
        return _labyrinth(app, request, seed)
    return _conquest(app, request, seed)


def _betrayal(app: GameApp, r: NewBetrayalGame, seed: int) -> Result:
    """The ruleset's own builder of the setup ``r.kind`` names (``domain.betrayal.new_game``)."""
    import msgspec

    from domain.betrayal.surface import BATTLE_SURFACE
    from domain.betrayal.vocab import BattleForm, Difficulty

    party = [{"name": m.name.strip(), "race": m.race or None, "lines": tuple(m.lines),
              "form": _choice(BattleForm, m.form, "form")} for m in r.party]
    fields: dict[str, Any] = dict(
        party=party, xp=r.xp, climax=r.climax, seed=seed, name=r.name,
        difficulty=_choice(Difficulty, r.difficulty, "difficulty"), physical_dice=r.physical_dice,
        choose_defense=r.choose_defense, **{"delve" if r.kind == "delve" else "setup": r.setup})
    setup = BATTLE_SURFACE.setup(r.kind)
    try:
        request = msgspec.convert(fields, setup.request)
    except msgspec.ValidationError as e:
        raise MalformedCommand(str(e)) from None
    return setup.start(app, request)


def _conquest(app: GameApp, r: NewConquestGame, seed: int) -> Result:
    from domain.conquest import commands as c

    if len(r.armies) != 2:
        raise MalformedCommand(f"name two armies, the first player's then the second's, not {len(r.armies)}")
    battle_id = r.name or app.new_battle_id(r.scenario)
    command = c.StartConquest(battle_id=battle_id, scenario=r.scenario, armies=(r.armies[0], r.armies[1]),
                              seed=seed, physical_dice=r.physical_dice)
    return app.start("conquest", command, battle_id=battle_id)


MAX_LEVEL = 99  # as `rk new labyrinth --party CLASS:LEVEL` takes it
MAX_OPTION_NUMBER = 99  # as `rk new labyrinth --option NAME=N` takes it
AMBUSHED = {"pcs": "pc", "enemies": "enemy"}


def _labyrinth(app: GameApp, r: NewLabyrinthGame, seed: int) -> Result:
    import msgspec

    from domain.labyrinth.commands import StartLabyrinth
    from domain.labyrinth.options import passive_settings
    from domain.labyrinth.state import Options

    if not r.party:
        raise MalformedCommand("a party needs at least one PC")
    pack = app.pack_of("labyrinth")
    party = tuple(_member(pack, m, f"party[{i}]") for i, m in enumerate(r.party))
    allies = tuple(_member(pack, m, f"allies[{i}]") for i, m in enumerate(r.allies))
    rare = _rare_slots(r.rare)
    names = {f.name: f for f in msgspec.structs.fields(Options)}
    unknown = sorted(set(r.options) - set(names))
    if unknown:
        raise MalformedCommand(f"no table option {unknown[0]!r}; the options are: {', '.join(names)}")
    # At a table each player chooses their PC's passive actions (PASSIVE-2) unless ``passives`` says
    # otherwise, as `rk new labyrinth --passives` does; an option named outright is applied after it.
    chosen = (passive_settings(r.passives) or {}) | dict(r.options)
    ambush = r.ambush if r.ambush is not None else chosen.get("ambush")
    if ambush is not None:
        if ambush not in AMBUSHED:
            raise MalformedCommand(f"ambush must be pcs or enemies, not {ambush!r}")
        chosen["ambush"] = AMBUSHED[ambush]
    if r.gm_enemies:
        chosen["gm_enemies"] = True
    for key, value in chosen.items():
        default = names[key].default
        if isinstance(default, int) and not isinstance(default, bool) and \
                not (type(value) is int and 1 <= value <= MAX_OPTION_NUMBER):
            raise MalformedCommand(f"option {key} must be a whole number from 1 to {MAX_OPTION_NUMBER}")
    try:
        options = msgspec.convert(chosen, Options)
    except msgspec.ValidationError as e:
        raise MalformedCommand(f"options: {e}") from None
    battle_id = r.name or app.new_battle_id(r.encounter)
    command = StartLabyrinth(battle_id=battle_id, encounter=r.encounter, party=party, allies=allies, rare=rare,
                             seed=seed, options=options)
    return app.start("labyrinth", command, battle_id=battle_id)


def _member(pack: Any, m: LabyrinthMember, at: str) -> Any:
    """A party member or an allied NPC (``domain.labyrinth.commands.Member``)
    of the request's ``m``; ``at`` (``party[1]``, ``allies[0]``) names it in a
    refusal. A class the pack lacks is left to the rules, which say so; a
    sheet is checked here against its class (``sheets.problem``), so its
    refusal names the field as the request wrote it."""
    from domain.labyrinth.catalog import Abilities
    from domain.labyrinth.commands import Member
    from domain.labyrinth.sheets import PcSheet, problem
    from domain.labyrinth.vocab import Row

    if not 1 <= m.level <= MAX_LEVEL:
        raise MalformedCommand(f"{at}: level must be a whole number from 1 to {MAX_LEVEL}, not {m.level}")
    if m.row not in (None, "front", "back"):
        raise MalformedCommand(f"{at}: row must be front or back, not {m.row!r}")
    sheet = None
    if m.sheet is not None:
        given = m.sheet
        a = given.abilities
        sheet = PcSheet(abilities=Abilities(str=a.str, tec=a.tec, vit=a.vit, agi=a.agi, luc=a.luc),
                        weapon=given.weapon, other=given.other, armor=given.armor,
                        skills=None if given.skills is None else tuple(given.skills),
                        items=None if given.items is None else tuple(given.items))
        cls = pack.classes.get(m.cls)
        if cls is not None:
            wrong = problem(cls, m.level, sheet, pack)
            if wrong is not None:
                raise MalformedCommand(f"{at}.sheet.{wrong[0]}: {wrong[1]}")
    return Member(cls=m.cls, level=m.level, name=m.name or "", row=Row(m.row) if m.row else None, sheet=sheet)


def _rare_slots(slots: list[str]) -> tuple[str, ...]:
    """The Enemy slots met as their kind's rare variant (facts section 8),
    as `rk new labyrinth --rare` takes them; whether the encounter has such
    a slot is the rules' question."""
    out: list[str] = []
    for i, slot in enumerate(slots):
        slot = slot.strip().lower()
        if slot in out:
            raise MalformedCommand(f"rare[{i}]: {slot!r} is named twice")
        out.append(slot)
    return tuple(out)


def _campaign(app: GameApp, r: NewCampaign) -> Result:
    from domain.betrayal.campaign_app import new_campaign
    from domain.betrayal.vocab import Difficulty

    if r.dial is not None and not 0 <= r.dial <= MAX_DIAL:
        raise MalformedCommand(f"dial must be a whole number from 0 to {MAX_DIAL} (as `rk campaign new --dial`)")
    return new_campaign(app, r.name, difficulty=_choice(Difficulty, r.difficulty, "difficulty"), dial=r.dial)


def _choice(kind: type[enum.Enum], value: str, what: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise MalformedCommand(f"{what} must be one of {', '.join(str(k.value) for k in kind)}, not {value!r}") \
            from None


__all__ = ["start", "NewGame", "NewBetrayalGame", "NewCampaign", "NewConquestGame", "NewLabyrinthGame"]
