"""The `rk` verbs of a Betrayal campaign, registered on the app of
``cli.main``: `rk campaign ...` (new, list, status, enlist, end-session,
ep, undo, redo, log, legal), `rk reward`, `rk advance`, `rk untrain`,
`rk train`, `rk rest`, `rk item ...`, `rk classes`, `rk items`. The work is
done in ``cli.campaign``, imported only when a verb runs."""

from typing import Annotated, Optional

import typer

from .app import SETUP, Json, Store, _run, app

BETWEEN = "Between battles"
campaign_app = typer.Typer(help="A Betrayal campaign: the party between battles (see also rk reward, rk advance,"
                                " rk rest, rk item).", no_args_is_help=True)
app.add_typer(campaign_app, name="campaign", rich_help_panel=BETWEEN)
item_app = typer.Typer(help="An adventurer's items between battles: gain, ready, stow, discard, use, replenish.",
                       no_args_is_help=True)
app.add_typer(item_app, name="item", rich_help_panel=BETWEEN)

Campaign = Annotated[Optional[str], typer.Option(
    "--campaign", "-c", metavar="NAME", show_default=False,
    help="The campaign to act on (default: the adventurer's own, else the newest; `rk campaign list`).")]
Who = Annotated[str, typer.Argument(metavar="NAME", help="The adventurer's name (any case).", show_default=False)]


@campaign_app.command("new")
def campaign_new(
    ctx: typer.Context,
    name: Annotated[Optional[str], typer.Argument(
        metavar="NAME", show_default=False, help="A name for the campaign (default: campaign-1, campaign-2...).")] = None,
    difficulty: Annotated[str, typer.Option(metavar="LEVEL", help="apprentice, adept or expert.")] = "adept",
    dial: Annotated[Optional[int], typer.Option(
        metavar="XP", min=0, max=80, show_default=False,
        help="Where the XP dial starts (default 2; 1 after the introductory quest).")] = None,
    store: Store = None, json: Json = False,
) -> None:
    """Begin a campaign: its difficulty and the party's XP dial (EP-2)."""
    _run(ctx, "campaign.new", store, None, json, name, difficulty, dial)


@campaign_app.command("list")
def campaign_list(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the campaigns of the store, oldest first."""
    _run(ctx, "campaign.listing", store, None, json)


@campaign_app.command("status")
def campaign_status(
    ctx: typer.Context,
    name: Annotated[Optional[str], typer.Argument(metavar="NAME", show_default=False,
                                                  help="The campaign (default: the newest).")] = None,
    store: Store = None, json: Json = False,
) -> None:
    """Show a campaign: session, day, XP dial, the Reward Phase, the party."""
    _run(ctx, "campaign.status", store, None, json, name)


@campaign_app.command("enlist")
def campaign_enlist(
    ctx: typer.Context, name: Who,
    class_id: Annotated[Optional[str], typer.Option(
        "--class", metavar="CLASS", show_default=False, help="Its class, if it has none yet (see `rk classes`).")] = None,
    campaign: Campaign = None, store: Store = None, json: Json = False,
) -> None:
    """Bring an adventurer made for a battle (`rk new clash --party Name:race`) into the campaign."""
    _run(ctx, "campaign.enlist", store, None, json, name, class_id, campaign)


@campaign_app.command("end-session")
def campaign_end_session(ctx: typer.Context, campaign: Campaign = None, store: Store = None,
                         json: Json = False) -> None:
    """End the session: Tenacity back to 0, pets and enchantments discarded (PET-3, ENCHANT-3)."""
    _run(ctx, "campaign.end_session", store, None, json, campaign)


@campaign_app.command("ep")
def campaign_ep(
    ctx: typer.Context,
    session: Annotated[Optional[int], typer.Option(metavar="N", min=1, show_default=False,
                                                   help="The session (default: the campaign's).")] = None,
    difficulty: Annotated[Optional[str], typer.Option(metavar="LEVEL", show_default=False,
                                                      help="apprentice, adept or expert (default: the campaign's).")] = None,
    players: Annotated[Optional[int], typer.Option(metavar="N", min=1, show_default=False,
                                                   help="Adventurers in the party (default: the campaign's).")] = None,
    campaign: Campaign = None, store: Store = None, json: Json = False,
) -> None:
    """The EP of a session's climax battle, from the session-end table (SESSION-EP-1 to SESSION-EP-4)."""
    _run(ctx, "campaign.ep", store, None, json, session, difficulty, players, campaign)


def _history(verb: str, doc: str):
    def command(
        ctx: typer.Context,
        force: Annotated[bool, typer.Option("--force", help="(undo) Also undo a command that revealed randomness.")] = False,
        campaign: Campaign = None, store: Store = None, json: Json = False,
    ) -> None:
        _run(ctx, "campaign.history", store, None, json, verb, force, campaign)

    command.__doc__ = doc
    campaign_app.command(verb)(command)


_history("undo", "Undo the campaign's last command (appends an undo; nothing is erased).")
_history("redo", "Redo the campaign command undone last, if nothing was done since.")
_history("log", "Every event of the campaign and of its party's adventurers, narrated.")
_history("legal", "What the party may do now between battles.")


@app.command("reward", rich_help_panel=BETWEEN)
def reward(
    ctx: typer.Context,
    battle: Annotated[Optional[str], typer.Argument(
        metavar="BATTLE|done", show_default=False,
        help="The finished battle whose rewards the party gains (default: the last one without), or `done` to"
             " end the Reward Phase (ADVANCE-12 applies).")] = None,
    xp: Annotated[Optional[int], typer.Option(
        metavar="XP", min=0, max=40, show_default=False,
        help="The XP the encounter gave (default: worked out from the battle and the pack's reward table).")] = None,
    campaign: Campaign = None, store: Store = None, json: Json = False,
) -> None:
    """Open the Reward Phase of a finished battle: XP for each adventurer and the dial; `rk reward done` ends it."""
    if battle == "done":
        _run(ctx, "campaign.reward_done", store, None, json, campaign)
    else:
        _run(ctx, "campaign.reward", store, None, json, battle, xp, campaign)


@app.command("advance", rich_help_panel=BETWEEN)
def advance(
    ctx: typer.Context, name: Who,
    what: Annotated[str, typer.Argument(
        metavar="WHAT", show_default=False,
        help="health, stamina, magicka, cooldown, tenacity, or a skill die id (see `rk lines`).")],
    amount: Annotated[int, typer.Argument(metavar="N", min=1, max=10, help="How much Tenacity to buy.")] = 1,
    store: Store = None, json: Json = False,
) -> None:
    """Buy an advancement with XP in the Reward Phase (ADVANCE-2 to ADVANCE-11)."""
    _run(ctx, "campaign.advance", store, None, json, name, what, amount)


@app.command("untrain", rich_help_panel=BETWEEN)
def untrain(
    ctx: typer.Context, name: Who,
    what: Annotated[str, typer.Argument(
        metavar="WHAT", show_default=False,
        help="health, stamina, magicka (a token), magicka-line (Magicka whole), or a die's number (#5).")],
    store: Store = None, json: Json = False,
) -> None:
    """Untrain in the Reward Phase, before buying advancements (no refund)."""
    _run(ctx, "campaign.untrain", store, None, json, name, what)


@app.command("train", rich_help_panel=BETWEEN)
def train(
    ctx: typer.Context, name: Who,
    line: Annotated[str, typer.Argument(metavar="LINE", show_default=False,
                                        help="A skill line id (see `rk lines`), or magicka to add it back.")],
    row: Annotated[int, typer.Option(metavar="N", min=0, max=20,
                                     help="The mat row of the round slot (default: the first empty one).")] = 0,
    right: Annotated[bool, typer.Option("--right", help="The round slot at the row's right end.")] = False,
    store: Store = None, json: Json = False,
) -> None:
    """Visit a trainer: a new skill line on an empty round slot of the mat (ADVANCE-13, ADVANCE-14)."""
    _run(ctx, "campaign.train", store, None, json, name, line, row, right)


@app.command("promote", rich_help_panel=BETWEEN)
def promote(ctx: typer.Context, name: Who, store: Store = None, json: Json = False) -> None:
    """Turn an adventurer's class sheet to its Master side, once a battle met its requirement (ADVANCE-15)."""
    _run(ctx, "campaign.promote", store, None, json, name)


@app.command("rest", rich_help_panel=BETWEEN)
def rest(
    ctx: typer.Context,
    remove: Annotated[Optional[list[str]], typer.Option(
        "--remove", metavar="NAME:POSITIONS", show_default=False,
        help="Which cooldown dice an adventurer takes off, by position from 1 (default: the front of the track).")] = None,
    discard: Annotated[Optional[list[str]], typer.Option(
        "--discard", metavar="NAME:ITEM", show_default=False,
        help="The item an adventurer gives up to rest (Expert difficulty).")] = None,
    campaign: Campaign = None, store: Store = None, json: Json = False,
) -> None:
    """End the day: every adventurer heals and takes cooldown dice off, as the difficulty allows."""
    _run(ctx, "campaign.rest", store, None, json, remove or [], discard or [], campaign)


def _item_verb(verb: str, doc: str) -> None:
    def command(
        ctx: typer.Context, name: Who,
        item: Annotated[str, typer.Argument(metavar="ITEM", help="An item id (see `rk items`).", show_default=False)],
        ready: Annotated[bool, typer.Option("--ready", help="(gain) Straight into a ready slot.")] = False,
        store: Store = None, json: Json = False,
    ) -> None:
        _run(ctx, "campaign.item", store, None, json, verb, name, item, ready)

    command.__doc__ = doc
    item_app.command(verb)(command)


_item_verb("gain", "Give an adventurer an item card, into the Pack (READY-1: 8 items at most).")
_item_verb("ready", "Move an item from the Pack to a ready slot (READY-4; ARMOR-3: one armour per trait).")
_item_verb("stow", "Move an item from a ready slot to the Pack (READY-4; PET-4: a readied pet stays).")
_item_verb("discard", "Give an item up.")
_item_verb("use", "Use a potion (then expended) or a consumable (then discarded) outside battle (ITEM-7).")
_item_verb("replenish", "Turn an expended potion upright at an alchemy station (EXPEND-3).")


@app.command(rich_help_panel=SETUP)
def classes(ctx: typer.Context, json: Json = False) -> None:
    """List the class sheets of the pack and their abilities."""
    _run(ctx, "campaign.classes", None, None, json)


@app.command(rich_help_panel=SETUP)
def items(ctx: typer.Context, json: Json = False) -> None:
    """List the item cards of the pack."""
    _run(ctx, "campaign.items", None, None, json)
