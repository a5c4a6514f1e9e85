"""A real `rk server` process for the tests that stop and start one: started
on a home of its own, read until it says where it listens, stopped with
SIGTERM (as Ctrl-C would)."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

START = 60  # seconds a process may take to say where it listens (the machine is shared)
SETUP = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"]


def rk_script() -> str:
    """The `rk` of the interpreter running the tests (the venv's)."""
    beside = Path(sys.executable).parent / "rk"
    return str(beside) if beside.exists() else (shutil.which("rk") or "rk")


def environment(home: Path) -> dict[str, str]:
    """This environment, with ``home`` as the home and no store or secret from outside."""
    env = {k: v for k, v in os.environ.items() if k not in ("RULEKEEPER_STORE", "RULEKEEPER_SERVER_SECRET")}
    env["RULEKEEPER_HOME"] = str(home)
    return env


def new_clash(home: Path) -> Path:
    """A store in ``home`` holding one clash (Ria and Tarn); its path."""
    store = home / "t.sqlite"
    subprocess.run(
        [rk_script(), "--store", str(store), *SETUP],
        env=environment(home),
        check=True,
        timeout=60,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return store


@dataclass
class Running:
    """A running `rk server`: its address, what it printed, its stderr file."""

    base: str
    proc: subprocess.Popen
    errors: Path
    lines: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def link(self, who: str) -> str:
        """The link it printed for seat ``who`` (or ``spectators``)."""
        for line in self.lines:
            found = re.fullmatch(rf"\s+{who}\s+(http\S+)", line)
            if found:
                return found.group(1)
        raise KeyError(who)

    def stop(self) -> None:
        stop(self.proc)


def start(
    home: Path, store: Path, *args: str, name: str = "server", limit: Callable[[], None] | None = None
) -> Running:
    """`rk server ARGS` on ``store``; returns once it has printed its links.
    ``limit`` runs in the child before `rk` starts (resource limits)."""
    errors = home / f"{name}.err"
    with errors.open("ab") as err:
        proc = subprocess.Popen(
            [rk_script(), "--store", str(store), "server", *args],
            env=environment(home),
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            preexec_fn=limit,
        )
    said: queue.Queue[str | None] = queue.Queue()

    def drain() -> None:  # keeps the pipe empty for the process's whole life
        assert proc.stdout is not None
        for line in proc.stdout:
            said.put(line.rstrip("\n"))
        said.put(None)  # the process ended

    threading.Thread(target=drain, daemon=True).start()
    lines: list[str] = []
    try:
        while not lines or not lines[-1].startswith("Stop it with"):
            line = said.get(timeout=START)
            if line is None:
                raise RuntimeError(f"rk server ended: {lines} {errors.read_text()}")
            lines.append(line)
    except BaseException:
        stop(proc)
        raise
    base = next(
        re.match(r"rulekeeper server on (\S+)", line).group(1)
        for line in lines
        if line.startswith("rulekeeper server on")
    )
    return Running(base, proc, errors, lines)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then a kill if it does not end."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
