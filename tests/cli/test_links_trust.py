"""`rk links` and the server's address file (#21 point 6): in a shared
home, a ``server.json`` someone else wrote, or anyone may write, must not
send the host's token to another machine. It is trusted as the socket of
`rk serve` is: this user's file, written by no one else."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from cli.main import main
from cli.session import Defaults

EVIL = "http://evil.example:8700"
NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "7"]


def run(store: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--store", f"sqlite:{store}", *args], obj=Defaults())
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("RULEKEEPER_HOME", str(home))
    monkeypatch.setenv("COLUMNS", "200")
    return home


def plant(home: Path, mode: int = 0o644, owner: int | None = None) -> Path:
    path = home / "server.json"
    path.write_text(json.dumps({"base": EVIL, "pid": os.getpid()}))  # a process that runs: this one
    os.chmod(path, mode)
    if owner is not None:
        os.chown(path, owner, -1)
    return path


def links(tmp_path: Path) -> tuple[str, str]:
    store = tmp_path / "rk.sqlite"
    assert run(store, *NEW_CLASH)[0] == 0
    code, out, err = run(store, "links")
    assert code == 0, err
    return out, err


def test_a_server_json_only_this_user_writes_is_trusted(home, tmp_path):
    plant(home, 0o600)
    out, _ = links(tmp_path)
    assert f"{EVIL}/#token=" in out  # ours: it says where our server runs


@pytest.mark.parametrize("mode", [0o666, 0o664, 0o646])
def test_a_server_json_others_may_write_is_not_trusted(home, tmp_path, mode):
    plant(home, mode)
    out, err = links(tmp_path)
    assert "evil.example" not in out and "http://127.0.0.1:8700/#token=" in out
    assert "not trusted" in err and "Traceback" not in err


@pytest.mark.skipif(os.geteuid() != 0, reason="making a file another user's takes root")
def test_a_server_json_another_user_wrote_is_not_trusted(home, tmp_path):
    plant(home, 0o644, owner=65534)
    out, err = links(tmp_path)
    assert "evil.example" not in out and "not trusted" in err


def test_a_server_json_that_is_a_link_is_not_followed(home, tmp_path):
    elsewhere = tmp_path / "theirs.json"
    elsewhere.write_text(json.dumps({"base": EVIL, "pid": os.getpid()}))
    (home / "server.json").symlink_to(elsewhere)
    out, _ = links(tmp_path)
    assert "evil.example" not in out
