"""Links that outlive a restart (#21 point 7): `rk server` listens again on
the port it used last on this home, `rk links` prints those links while it
is stopped, a taken port gives way to a free one in one line, and a port
asked for explicitly is that port or an error."""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import subprocess

import pytest

from rk_server import environment, new_clash, rk_script, start
from server.port_memory import DEFAULT_PORT, PORT_FILE, Remembered, listen, remember, remembered, wanted_port


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("RULEKEEPER_HOME", str(home))
    return home


def test_a_server_started_with_port_0_stopped_and_started_again_listens_on_the_same_port(home):
    store = new_clash(home)
    first = start(home, store, "--port", "0", name="first")
    first.stop()
    # Stopped: `rk links` prints the links the restarted server will answer.
    links = subprocess.run(
        [rk_script(), "--store", str(store), "links", "--seat", "Ria"],
        env=environment(home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert links.stdout.strip() == first.link("Ria"), links.stderr
    again = start(home, store, "--port", "0", name="again")
    try:
        assert again.base == first.base
        assert again.link("Ria") == first.link("Ria")
    finally:
        again.stop()
    # Without --port too, the port used last is kept (not 8700).
    third = start(home, store, name="third")
    try:
        assert third.port == first.port
    finally:
        third.stop()
    assert "Traceback" not in (home / "again.err").read_text() + (home / "third.err").read_text()


def test_a_remembered_port_someone_else_took_gives_way_to_a_free_one_said_in_one_line(home):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        remember(port, f"http://127.0.0.1:{port}")
        store = new_clash(home)
        running = start(home, store, "--port", "0", name="moved")
        running.stop()
    assert running.port != port
    said = (home / "moved.err").read_text().splitlines()
    assert said == [
        f"rk server: port {port}: address already in use; listening on {running.port} instead "
        f"(links handed out for port {port} do not reach this server)"
    ]
    assert remembered() == Remembered(running.port, running.base)  # the next restart keeps the new one


def test_a_port_asked_for_that_is_taken_is_refused(home):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            listen("127.0.0.1", port, None)
        with pytest.raises(OSError):  # even when it is the one remembered
            listen("127.0.0.1", port, Remembered(port, "x"))


@pytest.mark.parametrize(
    "asked, memory, first",
    [
        (None, None, DEFAULT_PORT),
        (None, Remembered(41001, "b"), 41001),
        (0, None, 0),
        (0, Remembered(41001, "b"), 41001),
        (41002, Remembered(41001, "b"), 41002),
    ],
)
def test_the_port_tried_first(asked, memory, first):
    assert wanted_port(asked, memory) == first


def test_the_port_listened_on_is_remembered_only_from_a_file_no_one_else_may_write(home):
    remember(41003, "http://127.0.0.1:41003")
    assert remembered() == Remembered(41003, "http://127.0.0.1:41003")
    assert os.stat(home / PORT_FILE).st_mode & 0o777 == 0o600
    os.chmod(home / PORT_FILE, 0o666)
    warned: list[str] = []
    assert remembered(warn=warned.append) is None
    assert "not trusted" in warned[0]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"port": "80", "base": "b"}',
        '{"port": 0, "base": "b"}',
        '{"port": 70000, "base": "b"}',
        '{"port": 8000}',
    ],
)
def test_a_port_file_that_makes_no_sense_is_passed_over(home, text):
    path = home / PORT_FILE
    path.write_text(text)
    os.chmod(path, 0o600)
    assert remembered() is None


def test_rk_links_names_the_remembered_address_when_no_server_runs(home, tmp_path):
    from cli.main import main
    from cli.session import Defaults

    store = f"sqlite:{tmp_path / 'rk.sqlite'}"
    remember(41004, "http://tables.example:41004")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert (
            main(
                [
                    "--store",
                    store,
                    "new",
                    "clash",
                    "--setup",
                    "waystone-crossing",
                    "--party",
                    "Ria:nord",
                    "--seed",
                    "7",
                ],
                obj=Defaults(),
            )
            == 0
        )
        out.truncate(0)
        assert main(["--store", store, "links", "--json"], obj=Defaults()) == 0
    assert json.loads(out.getvalue().strip("\x00"))["base"] == "http://tables.example:41004"
