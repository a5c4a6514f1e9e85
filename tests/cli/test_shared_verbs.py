"""A verb several packages declare (`rk move`: Betrayal's and the
labyrinth's) run in process (``cli.direct``) finds its game first and
loads only that game's package's surface (``cli.verbs.give_to_game``):
each line prints and exits as when every declaring package's verbs were
loaded first (``cli.verbs.give``), on a game of each ruleset, and the
other package is never imported."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from four_games import made_games, ran

from cli import declarations, direct
from cli.declarations import _shared, shared_verb
from cli.main import main
from domain.kernel import surface
from domain.kernel.stores import pack_cache

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    return made_games(tmp_path_factory.mktemp("games"), columns=80)


def _every_word() -> set[str]:
    words = {"no-such-word", "status"}
    for s in surface.surfaces():
        words |= {v.words[0] for v in s.verbs} | {q.name.split()[0] for q in s.queries} | {s.noun}
    return words


def test_only_move_is_a_plain_verb_of_several_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path))
    monkeypatch.delenv(pack_cache.NO_CACHE_VARIABLE, raising=False)
    for cached in (False, True):  # the cache written, then read back
        found = {word: shared_verb(word) for word in sorted(_every_word())}
        assert {word for word, shared in found.items() if shared} == {"move"}, cached
        assert found == {word: _shared(word) for word in found}, cached
    packages, options, selectors = found["move"] or ([], [], [])
    assert packages == ["betrayal", "labyrinth"] and selectors == [["--battle", "-b"]]
    declared = {n for _, v in declarations.verbs_named("move") for p in v.params for n in (p.option, p.short) if n}
    assert options == sorted(declared)


def _lines(games: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """`rk move` lines on each game: its legal moves (the labyrinth's, Betrayal's), a
    hex or a word that is none, options misplaced or unknown, the game named each
    way or not at all (the current game), a game that does not declare it."""
    monkeypatch.setenv("RULEKEEPER_STORE", str(games / "rk.sqlite"))
    lines: list[list[str]] = []
    for game in ("c1", "d1", "l1"):
        listed = ran(main, ["legal", "-b", game])[1].splitlines()
        moves = [line.split()[1:] for line in listed if line.startswith("rk move ")]
        assert moves, (game, listed)
        for words in moves[:3]:
            lines += [[*words, "-b", game], [*words, f"--battle={game}", "--json"]]
        lines += [["move", "zz9", "-b", game], ["move", "-b", game], [*moves[0], "-b", game, "--frob"]]
    lines += [
        ["move", "a3", "-b", "q1"],  # Conquest declares no move
        ["move", "a3", "-b", "nowhere"],
        ["move", "a3"],  # the current game (the last one made)
        ["move", "a3", "--store", "memory", "-b", "c1"],
        ["move", "a3", "-b"],
    ]
    return lines


def test_a_move_prints_as_when_every_declaring_surface_is_loaded(games, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_HOME", str(games / "home"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    runs = iter(range(10**6))

    def run(argv: list[str], shared: bool) -> tuple[object, str, str]:
        copy = tmp_path / f"rk{next(runs)}.sqlite"
        shutil.copyfile(games / "rk.sqlite", copy)
        monkeypatch.setenv("RULEKEEPER_STORE", str(copy))
        with monkeypatch.context() as m:
            if not shared:  # the path of a word one package declares: every declaring surface first
                m.setattr(declarations, "shared_verb", lambda word: None)
            return ran(direct.main, argv)

    lines = _lines(games, monkeypatch)
    assert len(lines) > 20
    taken = 0
    for argv in lines:
        here, full = run(argv, shared=True), run(argv, shared=False)
        assert here == full, argv
        taken += here[0] == 0
    assert taken >= 12  # the legal moves were made


def _imported(env: dict[str, str], *argv: str) -> set[str]:
    code = (
        "import runpy, sys; sys.argv = ['rk', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('cli.client', run_name='__main__')\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(done.stderr.splitlines()[-1].split())


def test_a_move_imports_only_its_games_package(games, tmp_path, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    env |= {"RULEKEEPER_HOME": str(tmp_path / "home"), "COLUMNS": "100", "RULEKEEPER_NO_SERVER": "1"}
    monkeypatch.setenv("RULEKEEPER_STORE", str(games / "rk.sqlite"))
    for game, other in (("c1", "domain.labyrinth"), ("l1", "domain.betrayal")):
        listed = ran(main, ["legal", "-b", game])[1].splitlines()
        words = next(line.split()[1:] for line in listed if line.startswith("rk move "))
        for cache in ("cold", "warm"):
            shutil.copyfile(games / "rk.sqlite", tmp_path / "rk.sqlite")
            imported = _imported({**env, "RULEKEEPER_STORE": str(tmp_path / "rk.sqlite")}, *words, "-b", game)
            assert "cli.verbs" in imported
            if cache == "cold":  # the first run after a change to the code loads both to fill the cache
                continue
            assert not {m for m in imported if m.startswith(other)}, game
