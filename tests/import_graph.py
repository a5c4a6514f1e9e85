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
                return path[path.index(needed) :] + [needed]
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
    return {
        p.stem: package_imports(p, package, dotted) - {p.stem} for p in package.glob("*.py") if p.stem != "__init__"
    }


def tree_graph(package: Path, dotted: str) -> dict[str, set[str]]:
    """Each module of ``package`` and of its sub-packages, named by its
    dotted path under ``package`` (``battle.actions``; a sub-package's
    ``__init__`` by the sub-package's own, ``battle``), and the modules of
    the tree that it imports, at its top or inside a function, absolutely
    or relatively (``from .. import events`` names the module ``events``)."""
    modules: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            modules[".".join(parts)] = path

    def known(name: str) -> str | None:
        return name if name in modules else None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                    if node.level - 1 > len(here):
                        continue  # above the package
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                elif node.module == dotted:
                    base = ""
                elif (node.module or "").startswith(dotted + "."):
                    base = node.module[len(dotted) + 1 :]
                else:
                    continue
                for a in node.names:
                    target = known(f"{base}.{a.name}" if base else a.name) or known(base)
                    if target:
                        found.add(target)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith(dotted + "."):
                        target = known(a.name[len(dotted) + 1 :])
                        if target:
                            found.add(target)
        graph[name] = found - {name}
    return graph
