"""What the import-graph tests share: a package's graph of modules, read
from their imports (``package_graph``), and the first circle in such a
graph, as a path that ends where it began (``first_circle``)."""

from __future__ import annotations

import ast
from pathlib import Path


def first_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of ``graph`` (module -> the modules it imports), or None."""
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = "open"
        for needed in sorted(graph.get(module, ())):
            if state.get(needed) == "open":
                return path[path.index(needed):] + [needed]
            if needed not in state:
                found = visit(needed, path + [needed])
                if found:
                    return found
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return None


def package_imports(path: Path, package: Path, dotted: str) -> set[str]:
    """The modules of ``package`` (whose dotted name is ``dotted``, e.g.
    ``domain.labyrinth``) that ``path`` imports, at its top or inside a
    function."""
    names: set[str] = set()
    depth = dotted.count(".") + 1
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level == 1:  # from . import x, from .x import y
                names |= {a.name for a in node.names} if not base else {base.split(".")[0]}
            elif base == dotted:
                names |= {a.name for a in node.names}
            elif base.startswith(dotted + "."):
                names.add(base.split(".")[depth])
        elif isinstance(node, ast.Import):
            names |= {a.name.split(".")[depth] for a in node.names if a.name.startswith(dotted + ".")}
    return {n for n in names if (package / f"{n}.py").exists()}


def package_graph(package: Path, dotted: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of it that it imports."""
    return {p.stem: package_imports(p, package, dotted) - {p.stem} for p in package.glob("*.py") if p.stem != "__init__"}
