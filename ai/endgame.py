"""Perfect play where it is affordable (search options ``exact_endgame`` and ``opening_book``).

For a game with a solver (`Game.new_solver`, `games.hooks.Solver`): from the ply
``exact_endgame`` gives, the solver works within a share of the move's time.  It first
looks for a move that keeps a win, in the game's `order_moves` order, asking only
whether each move wins (a weak solve, several times cheaper than an exact score);
failing that, it scores every legal move exactly and the best score wins, the game's
order breaking ties.  If the solver does not finish in time the caller searches as
usual with what is left.  With ``opening_book`` a position the game's book knows
(`Game.opening_move`) is answered from it.
"""

from __future__ import annotations

import time
from typing import Any

from ai.budget import Deadline
from ai.types import SearchResult, SearchStats
from games.base import Game, Move, State
from games.hooks import Solver

SOLVER_SHARE = 0.6  # of the remaining time, at most, for the exact attempt


# One per game and process, so its tables (bounded, positions as keys) carry what an
# unfinished attempt learnt over to the next move of the game.
_SOLVERS: dict[str, Solver | None] = {}


def solver_for(game: Game[Any]) -> Solver | None:
    if game.id not in _SOLVERS:
        _SOLVERS[game.id] = game.new_solver()
    return _SOLVERS[game.id]


def book_move(game: Game[Any], state: State) -> SearchResult | None:
    move = game.opening_move(state)
    if move is None:
        return None
    return SearchResult(move=move, depth=0, algorithm="alphabeta", stats={"exact": "opening"})


def exact_move(game: Game[Any], state: State, deadline: Deadline, from_ply: int) -> SearchResult | None:
    """A move that keeps a win, else the exactly best move, or None (no solver, too early, out of time)."""
    solver = solver_for(game)
    if solver is None or game.ply(state) < from_ply:
        return None
    started = time.perf_counter()
    solver.nodes = 0
    solver.deadline = Deadline.after_ms(deadline.remaining_ms() * SOLVER_SHARE).at
    try:
        move = winning_move(solver, game, state)
        scores = None if move else solver.move_scores(state)
    except TimeoutError:
        return None
    stats: SearchStats = {"exact": "solved"}
    if move:
        value, stats["exact"] = 1, "won"
    else:
        assert scores is not None
        rank = {m: r for r, m in enumerate(game.order_moves(state, list(scores)))}
        move = max(scores, key=lambda m: (scores[m], -rank[m]))
        value = (scores[move] > 0) - (scores[move] < 0)
        stats["exact_score"], stats["move_scores"] = scores[move], scores
    return SearchResult(
        move=move,
        value=value,
        depth=game.max_length - game.ply(state) if game.max_length is not None else 0,
        nodes=solver.nodes,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        pv=[move],
        algorithm="alphabeta",
        stats=stats,
    )


def winning_move(solver: Solver, game: Game[Any], state: State) -> Move | None:
    """The first move, in the game's order, after which the opponent is lost; None if none is."""
    for move in game.order_moves(state, game.legal_moves(state)):
        after = game.apply(state, move)
        if game.is_terminal(after):
            if game.returns(after)[game.to_move(state)] > 0:
                return move
            continue
        if solver.solve_state(after, weak=True) < 0:
            return move
    return None
