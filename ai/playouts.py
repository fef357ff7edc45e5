"""Fast playouts on a game's own encoding, for MCTS rollouts where the generic API is slow.

`for_game(game)` returns ``playout(state, rng, heuristic) -> rewards`` (one reward in
[0, 1] per seat) or None when the game has none.  Connect Four plays on its bitboards:
the random policy drops stones in random open columns; the heuristic one also takes
a win when it has one and blocks the opponent's immediate win, which is the game's
own `rollout_move` policy, only without building a state per ply.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from ai.connect4_solver import BOTTOM, winning_cells
from games.base import Game, State
from games.connect4 import BOARD_MASK, CELLS, HEIGHT, WIDTH, Connect4State, has_four

Playout = Callable[[State, random.Random, bool], "list[float] | None"]

H1: Final = HEIGHT + 1
TOP: Final = tuple(1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH))
COLUMN: Final = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH))


def connect4_playout(state: Connect4State, rng: random.Random, heuristic: bool) -> list[float]:
    current, mask, moves = state.current, state.mask, state.moves
    if has_four(current ^ mask):  # the previous stone won
        return [1.0, 0.0] if (moves - 1) % 2 == 0 else [0.0, 1.0]
    randrange = rng.randrange
    while moves < CELLS:
        possible = (mask + BOTTOM) & BOARD_MASK
        if heuristic:
            win = winning_cells(current, mask) & possible
            if win:
                move = win & -win
                current |= move  # the side to move makes four
                return [1.0, 0.0] if moves % 2 == 0 else [0.0, 1.0]
            block = winning_cells(current ^ mask, mask) & possible
            move = block & -block if block else 0
        else:
            move = 0
        if not move:
            cols = [c for c in range(WIDTH) if not mask & TOP[c]]
            col = cols[randrange(len(cols))]
            move = possible & COLUMN[col]
        current ^= mask  # the opponent's stones become "current" ...
        mask |= move  # ... and the mover's stone lands
        moves += 1
        mover_stones = current ^ mask
        if has_four(mover_stones):
            return [1.0, 0.0] if (moves - 1) % 2 == 0 else [0.0, 1.0]
    return [0.5, 0.5]


def for_game(game: Game) -> Playout | None:
    if game.id == "connect4":
        return connect4_playout  # type: ignore[return-value]
    return None
