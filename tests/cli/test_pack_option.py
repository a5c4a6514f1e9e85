"""`rk new <setup> --pack DIR|NAME`: a content pack of one's own for every
ruleset, checked as the starter pack is (a refusal names the file and the
line, and nothing is written), its hash recorded in the game's setup, and
the pack found again by that hash for every later command, undo and
verify (a copy is kept under $RULEKEEPER_HOME/packs/.kept/); a game whose
pack is not here says so in one line, naming the hash."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from domain.conquest.packs import starter_files as conquest_files
from domain.labyrinth.packs import starter_files as labyrinth_files

CONQUEST = ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact",
            "--seed", "7"]
CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "3"]
LABYRINTH = ["new", "labyrinth", "--encounter", "mossy-hollow", "--party", "vanguard", "--party", "mender",
             "--seed", "7"]


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RULEKEEPER_STORE", str(tmp_path / "rk.sqlite"))
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path / "home"


def rk(*args: str):
    return CliRunner().invoke(app, list(args))


def ok(*args: str) -> str:
    result = rk(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def _pack(folder: Path, files: dict[str, bytes], old: bytes, new: bytes) -> Path:
    """A pack folder: ``files`` with ``old`` replaced by ``new`` in pack.toml."""
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data.replace(old, new) if name == "pack.toml" else data)
    return folder


def _recorded(battle: str) -> str:
    return json.loads(ok("export", "-b", battle).splitlines()[0])["pack_hash"]


def betrayal_files() -> dict[str, bytes]:
    content = Path(__file__).resolve().parents[2] / "domain" / "betrayal" / "content"
    return {p.name: p.read_bytes() for p in content.glob("*.toml")}


@pytest.mark.parametrize("ruleset, new, files", [("conquest", CONQUEST, conquest_files),
                                                 ("labyrinth", LABYRINTH, labyrinth_files),
                                                 ("betrayal", CLASH, betrayal_files)],
                         ids=["conquest", "labyrinth", "betrayal"])
def test_a_game_set_up_with_a_pack_folder_records_its_hash_and_plays_replays_and_verifies_with_it(
        home, tmp_path, ruleset, new, files):
    from domain.kernel.ruleset import load

    starter = files()
    own = _pack(tmp_path / "own", starter, b'name = "', b'name = "Our table\'s ')
    ours = load(ruleset).load_pack({p.name: p.read_bytes() for p in own.iterdir()})
    assert ours.hash != load(ruleset).pack().hash
    ok(*new, "--pack", str(own), "--name", "g")
    assert _recorded("g") == ours.hash
    shutil.rmtree(own)  # the folder given may go: the game's copy stays
    ok("status", "-b", "g")
    first = ok("legal", "-b", "g").splitlines()[0]
    ok(*first.removeprefix("rk ").split(), "-b", "g")
    ok("undo", "--force", "-b", "g")
    ok("redo", "-b", "g")
    assert ok("verify", "-b", "g").startswith("ok:")


def test_a_pack_named_from_the_home_folder_is_used(home):
    _pack(home / "packs" / "house", conquest_files(), b'version = "', b'version = "house-')
    ok(*CONQUEST, "--pack", "house", "--name", "g")
    assert _recorded("g") != _recorded_of_starter()
    assert "house" in rk(*CONQUEST, "--pack", "nosuch", "--name", "h").stderr  # the packs there are named


def _recorded_of_starter() -> str:
    ok(*CONQUEST, "--name", "plain")
    return _recorded("plain")


def test_an_invalid_pack_is_refused_with_its_file_and_line_and_nothing_is_written(home, tmp_path):
    bad = _pack(tmp_path / "bad", conquest_files(), b'version = "1"', b"version = 1")
    result = rk(*CONQUEST, "--pack", str(bad), "--name", "g")
    assert result.exit_code != 0
    assert "pack.toml: line" in result.stderr and "version" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "g" not in ok("battles", "--json")


def test_a_game_whose_pack_is_not_here_says_so_in_one_line_naming_the_hash(home, tmp_path):
    own = _pack(tmp_path / "own", conquest_files(), b'name = "', b'name = "Gone ')
    ok(*CONQUEST, "--pack", str(own), "--name", "g")
    recorded = _recorded("g")
    shutil.rmtree(home / "packs" / ".kept")
    for command in (("status", "-b", "g"), ("verify", "-b", "g")):
        result = rk(*command)
        assert result.exit_code != 0 and recorded in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_log_of_a_game_with_its_own_pack_imports_into_another_store_where_the_pack_is(home, tmp_path, monkeypatch):
    own = _pack(tmp_path / "own", conquest_files(), b'name = "', b'name = "Travelling ')
    ok(*CONQUEST, "--pack", str(own), "--name", "g")
    ok("choose-arrival", "-b", "g")
    log = tmp_path / "g.log"
    log.write_text(ok("export", "-b", "g"))
    monkeypatch.setenv("RULEKEEPER_STORE", str(tmp_path / "other.sqlite"))
    ok("import", str(log))
    assert ok("verify", "-b", "g").startswith("ok:")
