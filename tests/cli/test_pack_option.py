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

from domain.conquest.packs import starter_files as conquest_files
from domain.labyrinth.packs import starter_files as labyrinth_files

pytestmark = pytest.mark.columns(100)  # the width these tests read output at

CONQUEST = [
    "new",
    "conquest",
    "--scenario",
    "border-clash",
    "--army",
    "saltmarch",
    "--army",
    "cinderpact",
    "--seed",
    "7",
]
CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "3"]
LABYRINTH = [
    "new",
    "labyrinth",
    "--encounter",
    "mossy-hollow",
    "--party",
    "vanguard",
    "--party",
    "mender",
    "--seed",
    "7",
]


@pytest.fixture
def home(store) -> Path:
    """The test's home (RULEKEEPER_HOME, beside the shared store)."""
    return store.parent / "home"


def _pack(folder: Path, files: dict[str, bytes], old: bytes, new: bytes) -> Path:
    """A pack folder: ``files`` with ``old`` replaced by ``new`` in pack.toml."""
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data.replace(old, new) if name == "pack.toml" else data)
    return folder


def _recorded(rk, battle: str) -> str:
    return json.loads(rk("export", "-b", battle).stdout.splitlines()[0])["pack_hash"]


def betrayal_files() -> dict[str, bytes]:
    content = Path(__file__).resolve().parents[2] / "domain" / "betrayal" / "content"
    return {p.name: p.read_bytes() for p in content.glob("*.toml")}


@pytest.mark.parametrize(
    "ruleset, new, files",
    [
        ("conquest", CONQUEST, conquest_files),
        ("labyrinth", LABYRINTH, labyrinth_files),
        ("betrayal", CLASH, betrayal_files),
    ],
    ids=["conquest", "labyrinth", "betrayal"],
)
def test_a_game_set_up_with_a_pack_folder_records_its_hash_and_plays_replays_and_verifies_with_it(
    rk, home, tmp_path, ruleset, new, files
):
    from domain.kernel.ruleset import load

    starter = files()
    own = _pack(tmp_path / "own", starter, b'name = "', b"name = \"Our table's ")
    ours = load(ruleset).load_pack({p.name: p.read_bytes() for p in own.iterdir()})
    assert ours.hash != load(ruleset).pack().hash
    rk(*new, "--pack", str(own), "--name", "g")
    assert _recorded(rk, "g") == ours.hash
    shutil.rmtree(own)  # the folder given may go: the game's copy stays
    rk("status", "-b", "g")
    first = rk("legal", "-b", "g").stdout.splitlines()[0]
    rk(*first.removeprefix("rk ").split(), "-b", "g")
    rk("undo", "--force", "-b", "g")
    rk("redo", "-b", "g")
    assert rk("verify", "-b", "g").stdout.startswith("ok:")


def test_a_pack_named_from_the_home_folder_is_used(rk, home):
    _pack(home / "packs" / "house", conquest_files(), b'version = "', b'version = "house-')
    rk(*CONQUEST, "--pack", "house", "--name", "g")
    assert _recorded(rk, "g") != _recorded_of_starter(rk)
    assert "house" in rk(*CONQUEST, "--pack", "nosuch", "--name", "h", code=None).stderr  # the packs there are named


def _recorded_of_starter(rk) -> str:
    rk(*CONQUEST, "--name", "plain")
    return _recorded(rk, "plain")


def test_an_invalid_pack_is_refused_with_its_file_and_line_and_nothing_is_written(rk, home, tmp_path):
    bad = _pack(tmp_path / "bad", conquest_files(), b'version = "1"', b"version = 1")
    result = rk(*CONQUEST, "--pack", str(bad), "--name", "g", code=None)
    assert result.code != 0
    assert "pack.toml: line" in result.stderr and "version" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "g" not in rk("battles", "--json").stdout


def test_a_game_whose_pack_is_not_here_says_so_in_one_line_naming_the_hash(rk, home, tmp_path):
    own = _pack(tmp_path / "own", conquest_files(), b'name = "', b'name = "Gone ')
    rk(*CONQUEST, "--pack", str(own), "--name", "g")
    recorded = _recorded(rk, "g")
    shutil.rmtree(home / "packs" / ".kept")
    for command in (("status", "-b", "g"), ("verify", "-b", "g")):
        result = rk(*command, code=None)
        assert result.code != 0 and recorded in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_log_of_a_game_with_its_own_pack_imports_into_another_store_where_the_pack_is(
    rk, home, tmp_path, monkeypatch
):
    own = _pack(tmp_path / "own", conquest_files(), b'name = "', b'name = "Travelling ')
    rk(*CONQUEST, "--pack", str(own), "--name", "g")
    rk("choose-arrival", "-b", "g")
    log = tmp_path / "g.log"
    log.write_text(rk("export", "-b", "g").stdout)
    monkeypatch.setenv("RULEKEEPER_STORE", str(tmp_path / "other.sqlite"))
    rk("import", str(log))
    assert rk("verify", "-b", "g").stdout.startswith("ok:")
