"""Every path the command line writes to (#21 point 13): `rk export -o`,
`rk keygen -o` and its .pub, an SQLite `--store` a command writes, the
home's server secret. One that cannot be written is refused in one line
with the reason, never a traceback, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.columns(100)  # the width these tests read output at

NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "7"]


def one_line(code: int, err: str, *says: str) -> None:
    assert code == 1, err
    assert "Traceback" not in err and err.strip().count("\n") == 0, err
    for said in says:
        assert said in err, err


@pytest.fixture
def clash(rk, store) -> Path:
    """The store holds one clash (seed 7)."""
    rk(*NEW_CLASH)
    return store


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize(
    "where, says",
    [
        ("{tmp}/nonexistent/dir/x.jsonl", "there is no folder"),
        ("{tmp}", "it is a folder"),
        ("{tmp}/rk.sqlite/x.jsonl", "is not a folder"),
    ],
)
def test_an_export_to_a_path_that_cannot_be_written_is_one_line(rk, clash, store, tmp_path, where, says):
    before = listing(tmp_path)
    target = where.format(tmp=tmp_path)
    code, out, err = rk("--store", f"sqlite:{store}", "export", "-o", target, code=None)
    one_line(code, err, "cannot write the log to", target, says)
    assert listing(tmp_path) == before


def test_the_issues_export_to_a_folder_that_does_not_exist(rk, clash, store):
    code, _, err = rk("--store", f"sqlite:{store}", "export", "-o", "/nonexistent/dir/x.jsonl", code=None)
    one_line(code, err, "/nonexistent/dir")


@pytest.mark.parametrize(
    "where, says",
    [
        ("{tmp}/nonexistent/k", "there is no folder"),
        ("{tmp}", "it is a folder"),
        ("{tmp}/taken", "taken.pub exists"),
        ("{tmp}/rk.sqlite/k", "is not a folder"),
    ],
)
def test_a_key_to_a_path_that_cannot_be_written_is_one_line(rk, clash, store, tmp_path, where, says):
    (tmp_path / "taken.pub").write_text("someone's\n")
    before = listing(tmp_path)
    code, _, err = rk("keygen", "-o", where.format(tmp=tmp_path), code=None)
    one_line(code, err, says)
    assert listing(tmp_path) == before and (tmp_path / "taken.pub").read_text() == "someone's\n"


@pytest.mark.parametrize(
    "where, says",
    [
        ("sqlite:{tmp}/nonexistent/dir/s.sqlite", "there is no folder"),
        ("sqlite:{tmp}", "it is a folder"),
        ("{tmp}/rk.sqlite/s.db", "is not a folder"),
    ],
)
def test_a_store_that_cannot_be_written_is_one_line(rk, clash, store, tmp_path, where, says):
    before = listing(tmp_path)
    code, _, err = rk("--store", where.format(tmp=tmp_path), *NEW_CLASH, code=None)
    one_line(code, err, "cannot use", says)
    assert listing(tmp_path) == before


def test_a_home_that_cannot_keep_the_server_secret_is_one_line(rk, clash, store, tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "a-file" / "home"))
    monkeypatch.delenv("RULEKEEPER_SERVER_SECRET", raising=False)
    code, _, err = rk("--store", f"sqlite:{store}", "links", code=None)
    one_line(code, err, "the server's secret")
