"""Connect Four's rollouts on its bitboards, for MCTS (`Game.fast_playout`, `games.hooks.Playout`).

The random policy drops stones in random open columns; the heuristic one also takes a
win when it has one and blocks the opponent's immediate win, which is the game's own
`rollout_move` policy, only without building a state per ply.
"""

from __future__ import annotations

import random

from games.connect4.bitboard import BOARD_MASK, BOTTOM, CELLS, COLUMN_MASK, TOP_MASK, WIDTH, has_four, winning_cells
from games.connect4.rules import Connect4State


def playout(state: Connect4State, rng: random.Random, heuristic: bool) -> list[float]:
    """Play `state` out; the rewards (1 a win, 0.5 a draw, 0 a loss) of seats 0 and 1."""
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
            cols = [c for c in range(WIDTH) if not mask & TOP_MASK[c]]
            col = cols[randrange(len(cols))]
            move = possible & COLUMN_MASK[col]
        current ^= mask  # the opponent's stones become "current" ...
        mask |= move  # ... and the mover's stone lands
        moves += 1
        mover_stones = current ^ mask
        if has_four(mover_stones):
            return [1.0, 0.0] if (moves - 1) % 2 == 0 else [0.0, 1.0]
    return [0.5, 0.5]
