"""The campaign between battles on the command line: begin one, recruit,
the Reward Phase (rewards, untraining, advancements), trainers, items, rest
and the session's end. Each verb finds the campaign it acts on (the one
--campaign names, else the adventurer's own, else the newest) and hands a
command to the kernel, so `rk undo`, `rk log`, `rk export` and `rk verify`
work on a campaign as on a battle (`--battle CAMPAIGN`, or `rk campaign undo`)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.betrayal import campaign_app as ca
from domain.betrayal import campaign_commands as cc
from domain.betrayal.application import adventurer as find_adventurer
from domain.betrayal.session_ep import session_ep
from domain.betrayal.vocab import Difficulty
from domain.kernel.errors import MalformedCommand, NotFound

from . import game
from .game import choice
from .history import simple_table
from .output import printable
from .session import Session


def _on(s: Session, campaign: str | None = None, adventurer: str | None = None) -> str:
    """Point the session at the campaign a verb acts on, and return its id."""
    s._battle_id = ca.find_campaign(s.app, campaign or s.battle, adventurer)
    return s._battle_id


def _act(s: Session, command: Any, campaign: str | None = None, adventurer: str | None = None) -> None:
    _on(s, campaign, adventurer)
    game.act(s, command)


def new(s: Session, name: str | None, difficulty: str, dial: int | None) -> None:
    """Begin a campaign and show it."""
    result = ca.new_campaign(s.app, name, difficulty=choice(Difficulty, difficulty, "--difficulty"), dial=dial)
    s._battle_id = result.battle.state.battle_id
    game.report(s, result, None)


def status(s: Session, campaign: str | None) -> None:
    """The campaign and its party."""
    _on(s, campaign)
    game.status(s)


def listing(s: Session) -> None:
    """Every campaign of the store, oldest first."""
    rows = []
    for cid in ca.campaigns(s.app):
        state = ca.campaign(s.app, cid)
        rows.append({"campaign": cid, "difficulty": state.difficulty.value, "session": state.session,
                     "day": state.day, "dial": state.dial, "party": [m.name for m in state.party],
                     "reward_phase": state.reward})
    if s.json:
        s.out.emit(rows)
        return
    if not rows:
        s.out.print("No campaign yet: `rk campaign new` begins one (`rk adventurer new` does too).")
        return
    cells = [[printable(r["campaign"]), r["difficulty"], str(r["session"]), str(r["day"]), str(r["dial"]),
              printable(", ".join(r["party"]) or "—")] for r in rows]
    columns = (("campaign", "left"), ("difficulty", "left"), ("session", "right"), ("day", "right"),
               ("dial", "right"), ("party", "left"))
    s.out.print(simple_table(columns, cells, s.out.console.width, wrap=("party",)))


def recruit(s: Session, name: str, race: str, class_id: str, lines: str | None, campaign: str | None) -> None:
    """Create an adventurer of a race and a class and enlist it; with no
    campaign in the store, one is begun first."""
    try:
        find_adventurer(s.app, name)
    except NotFound:
        pass
    else:
        raise MalformedCommand(f"an adventurer named {name} exists already: `rk campaign enlist {name}` brings"
                               " it into a campaign")
    if not campaign and not ca.campaigns(s.app) and not s.battle:
        begun = ca.new_campaign(s.app)
        if not s.json:
            s.out.print(f"Began campaign {begun.battle.state.battle_id} (adept, XP dial"
                        f" {begun.battle.state.dial}); `rk campaign new` begins one of your choosing.")
    chosen = tuple(x.strip() for x in (lines or "").split("+") if x.strip())
    _act(s, cc.Recruit(name=name, race=race.strip().lower(), class_id=class_id.strip().lower(), lines=chosen),
         campaign)


def enlist(s: Session, name: str, class_id: str | None, campaign: str | None) -> None:
    _act(s, cc.Enlist(name=name, class_id=(class_id or "").strip().lower()), campaign)


def reward(s: Session, battle: str | None, xp: int | None, campaign: str | None) -> None:
    """Open the Reward Phase of a finished battle (default: the last one the
    party finished without rewards yet), with the XP it gave unless typed."""
    cid = _on(s, campaign)
    state = ca.campaign(s.app, cid)
    if battle:
        battle_id = s.app.find_battle(battle).battle_id
    else:
        fought = [b for m in state.party for b in find_adventurer(s.app, m.name).battles]
        waiting = [b for b in fought if b not in state.rewarded]
        if not waiting:
            raise MalformedCommand("the party has no finished battle without its Reward Phase: name one"
                                   " (rk reward BATTLE)")
        battle_id = waiting[-1]
    if xp is None:
        xp = ca.battle_reward(s.app, battle_id)
    game.act(s, cc.GainRewards(battle_id=battle_id, xp=xp, loot=ca.battle_loot(s.app, battle_id)))


def reward_done(s: Session, campaign: str | None) -> None:
    _act(s, cc.EndRewards(), campaign)


def advance(s: Session, name: str, what: str, amount: int) -> None:
    _act(s, cc.Advance(adventurer=name, what=what.strip().lower(), amount=amount), adventurer=name)


def untrain(s: Session, name: str, what: str) -> None:
    text = what.strip().lower().lstrip("#")
    command = cc.Untrain(adventurer=name, uid=int(text)) if text.isdigit() else cc.Untrain(adventurer=name, what=text)
    _act(s, command, adventurer=name)


def train(s: Session, name: str, line: str, row: int, right: bool) -> None:
    _act(s, cc.TrainLine(adventurer=name, line=line, row=row, left=not right), adventurer=name)


def promote(s: Session, name: str) -> None:
    """Turn the sheet: in the battle the adventurer is in (ADVANCE-16, mid-
    battle), else between battles in its campaign (ADVANCE-15)."""
    fighting = find_adventurer(s.app, name).fighting
    if fighting:
        from domain.betrayal.commands import TurnClassSheet
        from domain.betrayal.setup import hero_id

        s._battle_id = fighting
        game.act(s, TurnClassSheet(hero=hero_id(name)))
        return
    _act(s, cc.Promote(adventurer=name), adventurer=name)


def rest(s: Session, remove: list[str], discard: list[str], campaign: str | None) -> None:
    """End the day: each adventurer heals and takes cooldown dice off."""
    picks = []
    for text in remove:
        who, _, positions = text.partition(":")
        try:
            picks.append((who.strip(), tuple(int(p) for p in positions.split(",") if p.strip())))
        except ValueError:
            raise MalformedCommand(f"--remove takes NAME:POSITIONS, e.g. Ria:1,3 (not {text!r})") from None
    gives = []
    for text in discard:
        who, _, item = text.partition(":")
        if not item.strip():
            raise MalformedCommand(f"--discard takes NAME:ITEM (not {text!r})")
        gives.append((who.strip(), item.strip().lower()))
    _act(s, cc.Rest(remove=tuple(picks), discard=tuple(gives)), campaign)


def end_session(s: Session, campaign: str | None) -> None:
    _act(s, cc.EndSession(), campaign)


_ITEM_VERBS = {"gain": cc.GainItem, "ready": cc.ReadyItem, "stow": cc.StowItem, "discard": cc.DiscardItem,
               "use": cc.UseItem, "replenish": cc.ReplenishItem}


def item(s: Session, verb: str, name: str, item_id: str, ready: bool) -> None:
    """Move, use or give up an item between battles."""
    kind = _ITEM_VERBS[verb]
    fields = {"adventurer": name, "item": item_id.strip().lower()}
    if kind is cc.GainItem:
        fields["ready"] = ready
    _act(s, kind(**fields), adventurer=name)


def history(s: Session, verb: str, force: bool, campaign: str | None) -> None:
    """`rk campaign undo|redo|log|legal` on the campaign."""
    _on(s, campaign)
    if verb == "undo":
        game.undo(s, force)
    elif verb == "redo":
        game.redo(s)
    elif verb == "legal":
        game.legal(s)
    else:
        from .history import log

        log(s)


def ep(s: Session, session: int | None, difficulty: str | None, players: int | None, campaign: str | None) -> None:
    """SESSION-EP-3: the climax battle's EP for a session, difficulty and
    party size (default: the campaign's)."""
    if session is None or difficulty is None or players is None:
        state = ca.campaign(s.app, _on(s, campaign))
        session = session or state.session
        difficulty = difficulty or state.difficulty.value
        players = players or len(state.party)
    cell = session_ep(s.app.pack_of("betrayal"), session, choice(Difficulty, difficulty, "--difficulty").value, players)
    if s.json:
        s.out.emit(msgspec.to_builtins(cell))
        return
    s.out.print(f"SESSION-EP-3: session {cell.session}, {cell.difficulty}, {cell.players} player(s): EP {cell.ep}"
                f" (XP {cell.xp} each, SESSION-EP-4); `rk new clash --climax` plays with it")


def classes(s: Session) -> None:
    """The class sheets of the pack, with their abilities."""
    from rich.text import Text

    pack = _pack()
    if s.json:
        s.out.emit(msgspec.to_builtins(list(pack.classes.values())))
        return
    for sheet in pack.classes.values():
        s.out.print(Text.assemble((sheet.id, "bold"), f"  {sheet.name}: {sheet.text}"))
        for ability in sheet.abilities:
            form = f", {ability.form.value} form" if ability.form else ""
            s.out.print(f"  {ability.name} ({ability.timing.value}, {ability.cost} Tenacity{form}): {ability.text}")


def items(s: Session) -> None:
    """The item cards of the pack: kind, value and what each does."""
    pack = _pack()
    if s.json:
        s.out.emit(msgspec.to_builtins(list(pack.gear.values())))
        return
    cells = [[g.id, g.name, g.kind.value, str(g.value), g.text] for g in pack.gear.values()]
    columns = (("id", "left"), ("name", "left"), ("kind", "left"), ("value", "right"), ("what it does", "left"))
    s.out.print(simple_table(columns, cells, s.out.console.width, wrap=("name", "what it does")))


def _pack():
    from domain.betrayal.packs import starter_pack

    return starter_pack()
