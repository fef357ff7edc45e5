"""Imports between the server's search users point one way (docs/design.md §1, §4).

`server.search` (where searches run) is shared by `server.bots` and `server.analysis` and
imports neither; within each package no module imports, even inside a function, a module
that imports it back.  The modules that run in the search pool's processes import without
Django.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("server.search", "server.bots", "server.analysis")
# Run in the pool's spawned processes, which never set Django up.
DJANGO_FREE = ("server.search.job", "server.bots.turn", "server.analysis.positions")


def module_names() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = module_names()


def imported_by(module: str) -> set[str]:
    """The modules of `PACKAGES` that `module` imports anywhere in its text (lazy imports too)."""
    path = ROOT / module.replace(".", "/")
    source = (path / "__init__.py") if path.is_dir() else path.with_suffix(".py")
    found = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {name for name in names if name in MODULES and name != module}
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A path that comes back to its start, or None (depth-first, three colours)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_modules_are_found():
    assert {"server.search.job", "server.bots.runners", "server.analysis.services"} <= set(MODULES)


def test_no_import_cycle_among_bots_analysis_and_search():
    graph = {module: imported_by(module) for module in MODULES}
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_search_package_imports_neither_bots_nor_analysis():
    for module in (m for m in MODULES if m.startswith("server.search")):
        assert not {m for m in imported_by(module) if not m.startswith("server.search")}, module


def test_bots_never_import_analysis():
    for module in (m for m in MODULES if m.startswith("server.bots")):
        assert not {m for m in imported_by(module) if m.startswith("server.analysis")}, module


def test_the_cycle_check_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("module", DJANGO_FREE)
def test_a_pool_module_imports_alone_without_django(module):
    code = f"import sys, {module}; assert 'django' not in sys.modules, 'imports Django'"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
