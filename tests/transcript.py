"""Transcripts: ```console blocks of a Markdown file, replayed.

A transcript is what a user would see at a shell::

    $ rk move b2
      MOVE-1: Ysolda moves a1 → a2 → b2
    $ rk engage --form ranged --target e1 --dice 1      # exit 2
    FORM-6: the Ranged form cannot target an adjacent unit

A line starting ``$ `` is a command (a trailing backslash continues it on
the next line); the lines under it are an excerpt of what it prints, in
order, with any lines between them left out. A shown line ending in ``…``
matches any printed line that starts with it. Runs of spaces count as one.
``# exit N`` after a command says the exit status it must have (0 when not
said). A command ending in ``&`` runs in the background, as a shell runs it.

All the commands of a file run in order in one bash process, so the shell's
jobs (``kill %1``) work as they do for a user.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MARK = "@@rk-transcript@@"
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")


@dataclass
class Step:
    """One command of a transcript and what it is shown to print."""

    line: int  # where the command starts in the file, counted from 1
    command: str
    expected: list[str] = field(default_factory=list)
    status: int = 0

    @property
    def background(self) -> bool:
        return self.command.rstrip().endswith("&")


def steps_of(markdown: str) -> list[Step]:
    """Every command of every ```console block, in order."""
    steps: list[Step] = []
    inside = False
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        text = lines[i]
        if text.strip().startswith("```"):
            inside = not inside and text.strip() == "```console"
            i += 1
            continue
        if inside and text.startswith("$ "):
            start = i + 1
            command = text[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            found = EXIT.search(command)
            steps.append(Step(start, command, status=int(found.group(1)) if found else 0))
        elif inside and steps and text.strip():
            steps[-1].expected.append(text)
        i += 1
    return steps


def script_of(steps: list[Step]) -> str:
    """One bash script running the steps, each output between markers."""
    out = ["set +e"]
    for n, step in enumerate(steps):
        if step.background:
            out.append(f"{step.command.rstrip()[:-1]} >/dev/null 2>&1 &")
            continue
        out.append(f"printf '\\n{MARK} {n}\\n'")
        out.append(f"{{ {step.command}\n}} 2>&1")
        out.append(f"printf '\\n{MARK} {n} exit %d\\n' $?")
    out.append("kill $(jobs -p) 2>/dev/null; wait")
    return "\n".join(out) + "\n"


def run(steps: list[Step], cwd: Path, env: dict[str, str], timeout: float = 600) -> dict[int, tuple[str, int]]:
    """Run the steps; each foreground step's printed text and exit status."""
    done = subprocess.run(
        ["bash", "-c", script_of(steps)], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    results: dict[int, tuple[str, int]] = {}
    chunks = done.stdout.split(f"\n{MARK} ")
    for chunk in chunks[1:]:
        head, _, rest = chunk.partition("\n")
        if " exit " in head:
            number, _, status = head.partition(" exit ")
            text, _ = results.get(int(number), ("", 0))
            results[int(number)] = (text, int(status))
        else:
            results[int(head)] = (rest.removesuffix("\n"), -1)
    return results


def _plain(text: str) -> str:
    return " ".join(text.split())


def missing(expected: list[str], printed: str) -> str | None:
    """The first shown line not printed (in order), or None if all were."""
    lines = [_plain(t) for t in printed.splitlines()]
    at = 0
    for want in expected:
        wanted = _plain(want)
        prefix = wanted.endswith("…")
        wanted = wanted.rstrip("…").rstrip()
        while at < len(lines) and not (lines[at].startswith(wanted) if prefix else lines[at] == wanted):
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None
