"""The `rk` (and `rulekeeper`) command line: its core commands, every other
module of commands imported so that it registers, and the console script.

Each command parses its options, opens a ``Session`` and hands over to a
small module (``cli.battle``, ``cli.history``...). Those modules, and the
domain behind them, are imported inside the command functions: play is one
process per command, and ``rk --help`` should not pay for eventsourcing.
The app and the options its commands share are ``cli.app``'s.

Exit status: 0 done; 2 the rules refused the command (stderr says
``RULE-ID: reason``); 1 anything else was refused (malformed, not found,
an unknown rule ID, a bad log, the battle moved on, a usage error).
"""


import sys
from typing import Annotated, Optional

import typer

from .app import (
    ACT,
    LOGS,
    LOOK,
    MAX_SEED,
    MAX_VERSION,
    SESSIONS,
    SETUP,
    VIEWS,
    BattleId,
    Json,
    NewName,
    Store,
    _run,
    app,
    new_app,
)
from .declared import GameCommand
from .session import Defaults


# --- setting up -------------------------------------------------------------------


@new_app.command("clash")
def new_clash(
    ctx: typer.Context,
    setup: Annotated[str, typer.Option(metavar="SETUP", help="The setup diagram to play (see `rk setups`).", show_default=False)],
    party: Annotated[list[str], typer.Option(
        metavar="MEMBER", help="An adventurer, once per party member, in turn order: Name for an existing one, or "
             "Name:race, Name:race:line+line, Name:race:line+line:form to create one "
             "(see `rk races`, `rk lines`).", show_default=False)],
    xp: Annotated[Optional[int], typer.Option(
        metavar="XP", min=0, max=MAX_SEED,  # the rules bound it (EP-2), naming the rule
        show_default=False,
        help="The party's XP on the dial, 0 to 80; EP = XP x party size (EP-2). Default: the dial of the"
             " party's campaign, else 1.")] = None,
    climax: Annotated[bool, typer.Option(
        "--climax", help="A session's climax battle: EP from the session-end table, not the dial (SESSION-EP-2).")] = False,
    choose_defense: Annotated[bool, typer.Option(
        "--choose-defense", help="Stop before an enemy's damage to let the adventurer choose its block dice and"
                                 " reactions (rk defend; COMBAT-4). Default: the engine chooses.")] = False,
    seed: Annotated[Optional[int], typer.Option(
        metavar="N", min=0, max=MAX_SEED,
        help="The seed every roll and draw derives from, 0 to 2^63-1 (default: a random one, shown in the status).",
        show_default=False)] = None,
    difficulty: Annotated[str, typer.Option(metavar="LEVEL", help="apprentice, adept or expert.")] = "adept",
    physical_dice: Annotated[bool, typer.Option(
        "--physical-dice", help="Roll real dice and type their faces (--faces, rk roll-enemy).")] = False,
    at: Annotated[Optional[list[str]], typer.Option(
        "--at", metavar="HEX", show_default=False,
        help="An Entrance hex for each adventurer, in party order (default: the first free ones).")] = None,
    battle: NewName = None, store: Store = None, json: Json = False,
) -> None:
    """Set up a clash battle (CLASH-5 to CLASH-10) and show it.

    Example: rk new clash --setup waystone-crossing --party "Ysolda:nord"
    --party "Tarn:dark-elf:bow+destruction-staff:ranged" --xp 2 --seed 7
    """
    _run(ctx, "betrayal.new_clash", store, battle, json, setup=setup, party=party, xp=xp, climax=climax,
         choose_defense=choose_defense, seed=seed,
         difficulty=difficulty, physical_dice=physical_dice, at=at or [])


@app.command(rich_help_panel=SETUP)
def setups(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the setup diagrams of the content pack, clashes and dungeons: id, name, mode, objective, size."""
    _run(ctx, "content.setups", store, None, json)


@app.command(rich_help_panel=SETUP)
def races(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the races a new adventurer may be, with their starting stats."""
    _run(ctx, "content.races", store, None, json)


@app.command(rich_help_panel=SETUP)
def lines(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the starting skill lines and their dice, face by face (1 to 6)."""
    _run(ctx, "content.lines", store, None, json)


# --- looking ----------------------------------------------------------------------


@app.command(cls=GameCommand, rich_help_panel=LOOK)
def status(
    ctx: typer.Context,
    at: Annotated[Optional[int], typer.Option(
        "--at", metavar="VERSION", min=1, max=MAX_VERSION,
        help="Replay the battle only up to this event (the numbers `rk log` shows), to see it as it stood then.",
        show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Show the battle: map, round and turn, adventurers, enemies, rolled dice.

    Hexes are named by the column letters and row numbers around the map; the
    adventurers' free dice carry the uids that --dice takes.
    """
    _run(ctx, "game.status", store, battle, json, at)


@app.command(cls=GameCommand, rich_help_panel=LOOK)
def legal(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """List what may be done now, one `rk` command per line.

    An engage is listed with every die it may gather; any subset of them is legal too.
    """
    _run(ctx, "game.legal", store, battle, json)


NoPager = Annotated[bool, typer.Option(
    "--no-pager", help="Write straight to the terminal; long output is otherwise shown with $PAGER"
                       " (default: less -FRX). A pipe or a file never gets a pager.")]


@app.command(cls=GameCommand, rich_help_panel=LOOK)
def log(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False,
        no_pager: NoPager = False) -> None:
    """Every event of the battle, narrated and numbered as `rk status --at` counts; undone commands marked."""
    _run(ctx, "history.log", store, battle, json, page=not no_pager)


@app.command(rich_help_panel=LOOK)
def battles(
    ctx: typer.Context,
    all_: Annotated[bool, typer.Option("--all", help="Also list the deleted battles (marked x).")] = False,
    store: Store = None, json: Json = False,
) -> None:
    """List the battles in the store, oldest first, with where each stands; * marks the current one."""
    _run(ctx, "history.battles", store, None, json, all_)


@app.command(rich_help_panel=LOOK)
def rule(
    ctx: typer.Context,
    rule_id: Annotated[str, typer.Argument(
        metavar="ID", help="A rule ID, in any case: MOVE-1, exploration-9e, REINF-4.", show_default=False)],
    ruleset: Annotated[Optional[str], typer.Option(
        "--ruleset", metavar="NAME", show_default=False,
        help="betrayal or conquest (default: the one whose spec has ID; if both have it, "
             "the current battle's, else betrayal).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Also print its sub-rules (EXPLORATION-9a to 9f under 9).")] = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Print a rule's text from the spec, its notes, and the facts that fill it.

    Exit status 1 for an ID the spec does not have (the message suggests close ones).
    """
    _run(ctx, "rulebook.show", store, battle, json, rule_id, ruleset, all_)


# --- acting -----------------------------------------------------------------------


@app.command(rich_help_panel=ACT)
def move(
    ctx: typer.Context,
    hex: Annotated[str, typer.Argument(metavar="HEX", help="Where to, e.g. c4 (in a labyrinth battle: the PC).",
                                       show_default=False)],
    row: Annotated[Optional[str], typer.Argument(
        metavar="[ROW]", help="A labyrinth battle only: front or back.", show_default=False)] = None,
    place: Annotated[Optional[int], typer.Argument(
        metavar="[PLACE]", min=1, max=99, show_default=False,
        help="A labyrinth battle only: the place in the row, 1 = leftmost (default: rightmost).")] = None,
    explore: Annotated[bool, typer.Option(
        "--explore", help="In a delve: explore HEX, an explorable Connection hex, on entering it (EXPLORATION-3a).")] = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Move the current adventurer to HEX by a shortest free route (MOVE-1).

    In a delve, --explore explores HEX on arrival, using no action (EXPLORATION-3a, 3c);
    what the rest of the move allows may follow (EXPLORATION-3b).

    In a labyrinth battle, `rk move PC ROW [PLACE]` declares a PC's Standby
    move to the front or back row (STANDBY-2, STANDBY-3).
    """
    # A ruleset that declares `move` is given it so (cli.move_verb); the others, by the handler named last.
    _run(ctx, "move_verb.move", store, battle, json, hex, row, place, explore, "betrayal.move")


@app.command(rich_help_panel=ACT)
def engage(
    ctx: typer.Context,
    form: Annotated[str, typer.Option(
        metavar="FORM", help="Battle form: defensive, heavy, light, ranged or magic (ENGAGE-5).", show_default=False)],
    target: Annotated[Optional[str], typer.Option(
        metavar="ENEMY", help="The one enemy to target, e.g. e2 (ENGAGE-6).", show_default=False)] = None,
    dice: Annotated[Optional[str], typer.Option(
        metavar="UIDS", help="Die uids to gather and roll, e.g. 1,2 (the free dice of `rk status`).", show_default=False)] = None,
    faces: Annotated[Optional[str], typer.Option(
        metavar="FACES", help="Physical dice only: the face each die shows, 1 to 6, in --dice order.", show_default=False)] = None,
    weapon: Annotated[Optional[str], typer.Option(
        metavar="ITEM", help="The one ready Weapon to apply, chosen before rolling (WEAPON-2, WEAPON-3).",
        show_default=False)] = None,
    overtax: Annotated[bool, typer.Option(
        "--overtax", help="Trigger the Weapon's Overtax too; it is discarded after the engage (OVERTAX-2, -4).")] = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Engage: declare a form, a target and dice, and roll them (ENGAGE-4 to ENGAGE-7)."""
    _run(ctx, "betrayal.engage", store, battle, json, form=form, target=target, dice=dice, faces=faces,
         weapon=weapon, overtax=overtax)


@app.command(rich_help_panel=ACT)
def resolve(
    ctx: typer.Context,
    skip: Annotated[Optional[str], typer.Option(
        metavar="POSITIONS", help="Positions of rolled dice to leave unresolved (exhausted, ENGAGE-8e), e.g. 2,3.",
        show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Resolve the rolled dice (ENGAGE-8)."""
    _run(ctx, "betrayal.resolve", store, battle, json, skip)


@app.command(rich_help_panel=ACT)
def clear(
    ctx: typer.Context,
    slot: Annotated[int, typer.Argument(metavar="SLOT", min=1, max=99, help="The active slot, counted from 1.",
                                        show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Remove the die in an active slot without resolving it (ACTIVE-4)."""
    _run(ctx, "betrayal.clear", store, battle, json, slot)


@app.command("race-ability", rich_help_panel=ACT)
def race_ability(
    ctx: typer.Context,
    hero: Annotated[Optional[str], typer.Argument(
        metavar="HERO", help="Who uses it (default: the adventurer whose turn it is), e.g. faen.",
        show_default=False)] = None,
    dice: Annotated[Optional[str], typer.Option(
        metavar="UIDS", help="Dark Elf: skill dice on the track to recover, up to 4, e.g. 1,3.",
        show_default=False)] = None,
    slots: Annotated[Optional[str], typer.Option(
        metavar="POSITIONS", help="Redguard: track positions (from 1) of fatigue or status dice to remove, up to 3.",
        show_default=False)] = None,
    targets: Annotated[Optional[str], typer.Option(
        metavar="HEROES", help="High Elf: the adventurer to place (default: yourself); Wood Elf: up to 2 to hide.",
        show_default=False)] = None,
    hex: Annotated[Optional[str], typer.Option(
        "--hex", metavar="HEX", help="High Elf: the Entrance hex; Khajiit: where the free move goes, e.g. c4.",
        show_default=False)] = None,
    arm: Annotated[bool, typer.Option(
        "--arm", help="Wood Elf: ready it on your turn for the start of the next enemy's turn.")] = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Use a race ability, once per battle (RACE-*).

    Dark Elf (--dice), Redguard (--slots), High Elf (--targets, --hex) and Orc
    (an extra turn) act on your own turn; Wood Elf (--targets) as a turn starts.
    Argonian, Imperial, Nord and Khajiit ready it on your turn for its next
    trigger; after Cutpurse opened a lock, --hex takes the Khajiit's free move.
    """
    _run(ctx, "betrayal.race_ability", store, battle, json, hero=hero, dice=dice, slots=slots,
         targets=targets, hex_text=hex, arm=arm)


@app.command(rich_help_panel=ACT)
def defend(
    ctx: typer.Context,
    blocks: Annotated[Optional[str], typer.Option(
        metavar="SLOTS", help="Active slots (from 1) to block with, or none (default: the rules' own choice).",
        show_default=False)] = None,
    race: Annotated[bool, typer.Option(
        "--race", help="Use the race reaction (Argonian, Imperial) on the damage left.")] = False,
    gear: Annotated[Optional[str], typer.Option(
        metavar="ITEMS", help="Ready Armor and Pets to use, or none (default: every one, ARMOR-2).",
        show_default=False)] = None,
    overtax: Annotated[Optional[str], typer.Option(
        metavar="ITEMS", help="Armor whose Overtax to trigger too; discarded after the engage (OVERTAX-3, -4).",
        show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Choose how the adventurer about to take damage defends (COMBAT-4; choose-defense battles)."""
    _run(ctx, "betrayal.defend", store, battle, json, blocks=blocks, race=race, gear=gear, overtax=overtax)


@app.command("use-item", rich_help_panel=ACT)
def use_item(
    ctx: typer.Context,
    item: Annotated[str, typer.Argument(metavar="ITEM", help="A ready item's id (see `rk status`).",
                                        show_default=False)],
    hero: Annotated[Optional[str], typer.Argument(
        metavar="HERO", help="Who uses it (default: the adventurer whose turn it is).", show_default=False)] = None,
    target: Annotated[Optional[str], typer.Option(
        metavar="HERO", help="Enchantment: the adventurer to attach it to (default: yourself).",
        show_default=False)] = None,
    overtax: Annotated[bool, typer.Option(
        "--overtax", help="Armor: ready its Overtax for the next enemy engage against you (OVERTAX-3).")] = False,
    dice: Annotated[Optional[str], typer.Option(
        metavar="POSITIONS", help="Reroll items: roll positions (from 1) of the dice to reroll.",
        show_default=False)] = None,
    faces: Annotated[Optional[str], typer.Option(
        metavar="FACES", help="Physical dice only: the faces the rerolled dice show, 1 to 6.",
        show_default=False)] = None,
    hex: Annotated[Optional[str], typer.Option(
        "--hex", metavar="HEX", help="Move items: where the free move goes, e.g. c4.", show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Use a ready item (ITEM-3 to ITEM-6): a Potion, Consumable or other item
    on your turn, an Enchantment to attach, an Armor or Pet to put on guard
    (--overtax: an Armor's Overtax to ready), a reroll while dice wait; a
    Breton after Opportunist readies a Pack item."""
    _run(ctx, "betrayal.use_item", store, battle, json, item=item, hero=hero, target=target, overtax=overtax,
         dice=dice, faces=faces, hex_text=hex)


@app.command("end-turn", rich_help_panel=ACT)
def end_turn(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """End the current adventurer's turn (TURN-6); enemies act when the party is done."""
    _run(ctx, "betrayal.simple", store, battle, json, "EndTurn")


@app.command("next-round", rich_help_panel=ACT)
def next_round(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """At the end of a round, go on to the next one (ROUND-8)."""
    _run(ctx, "betrayal.simple", store, battle, json, "NextRound")


@app.command(rich_help_panel=ACT)
def retreat(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """At the end of a round, retreat: the battle ends as a failure (RETREAT-1, RETREAT-4)."""
    _run(ctx, "betrayal.simple", store, battle, json, "Retreat")


@app.command("roll-enemy", rich_help_panel=ACT)
def roll_enemy(
    ctx: typer.Context,
    faces: Annotated[str, typer.Argument(
        metavar="FACES", help="The faces the enemy's dice show, 1 to 6, e.g. 1,6,3.", show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Physical dice: type the faces of the enemy's roll (ENEMY-6c)."""
    _run(ctx, "betrayal.roll_enemy", store, battle, json, faces)


@app.command(cls=GameCommand, rich_help_panel=ACT)
def undo(
    ctx: typer.Context,
    force: Annotated[bool, typer.Option(
        "--force", help="Also undo a command that revealed dice or a draw (the audit marks it).")] = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Undo the last command of the battle (appends an undo; nothing is erased)."""
    _run(ctx, "game.undo", store, battle, json, force)


@app.command(cls=GameCommand, rich_help_panel=ACT)
def redo(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """Redo the command undone last, if nothing was done since."""
    _run(ctx, "game.redo", store, battle, json)


# --- logs -------------------------------------------------------------------------


@app.command(rich_help_panel=LOGS)
def export(
    ctx: typer.Context,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="FILE", help="Write to FILE instead of stdout.", show_default=False)] = None,
    sign: Annotated[Optional[str], typer.Option(
        "--sign", metavar="KEYFILE", help="Sign the log with this private key (see `rk keygen`).",
        show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Export the battle as a portable, hash-chained JSON Lines log (signed with --sign)."""
    _run(ctx, "portable.export", store, battle, json, output, sign)


@app.command("import", rich_help_panel=LOGS)
def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log written by `rk export`.", show_default=False)],
    store: Store = None, json: Json = False,
) -> None:
    """Import a battle log; a broken or edited log is refused whole, naming the line.

    The imported battle becomes the current one, as a new battle does (`rk use`).
    """
    _run(ctx, "portable.import_log", store, None, json, file)


@app.command(rich_help_panel=LOGS)
def verify(
    ctx: typer.Context,
    file: Annotated[Optional[str], typer.Argument(
        metavar="FILE", help="A log file to check (default: the battle in the store).", show_default=False)] = None,
    key: Annotated[Optional[str], typer.Option(
        "--key", metavar="PUBKEY", show_default=False,
        help="Require a signature by this public key: 64 hex digits, or a file holding them (KEYFILE.pub).")] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Replay a log through the current rules and report the first divergence.

    Exit status 0 when the log holds, 1 when it does not.
    """
    _run(ctx, "portable.verify", store, battle, json, file, key)


# --- read models ------------------------------------------------------------------


@app.command(rich_help_panel=VIEWS)
def audit(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False,
          no_pager: NoPager = False) -> None:
    """One line per event citing rule IDs, undos marked (a projection)."""
    _run(ctx, "views.show", store, battle, json, "audit", page=not no_pager)


# --- whole sessions ---------------------------------------------------------------


@app.command(rich_help_panel=SESSIONS)
def demo(
    ctx: typer.Context,
    seed: Annotated[int, typer.Option(metavar="N", min=0, max=MAX_SEED,
                                      help="Seed of the battle and of the bot's choices.")] = 7,
    store: Store = None, json: Json = False,
) -> None:
    """Play a short clash to the end with a simple bot, showing an undo and a redo.

    The battle stays in the store under a new id, to look at with `rk log` or `rk verify`.
    """
    _run(ctx, "demo.run", store, None, json, seed)


@app.command(rich_help_panel=SESSIONS)
def play(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """An interactive shell for a table session: the same commands without `rk`.

    Type status, legal, move c4, engage ..., undo, help; quit or Ctrl-D leaves.
    """
    from .shell import run

    root = ctx.find_root().obj
    run(main, app, store=store if store is not None else getattr(root, "store", None),
        battle=battle if battle is not None else getattr(root, "battle", None),
        json=json or getattr(root, "json", False))


@app.command(rich_help_panel=SESSIONS)
def serve(ctx: typer.Context, store: Store = None) -> None:
    """Keep one resident process for the store: every `rk` command then runs in it,
    in a few milliseconds instead of a process's start-up.

    Listens on $RULEKEEPER_HOME/rk-UID/rk.sock until Ctrl-C (or SIGTERM). Commands for
    another store, and `rk play`, still run in their own process.
    """
    from .serve import serve as run_server

    root = ctx.find_root().obj
    code = run_server(store if store is not None else getattr(root, "store", None), main)
    if code:
        raise typer.Exit(code)


@app.command(rich_help_panel=SESSIONS)
def server(
    ctx: typer.Context,
    store: Store = None,
    host: Annotated[str, typer.Option(help="Address to listen on: 127.0.0.1 keeps it to this machine; "
                                           "0.0.0.0 opens it to the network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free one).")] = 8700,
    game: Annotated[Optional[str], typer.Option("--game", help="Print the seat links of this game "
                                                               "(default: the current battle).")] = None,
    workers: Annotated[Optional[int], typer.Option(help="Store threads (default: 1 on SQLite, 4 on PostgreSQL).",
                                                   min=1, max=64)] = None,
    public_url: Annotated[Optional[str], typer.Option("--public-url", help="The address players reach the "
                                                      "server by, for the links (behind a proxy).")] = None,
) -> None:
    """Serve the table over HTTP: an API and a live table view in the browser.

    Prints a link for the host, one per seat of the game and one for spectators;
    each carries its own secret token (kept in $RULEKEEPER_HOME/server.secret, or
    $RULEKEEPER_SERVER_SECRET). Runs until Ctrl-C. Several servers on one PostgreSQL
    store share its games and live updates. The API's document: /api/openapi.json.
    """
    from server.run import serve as run_http

    root = ctx.find_root().obj
    code = run_http(store if store is not None else getattr(root, "store", None), host, port,
                    game or getattr(root, "battle", None), workers, public_url)
    if code:
        raise typer.Exit(code)


@app.command(rich_help_panel=SESSIONS)
def links(
    ctx: typer.Context,
    base: Annotated[Optional[str], typer.Option("--base", help="The server's address (default: the `rk server` "
                                                               "running on this home, else http://127.0.0.1:8700).")] = None,
    seat: Annotated[Optional[str], typer.Option("--seat", metavar="NAME", help="Only this seat's link (an "
                                                "adventurer's or player's name, spectators, or host).")] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Print the links of `rk server` again: the host's, each seat's of the battle and the spectators'."""
    _run(ctx, "table_links.show", store, battle, json, base, seat)


projections_app = typer.Typer(help="The read models behind rk track, rk pool, rk audit, rk battles...",
                              no_args_is_help=True)
app.add_typer(projections_app, name="projections", rich_help_panel=VIEWS)


@projections_app.command("follow")
def projections_follow(
    ctx: typer.Context,
    once: Annotated[bool, typer.Option("--once", help="Catch up, say how many events that read, and stop.")] = False,
    store: Store = None, json: Json = False,
) -> None:
    """Keep every read model caught up with the store, in a process of its own.

    Catches up, then follows new events (on PostgreSQL as they are saved, on
    SQLite every half second) until Ctrl-C or SIGTERM; the views' readers then
    find them up to date.
    """
    _run(ctx, "follow.follow", store, None, json, once)


# --- entry point ------------------------------------------------------------------


def main(argv: list[str] | None = None, obj: Defaults | None = None, prog_name: str = "rk") -> int:
    """Run one command line and return its exit status. Usage errors exit 1,
    keeping 2 for the rules' refusals. ``prog_name`` is what help and usage
    errors call the program: "" in `rk play`, where commands are typed without it."""
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        result = command.main(args=args, prog_name=prog_name, standalone_mode=False, obj=obj)
    except ClickException as e:
        if isinstance(e, NoArgsIsHelpError):  # `rk` or `rk new` alone: the help
            e.show()
        else:
            _usage_error(e, json="--json" in args or (obj is not None and obj.json))
        return 1
    except typer.Abort:
        sys.stderr.write("aborted\n")
        return 1
    return result if isinstance(result, int) else 0


USAGE_MESSAGE = 300  # characters of a usage error shown (it may echo 5,000 typed digits)


def _usage_error(error: Exception, json: bool) -> None:
    """A usage error of the command line as one line on stderr (whatever was
    typed, control characters escaped), naming the help to read."""
    from .output import Output, printable

    message = printable(" ".join(error.format_message().split()))  # type: ignore[attr-defined]
    if len(message) > USAGE_MESSAGE:
        message = message[:USAGE_MESSAGE - 1] + "…"
    ctx = getattr(error, "ctx", None)
    if ctx is not None and not json:
        path = ctx.command_path.strip()  # "" at the top of `rk play`, which has its own help
        message += f" (see `{path} -h`)" if path else " (see `help`)"
    error.format_message = lambda: message  # type: ignore[attr-defined]
    Output(json=json).error(error)


def run() -> None:
    """The console script: `rk ...` and `rulekeeper ...`."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `rk log | head`: the reader left, which is fine
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


# Each ruleset's own verbs, and other verbs of their own modules, register
# themselves on the app (``cli.app``) as they are imported here: after the
# core commands above, the order `rk --help` lists them in.
from . import battle_verbs  # noqa: E402,F401
from . import class_verbs  # noqa: E402,F401
from . import delve_verbs  # noqa: E402,F401
from . import log_verbs  # noqa: E402,F401
from . import why  # noqa: E402,F401

if __name__ == "__main__":  # python -m cli.main ...
    run()
