"""What the server may ask of ai, through the package itself (docs/design.md §3)."""

from __future__ import annotations

import subprocess
import sys

import ai
from games import registry
from tests.support import ROOT


def test_a_trap_model_is_checked_against_the_game_and_the_searcher() -> None:
    connect4, backgammon = registry.get("connect4"), registry.get("backgammon")
    alphabeta, mcts = ai.CATALOGUE["alphabeta"], ai.CATALOGUE["mcts"]
    assert ai.trap_model_problem(connect4, alphabeta, None) == ""
    assert (
        ai.trap_model_problem(connect4, mcts, "softmax:1")
        == "trap_model is for alpha-beta in two-player games without dice"
    )
    assert "dice" in ai.trap_model_problem(backgammon, alphabeta, "softmax:1")
    assert ai.trap_model_problem(connect4, alphabeta, "nonsense").startswith("trap_model: ")


def test_importing_ai_builds_nothing() -> None:
    """A process that never searches (a web process validating a profile) pays for no game's fast paths."""
    code = "import sys, ai; print(sorted(m for m in sys.modules if m.endswith(('.kernel', '.playout'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_a_warm_up_builds_every_games_fast_paths_and_searches_each() -> None:
    took = ai.warm_up()
    assert set(took) == {game.id for game in registry.all()}
    assert "games.connect4.kernel" in sys.modules and "games.connect4.playout" in sys.modules
