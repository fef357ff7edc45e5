"""Perfect play where it is affordable (search options ``exact_endgame`` and ``opening_book``).

Connect Four: from the number of stones ``exact_endgame`` gives, the bitboard solver
scores every legal move exactly, within a share of the move's time; the best score
wins, centre first among equals.  If the solver does not finish in time the caller
searches as usual with what is left.  With ``opening_book`` the first move is the
centre: the proven win.
"""

from __future__ import annotations

import time

from ai.budget import Deadline
from ai.connect4_solver import Connect4Solver
from ai.types import SearchResult
from games.base import Game, State
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
    """The exactly best move, or None (other games, too early in the game, or out of time)."""
    if game.id != "connect4" or state.moves < from_stones:
        return None
    started = time.perf_counter()
    solver = _SOLVER
    solver.nodes = 0
    solver.deadline = Deadline.after_ms(deadline.remaining_ms() * SOLVER_SHARE)
    try:
        scores = solver.move_scores(state)
    except TimeoutError:
        return None
    rank = {COLUMNS[c]: r for r, c in enumerate(CENTRE_FIRST)}
    best = max(scores, key=lambda m: (scores[m], -rank[m]))
    score = scores[best]
    return SearchResult(
        move=best,
        value=(score > 0) - (score < 0),
        depth=42 - state.moves,
        nodes=solver.nodes,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        pv=[best],
        algorithm="alphabeta",
        stats={"exact": "solved", "exact_score": score, "move_scores": scores},
    )
