"""`rk serve` and the thin `rk` client: a served command prints and exits
exactly as the same command run in-process, and whenever the server cannot
or should not answer, the client runs the command itself.

The server runs as a subprocess on an SQLite file in the test's directory,
with its socket in a RULEKEEPER_HOME of the test's own. The client runs as a
process too, and reports which modules it imported, which tells a served
command (the client imported no ``cli.main``) from one run in-process."""

from __future__ import annotations

import json
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from served import NEW, Server, ask, both, rk_client, sock_of

from cli import protocol

# --- served like in-process -------------------------------------------------------------


# One server for each list of commands below: starting one costs far more
# than the commands, and each command is checked on its own line.


def test_a_served_command_prints_and_exits_as_in_process(server, env):
    for args in (
        ["status"],
        ["legal"],
        ["status", "--json"],
        ["log"],
        ["--help"],
        ["move", "--help"],
        ["--version"],
        ["rule", "MOVE-1"],
    ):
        served, local = both(env, *args)
        assert served.code == 0 and served.stdout, args
        assert served.same_as(local), args


def test_piped_output_without_columns_is_as_wide_as_in_process(server, env):
    # cli.output gives piped output 100 columns, typer's help and errors rich's 80.
    for args in (["status"], ["--help"], ["move"]):
        served, local = both({k: v for k, v in env.items() if k != "COLUMNS"}, *args)
        assert served.same_as(local), args


def test_a_rule_violation_is_exit_2_with_its_rule_id(server, env):
    served, local = both(env, "engage", "--form", "ranged", "--target", "e1", "--dice", "1")
    assert served.code == 2 and re.match(r"[A-Z]+-\d+\w*: \S", served.stderr)
    assert served.same_as(local)


def test_a_malformed_hex_is_exit_1(server, env):
    served, local = both(env, "move", "zz")
    assert served.code == 1 and "hex label" in served.stderr
    assert served.same_as(local)


def test_a_usage_error_is_exit_1(server, env):
    served, local = both(env, "engage")
    assert served.code == 1 and "--form is missing" in served.stderr
    assert served.same_as(local)


def test_a_served_move_advances_the_battle_for_everyone(server, env):
    before = json.loads(rk_client(env, "status", "--json", local=True).stdout)["version"]
    hex = next(line.split()[2] for line in rk_client(env, "legal").stdout.splitlines() if line.startswith("rk move "))
    moved = rk_client(env, "move", hex)
    assert moved.served and moved.code == 0, moved.stderr
    after = json.loads(rk_client(env, "status", "--json", local=True).stdout)
    assert after["version"] > before and after["state"]["turn"]["moves"] == 1
    assert rk_client(env, "status", "--json").stdout == rk_client(env, "status", "--json", local=True).stdout

    # ...and what another process appends is seen by the server's open application.
    assert rk_client(env, "undo", local=True).code == 0
    served, local = both(env, "status", "--json")
    assert served.same_as(local) and json.loads(served.stdout)["state"]["turn"]["moves"] == 0


def test_colour_and_width_follow_the_client(server, env):
    plain = ask(env, ["status"])["stdout"]
    assert "\x1b[" not in plain
    assert "\x1b[" in ask(env, ["status"], tty=True)["stdout"]
    assert ask(env, ["--help"], width=60)["stdout"] != ask(env, ["--help"])["stdout"]


# --- what the client and server keep apart ------------------------------------------------


def test_a_different_store_is_declined_and_runs_in_process(server, env, tmp_path):
    assert "decline" in ask(env, ["battles"], store=str(tmp_path / "other.sqlite"))
    other = rk_client(env, "--store", "other.sqlite", *NEW)
    assert not other.served and other.code == 0
    served, local = (rk_client(env, "battles", "--store", "other.sqlite", local=local) for local in (False, True))
    assert not served.served and served.same_as(local)


def test_the_same_store_named_relatively_is_served(server, env, tmp_path):
    served = rk_client(env, "--store", "rk.sqlite", "status")
    assert served.served and served.same_as(rk_client(env, "status", local=True))
    assert rk_client(env, "--store", "sqlite:../rk.sqlite", "status", cwd=tmp_path / "h").served


def test_sessions_are_not_served(server, env):
    for args in (["play"], ["demo"], ["serve", "--help"], ["--install-completion"], ["--show-completion"]):
        assert "decline" in ask(env, args), args


def test_relative_paths_are_the_clients(server, env, tmp_path):
    here = tmp_path / "sub"
    here.mkdir()
    done = rk_client(env, "export", "-o", "x.jsonl", cwd=here)
    assert done.served and done.code == 0, done.stderr
    assert (here / "x.jsonl").stat().st_size > 0 and not (tmp_path / "x.jsonl").exists()
    assert rk_client(env, "verify", "x.jsonl", cwd=here).code == 0


def test_help_via_the_server_imports_nothing_of_the_app_in_the_client(server, env):
    done = rk_client(env, "--help")
    assert done.code == 0 and "Usage" in done.stdout
    assert done.modules == set()  # no cli.main, eventsourcing, typer or rich


# --- the server's life ----------------------------------------------------------------------


def test_a_refused_export_is_one_line_served_as_in_process(server, env, tmp_path):
    served, local = both(env, "export", "-o", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert served.code == local.code == 1
    assert served.stderr == local.stderr and served.stderr.count("\n") == 1, served.stderr
    assert "there is no folder" in served.stderr and "Traceback" not in served.stderr
    again = rk_client(env, "status")
    assert again.served and again.code == 0


def test_the_server_survives_a_command_that_raises(tmp_path, capfd):
    """A bug in a command (an export that raised did, before #21 point 13
    made it a refusal): the client gets the traceback, the server's log
    says which command failed, and the next command is served."""
    from cli import serve as serving

    def buggy(argv, obj=None):
        if argv[-1] == "raise":
            raise RuntimeError("a bug in the command")
        print("fine")
        return 0

    store = f"sqlite:{tmp_path / 's.sqlite'}"
    server = serving.Server(store, str(tmp_path / "rk.sock"), buggy)
    ask = {"cwd": str(tmp_path), "store": store, "tty": False, "width": 80}
    try:
        failed = server.answer({**ask, "argv": ["status", "raise"]})
        assert failed["exit"] == 1 and "RuntimeError: a bug in the command" in failed["stderr"], failed
        assert "failed" in capfd.readouterr().err
        again = server.answer({**ask, "argv": ["status"]})
        assert again == {"stdout": "fine\n", "stderr": "", "exit": 0}, again
    finally:
        server.close()


def test_the_socket_is_private_and_a_second_server_is_refused(server, env, tmp_path):
    assert stat.S_IMODE(server.path.stat().st_mode) == 0o600
    second = subprocess.run(
        [sys.executable, "-m", "cli.main", "serve"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert second.returncode == 1 and "already listening" in second.stderr
    assert rk_client(env, "status").served


def test_sigterm_stops_the_server_and_removes_the_socket(server, env):
    assert server.stop() == 0
    assert not server.path.exists()
    done = rk_client(env, "status")
    assert not done.served and done.code == 0


def test_a_stale_socket_falls_back_then_is_replaced(env, tmp_path, request):
    path = sock_of(env)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(path))  # bound, never listening: as if a server had been killed
    assert path.exists()
    done = rk_client(env, "status")
    assert not done.served and done.same_as(rk_client(env, "status", local=True))

    running = Server(env, tmp_path)
    request.addfinalizer(running.stop)
    assert rk_client(env, "status").served


# --- stopping, whenever the signal comes ------------------------------------------------------


# A server whose store is opening when SIGTERM comes (sent by the process to itself, so
# that it arrives at that moment and no other), run as a process of its own.
SIGNALLED_WHILE_OPENING = """
import os, signal
from cli import main, serve
opening = serve.Server.open
def open_signalled(self):
    os.kill(os.getpid(), signal.SIGTERM)
    opening(self)
serve.Server.open = open_signalled
raise SystemExit(serve.serve("memory", main.main))
"""


def test_a_stop_signal_while_the_store_opens_stops_the_server_cleanly(env, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SIGNALLED_WHILE_OPENING],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr  # not killed by the signal (-15), nor a traceback (1)
    assert "listening" not in done.stdout  # no one was told to connect
    assert not sock_of(env).exists()


def test_a_stop_signal_that_reaches_another_thread_stops_the_server(tmp_path, monkeypatch):
    """A signal is delivered to any thread of the process (a command runs in
    one of its own); the server must see it whichever thread has it."""
    from cli import serve
    from cli.main import main

    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "h"))
    path = Path(protocol.socket_path())
    stopped, nudged = threading.Event(), []

    def signal_this_thread() -> None:
        while not path.exists():  # the socket file appears once the server listens
            time.sleep(0.01)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        if not stopped.wait(60):  # a server blind to it waits for ever: wake it, so that the test ends
            nudged.append(True)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as knock:
                knock.connect(str(path))

    signaller = threading.Thread(target=signal_this_thread, daemon=True)
    signaller.start()
    try:
        assert serve.serve("memory", main) == 0
    finally:
        stopped.set()
        signaller.join()
    assert not nudged and not path.exists()


def test_of_two_servers_started_at_once_one_serves_and_the_other_is_refused(env, tmp_path):
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        lines = [proc.stdout.readline() for proc in started]  # "" from the one that exits
        assert sorted("listening" in line for line in lines) == [False, True], lines
        refused = started[lines.index("")]
        assert refused.wait(timeout=60) == 1 and "already listening" in refused.stderr.read()
        assert rk_client(env, "status").served
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=60) in (0, 1)
            proc.stdout.close()
            proc.stderr.close()
