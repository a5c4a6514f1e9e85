"""`rk serve` and the thin `rk` client in tests: ``rk_client`` runs the
client as a process of its own (reporting what it imported, which tells a
served command from one run in-process), ``Server`` runs `rk serve`; the
``env`` and ``server`` fixtures (tests/cli/conftest.py) use them."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from cli import client, protocol

PARTY = ["--party", "Ysolda:nord", "--party", "Tarn:dark-elf:bow+destruction-staff:ranged"]
NEW = ["new", "clash", "--setup", "waystone-crossing", *PARTY, "--xp", "2", "--seed", "7"]
WATCHED = ("cli.main", "cli.direct", "eventsourcing", "typer", "rich")
# The console script, plus a report of what the client process imported.
CLIENT = (
    "import atexit, os, sys\n"
    f"atexit.register(lambda: open(os.environ['RK_TEST_REPORT'], 'w').write("
    f"' '.join(m for m in {WATCHED!r} if m in sys.modules)))\n"
    "from cli.client import run\n"
    "run()\n"
)


class ClientRan:
    """One client process: its output, status and imports."""

    def __init__(self, done: subprocess.CompletedProcess, modules: set[str]) -> None:
        self.stdout, self.stderr, self.code = done.stdout, done.stderr, done.returncode
        self.modules = modules

    @property
    def served(self) -> bool:
        # run in-process: through typer (cli.main) or, for the plainest lines, without it (cli.direct)
        return not {"cli.main", "cli.direct"} & self.modules

    def same_as(self, other: ClientRan) -> bool:
        return (self.stdout, self.stderr, self.code) == (other.stdout, other.stderr, other.code)


def rk_client(
    env: dict[str, str], *args: str, local: bool = False, cwd: Path | None = None, timeout: float = 120
) -> ClientRan:
    """Run the `rk` client; ``local`` sets RULEKEEPER_NO_SERVER."""
    run_env = env | ({client.NO_SERVER: "1"} if local else {})
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, *args],
        env=run_env,
        cwd=cwd or home_of(env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    report = Path(env["RK_TEST_REPORT"])
    modules = set(report.read_text().split())
    report.unlink()
    return ClientRan(done, modules)


def sock_of(env: dict[str, str]) -> Path:
    """Where the server's socket is for this test's home."""
    return Path(env["RULEKEEPER_HOME"]) / f"rk-{os.getuid()}" / protocol.SOCKET_NAME


def home_of(env: dict[str, str]) -> Path:
    """The test's directory (the store and report are in it)."""
    return Path(env["RK_TEST_REPORT"]).parent


def both(env: dict[str, str], *args: str) -> tuple[ClientRan, ClientRan]:
    """The command via the server, then in-process."""
    served, local = rk_client(env, *args), rk_client(env, *args, local=True)
    assert served.served and not local.served
    return served, local


class Server:
    """A running `rk serve` subprocess."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.path = sock_of(env)
        self.log = cwd / "serve.log"
        with open(self.log, "w") as errors:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "serve"],
                env=env,
                cwd=cwd,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
            )
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        self.line = self.proc.stdout.readline() if ready else ""
        if "listening" not in self.line:
            self.stop()
            raise AssertionError(f"rk serve did not start: {self.line!r} {self.log.read_text()}")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        return self.proc.returncode


def ask(env: dict[str, str], argv: list[str], **fields) -> dict:
    """One request straight to the server, as the client would send it."""
    request = {
        "argv": argv,
        "cwd": str(home_of(env)),
        "store": env["RULEKEEPER_STORE"],
        "tty": False,
        "width": 100,
    } | fields
    reply = client.exchange(request, str(sock_of(env)))
    assert reply is not None
    return reply
