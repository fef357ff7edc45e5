"""What keeps searches on time: no collector pauses, nothing left for the collector after one."""

from __future__ import annotations

import gc
import sys
import tracemalloc
import weakref

import pytest

import ai
from ai import alphabeta, budget
from ai.budget import collector_paused
from ai.kernel_search import KernelAlphaBeta
from games import registry
from games.connect4.solver import Connect4Solver

CONNECT4 = registry.get("connect4")


def test_collector_is_off_in_a_search_and_what_survives_is_frozen_until_the_next():
    assert gc.isenabled()
    try:
        with collector_paused():
            assert not gc.isenabled()
            with collector_paused():  # nested: the outer one restores
                assert not gc.isenabled()
            assert not gc.isenabled()
            kept = [[i] for i in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(kept)  # not scanned by the next young collection
        with collector_paused():
            assert gc.get_freeze_count() == 0  # back with the collector, in the oldest generation
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_search_leaves_no_cycle_behind():
    # With the collector off, only reference counting frees: a cycle would keep these alive.
    gc.disable()
    try:
        state = CONNECT4.from_moves("4453")
        searcher = KernelAlphaBeta(CONNECT4, CONNECT4.search_kernel())
        searcher.search_root(state, 3, ["4", "3", "5"], False, {})
        searcher.negamax(state, 0, 2, -alphabeta.INF, alphabeta.INF, 0)
        gone = weakref.ref(searcher)
        del searcher
        assert gone() is None
        solver = Connect4Solver()
        solver.solve_state(CONNECT4.from_moves("2252576253462244111563365343671351441"))
        gone = weakref.ref(solver)
        del solver
        assert gone() is None
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("game_id", "algorithm", "moves", "depth"),
    [
        ("connect4", "alphabeta", list("4453"), 3),
        ("othello", "alphabeta", [], 3),
        ("chinese-checkers", "maxn", [], 3),
        ("backgammon", "expectimax", ["open 3-1"], 2),  # move generation once recursed in a closure
    ],
)
def test_searches_one_after_another_do_not_pile_up_memory(game_id, algorithm, moves, depth):
    """What a search leaves in a cycle stays until a full collection, which searches hold off:
    a worker playing for days would keep a transposition table (2 MiB) per move."""
    game = registry.get(game_id)
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)

    package = type(game).__module__.rpartition(".")[0]
    modules = [m for name, m in list(sys.modules.items()) if name == package or name.startswith(package + ".")]

    def searches() -> None:
        # Refill every cache of the game's package each time (backgammon's move generation
        # caches in its rules module), so that work a search repeats is really redone.
        for module in modules:
            for cached in vars(module).values():
                if hasattr(cached, "cache_clear"):
                    cached.cache_clear()
        # The depth ends each search, never the clock: a search cut short on a loaded machine
        # visits other positions each time, and the caches' growth looked like a leak.
        for seed in range(3):
            config = ai.SearchConfig(algorithm=algorithm, max_depth=depth, seed=seed, time_budget_ms=600_000)
            ai.choose_move(game, state, config)

    searches()
    tracemalloc.start()
    try:
        searches()  # the last table is kept until the next search frees it (`alphabeta._DISCARDED`)
        before = tracemalloc.get_traced_memory()[0]
        searches()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 256 * 1024


def test_deadline_keeps_back_the_longest_step_seen_up_to_a_quarter_of_the_budget(monkeypatch):
    from ai import budget

    now = [100.0]
    monkeypatch.setattr(budget.time, "monotonic", lambda: now[0])
    deadline = budget.Deadline.after_ms(1000)
    assert not deadline.expired()
    now[0] += 0.1  # a step of 100 ms (a long node, or time spent descheduled)
    assert not deadline.expired() and deadline.margin == pytest.approx(0.1)
    while now[0] < 100.0 + 0.84:  # short steps up to 150 ms before the end: still time
        now[0] += 0.01
        assert not deadline.expired()
    now[0] = 100.0 + 0.91  # 90 ms left: the next step may well take 100 ms
    assert deadline.expired()
    short = budget.Deadline.after_ms(100)
    short.expired()
    now[0] += 0.09  # a 90 ms step counts for at most 25 ms of a 100 ms budget
    short.expired()
    assert short.margin == pytest.approx(0.025)


def test_what_searches_froze_is_collected_once_it_has_grown_by_a_quarter(monkeypatch):
    class Cycle:
        def __init__(self) -> None:
            self.me = self

    # This process's last full collection: now, whatever earlier tests froze (an ASGI import
    # freezes the whole heap) or left counted.
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    monkeypatch.setattr(budget, "_frozen_after_collection", gc.get_freeze_count())
    frozen = gc.get_freeze_count()
    share = budget.FROZEN_GROWTH_SHARE
    left = []
    with collector_paused():  # a search's caller leaving cycles: 3 tracked objects each, with the weakref
        left += [weakref.ref(Cycle()) for _ in range(int(frozen * share / 10))]
    assert not budget.collect_between_searches() and all(ref() is not None for ref in left)  # not due yet
    with collector_paused():
        left += [weakref.ref(Cycle()) for _ in range(int(frozen * share / 2))]
    grown = gc.get_freeze_count()
    assert budget.collect_between_searches()
    assert all(ref() is None for ref in left)
    assert gc.get_freeze_count() < grown - len(left)
