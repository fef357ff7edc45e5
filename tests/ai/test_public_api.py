"""What the server may ask of ai, through the package itself (docs/design.md §3)."""

from __future__ import annotations

import ai
from games import registry


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
