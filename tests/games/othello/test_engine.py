"""The compiled Othello midgame search (games/othello/_endgame.c's Engine) against the Python code.

The pattern evaluation equals `patterns.disc_value` on every position of random games; at a
fixed depth the search's value equals `ai.alphabeta`'s with the same evaluation (minimax value
identity); its moves and lines are legal, passes included; a node cap and a passed deadline
are kept by count; the Master searches with it when asked, and without the extension the
Python search runs.
"""

from __future__ import annotations

import random
import time

import pytest

import ai
from ai import alphabeta
from ai.budget import Deadline
from ai.types import SearchConfig
from games.base import Seat
from games.othello import OTHELLO, Othello, OthelloState, move_mask
from games.othello import engine as othello_engine
from games.othello.engine import WIN_BASE
from games.othello.patterns import UNIT, disc_value

compiled = othello_engine.compiled
pytestmark = pytest.mark.skipif(compiled is None, reason="the Othello extension is not built")


def random_states(games: int, seed: int) -> list[OthelloState]:
    """Every position of `games` random games."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = OTHELLO.initial_state()
        while not OTHELLO.is_terminal(state):
            states.append(state)
            state = OTHELLO.apply(state, rng.choice(OTHELLO.legal_moves(state)))
        states.append(state)
    return states


STATES = random_states(12, seed=46)


def test_the_pattern_evaluation_equals_the_python_one():
    assert len(STATES) > 600
    for state in STATES:
        own, opp = state.own_opp()
        assert compiled.evaluate(own, opp) == disc_value(own, opp) * UNIT, state


class PatternOthello(Othello):
    """Othello scored at the leaves as the compiled search scores them: the fitted margin / 64."""

    def evaluate(self, state: OthelloState, seat: Seat) -> float:
        own, opp = state.own_opp()
        value = disc_value(own, opp) / 64
        return value if state.seat == seat else -value


def ends_within(state: OthelloState, depth: int) -> bool:
    """Whether some line of `depth` plies reaches a finished game."""
    if OTHELLO.is_terminal(state):
        return True
    return depth > 0 and any(ends_within(OTHELLO.apply(state, m), depth - 1) for m in OTHELLO.legal_moves(state))


def midgame_positions(count: int, seed: int, depth: int) -> list[OthelloState]:
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        state = OTHELLO.initial_state()
        cut = rng.randrange(8, 50)
        while not OTHELLO.is_terminal(state) and state.ply < cut:
            state = OTHELLO.apply(state, rng.choice(OTHELLO.legal_moves(state)))
        if len(OTHELLO.legal_moves(state)) > 1 and not ends_within(state, depth):
            out.append(state)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_at_a_fixed_depth_the_value_is_the_python_searchs(depth):
    game = PatternOthello()
    for state in midgame_positions(6 if depth < 4 else 3, seed=depth, depth=depth):
        own, opp = state.own_opp()
        move, score, done, _ = compiled.Engine(1 << 12, 1 << 10).search(own, opp, None, depth, 0, 0)
        config = SearchConfig(algorithm="alphabeta", max_depth=depth)
        result = alphabeta.search(game, state, config, Deadline(time.monotonic() + 3600), random.Random(0))
        assert done == depth
        assert score / UNIT / 64 == pytest.approx(result.value, abs=1e-9), (state, move, result.move)


def play_line(state: OthelloState, line: list[int]) -> None:
    """Each square of `line` (-1 a pass) is legal in turn."""
    for square in line:
        move = othello_engine.move_name(square)
        assert move in OTHELLO.legal_moves(state), (state, line)
        state = OTHELLO.apply(state, move)


def test_moves_and_lines_are_legal():
    engine = compiled.Engine(1 << 14, 1 << 12)
    for state in STATES[::25]:
        own, opp = state.own_opp()
        found = engine.search(own, opp, None, 4, 0, 8)
        if OTHELLO.is_terminal(state):
            assert found is None
            continue
        move, _, depth, pv = found
        assert depth >= 1 and pv[0] == move
        play_line(state, pv)


def test_a_side_without_a_move_passes_and_a_finished_game_has_none():
    passes = [s for s in random_states(60, seed=5) if OTHELLO.legal_moves(s) == ["pass"]]
    assert passes
    engine = compiled.Engine(1 << 12)
    for state in passes:
        own, opp = state.own_opp()
        move, _, _, pv = engine.search(own, opp, None, 6, 0, 0)
        assert move == -1 and pv[0] == -1
        play_line(state, pv)
    finished = [s for s in STATES if OTHELLO.is_terminal(s)]
    for state in finished:
        assert engine.search(*state.own_opp(), None, 3) is None


def test_the_solver_scores_the_last_empties_exactly():
    state = OTHELLO.from_moves(  # 12 squares left, black to move: the exact score is 6 (test_endgame.py)
        "f5f6e6f4g6d7c3c5d3g4c6c4e8g7f3c7h4b2g5h3b4f2e7e3g8a4c2c8b5d6a2c1b1h8d1a5h2e2b7a6g3f7g2h5d2b6h7g1"
    )
    own, opp = state.own_opp()
    _, score, _, _ = compiled.Engine(1 << 12).search(own, opp, None, 2, 0, 12)
    assert score == WIN_BASE + 6


def test_a_node_cap_is_kept():
    state = midgame_positions(1, seed=9, depth=0)[0]
    own, opp = state.own_opp()
    engine = compiled.Engine(1 << 14)
    move, _, depth, _ = engine.search(own, opp, None, 60, 20_000)
    assert engine.nodes <= 20_001 and depth >= 3
    assert move_mask(own, opp) >> move & 1


def test_a_passed_deadline_stops_at_the_first_look_at_the_clock():
    state = midgame_positions(1, seed=10, depth=0)[0]
    own, opp = state.own_opp()
    engine = compiled.Engine(1 << 14)
    move, _, _, _ = engine.search(own, opp, time.monotonic() - 1.0, 60)
    assert engine.nodes <= 4096 + 1  # the clock is read every 4096 nodes
    assert move_mask(own, opp) >> move & 1


def test_the_master_searches_with_the_engine_when_asked():
    state = midgame_positions(1, seed=11, depth=0)[0]
    config = SearchConfig(algorithm="alphabeta", max_depth=5, options={"engine": True})
    result = ai.choose_move(OTHELLO, state, config, deadline=Deadline(time.monotonic() + 3600))
    assert result.stats["kernel"] == "othello-engine" and result.depth == 5 and result.nodes > 0
    assert result.move in OTHELLO.legal_moves(state) and result.pv[0] == result.move and -1 < result.value < 1


def test_a_changed_evaluation_is_not_searched_by_the_engine():
    assert PatternOthello().search_engine() is None
    assert OTHELLO.search_engine() is othello_engine.ENGINE


def test_unbuilt_the_python_search_runs(monkeypatch):
    monkeypatch.setattr(othello_engine, "ENGINE", None)  # as where the extension could not be compiled
    state = midgame_positions(1, seed=12, depth=0)[0]
    config = SearchConfig(algorithm="alphabeta", max_depth=2, options={"engine": True})
    result = ai.choose_move(OTHELLO, state, config, deadline=Deadline(time.monotonic() + 3600))
    assert result.stats.get("kernel") != "othello-engine" and result.move in OTHELLO.legal_moves(state)
