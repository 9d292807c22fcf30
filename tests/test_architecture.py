"""The package's shape, measured (issue 29): modules that only look down, rooms a reader can know.

Two bars hold for every module under ``src/pendragon``:

- **No run-time import cycle.** An edge is every ``import``/``from … import`` a module executes,
  at import time or inside a function, except those under ``if TYPE_CHECKING:`` (they never run).
  ``from package import name`` is an edge to the package and, where ``name`` is a submodule, to
  that submodule too. The parent packages Python initialises on the way are not counted: a
  package's ``__init__`` re-exporting its children is a layer, not a cycle.
- **No Python file above 1,000 lines.**
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "pendragon"
MAX_LINES = 1000


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by dotted name, with whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.Module, module: str, is_package: bool) -> Iterator[str]:
    """The dotted names a module imports when it runs (TYPE_CHECKING blocks left out)."""
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            yield origin
            yield from (f"{origin}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Module → the package modules it imports at run time."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {
            target for target in _imported(tree, name, is_package)
            if target in modules and target != name
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    """The finder itself: a three-module ring and a self-standing module."""
    ring = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(ring) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_at_run_time() -> None:
    """Each layer only looks down: no module imports, directly or round about, one that
    imports it."""
    assert cycles(import_graph()) == []


def test_no_module_above_a_thousand_lines() -> None:
    """A room a reader can know: no Python file of the package is longer than 1,000 lines."""
    long = {
        str(path.relative_to(SRC)): count
        for path in PACKAGE.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
