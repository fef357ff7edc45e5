"""Exact game-theoretic values (docs/design.md §3): `solve(game, state)`.

- A game with a solver of its own (`Game.new_solver`, `games.hooks.Solver`): its score,
  in the game's convention (for the published solver test sets: positive when the side
  to move wins, larger the sooner).
- Any other two-player game without chance that is small enough to search to the end:
  full-depth alpha-beta with a transposition table; the value is the utility the seat
  to move gets with perfect play on both sides.

Examples on the published test positions: tests/ai/test_solve.py.
"""

from __future__ import annotations

from ai.alphabeta import AlphaBeta
from ai.budget import Deadline, Timeout
from ai.scores import COMPLETE
from ai.tt import TranspositionTable
from games.base import Game, S


def solve(game: Game[S], state: S, deadline: Deadline | None = None) -> float:
    """The exact value of `state` for the seat to move.

    Raises `ValueError` for games this cannot solve (chance, more than two players)
    and `TimeoutError` if a `deadline` is given and passes first.
    """
    solver = game.new_solver()
    if solver is not None:
        solver.deadline = deadline.at if deadline is not None else None
        return solver.solve_state(state)
    if game.num_players != 2 or game.has_chance:
        raise ValueError(f"solve() needs a two-player game without chance; {game.name} is not one")
    seat = game.to_move(state) if not game.is_terminal(state) else None
    if seat is None:
        raise ValueError("the game is over: its value is game.returns(state)")
    searcher = AlphaBeta(game, deadline, tt=TranspositionTable(1 << 20))
    searcher.root_seat = seat
    # Utilities are the values: no wins-sooner shaping, no heuristic at a depth limit.
    searcher.terminal_score = lambda s, seat_, ply: game.returns(s)[seat_]  # type: ignore[method-assign, assignment]  # exact values: this search only
    try:
        value = searcher.negamax(state, seat, COMPLETE - 1, -float("inf"), float("inf"), 0)
    except Timeout:
        raise TimeoutError("the deadline passed before the position was solved") from None
    return value
