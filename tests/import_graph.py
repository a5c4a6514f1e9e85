"""What the import-graph tests share: the first circle in a graph of
modules, as a path that ends where it began."""

from __future__ import annotations


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
