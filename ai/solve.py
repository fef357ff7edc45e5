"""Exact game-theoretic values (DESIGN §3): `solve(game, state)`.

- Connect Four: the bitboard solver of `ai.connect4_solver`, in the published test-set
  score convention (positive when the side to move wins, larger the sooner).
- Any other two-player game without chance that is small enough to search to the end
  (tic-tac-toe): full-depth alpha-beta with a transposition table; the value is the
  utility the seat to move gets with perfect play on both sides.

>>> from games import registry
>>> game = registry.get("tictactoe")
>>> solve(game, game.initial_state())
0.0
>>> c4 = registry.get("connect4")
>>> solve(c4, c4.from_moves("7422341735647741166133573473242566"))
1
"""

from __future__ import annotations

from ai.alphabeta import COMPLETE, AlphaBeta, Timeout
from ai.budget import Deadline
from ai.connect4_solver import Connect4Solver
from ai.tt import TranspositionTable
from games.base import Game, State
from games.connect4 import Connect4State

_CONNECT4 = Connect4Solver()


def solve(game: Game, state: State, deadline: Deadline | None = None) -> float:
    """The exact value of `state` for the seat to move.

    Raises `ValueError` for games this cannot solve (chance, more than two players)
    and `TimeoutError` if a `deadline` is given and passes first.
    """
    if isinstance(state, Connect4State) and game.id == "connect4":
        _CONNECT4.reset()
        return _CONNECT4.solve_state(state)
    if game.num_players != 2 or game.has_chance:
        raise ValueError(f"solve() needs a two-player game without chance; {game.name} is not one")
    seat = game.to_move(state) if not game.is_terminal(state) else None
    if seat is None:
        raise ValueError("the game is over: its value is game.returns(state)")
    searcher = AlphaBeta(game, deadline, tt=TranspositionTable(1 << 20))
    searcher.root_seat = seat
    # Utilities are the values: no wins-sooner shaping, no heuristic at a depth limit.
    searcher.terminal_score = lambda s, seat_, ply: game.returns(s)[seat_]  # type: ignore[method-assign]
    try:
        value = searcher.negamax(state, seat, COMPLETE - 1, -float("inf"), float("inf"), 0)
    except Timeout:
        raise TimeoutError("the deadline passed before the position was solved") from None
    return value
