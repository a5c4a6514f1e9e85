"""A document written straight (``cli.straight``) is byte for byte what
rich writes for it: generated documents (prose, lines in tones, hex maps,
tables of every option) at widths 10 to 200, plain, in colour and under
NO_COLOR, wide and zero-width characters among their words; real statuses
and verbs of the three rulesets through ``Output`` both ways; the styles'
codes, the narrow characters and the console's settings against rich's."""

from __future__ import annotations

import fcntl
import io
import itertools
import os
import pty
import struct
import subprocess
import termios
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style

from four_games import GAMES, made_games
from four_games import ran as _ran

from cli import ansi, direct, screen, straight
from cli.cells import NARROW
from cli.document import renderables
from cli.hexmap import TILE_COLOURS
from cli.main import main
from cli.output import Escaped, Output
from cli.tones import STYLES
from domain.kernel.surface.document import TONES, Column, HexCell, HexMap, Lines, Table

# --- the pieces ---------------------------------------------------------------------------------

KNOWN = sorted({*STYLES.values(), *TILE_COLOURS, "bold", "dim"} - {""})


@pytest.mark.parametrize("colour", [True, False])
def test_styles_render_as_rich_renders_them(colour):
    for n in (1, 2, 3):
        for names in itertools.permutations(KNOWN, n):
            ours = ansi.NONE
            for name in names:
                ours = ansi.add(ours, ansi.parse(name))
            theirs = Style.combine(Style.parse(name) for name in names)
            if not colour:
                theirs = theirs.without_color
            for system in (ColorSystem.STANDARD, ColorSystem.EIGHT_BIT, ColorSystem.TRUECOLOR):
                assert ansi.paint("x", ours, colour) == theirs.render("x", color_system=system), names


def test_the_narrow_characters_take_one_cell_each():
    for low, high in NARROW:
        for code in range(ord(low), ord(high) + 1):
            assert get_character_cell_size(chr(code)) == 1 and chr(code).isprintable(), hex(code)


ENVIRONMENTS = [
    dict(zip(("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "COLUMNS", "TERM"), values))
    for values in itertools.product(
        (None, "", "1"), (None, "", "1"), (None, "0", "1"), (None, "77", "x"), (None, "xterm-256color", "dumb")
    )
]


class _Stdout(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty", [False, True])
def test_the_screen_is_what_rich_makes_of_stdout(tty, monkeypatch):
    for values in ENVIRONMENTS:
        env = {k: v for k, v in values.items() if v is not None}
        monkeypatch.setattr(sys, "stdout", _Stdout(tty))
        width = None if tty else 100
        seen = screen.screen(width, env)
        if seen is None:
            continue
        console = Console(width=width, _environ=env)
        assert seen.width == console.width, env
        if console.color_system is None:
            assert seen.colour is None, env
        else:
            assert seen.colour is (not console.no_color), env


# --- generated documents ------------------------------------------------------------------------

CLEAN = ["rk", "move", "b2", "--battle", "c1", "(MOVE-1):", "HP", "4/4", "·", "—", "→", "Ria's", "e1..", "`rk legal`"]
CLEAN += ["Ten", "light", "#1", "Combat", "é", "x" * 30, "", " "]
# What rich measures, joins or escapes: wide and zero-width characters, a tab, an escape code.
ODD = CLEAN + ["渡し", "e\u0301", "a\tb", "\x1b[31m", "\u00a0", "\u200b"]
TONE = st.sampled_from(TONES + ("tile", "cache", "nothing"))


def documents(pool: list[str]) -> st.SearchStrategy:
    """Lists of blocks (prose, lines, tables, hex maps) of words from ``pool``."""
    word = st.sampled_from(pool)
    text = st.lists(word, max_size=14).map(" ".join) | st.lists(word, max_size=6).map("  ".join)
    pieces = st.lists(st.tuples(text, TONE), max_size=5).map(tuple)
    words = text | pieces
    lines = st.builds(Lines, st.lists(words, min_size=1, max_size=4).map(tuple), st.booleans(), st.integers(0, 6))
    cell = st.lists(word, max_size=4).map(" ".join) | pieces | st.lists(text, min_size=2, max_size=4).map("\n".join)

    @st.composite
    def tables(draw):
        count = draw(st.integers(1, 5))
        columns = tuple(
            Column(
                draw(st.lists(word, max_size=2).map(" ".join) | pieces),
                draw(st.sampled_from(["left", "center", "right"])),
                draw(st.booleans()),
                draw(st.sampled_from([0, 0, 3, 12])),
                draw(TONE),
            )
            for _ in range(count)
        )
        rows = draw(st.lists(st.lists(cell, min_size=count, max_size=count).map(tuple), max_size=5))
        return Table(
            columns,
            tuple(rows),
            edge=draw(st.booleans()),
            row_tones=tuple(draw(st.lists(TONE, max_size=len(rows)))),
            heading=draw(st.booleans()),
            dense=draw(st.booleans()),
        )

    hex_maps = st.builds(
        HexMap,
        st.lists(
            st.builds(
                HexCell,
                st.tuples(st.integers(0, 9), st.integers(0, 6)),
                st.sampled_from(["E", "Ri", "e1", "a", "#", "$$", *pool[-3:]]),
                TONE,
                st.sampled_from([None, "a", "b", "#"]),
            ),
            max_size=14,
        ).map(tuple),
        words,
        st.sampled_from([(), ("a",), ("a", "b")]),
    )
    return st.lists(text | lines | tables() | hex_maps, min_size=1, max_size=4)


MODES = st.sampled_from([None, True, False])  # plain, in colour, NO_COLOR


def _rich(blocks: list, width: int, colour: bool | None) -> str:
    """What rich writes for ``blocks``, as ``Output`` printed them before."""
    file = io.StringIO()
    console = Console(
        file=file,
        width=width,
        color_system=None if colour is None else "truecolor",
        force_terminal=colour is not None,
        no_color=colour is False,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
    )
    out = Output(json=False)
    out._console = console  # type: ignore[assignment]
    strings = [b for b in blocks if isinstance(b, str)]
    if len(strings) == len(blocks):
        for thing in blocks:
            console.print(Escaped(out_phrases(thing)))
    else:
        for thing in renderables(blocks):
            console.print(Escaped(out_phrases(thing) if isinstance(thing, str) else thing))
    return file.getvalue()


def out_phrases(thing):
    from cli.phrases import Phrases

    return Phrases(thing) if isinstance(thing, str) else thing


def _compared(blocks: list, width: int, colour: bool | None) -> bool:
    """Whether ``blocks`` were written straight; if so, as rich writes them."""
    try:
        written = straight.render(straight.document(blocks, width), colour)
    except straight.Cannot:
        return False  # rich draws it
    assert written == _rich(blocks, width, colour)
    return True


@settings(max_examples=500, deadline=None)
@given(documents(CLEAN), st.integers(10, 200), MODES)
def test_a_document_written_straight_is_what_rich_writes(blocks, width, colour):
    _compared(blocks, width, colour)


@settings(max_examples=200, deadline=None)
@given(documents(ODD), st.integers(10, 200), MODES)
def test_a_document_of_odd_characters_is_left_to_rich_or_written_as_it_writes(blocks, width, colour):
    _compared(blocks, width, colour)


def test_what_fits_is_written_straight():
    block = Table((Column("id"), Column("HP", "right"), Column("name", tone="strong")), (("e1", "2/2", "Ash Imp"),))
    assert straight.document([block, Lines(("Round 1 · Ria's turn",)), "rk move b2"], 80)
    for wide in ("渡し", "e\u0301", "\x1b[31m"):  # rich measures, joins or escapes these
        with pytest.raises(straight.Cannot):
            straight.document([Lines((wide,))], 80)


# --- real statuses and verbs, through ``Output`` both ways ------------------------------------


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """A store with a game of each ruleset, a move made in the clash."""
    return made_games(tmp_path_factory.mktemp("straight"), columns=100)


COLOURS = [{}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": "1", "NO_COLOR": "1"}]


def _both(store: Path, argv: list[str], fresh: Path | None = None) -> tuple[tuple, tuple, bool]:
    """``argv`` run in-process written straight where it can, then with
    rich alone (each on its own copy of the store when ``fresh``); and
    whether everything was written straight the first time."""
    got = []
    answers: list[bool] = []
    written = Output._straight
    for straight_too in (True, False):
        with pytest.MonkeyPatch.context() as mp:
            if fresh is not None:
                shutil.copyfile(store, fresh)
            mp.setenv("RULEKEEPER_STORE", str(fresh or store))
            if straight_too:
                mp.setattr(
                    Output, "_straight", lambda self, blocks: answers.append(written(self, blocks)) or answers[-1]
                )
            else:
                mp.setattr(Output, "_straight", lambda self, blocks: False)
            got.append(_ran(direct.main, argv))
    return got[0], got[1], bool(answers) and all(answers)


def _screen(mp: pytest.MonkeyPatch, home: Path, width: int, colours: dict[str, str]) -> None:
    """A terminal ``width`` columns wide with the colour settings ``colours``."""
    mp.delenv("FORCE_COLOR", raising=False)
    mp.delenv("NO_COLOR", raising=False)
    mp.setenv("RULEKEEPER_HOME", str(home))
    mp.setenv("COLUMNS", str(width))
    for k, v in colours.items():
        mp.setenv(k, v)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_status_written_straight_is_what_rich_writes(games, game, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_HOME", str(games / "home"))
    for width, colours in itertools.product([40, 60, 80, 100, 120, 200], COLOURS):
        with monkeypatch.context() as mp:
            _screen(mp, games / "home", width, colours)
            here, through_rich, straight_only = _both(games / "rk.sqlite", ["status", "-b", game])
            assert here[0] == 0 and here == through_rich, (game, width, colours)
            assert straight_only or width < 80, (game, width, colours)  # every status fits 80 columns


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_verb_written_straight_is_what_rich_writes(games, game, monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKEEPER_STORE", str(games / "rk.sqlite"))
    monkeypatch.setenv("RULEKEEPER_HOME", str(games / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    listed = _ran(main, ["legal", "-b", game])[1].splitlines()
    typed = [line.split()[1:] for line in listed if line.startswith("rk ") and line == line.lower()]
    assert typed, listed
    for words, width, colours in itertools.product(typed[:2], [60, 100], COLOURS):
        with monkeypatch.context() as mp:
            _screen(mp, games / "home", width, colours)
            here, through_rich, _ = _both(games / "rk.sqlite", [*words, "-b", game], fresh=tmp_path / "rk.sqlite")
            assert here == through_rich, (words, width, colours)


class _Closed(io.StringIO):
    """A pipe whose reader has left, on a file descriptor of its own."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("blocks", [["a line of prose"], [Lines(("a view's line",))]])
def test_a_reader_that_left_ends_the_command_as_rich_does(blocks, monkeypatch, tmp_path):
    exits = []
    for straight_too in (True, False):
        fd = os.open(tmp_path / f"out{straight_too}", os.O_WRONLY | os.O_CREAT)
        monkeypatch.setattr(sys, "stdout", _Closed(fd))
        out = Output(json=False)
        if not straight_too:
            monkeypatch.setattr(out, "_straight", lambda blocks: False)
        with pytest.raises(SystemExit) as ended:
            out.document(blocks) if not isinstance(blocks[0], str) else out.print(*blocks)
        exits.append(ended.value.code)
        os.write(fd, b"after")  # the descriptor now writes to the null device
        os.close(fd)
        assert (tmp_path / f"out{straight_too}").read_bytes() == b""
    assert exits == [1, 1]


ROOT = Path(__file__).resolve().parents[2]


def _on_a_terminal(env: dict[str, str], argv: list[str], width: int, straight_too: bool) -> bytes:
    """What ``rk ARGV`` writes as a process whose stdout is a terminal
    ``width`` columns wide (its size measured, no COLUMNS), written
    straight where it can or (``straight_too`` False) by rich alone."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, width, 0, 0))
    code = (
        "import sys\nfrom cli.output import Output\n"
        + ("" if straight_too else "Output._straight = lambda self, blocks: False\n")
        + "sys.argv = ['rk', *sys.argv[1:]]\nfrom cli.client import run\nrun()"
    )
    done = subprocess.Popen(
        [sys.executable, "-c", code, *argv], stdin=subprocess.DEVNULL, stdout=slave, env=env, cwd=ROOT
    )
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal's other end closed
            break
        if not chunk:
            break
        out += chunk
    assert done.wait(timeout=60) == 0
    os.close(master)
    return out


@pytest.mark.parametrize("game", ["c1", "q1"])
def test_a_status_on_a_terminal_is_what_rich_writes_there(games, game):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    env |= {"RULEKEEPER_STORE": str(games / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home")}
    env |= {"RULEKEEPER_NO_SERVER": "1", "TERM": "xterm-256color"}
    for width, no_color in itertools.product((50, 90, 200), (False, True)):
        shown = {**env, "NO_COLOR": "1"} if no_color else env
        here = _on_a_terminal(shown, ["status", "-b", game], width, True)
        assert here == _on_a_terminal(shown, ["status", "-b", game], width, False), (game, width, no_color)
        assert b"\x1b[1m" in here  # in colour (bold stays under NO_COLOR)
