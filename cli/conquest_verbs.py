"""The `rk` verbs of Conquest, registered on the app of ``cli.main``.

Each names the command it gives, in the words ``rk legal`` lists it with
(``rk march a1 --inches 6``); the work is done in ``cli.conquest``, imported
only when a verb runs.
"""

from typing import Annotated, Optional

import typer

from .app import MAX_SEED, BattleId, Json, NewName, Store, _run, app, new_app

PLAY = "Playing Conquest"
Regiment = Annotated[str, typer.Argument(metavar="REGIMENT", help="The Regiment, e.g. a1 (see `rk status`).",
                                         show_default=False)]
Target = Annotated[str, typer.Option(metavar="ENEMY", help="The enemy Regiment, e.g. b2.", show_default=False)]
MAX_INCHES = 1000  # as cli.conquest._inches: far more than any table
Inches = Annotated[int, typer.Option(metavar="N", min=0, max=MAX_INCHES,
                                     help="How far, in whole inches (the players measure).", show_default=False)]
Removed = Annotated[int, typer.Option(metavar="N", min=0, max=999,
                                      help="Stands it removed, as the players' dice decided.", show_default=False)]


@new_app.command("conquest")
def new_conquest(
    ctx: typer.Context,
    scenario: Annotated[str, typer.Option(metavar="SCENARIO", help="The scenario (see `rk scenarios`).",
                                          show_default=False)],
    army: Annotated[list[str], typer.Option(
        metavar="ARMY", help="An army list, twice: the first player's, then the second's (see `rk armies`).",
        show_default=False)],
    seed: Annotated[Optional[int], typer.Option(
        metavar="N", min=0, max=MAX_SEED, help="The seed every roll derives from, 0 to 2^63-1 (default: a random one).",
        show_default=False)] = None,
    physical_dice: Annotated[bool, typer.Option(
        "--physical-dice", help="Roll real dice and type their faces (--faces).")] = False,
    warlord: Annotated[Optional[list[str]], typer.Option(
        metavar="SIDE:CHARACTER", show_default=False,
        help="Another Warlord than the list's, e.g. a:reed-captain (SUP-5).")] = None,
    assign: Annotated[Optional[list[str]], typer.Option(
        metavar="CHARACTER:REGIMENT", show_default=False,
        help="Join a Character to a Regiment of its Type, e.g. ac1:a3 (REINF-2; default: the first one).")] = None,
    battle: NewName = None, store: Store = None, json: Json = False,
) -> None:
    """Set up a Conquest battle between two armies (REINF-1, REINF-2) and show it.

    Example: rk new conquest --scenario border-clash --army saltmarch --army cinderpact --seed 7
    """
    _run(ctx, "conquest.new_conquest", store, battle, json, scenario=scenario, armies=army, seed=seed,
         physical_dice=physical_dice, warlords=warlord or [], assignments=assign or [])


@app.command(rich_help_panel="Setting up")
def scenarios(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the Conquest scenarios: Rounds, depth of the table, victory points."""
    _run(ctx, "conquest.scenarios", store, None, json)


@app.command(rich_help_panel="Setting up")
def armies(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the Conquest army lists: Regiments, Characters, Warlord."""
    _run(ctx, "conquest.armies", store, None, json)


@app.command("choose-arrival", rich_help_panel=PLAY)
def choose_arrival(
    ctx: typer.Context,
    regiment: Annotated[Optional[str], typer.Argument(
        metavar="[REGIMENT]", help="The Regiment to arrive automatically; none keeps them waiting.",
        show_default=False)] = None,
    faces: Annotated[Optional[str], typer.Option(
        metavar="FACES", help="Physical dice: the Reinforcement dice's faces, 1 to 6, in Class order.",
        show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Reinforcement Phase: name one automatic arrival (REINF-4), then roll for the rest (REINF-6)."""
    _run(ctx, "conquest.choose_arrival", store, battle, json, regiment, faces)


@app.command("pick-arrivals", rich_help_panel=PLAY)
def pick_arrivals(
    ctx: typer.Context,
    regiments: Annotated[str, typer.Option(metavar="IDS", help="One Regiment per success, e.g. a2,a4.",
                                           show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Choose which waiting Regiments the successful rolls bring (REINF-8)."""
    _run(ctx, "conquest.pick_arrivals", store, battle, json, regiments)


@app.command("order-stack", rich_help_panel=PLAY)
def order_stack(
    ctx: typer.Context,
    cards: Annotated[str, typer.Option(metavar="CARDS", help="Every card of the stack, top first, e.g. a3,ac1,a1.",
                                       show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Command Phase: build the Command Stack, top card first (CMD-1, CMD-2)."""
    _run(ctx, "conquest.order_stack", store, battle, json, cards)


@app.command("roll-off", rich_help_panel=PLAY)
def roll_off(
    ctx: typer.Context,
    faces: Annotated[Optional[str], typer.Option(
        metavar="A,B", help="Physical dice: both players' faces, 1 to 6.", show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Supremacy Phase: roll off (SUP-1, SUP-2, SUP-4)."""
    _run(ctx, "conquest.roll_off", store, battle, json, faces)


@app.command("choose-first-player", rich_help_panel=PLAY)
def choose_first_player(
    ctx: typer.Context,
    first: Annotated[bool, typer.Option("--first/--no-first", help="Be the First Player, or let the opponent.")],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """The lower roll-off score chooses who is the First Player (SUP-3)."""
    _run(ctx, "conquest.choose_first_player", store, battle, json, first)


@app.command("declare-ability", rich_help_panel=PLAY)
def declare_ability(
    ctx: typer.Context,
    use: Annotated[bool, typer.Option("--use/--no-use", help="Use the Warlord's Activated ability, or not.")],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Declare whether the Warlord's Activated Supremacy Ability is used (SUP-9, SUP-11)."""
    _run(ctx, "conquest.declare_ability", store, battle, json, use)


@app.command("draw-card", rich_help_panel=PLAY)
def draw_card(
    ctx: typer.Context,
    regiment: Annotated[Optional[str], typer.Argument(
        metavar="[REGIMENT]", help="The Regiment the card activates, when several match (ACT-3).",
        show_default=False)] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Action Phase: draw the top Command Card and activate its Regiment (ACT-2 to ACT-6)."""
    _run(ctx, "conquest.draw_card", store, battle, json, regiment)


@app.command("resolve-draw-event", rich_help_panel=PLAY)
def resolve_draw_event(
    ctx: typer.Context,
    event: Annotated[Optional[str], typer.Option(
        metavar="EVENT", help="The draw event to resolve; none declines it (ACT-8).", show_default=False)] = None,
    target: Annotated[Optional[str], typer.Option(
        metavar="REGIMENT", help="The Regiment an out-of-sequence March moves.", show_default=False)] = None,
    inches: Annotated[int, typer.Option(metavar="N", min=0, max=MAX_INCHES, help="How far it marches.")] = 0,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Resolve one of the drawn card's draw events, or decline (ACT-8, ACT-9)."""
    _run(ctx, "conquest.resolve_draw_event", store, battle, json, event, target, inches)


@app.command(rich_help_panel=PLAY)
def march(
    ctx: typer.Context, regiment: Regiment, inches: Inches,
    side_edge: Annotated[int, typer.Option(
        metavar="N", min=0, max=MAX_INCHES,
        help="Enter from a side edge, the front rank N inches from the own edge (ARRIVE-4).")] = 0,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """March up to the Regiment's March value; a reinforcement enters so (ARRIVE-1 to ARRIVE-3)."""
    _run(ctx, "conquest.march", store, battle, json, regiment, inches, side_edge)


@app.command(rich_help_panel=PLAY)
def charge(
    ctx: typer.Context, regiment: Regiment, target: Target, inches: Inches,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Charge an enemy Regiment; reaching it puts both in contact (ACT-12)."""
    _run(ctx, "conquest.charge", store, battle, json, regiment, target, inches)


@app.command(rich_help_panel=PLAY)
def volley(
    ctx: typer.Context, regiment: Regiment, target: Target, removed: Removed,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Shoot an enemy Regiment within range; record the stands it removed (ACTIONS-1)."""
    _run(ctx, "conquest.strike", store, battle, json, "Volley", regiment, target, removed)


@app.command(rich_help_panel=PLAY)
def clash(
    ctx: typer.Context, regiment: Regiment, target: Target, removed: Removed,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Strike an enemy Regiment in contact; record the stands it removed (ACTIONS-1)."""
    _run(ctx, "conquest.strike", store, battle, json, "Clash", regiment, target, removed)


@app.command(rich_help_panel=PLAY)
def withdraw(ctx: typer.Context, regiment: Regiment, battle: BattleId = None, store: Store = None,
             json: Json = False) -> None:
    """Leave close combat (ACTIONS-1)."""
    _run(ctx, "conquest.regiment_action", store, battle, json, "Withdraw", regiment)


@app.command(rich_help_panel=PLAY)
def reform(ctx: typer.Context, regiment: Regiment, battle: BattleId = None, store: Store = None,
           json: Json = False) -> None:
    """Change ranks and files (ACTIONS-1)."""
    _run(ctx, "conquest.regiment_action", store, battle, json, "Reform", regiment)


@app.command("end-activation", rich_help_panel=PLAY)
def end_activation(ctx: typer.Context, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """Decline the remaining actions: the Regiment deactivates (ACT-13, ACT-16, ACT-17)."""
    _run(ctx, "conquest.end_activation", store, battle, json)


@app.command("end-round", rich_help_panel=PLAY)
def end_round(
    ctx: typer.Context,
    vp: Annotated[str, typer.Option(metavar="A,B", help="Victory points each player scored this Round.")] = "0,0",
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Victory Phase: score this Round, then check for a winner (VICTORY-1 to VICTORY-4)."""
    _run(ctx, "conquest.end_round", store, battle, json, vp)


@app.command(rich_help_panel=PLAY)
def surrender(
    ctx: typer.Context,
    side: Annotated[str, typer.Option(metavar="SIDE", help="The player who surrenders: 0 or a (first), 1 or b.",
                                      show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Surrender: the battle ends at once and the opponent wins (ROUND-3, VICTORY-2)."""
    _run(ctx, "conquest.surrender", store, battle, json, side)
