"""The drawing of the imports in docs/design.md §1 is the code's (docs/imports.py generates it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = "### The imports, as the code has them"


def generator():
    spec = importlib.util.spec_from_file_location("docs_imports", ROOT / "docs" / "imports.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pasted() -> str:
    """The fenced drawing under its heading in docs/design.md, fences included."""
    text = (ROOT / "docs" / "design.md").read_text()
    section = text[text.index(HEADING) :]
    start = section.index("```mermaid")
    end = section.index("\n```\n", start) + len("\n```\n")
    return section[start:end]


def test_the_drawing_in_the_design_is_the_code_s():
    drawn = generator().drawing()
    assert pasted() == drawn, "imports changed: paste the output of `.venv/bin/python docs/imports.py` in §1"


def test_the_drawing_shows_the_layers_and_the_composition_root():
    lines = generator().drawing().splitlines()
    assert "  frontend --> players" in lines and "  matches --> games" in lines
    assert "  config --> matches" in lines  # the root imports the apps' URLs and routing
    # ...and only the entry points import it; games and ai import nothing of the server.
    assert {line.split()[0] for line in lines if line.endswith("--> config")} <= {"run", "worker", "asgi_server"}
    assert not [line for line in lines if line.startswith("  games -->")]
    assert [line for line in lines if line.startswith("  ai -->")] == ["  ai --> games"]
