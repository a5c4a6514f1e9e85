"""A temporary copy of the project with a ruleset planted in it: what
``test_fourth_ruleset`` plays through ``rk``, the API and the page.

The copy holds everything but the repository's history, virtualenv and
tests; the ruleset (a package folder under ``tests/plant``) is dropped in
as ``domain/<name>/`` once the copy's files are hashed, so that a test can
show that nothing else was edited (``untouched``). Every process runs the
copy's code (``PYTHONPATH``) on a home and stores of its own, outside it,
and writes no bytecode there.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LEFT_OUT = {".git", ".venv", "tests", "test-artifacts", ".pytest_cache", "build", "dist"}
NEVER = ("__pycache__", "*.egg-info", "*.sqlite", "*.sqlite-wal", "*.sqlite-shm")
TIMEOUT = 60  # seconds any one process may take


def _ignore(folder: str, names: list[str]) -> set[str]:
    skipped = set(shutil.ignore_patterns(*NEVER)(folder, names))
    if Path(folder) == REPO:
        skipped |= LEFT_OUT & set(names)
    return skipped


def hashes(root: Path) -> dict[str, str]:
    """Every file under ``root`` (bytecode caches aside) by its path, as the
    SHA-256 of its bytes."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@dataclass
class Planted:
    """The copy at ``root`` with the ruleset ``name`` planted as
    ``domain/<name>/``; ``before``: its files' hashes before that."""

    root: Path
    name: str
    before: dict[str, str]
    home: Path

    @property
    def package(self) -> str:
        return f"domain/{self.name}/"

    def env(self, **more: str) -> dict[str, str]:
        """The environment of a process of the copy: its code first on the
        path, a home of its own, no resident `rk serve`, and none of the
        settings of the process running the tests."""
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("RULEKEEPER_", "PYTEST_")) and k != "PYTHONPATH"
        }
        env |= {
            "PYTHONPATH": str(self.root),
            "RULEKEEPER_HOME": str(self.home),
            "RULEKEEPER_NO_SERVER": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "COLUMNS": "200",
            "NO_COLOR": "1",
        }
        return env | more

    def rk(self, *words: str, store: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
        """``rk [--store STORE] WORDS...`` run from the copy (``python -m
        cli.main``, as the console script does); its output as text."""
        argv = [sys.executable, "-m", "cli.main", *(["--store", str(store)] if store else []), *words]
        return subprocess.run(
            argv, env=self.env(), cwd=cwd or self.home, capture_output=True, text=True, timeout=TIMEOUT
        )

    def python(self, *argv: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess:
        """The interpreter on the copy's code."""
        return subprocess.run(
            [sys.executable, *argv],
            env=self.env(**env),
            cwd=cwd or self.home,
            capture_output=True,
            text=True,
            timeout=TIMEOUT * 2,
        )

    def edited(self) -> dict[str, str]:
        """Each file outside the planted package that was added, removed or
        changed since the copy was made, with what became of it."""
        after = {path: digest for path, digest in hashes(self.root).items() if not path.startswith(self.package)}
        out = {path: "removed" for path in self.before.keys() - after.keys()}
        out |= {path: "added" for path in after.keys() - self.before.keys()}
        out |= {path: "changed" for path in self.before.keys() & after.keys() if self.before[path] != after[path]}
        return out


def plant(package: Path, into: Path) -> Planted:
    """Copy the project into ``into``/project, hash it, then drop
    ``package`` in as ``domain/<its name>/``."""
    root = into / "project"
    shutil.copytree(REPO, root, ignore=_ignore)
    before = hashes(root)
    target = root / "domain" / package.name
    assert not target.exists(), f"the project already has a package {target.name}"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns(*NEVER))
    home = into / "home"
    home.mkdir()
    return Planted(root=root, name=package.name, before=before, home=home)


@dataclass
class Server:
    """A running `rk server`: its address, the host's token, what it printed."""

    base: str
    host: str
    out: list[str] = field(default_factory=list)


@contextmanager
def serving(planted: Planted, store: Path) -> Iterator[Server]:
    """`rk server --port 0` of the copy on ``store``, until the block ends;
    its links read from what it prints."""
    argv = [sys.executable, "-m", "cli.main", "--store", str(store), "server", "--port", "0"]
    errors = (planted.home / f"{store.stem}-server.err").open("w")
    proc = subprocess.Popen(argv, env=planted.env(), cwd=planted.home, stdout=subprocess.PIPE, stderr=errors, text=True)
    lines: list[str] = []
    ready = threading.Event()

    def drain() -> None:  # keeps the pipe empty for the server's whole life
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Stop it with"):
                ready.set()
        ready.set()  # ended before it was ready: said below

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        ready.wait(timeout=TIMEOUT)
        text = "\n".join(lines)
        started = re.search(r"rulekeeper server on (\S+)", text)
        host = re.search(r"host .*#token=(\S+)", text)
        if proc.poll() is not None or started is None or host is None:
            errors.flush()
            raise AssertionError(f"rk server did not start: {lines} {Path(errors.name).read_text()}")
        yield Server(base=started.group(1), host=host.group(1), out=lines)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        reader.join(timeout=5)
        errors.close()
