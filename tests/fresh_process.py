"""What the import-budget tests share: a snippet run in a fresh interpreter
(nothing imported yet), from the project's root, and what it gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_python(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter; its stderr shown if it fails."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def answer_of(code: str) -> object:
    """What ``code`` (which sets ``answer``, any JSON value) gives, run in a fresh process."""
    return json.loads(run_python(f"{code}\nimport json; print(json.dumps(answer))").stdout)
