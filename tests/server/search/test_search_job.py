"""One search under the budget rules: the same search as `ai.choose_move`, with its figures."""

from __future__ import annotations

import gc
import time
import weakref

import pytest

import ai
from games import registry
from server.search.job import SEARCH_VERSION, SearchRequest, run_search, search

CONFIG = {"algorithm": "alphabeta", "max_depth": 4, "time_budget_ms": 60_000, "seed": 3}


def start() -> dict:
    game = registry.get("connect4")
    return game.to_json(game.initial_state())


def test_the_search_is_ai_choose_move_node_for_node():
    game = registry.get("connect4")
    direct = ai.choose_move(game, game.initial_state(), ai.SearchConfig(**CONFIG))
    found = search("connect4", start(), ai.SearchConfig(**CONFIG))
    assert (found.move, found.value, found.depth, found.nodes) == (
        direct.move,
        direct.value,
        direct.depth,
        direct.nodes,
    )


def test_without_a_deadline_its_figures_leave_out_the_queue_and_the_slack():
    result, stats = run_search(SearchRequest("connect4", start(), CONFIG))
    assert stats["move"] == result.move and stats["search_version"] == SEARCH_VERSION
    assert stats["budget_ms"] == 60_000 and stats["seed"] == 3 and stats["think_ms"] >= 0
    assert "queued_ms" not in stats and "deadline_slack_ms" not in stats


def test_a_wait_for_a_pool_process_moves_the_deadline():
    now = time.time()
    # Taken by a worker 30 s ago with a 1 s budget: the search starts now, and its second starts now too.
    request = SearchRequest("connect4", start(), CONFIG, deadline=now - 29, queued_at=now - 31, started_at=now - 30)
    _, stats = run_search(request)
    assert stats["deadline_slack_ms"] > 0 and stats["queued_ms"] >= 31_000


def test_the_pause_keeps_a_quick_move_from_showing_sooner():
    request = SearchRequest("connect4", start(), {**CONFIG, "max_depth": 1}, deadline=time.time() + 5, min_think_ms=300)
    _, stats = run_search(request)
    assert stats["think_ms"] >= 300


class Cycle:
    """Garbage only the collector frees: what a caller's event loop left during a search."""

    def __init__(self, objects: int) -> None:
        self.me = self
        self.parts = [[] for _ in range(objects)]


@pytest.mark.parametrize("entry", ["bot turn", "analysis"])
def test_cycles_left_during_searches_are_collected_before_a_later_search_starts(entry):
    # Each report of each search leaves a cycle, with the collector off and what is left
    # frozen (`ai.budget.collector_paused`): only a collection outside a search frees them.
    # Together they hold as many objects as the process did before: a collection falls due.
    made: list[weakref.ref] = []
    reports = 40 * 3  # 3 iterations a search
    size = (len(gc.get_objects()) + gc.get_freeze_count()) // reports

    def leave_a_cycle(figures: dict) -> None:
        made.append(weakref.ref(Cycle(size)))

    config = {**CONFIG, "max_depth": 3}
    for _ in range(40):
        if entry == "bot turn":
            run_search(SearchRequest("connect4", start(), config), leave_a_cycle)
        else:  # an analysis's or a hint's search: its budget starts in `ai.choose_move`
            search("connect4", start(), ai.SearchConfig(**config), on_progress=leave_a_cycle)
    alive = sum(ref() is not None for ref in made)
    assert len(made) == reports and alive < reports / 2
