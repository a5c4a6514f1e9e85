"""`rk battles` writes its table and note as rich prints them, byte for
byte, without rich laying out each line again; and, its read model up to
date, reads an SQLite store without making the library's application (it
does once the log has events the read model has not read)."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cli import direct
from cli.battle_list import BATTLE_COLUMNS
from cli.output import Output
from cli.tables import _Lines, table_lines

NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord"]


def _output(width: int, colour: bool, no_color: bool = False) -> Output:
    """An ``Output`` whose console writes to a string, in colour or not
    (``no_color``: a terminal's styles without their colours, as NO_COLOR asks)."""
    out = Output(json=False)
    out._console = Console(  # type: ignore[assignment]
        file=io.StringIO(),
        width=width,
        color_system="truecolor" if colour else None,
        force_terminal=colour,
        no_color=no_color,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
    )
    return out


def _written(out: Output) -> str:
    return out.console.file.getvalue()  # type: ignore[attr-defined]


cell = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["", "b1", "waystone-crossing", "an adventurer's turn", "Ysolda", "渡し", " lead", "trail ", "a\tb", "\x1b[31m"]
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.lists(cell, min_size=len(BATTLE_COLUMNS), max_size=len(BATTLE_COLUMNS)), min_size=1, max_size=6),
    st.sampled_from([40, 60, 100, 160]),
    st.booleans(),
)
def test_laid_out_lines_print_as_rich_prints_the_table(cells, width, colour):
    lines = table_lines(BATTLE_COLUMNS, cells, width)
    if lines is None:  # rich lays this one out: nothing written straight
        return
    straight, through_rich, table = _output(width, colour), _output(width, colour), _output(width, colour)
    straight.lines(lines)
    through_rich.print(_Lines(lines))
    rich_table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify in BATTLE_COLUMNS:
        rich_table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in cells:
        rich_table.add_row(*(Text(c) for c in row))
    table.print(rich_table)
    assert _written(straight) == _written(through_rich) == _written(table)


def test_styles_of_laid_out_lines_print_as_rich_prints_them():
    lines = [("plain", ""), ("bold", "bold"), ("dim", "dim"), ("red on a line", "bold red"), ("", "dim")]
    for colour, no_color in ((False, False), (True, False), (True, True)):
        straight, through_rich = _output(40, colour, no_color), _output(40, colour, no_color)
        straight.lines(lines)
        through_rich.print(_Lines(lines))
        assert _written(straight) == _written(through_rich), (colour, no_color)


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("width", [30, 44, 45, 80])
def test_a_note_that_fits_prints_as_rich_prints_its_text(width, colour):
    note = "* current (`rk use NAME` picks another)"  # 40 cells
    for text in (note, note + "; x deleted (`rk restore NAME`)", ""):
        if len(text) > width:
            continue
        straight, through_rich = _output(width, colour), _output(width, colour)
        straight.lines([(text, "dim")])
        through_rich.print(Text(text, style="dim"))
        assert _written(straight) == _written(through_rich), (text, width)


def test_a_listing_with_its_read_model_up_to_date_makes_no_application(rk, monkeypatch):
    from domain.kernel.games import GameApp

    made: list[object] = []
    real_init = GameApp.__init__

    def counted(self, *args, **kwargs):
        made.append(self)
        real_init(self, *args, **kwargs)

    def listing() -> tuple[str, int]:
        """`rk battles` as the console script runs it: its output and the applications it made."""
        made.clear()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert direct.main(["battles"]) == 0
        return out.getvalue(), len(made)

    rk(*NEW_CLASH, "--name", "first")
    monkeypatch.setattr(GameApp, "__init__", counted)
    first, _ = listing()  # the read model catches up with the log
    again, apps = listing()
    assert again == first and "first" in again and apps == 0
    rk(*NEW_CLASH, "--name", "second")  # events the read model has not read: the application reads them
    listed, apps = listing()
    assert "second" in listed and apps == 1
