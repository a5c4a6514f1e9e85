"""Betrayal on the command line: its verbs (new clash, dungeon or delve,
move, explore, place a tile, engage, resolve, clear, end turn, next round,
retreat, roll the enemy's dice) and its views (the board and the party),
as ``cli.game`` asks of a ruleset.

Every view reads the rules context through ``app.rules_context``: a
delve's board is its Delve's map, which ``app.context`` alone does not
have."""

from __future__ import annotations

import secrets
from typing import Any

from domain.betrayal import commands as c
from domain.betrayal.application import new_clash as start_clash
from domain.betrayal.application import new_delve as start_delve, new_dungeon as start_dungeon
from domain.betrayal.context import RulesContext
from domain.betrayal.spell import spell
from domain.betrayal.state import BattleState
from domain.betrayal.vocab import BattleForm, Difficulty
from domain.kernel.commandlog import Game
from domain.kernel.errors import MalformedCommand

from . import parse, render
from .battle_names import called, started
from .game import act, choice, narration, result_json
from .session import Session

def new_clash(s: Session, *, setup: str, party: list[str], xp: int | None, seed: int | None,
              difficulty: str, physical_dice: bool, at: list[str], climax: bool = False,
              choose_defense: bool = False) -> None:
    """Set up a clash and print its status."""
    _started(s, start_clash(s.app, setup=setup, choose_defense=choose_defense,
                            **_setup_options(s, setup, party, xp, seed, difficulty, physical_dice, at, climax)))


def new_dungeon(s: Session, *, setup: str, party: list[str], xp: int | None, seed: int | None,
                difficulty: str, physical_dice: bool, place: list[str], specials: list[str],
                climax: bool = False, choose_defense: bool = False) -> None:
    """Set up a dungeon from its diagram (DUNGEON-6 to DUNGEON-11) and print its status."""
    chosen = parse.hex_labels([h for text in specials for h in text.split(",") if h.strip()])
    _started(s, start_dungeon(s.app, setup=setup, specials=chosen, choose_defense=choose_defense,
                              **_setup_options(s, setup, party, xp, seed, difficulty, physical_dice, place, climax)))


def new_delve(s: Session, *, delve: str, party: list[str], xp: int | None, seed: int | None,
              difficulty: str, physical_dice: bool, place: list[str], climax: bool = False,
              choose_defense: bool = False) -> None:
    """Set up a delve (DELVE-7 to DELVE-12) and print its status."""
    _started(s, start_delve(s.app, delve=delve, choose_defense=choose_defense,
                            **_setup_options(s, delve, party, xp, seed, difficulty, physical_dice, place, climax)))


def _setup_options(s: Session, setup: str, party: list[str], xp: int | None, seed: int | None, difficulty: str,
                   physical_dice: bool, place: list[str], climax: bool = False) -> dict[str, Any]:
    """The options every Betrayal setup shares; the battle is called what
    --name says, else after its setup (``waystone-1``)."""
    members = [parse.party_member(p) for p in party]
    return dict(
        party=members, xp=_party_xp(s, members, xp, climax),
        seed=seed if seed is not None else secrets.randbelow(2**31),
        battle_id=s.battle or s.app.new_battle_id(setup), difficulty=choice(Difficulty, difficulty, "--difficulty"),
        physical_dice=physical_dice, placements=parse.hex_labels(place),
    )


def _party_xp(s: Session, members: list, xp: int | None, climax: bool) -> int:
    """The XP the EP is worked out from: as typed; for a climax battle the
    session-end table's XP (SESSION-EP-2); else the dial of the campaign the
    party belongs to (EP-2); else 1."""
    from domain.betrayal.campaign_app import party_campaign, climax_xp

    if xp is not None and climax:
        raise MalformedCommand("--xp or --climax, not both: a climax battle's EP comes from the session table")
    if xp is not None:
        return xp
    campaign = party_campaign(s.app, [m.name for m in members])
    if climax:
        if campaign is None:
            raise MalformedCommand("--climax needs a party of one campaign (see `rk campaign status`)")
        return climax_xp(s.app, campaign, len(members))
    return campaign.dial if campaign is not None else 1


def _started(s: Session, result) -> None:
    started(s, result.battle.state.battle_id)
    if s.json:
        s.out.emit(result_json(s, result, None))
        return
    for line in narration(s, result, None):
        s.out.print("  " + line)
    show_status(s, result.battle)


def rules_context(s: Session, game: Game) -> RulesContext:
    """The rules context of ``game`` as it stood at its version (a delve's
    map as it was then), through ``app.rules_context``."""
    battle_id = game.state.battle_id
    latest = s.app.battle(battle_id)
    return s.app.rules_context(battle_id, None if game.version >= latest.version else game.version)


def show_status(s: Session, game: Game) -> None:
    """The board, whose turn, every adventurer and enemy (and a delve's progress)."""
    state = game.state
    s.out.print(render.status(state, rules_context(s, game), called(s.app, state.battle_id)))


def show_compact(s: Session, state: BattleState) -> None:
    """The short view after a command."""
    s.out.print(render.compact(state, s.app.rules_context(state.battle_id)))


def status_json(s: Session, game: Game) -> dict[str, Any]:
    """What a delve adds to `rk status --json`: its Delve as it stood, the
    hexes explorable then and the legal placements of a waiting tile."""
    ctx = rules_context(s, game)
    if ctx.delve is None:
        return {}
    from domain.betrayal.exploration import placements
    from domain.betrayal.decision import Decision
    from domain.kernel.hexes import label

    waiting = ctx.delve.placing
    ways = placements(Decision(game.state, ctx)) if waiting is not None else []
    return {
        "delve": ctx.delve,
        "explorable": [label(h) for h in render.open_hexes(game.state, ctx)],
        "placements": [{"rotation": p.rotation, "origin": label(p.origin)} for p in ways],
    }


def legal_lines(s: Session, state: BattleState, commands: list[Any]) -> list[str]:
    """Each legal command as an `rk` line; with physical dice, F marks a face to type."""
    physical = state.options.physical_dice
    if not commands:
        return [f"nothing: {render.turn_line(state, s.app.pack_of('betrayal')).plain}"]
    lines = [f"rk {spell(cmd, physical)}" for cmd in commands]
    if physical and any(isinstance(cmd, (c.Engage, c.RollEnemyDice)) for cmd in commands):
        lines.append("(F: type the face each die shows, 1 to 6)")
    return lines


def move(s: Session, hex_text: str, explore: bool = False) -> None:
    """A Move, or with ``explore`` a Move that explores the hex it ends on
    (MoveToExplore: EXPLORATION-3a)."""
    to = parse.hex_label(hex_text)
    act(s, c.MoveToExplore(to=to) if explore else c.Move(to=to))


def explore(s: Session, hex_text: str | None) -> None:
    """Explore: the hex the adventurer stands on as its turn starts, or
    ``hex_text`` with the Explore action (EXPLORE-1, EXPLORATION-4)."""
    act(s, c.Explore(hex=None if hex_text is None else parse.hex_label(hex_text)))


def place_tile(s: Session, rotation: int, origin: str) -> None:
    """Connect the revealed tile, turned ``rotation`` sixths, its first hex on ``origin`` (EXPLORATION-9)."""
    act(s, c.PlaceTile(rotation=rotation, origin=parse.hex_label(origin)))


def engage(s: Session, *, form: str, target: str | None, dice: str | None, faces: str | None,
           weapon: str | None = None, overtax: bool = False) -> None:
    act(s, c.Engage(
        form=choice(BattleForm, form, "--form"), target=target or None,
        dice=parse.dice(dice), faces=parse.faces(faces, "--faces"),
        weapon=(weapon or "").strip(), overtax=overtax,
    ))


def resolve(s: Session, skip: str | None) -> None:
    act(s, c.Resolve(skip=parse.positions(skip, "--skip")))


def clear(s: Session, slot: int) -> None:
    if slot < 1:
        raise MalformedCommand("active slots are counted from 1")
    act(s, c.ClearActive(slot=slot - 1))


def race_ability(s: Session, *, hero: str | None, dice: str | None, slots: str | None, targets: str | None,
                 hex_text: str | None, arm: bool = False) -> None:
    """A race ability (RACE-*), with the options its race takes."""
    names = tuple(t.strip() for t in (targets or "").split(",") if t.strip())
    act(s, c.UseRaceAbility(
        hero=hero or None, dice=parse.dice(dice), slots=parse.positions(slots, "--slots"), targets=names,
        hex=None if hex_text is None else parse.hex_label(hex_text), arm=arm,
    ))


def defend(s: Session, *, blocks: str | None, race: bool, gear: str | None = None,
           overtax: str | None = None) -> None:
    """Choose-defense battles: the blocks, race reaction, Armor and Pets
    (COMBAT-4, ARMOR-2, OVERTAX-3)."""
    chosen = None if blocks is None else () if blocks.strip().lower() == "none" else parse.positions(blocks, "--blocks")
    items = None if gear is None else () if gear.strip().lower() == "none" else _names(gear)
    act(s, c.Defend(blocks=chosen, race=race, gear=items, overtax=_names(overtax)))


def use_item(s: Session, *, item: str, hero: str | None, target: str | None, overtax: bool, dice: str | None,
             faces: str | None, hex_text: str | None) -> None:
    """Use a ready item (ITEM-3), with the options its type takes."""
    act(s, c.UseGear(
        item=item.strip(), hero=hero or None, target=(target or "").strip(), overtax=overtax,
        dice=parse.positions(dice, "--dice"), faces=parse.faces(faces, "--faces"),
        hex=None if hex_text is None else parse.hex_label(hex_text),
    ))


def _names(text: str | None) -> tuple[str, ...]:
    """``"a, b"`` -> ("a", "b")."""
    return tuple(t.strip() for t in (text or "").split(",") if t.strip())


def simple(s: Session, name: str) -> None:
    """A command without arguments: EndTurn, NextRound, Retreat."""
    act(s, {"EndTurn": c.EndTurn, "NextRound": c.NextRound, "Retreat": c.Retreat}[name]())


def roll_enemy(s: Session, faces: str) -> None:
    typed = parse.faces(faces, "FACES")
    if typed is None:
        raise MalformedCommand("type the faces the enemy's dice show, e.g. 1,6,3")
    act(s, c.RollEnemyDice(faces=typed))


