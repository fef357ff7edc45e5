"""The drawing of who imports whom in docs/design.md §1, generated from the code.

    .venv/bin/python docs/imports.py

prints the Mermaid graph pasted in docs/design.md §1 (tests/test_imports_drawing.py fails
when the two differ).  Each node is a top-level package, or one of `server`'s packages and
entry points; an arrow is "imports, directly, somewhere in its code" (function-level
imports too), as grimp reads the source: the same graph import-linter checks the contracts
in pyproject.toml ([tool.importlinter]) against.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
TOP = ("frontend", "server", "ai", "games")
# Where the drawing starts and ends in docs/design.md.
BEGIN = "```mermaid"
END = "```"


def nodes(graph: grimp.ImportGraph) -> list[str]:
    """The top-level packages, with `server` split into its packages and entry points."""
    inside = sorted(graph.find_children("server"))
    return ["frontend", *inside, "ai", "games"]


def edges(graph: grimp.ImportGraph, names: list[str]) -> list[tuple[str, str]]:
    """(importer, imported) for every pair of nodes where one imports the other directly."""
    return [
        (importer, imported)
        for importer in names
        for imported in names
        if importer != imported
        and not (imported == "server" or importer == "server")
        and graph.direct_import_exists(importer=importer, imported=imported, as_packages=True)
    ]


def label(name: str) -> str:
    """A node's name in the drawing: `server`'s parts by their own names, inside its subgraph."""
    return name.removeprefix("server.")


def drawing() -> str:
    """The Mermaid graph of the code as it is, fenced as docs/design.md holds it."""
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*TOP, cache_dir=None)
    names = nodes(graph)
    inside = [name for name in names if name.startswith("server.")]
    lines = [BEGIN, "flowchart TD", "  frontend", "  subgraph server"]
    lines += [f"    {label(name)}" for name in inside]
    lines += ["  end", "  ai", "  games"]
    lines += [f"  {label(a)} --> {label(b)}" for a, b in edges(graph, names)]
    lines.append(END)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(drawing(), end="")
