"""The `rk ability` verb of Betrayal's class abilities (CLASS-1 to CLASS-5,
CLOTHING-2), registered on the app of ``cli.main``; spelled as ``rk legal``
lists it. The rules are imported only when the verb runs."""

from typing import Annotated, Optional

import typer

from .app import ACT, BattleId, Json, Store, _run, app


@app.command("ability", rich_help_panel=ACT)
def ability(
    ctx: typer.Context,
    ability_id: Annotated[str, typer.Argument(
        metavar="ABILITY", help="The class ability's id (its class sheet, Master side or a ready Clothing).",
        show_default=False)],
    hero: Annotated[Optional[str], typer.Argument(
        metavar="HERO", help="Who uses it (default: the adventurer whose turn it is).", show_default=False)] = None,
    target: Annotated[Optional[str], typer.Option(
        metavar="UNIT", help="An enemy (damage, status) or an adjacent adventurer (heal, bonus HP, recover;"
                             " default: yourself).", show_default=False)] = None,
    hex: Annotated[Optional[str], typer.Option(
        "--hex", metavar="HEX", help="A move: where it goes, e.g. c4.", show_default=False)] = None,
    dice: Annotated[Optional[str], typer.Option(
        metavar="POSITIONS", help="A reroll: roll positions (from 1) of the dice to reroll.",
        show_default=False)] = None,
    faces: Annotated[Optional[str], typer.Option(
        metavar="FACES", help="Physical dice only: the faces the rerolled dice show, 1 to 6.",
        show_default=False)] = None,
    change_form: Annotated[bool, typer.Option(
        "--change-form", help="Gain 1 Light fatigue to take the battle form the ability needs (CLASS-5).")] = False,
    slot: Annotated[Optional[int], typer.Option(
        metavar="N", min=1, max=4, show_default=False,
        help="An ability that removes an active die: its slot, 1 to 4 (default: the highest block die).")] = None,
    battle: BattleId = None, store: Store = None, json: Json = False,
) -> None:
    """Use a class ability on your turn, spending its tenacity (CLASS-1, CLASS-2).

    An Interrupt is armed and fires on its trigger (CLASS-4); Innate and
    Enduring abilities act by themselves, but for a move or a reroll.
    """
    _run(ctx, "class_verbs.use", store, battle, json, ability_id=ability_id, hero=hero, target=target,
         hex_text=hex, dice=dice, faces=faces, change_form=change_form, slot=slot)


def use(s, *, ability_id: str, hero: str | None, target: str | None, hex_text: str | None, dice: str | None,
        faces: str | None, change_form: bool, slot: int | None = None) -> None:
    """A class ability, with the options its effect takes."""
    from domain.betrayal.commands import UseClassAbility

    from . import parse
    from .game import act

    act(s, UseClassAbility(
        ability=ability_id.strip(), hero=hero or None, target=(target or "").strip(),
        hex=None if hex_text is None else parse.hex_label(hex_text),
        dice=parse.positions(dice, "--dice"), faces=parse.faces(faces, "--faces"), change_form=change_form,
        slot=None if slot is None else slot - 1,
    ))
