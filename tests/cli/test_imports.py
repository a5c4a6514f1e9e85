"""How the command line's modules depend on one another: one way, with no
circle (``cli.main`` at the top imports the app, the sessions and every
module of commands; none of them imports it back), and the `rk` client,
which forwards a command line to `rk serve`, light enough to start in a few
milliseconds."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from import_graph import first_circle

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "cli"


def imported(path: Path) -> set[str]:
    """The ``cli`` modules ``path`` imports, at its top or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x, from .x import y
                names |= {f"cli.{a.name}" for a in node.names} if not base else {f"cli.{base}"}
            elif base == "cli":
                names |= {f"cli.{a.name}" for a in node.names}
            elif base.startswith("cli."):
                names.add(base)
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.startswith("cli.")}
    return {name for name in names if (CLI / f"{name[4:]}.py").exists()}


def test_the_cli_modules_import_one_another_without_a_circle():
    graph = {f"cli.{p.stem}": imported(p) for p in CLI.glob("*.py")}
    circle = first_circle(graph)
    assert circle is None, "an import circle: " + " -> ".join(circle or [])
    # only the client's fallback imports it, through cli.direct (the lines typer must read)
    assert "cli.main" not in set().union(*(graph[m] for m in graph if m not in ("cli.client", "cli.direct")))


def test_the_client_imports_only_the_standard_library_basics():
    """Without site-packages on the path: it must not need them, nor load
    ``pathlib`` or ``urllib`` (a few milliseconds each at start-up)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import cli.client; "
        "print(' '.join(m for m in ('pathlib', 'urllib.parse', 'typer', 'rich', 'msgspec', 'cli.main')"
        " if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, str(ROOT)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
