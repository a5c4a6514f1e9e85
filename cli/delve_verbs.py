"""The `rk` verbs of Betrayal's delves and dungeons, registered on the app of
``cli.main``: set one up (`rk new delve`, `rk new dungeon`), list the delve
encounters (`rk delves`), explore (`rk explore`; `rk move HEX --explore` is
``rk move``'s own option) and connect a revealed tile (`rk place-tile`).
Each is spelled as ``rk legal`` lists it; the work is done in
``cli.betrayal`` and ``cli.content``, imported only when a verb runs.
"""

from typing import Annotated, Optional

import typer

from .app import ACT, MAX_SEED, SETUP, BattleId, Json, NewName, Store, _run, app, new_app

Party = Annotated[list[str], typer.Option(
    metavar="MEMBER", show_default=False,
    help="An adventurer, once per party member, in turn order: Name for an existing one, or "
         "Name:race, Name:race:line+line, Name:race:line+line:form to create one (see `rk races`, `rk lines`).")]
Xp = Annotated[Optional[int], typer.Option(
    metavar="XP", min=0, max=MAX_SEED,  # the rules bound it (EP-2), naming the rule
    show_default=False,
    help="The party's XP on the dial, 0 to 80 (EP-2). Default: the dial of the party's campaign, else 1.")]
Defense = Annotated[bool, typer.Option(
    "--choose-defense", help="Stop before an enemy's damage to let the adventurer choose its block dice and"
                             " reactions (rk defend; COMBAT-4). Default: the engine chooses.")]
Climax = Annotated[bool, typer.Option(
    "--climax", help="A session's climax battle: EP from the session-end table, not the dial (SESSION-EP-2).")]
Seed = Annotated[Optional[int], typer.Option(
    metavar="N", min=0, max=MAX_SEED, show_default=False,
    help="The seed every roll and draw derives from, 0 to 2^63-1 (default: a random one, shown in the status).")]
Level = Annotated[str, typer.Option(metavar="LEVEL", help="apprentice, adept or expert.")]
Physical = Annotated[bool, typer.Option(
    "--physical-dice", help="Roll real dice and type their faces (--faces, rk roll-enemy).")]
Place = Annotated[Optional[list[str]], typer.Option(
    "--place", "--at", metavar="HEX", show_default=False,
    help="An Entrance hex for each adventurer, in party order (default: the first free ones).")]


@new_app.command("delve")
def new_delve(
    ctx: typer.Context,
    delve: Annotated[str, typer.Option(metavar="DELVE", help="The delve encounter (see `rk delves`).",
                                       show_default=False)],
    party: Party, xp: Xp = None, climax: Climax = False, choose_defense: Defense = False, seed: Seed = None,
    difficulty: Level = "adept", physical_dice: Physical = False,
    place: Place = None, battle: NewName = None, store: Store = None, json: Json = False,
) -> None:
    """Set up a delve (DELVE-7 to DELVE-12): the Entrance on the table, the party on it, and show it.

    Each tile revealed gets its own EP, XP x party size (DELVE-4).
    Example: rk new delve --delve whispering-barrow --party "Ysolda:nord" --party "Tarn:dark-elf" --xp 2 --seed 7
    """
    _run(ctx, "betrayal.new_delve", store, battle, json, delve=delve, party=party, xp=xp, climax=climax,
         choose_defense=choose_defense, seed=seed,
         difficulty=difficulty, physical_dice=physical_dice, place=place or [])


@new_app.command("dungeon")
def new_dungeon(
    ctx: typer.Context,
    setup: Annotated[str, typer.Option(metavar="SETUP", help="The dungeon's setup diagram (see `rk setups`).",
                                       show_default=False)],
    party: Party, xp: Xp = None, climax: Climax = False, choose_defense: Defense = False, seed: Seed = None,
    difficulty: Level = "adept", physical_dice: Physical = False,
    place: Place = None,
    specials: Annotated[Optional[list[str]], typer.Option(
        metavar="HEXES", show_default=False,
        help="The special hex of each objective unit, in order, e.g. c4,d5 (DUNGEON-8e; default: the first ones).")] = None,
    battle: NewName = None, store: Store = None, json: Json = False,
) -> None:
    """Set up a dungeon from its diagram (DUNGEON-6 to DUNGEON-11) and show it.

    Example: rk new dungeon --setup sentinel-vault --party "Ysolda:nord" --xp 2 --seed 7
    """
    _run(ctx, "betrayal.new_dungeon", store, battle, json, setup=setup, party=party, xp=xp, climax=climax,
         choose_defense=choose_defense, seed=seed,
         difficulty=difficulty, physical_dice=physical_dice, place=place or [], specials=specials or [])


@app.command(rich_help_panel=SETUP)
def delves(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the delve encounters of the content pack: id, name, objective, skyshards required."""
    _run(ctx, "content.delves", store, None, json)


@app.command(rich_help_panel=ACT)
def explore(
    ctx: typer.Context,
    hex: Annotated[Optional[str], typer.Argument(
        metavar="[HEX]", show_default=False,
        help="An explorable hex in sight and reach: the Explore action (EXPLORE-1, EXPLORATION-4). "
             "Without it, the hex you stand on as your turn starts (EXPLORATION-3a, DELVE-10d).")] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """In a delve: explore a Connection hex, drawing a delve card and its tile (EXPLORATION-6)."""
    _run(ctx, "betrayal.explore", store, battle, json, hex)


@app.command("place-tile", rich_help_panel=ACT)
def place_tile(
    ctx: typer.Context,
    rotation: Annotated[int, typer.Option(
        metavar="N", min=0, max=99, show_default=False,
        help="Sixths of a turn clockwise, 0 to 5 (EXPLORATION-9b).")],
    origin: Annotated[str, typer.Option(
        metavar="HEX", show_default=False, help="Where the tile's first hex goes, e.g. ag27.")],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """In a delve: connect the revealed tile (EXPLORATION-9); `rk legal` lists every way it may go."""
    _run(ctx, "betrayal.place_tile", store, battle, json, rotation, origin)
