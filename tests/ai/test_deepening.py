"""The iterative-deepening driver shared by alpha-beta, expectimax and max^n."""

from __future__ import annotations

import pytest

from ai.budget import Timeout
from ai.deepening import deepen
from ai.types import SearchResult


class Scripted:
    """Iterations from a script, {depth: {move: value}}; at `stop_at` time runs out at a move not in it."""

    def __init__(self, script: dict[int, dict[str, float]], stop_at: int | None = None) -> None:
        self.script, self.stop_at, self.nodes, self.depth_cut = script, stop_at, 0, False
        self.orders: list[list[str]] = []

    def iterate(self, depth: int, moves: list[str], values: dict[str, float]) -> None:
        self.orders.append(list(moves))
        self.depth_cut = True
        for move in moves:
            if depth == self.stop_at and move not in self.script[depth]:
                raise Timeout
            self.nodes += 1
            values[move] = self.script[depth][move]


def test_each_finished_iteration_is_adopted_and_orders_the_next():
    searcher = Scripted({1: {"a": 0, "b": 1, "c": 0.5}, 2: {"b": 0.2, "a": 0.4, "c": 0.1}})
    result = SearchResult(move="a")
    values = deepen(searcher, result, ["a", "b", "c"], range(1, 3))
    assert searcher.orders == [["a", "b", "c"], ["b", "c", "a"]]
    assert (result.move, result.value, result.depth, result.pv) == ("a", 0.4, 2, ["a"]) and values["a"] == 0.4


@pytest.mark.parametrize(("unfinished", "move"), [({"b": 0.9, "c": 2.0}, "c"), ({"b": 0.9, "c": 0.1}, "b")])
def test_an_unfinished_iteration_counts_only_where_it_beat_the_previous_best(unfinished, move):
    searcher = Scripted({1: {"a": 0, "b": 1, "c": 0.5}, 2: unfinished}, stop_at=2)
    result = SearchResult(move="a")
    values = deepen(searcher, result, ["a", "b", "c"], range(1, 4))
    assert result.move == move and result.depth == 1 and values == {"a": 0, "b": 1, "c": 0.5}


def test_a_searcher_may_stop_deepening_itself():
    searcher = Scripted({d: {"a": d} for d in range(1, 9)})
    result = SearchResult(move="a")
    deepen(searcher, result, ["a"], range(1, 9), finished=lambda depth, move, score: depth == 3)
    assert result.depth == 3 and len(searcher.orders) == 3


def test_without_trusting_unfinished_iterations_the_move_and_values_come_from_one_finished_iteration():
    searcher = Scripted({1: {"a": 0, "b": 1, "c": 0.5}, 2: {"b": 0.9, "c": 2.0}}, stop_at=2)
    result = SearchResult(move="a")
    values = deepen(searcher, result, ["a", "b", "c"], range(1, 4), trust_unfinished=False)
    assert (result.move, result.value, result.depth) == ("b", 1, 1) and values == {"a": 0, "b": 1, "c": 0.5}
