"""The `rk` verbs of the labyrinth battle, registered on the app of
``cli.main``, each spelled as ``rk legal`` lists it (the ruleset's
``describe_command``):

- setting up: `rk new labyrinth`, `rk encounters`, `rk labyrinth-classes`
  (`rk classes` lists Betrayal's campaign classes);
- the Standby phase: `rk move PC ROW [PLACE]`, `rk swap`, `rk standby-skill`,
  `rk full-defense`, `rk escape PC [--fp N] [--reroll]`, `rk pass`;
- the Main phase: `rk attack`, `rk skill`, `rk consume`, `rk pass`, and in
  the fastest window `rk hold`; the GM's `rk enemy` under the gm_enemies option;
- a passive action chosen by hand (the ask_passives option): `rk react ID SKILL|none`;
  FP on a Suppression defense roll (the ask_fp option): `rk spend PC N [--reroll]`.

`rk move` is Betrayal's verb too (`rk move HEX`): ``cli.main`` declares it
and hands it to ``move`` here, which dispatches on the battle's ruleset.
`rk use` chooses the current battle and `rk use-item` is Betrayal's, so
an item is used with `rk consume`. The rules are imported only when a verb
runs.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import MAX_SEED, SETUP, BattleId, Json, NewName, Store, _run, app, new_app

PLAY = "Playing a labyrinth battle"
PC = Annotated[str, typer.Argument(metavar="PC", help="The PC, by id (p1, p2...; see `rk status`).",
                                   show_default=False)]
TargetOption = Annotated[Optional[str], typer.Option(
    "--target", metavar="ID", show_default=False,
    help="Whom it is aimed at: a combatant's id (e1, p2...); none for the user or a whole side.")]


# --- setting up ---------------------------------------------------------------------


@new_app.command("labyrinth")
def new_labyrinth(
    ctx: typer.Context,
    encounter: Annotated[str, typer.Option(metavar="ID", help="The encounter (see `rk encounters`).",
                                           show_default=False)],
    party: Annotated[Optional[list[str]], typer.Option(
        metavar="CLASS[:LEVEL[:NAME[:ROW]]]", show_default=False,
        help="A PC, once per party member (p1, p2... in this order), e.g. vanguard:2:Ada:front "
             "(see `rk labyrinth-classes`; default level 1, the class's name and row).")] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="N", min=0, max=MAX_SEED, show_default=False,
        help="The seed every roll derives from, 0 to 2^63-1 (default: a random one).")] = None,
    ambush: Annotated[Optional[str], typer.Option(
        metavar="SIDE", show_default=False,
        help="The side caught by surprise, pcs or enemies: passive actions only in turn 1.")] = None,
    gm_enemies: Annotated[bool, typer.Option(
        "--gm-enemies", help="The GM chooses each Enemy's action (rk enemy) instead of the seeded policy.")] = False,
    ask_fp: Annotated[bool, typer.Option(
        "--ask-fp", help="Ask each PC's player, before each of its Suppression defense rolls, what FP to spend "
                         "on it (rk spend).")] = False,
    passives: Annotated[str, typer.Option(
        metavar="ask|auto|off",
        help="Passive actions against attack rolls: ask each PC's player (rk react; the GM too, for Enemies "
             "under --gm-enemies), auto (the first guard or counter that can be used), or off (none).")] = "ask",
    option: Annotated[Optional[list[str]], typer.Option(
        metavar="NAME=VALUE", show_default=False,
        help="A table option, e.g. default_buff_turns=4 or reapply_raises_depth=false (a wrong name lists "
             "them all).")] = None,
    rare: Annotated[Optional[list[str]], typer.Option(
        metavar="ENEMY", show_default=False,
        help="An Enemy slot (e1, e2...) met as its kind's rare variant, once per rare Enemy.")] = None,
    sheet: Annotated[Optional[list[str]], typer.Option(
        metavar="FILE", show_default=False,
        help="A TOML sheet file of one PC or several: abilities, gear, skills, items (see "
             "examples/labyrinth/sheet-tracker.toml); its PCs join the party after the --party ones.")] = None,
    ally: Annotated[Optional[list[str]], typer.Option(
        metavar="CLASS[:LEVEL[:NAME[:ROW]]]", show_default=False,
        help="An allied NPC (a1, a2...), acting by the seeded policy; it counts toward the party side's "
             "6 and 3 to a row.")] = None,
    ally_sheet: Annotated[Optional[list[str]], typer.Option(
        metavar="FILE", show_default=False,
        help="A sheet file (as --sheet) whose characters join as allied NPCs, after the --ally ones.")] = None,
    battle: NewName = None, store: Store = None, json: Json = False,
) -> None:
    """Set up a labyrinth battle of a party against an encounter and show it.

    Example: rk new labyrinth --encounter mossy-hollow --party vanguard --party mender:2:Iris --seed 7

    With a PC's own sheet and an allied NPC:
    rk new labyrinth --encounter mossy-hollow --sheet sheet.toml --ally vanguard:2:Bram
    """
    _run(ctx, "labyrinth_setup.new_labyrinth", store, battle, json, encounter=encounter, party=party or [],
         seed=seed, ambush=ambush, gm_enemies=gm_enemies, ask_fp=ask_fp, passives=passives,
         options=option or [], rare=rare or [],
         sheets=sheet or [], allies=ally or [], ally_sheets=ally_sheet or [])


@app.command(rich_help_panel=SETUP)
def encounters(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the labyrinth encounters: their Enemies, levels, rows and link groups."""
    _run(ctx, "labyrinth_setup.encounters", store, None, json)


@app.command("labyrinth-classes", rich_help_panel=SETUP)
def labyrinth_classes(ctx: typer.Context, store: Store = None, json: Json = False) -> None:
    """List the labyrinth classes: row, HP and TP, equipment, skills by level."""
    _run(ctx, "labyrinth_setup.classes", store, None, json)


# --- the Standby phase --------------------------------------------------------------


@app.command(rich_help_panel=PLAY)
def swap(ctx: typer.Context, pc: PC, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """Standby: swap the weapons of the Weapon and Other slots (STANDBY-4)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "SwapWeapons", actor=pc)


@app.command("standby-skill", rich_help_panel=PLAY)
def standby_skill(
    ctx: typer.Context, pc: PC,
    skill: Annotated[str, typer.Argument(metavar="SKILL", help="A Standby skill's id.", show_default=False)],
    target: TargetOption = None, battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Standby: use a Standby skill; it resolves in the Main-phase order (STANDBY-5)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "UseStandbySkill", actor=pc, skill=skill,
         target=target)


@app.command("full-defense", rich_help_panel=PLAY)
def full_defense(ctx: typer.Context, pc: PC, battle: BattleId = None, store: Store = None,
                 json: Json = False) -> None:
    """Standby: Full defense, Waiting with damage halved until the turn ends (STANDBY-6)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "FullDefense", actor=pc)


EscapeFpOption = Annotated[int, typer.Option(
    "--fp", metavar="N", min=0, max=9, help="Spend N FP on this PC's [Evasion] check for N extra dice, the best 2 "
                                             "kept; paid only if the escape is tried.")]
EscapeRerollOption = Annotated[bool, typer.Option(
    "--reroll", help="If the escape fails, reroll this PC's check once for FP (a community reading sets the "
                     "cost: 1).")]


@app.command(rich_help_panel=PLAY)
def escape(ctx: typer.Context, pc: PC, fp: EscapeFpOption = 0, reroll: EscapeRerollOption = False,
           battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """Standby: declare Escape; it is tried only if the whole party declares it (STANDBY-8, FUMBLE-2)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "Escape", actor=pc, spend=(fp, reroll))


@app.command("pass", rich_help_panel=PLAY)
def pass_(ctx: typer.Context, pc: PC, battle: BattleId = None, store: Store = None, json: Json = False) -> None:
    """Take no Standby action, or give up the PC's Main action."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "Pass", actor=pc)


# --- the Main phase -----------------------------------------------------------------


@app.command(rich_help_panel=PLAY)
def hold(
    ctx: typer.Context,
    who: Annotated[str, typer.Argument(metavar="ID", help="The PC asked (or, for the GM, the Enemy).",
                                       show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Main, fastest window: take no fastest action now; act in [Speed] order instead (ORDER-3)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "Hold", actor=who)


FpOption = Annotated[int, typer.Option(
    "--fp", metavar="N", min=0, max=9, help="Spend N FP on the first check for N extra dice, the best 2 kept "
                                             "(that roll gives no FP).")]
RerollOption = Annotated[bool, typer.Option(
    "--reroll", help="If the first check fails, reroll it once for FP (a community reading sets the cost: 1).")]


@app.command(rich_help_panel=PLAY)
def attack(
    ctx: typer.Context, pc: PC,
    target: Annotated[str, typer.Argument(metavar="TARGET", help="The Enemy attacked, e.g. e2.", show_default=False)],
    fp: FpOption = 0, reroll: RerollOption = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Main: a Normal attack with the Weapon slot's weapon (MAIN-2)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "Attack", actor=pc, target=target,
         spend=(fp, reroll))


@app.command(rich_help_panel=PLAY)
def skill(
    ctx: typer.Context, pc: PC,
    skill_id: Annotated[str, typer.Argument(metavar="SKILL", help="A Main skill's id.", show_default=False)],
    target: TargetOption = None, fp: FpOption = 0, reroll: RerollOption = False,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Main: use a skill, paying its TP and any FP printed on it (MAIN-4, FUMBLE-2)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "UseSkill", actor=pc, skill=skill_id, target=target,
         spend=(fp, reroll))


@app.command(rich_help_panel=PLAY)
def consume(
    ctx: typer.Context, pc: PC,
    item: Annotated[str, typer.Argument(metavar="ITEM", help="An item the PC carries.", show_default=False)],
    target: TargetOption = None, battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Main: use an item the PC carries; it is used up (MAIN-6)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "UseItem", actor=pc, item=item, target=target)


@app.command(rich_help_panel=PLAY)
def enemy(
    ctx: typer.Context,
    who: Annotated[str, typer.Argument(metavar="ENEMY", help="The acting Enemy, e.g. e1.", show_default=False)],
    action: Annotated[str, typer.Argument(
        metavar="ACTION", help="attack (a Normal attack), pass, or one of its skills' ids.", show_default=False)],
    target: TargetOption = None, battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """GM (--gm-enemies): the acting Enemy's action."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "EnemyAct", actor=who,
         skill="" if action.strip().lower() == "attack" else action, target=target)


@app.command(rich_help_panel=PLAY)
def spend(
    ctx: typer.Context, pc: PC,
    fp: Annotated[int, typer.Argument(metavar="N", min=0, max=9, help="FP for extra dice (the best 2 kept); 0 for none.",
                                      show_default=False)],
    reroll: RerollOption = False, battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Spend FP on the PC's Suppression defense roll now asked (FUMBLE-2; asked with --ask-fp)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "SpendFp", actor=pc, spend=(fp, reroll))


@app.command(rich_help_panel=PLAY)
def react(
    ctx: typer.Context,
    who: Annotated[str, typer.Argument(metavar="ID", help="The one attacked: a PC (or, for the GM, an Enemy).",
                                       show_default=False)],
    passive: Annotated[str, typer.Argument(
        metavar="SKILL", help="The passive skill offered (see `rk legal`), or none.", show_default=False)],
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Answer an attack roll with a passive skill, or none (PASSIVE-1 .. PASSIVE-3; asked with --passives ask)."""
    _run(ctx, "labyrinth_verbs.give", store, battle, json, "React", actor=who,
         skill="" if passive.strip().lower() == "none" else passive)


# --- what the verbs do --------------------------------------------------------------


def give(s, kind: str, spend: tuple[int, bool] = (0, False), **fields: str | None) -> None:
    """Give the labyrinth command ``kind`` with ``fields`` (text as typed,
    trimmed; an absent option is ""); ``spend``: the FP spent on extra dice
    and whether to reroll a failed first check (FUMBLE-2 facts)."""
    from domain.labyrinth import commands

    from .game import act

    extra = {"fp": spend[0], "reroll": spend[1]} if spend != (0, False) else {}
    act(s, getattr(commands, kind)(**{k: (v or "").strip() for k, v in fields.items()}, **extra))


def move(s, first: str, row: str | None, place: int | None, explore: bool) -> None:
    """`rk move`: in a labyrinth battle the Standby move of PC ``first`` to
    ``row`` at horizontal ``place`` (STANDBY-2, STANDBY-3); in any other,
    the ``move`` its ruleset declares (Betrayal's to hex ``first``)."""
    from domain.kernel.errors import MalformedCommand, RulekeeperError

    try:
        labyrinth = s.ruleset.name == "labyrinth"
    except RulekeeperError:  # no battle to ask: Betrayal's move says what is wrong
        labyrinth = False
    if not labyrinth:
        if row is not None or place is not None:
            raise MalformedCommand("`rk move PC ROW [PLACE]` is for a labyrinth battle; here: rk move HEX")
        from .declared import verbs_named
        from .verbs import give

        # the other rulesets declare their own `move` (rk move HEX [--explore])
        give(s, "move", verbs_named("move"), [first, *(["--explore"] if explore else [])])
        return
    from domain.labyrinth.commands import Move
    from domain.labyrinth.vocab import Row

    from .game import act, choice

    if explore:
        raise MalformedCommand("--explore is for a Betrayal delve; a labyrinth move is rk move PC ROW [PLACE]")
    if row is None:
        raise MalformedCommand("rk move PC ROW [PLACE]: name the row, front or back")
    act(s, Move(actor=first.strip(), row=choice(Row, row, "ROW"), order=place or 0))
