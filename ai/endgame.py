"""Perfect play where it is affordable (search options ``exact_endgame`` and ``opening_book``).

Connect Four: from the number of stones ``exact_endgame`` gives, the bitboard solver
works within a share of the move's time.  It first looks for a move that keeps a win,
centre first, asking only whether each move wins (a weak solve, several times cheaper
than an exact score); failing that, it scores every legal move exactly and the best
score wins, centre first among equals.  If the solver does not finish in time the caller
searches as usual with what is left.  With ``opening_book`` the first move is the
centre: the proven win.
"""

from __future__ import annotations

import time

from ai.budget import Deadline
from ai.connect4_solver import Connect4Solver
from ai.types import SearchResult
from games.base import Game, Move, State
from games.connect4 import CENTRE_FIRST, COLUMNS

SOLVER_SHARE = 0.6  # of the remaining time, at most, for the exact attempt
OPENING = "4"  # the first player wins by starting in the centre (Allis 1988)


# One per process, so its transposition table (bounded, positions as keys) carries what
# an unfinished attempt learnt over to the next move of the game.
_SOLVER = Connect4Solver()


def book_move(game: Game, state: State) -> SearchResult | None:
    if game.id == "connect4" and state.moves == 0:
        return SearchResult(move=OPENING, depth=0, algorithm="alphabeta", stats={"exact": "opening"})
    return None


def exact_move(game: Game, state: State, deadline: Deadline, from_stones: int) -> SearchResult | None:
    """A move that keeps a win, else the exactly best move, or None (other games, too early, out of time)."""
    if game.id != "connect4" or state.moves < from_stones:
        return None
    started = time.perf_counter()
    solver = _SOLVER
    solver.nodes = 0
    solver.deadline = Deadline.after_ms(deadline.remaining_ms() * SOLVER_SHARE)
    try:
        move = winning_move(solver, game, state)
        scores = None if move else solver.move_scores(state)
    except TimeoutError:
        return None
    stats: dict = {"exact": "solved"}
    if move:
        value, stats["exact"] = 1, "won"
    else:
        rank = {COLUMNS[c]: r for r, c in enumerate(CENTRE_FIRST)}
        move = max(scores, key=lambda m: (scores[m], -rank[m]))
        value = (scores[move] > 0) - (scores[move] < 0)
        stats.update(exact_score=scores[move], move_scores=scores)
    return SearchResult(
        move=move,
        value=value,
        depth=42 - state.moves,
        nodes=solver.nodes,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        pv=[move],
        algorithm="alphabeta",
        stats=stats,
    )


def winning_move(solver: Connect4Solver, game: Game, state: State) -> Move | None:
    """The first move, centre first, after which the opponent is lost; None if none is."""
    legal = set(game.legal_moves(state))
    for column in CENTRE_FIRST:
        move = COLUMNS[column]
        if move not in legal:
            continue
        after = game.apply(state, move)
        if game.is_terminal(after):
            if game.returns(after)[game.to_move(state)] > 0:
                return move
            continue
        if solver.solve_state(after, weak=True) < 0:
            return move
    return None
