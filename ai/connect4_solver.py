"""An exact Connect Four solver on bitboards (after Pascal Pons, "Solving Connect 4").

Negamax with alpha-beta on the layout of `games.connect4` (bit ``col * 7 + row``), and
what makes it node-efficient rather than only fast:

- null-window probes: the score is found by a binary search of ``negamax(med, med + 1)``
  calls ("iterative narrowing"), each one a cheap yes/no question;
- the children are only the moves that do not lose at once (forced blocks, never
  playing under an opponent's winning cell), so the search never looks at a blunder;
- move ordering by threats: the move that creates the most winning cells first,
  the centre first among equals;
- a transposition table holding lower and upper bounds by position key;
- score bounds from the number of stones left (a win cannot come sooner than...).

Scores follow the published test sets: positive when the side to move wins,
``(43 - stones) // 2`` if it wins with its next stone, less the later it wins; 0 a draw.

>>> from games.connect4 import CONNECT4
>>> solver = Connect4Solver()
>>> solver.solve_state(CONNECT4.from_moves("2252576253462244111563365343671351441"))
-1
"""

from __future__ import annotations

from typing import Final

from games.connect4 import BOARD_MASK, CELLS, HEIGHT, WIDTH, Connect4State, has_four

H1: Final = HEIGHT + 1
BOTTOM: Final = sum(1 << (c * H1) for c in range(WIDTH))
COLUMN_MASKS_CENTRE_FIRST: Final = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in (3, 2, 4, 1, 5, 0, 6))
TT_LIMIT: Final = 4_000_000  # entries per bound table before it is cleared


def winning_cells(stones: int, mask: int) -> int:
    """Empty cells that would complete four in a line for `stones`."""
    # vertical
    r = (stones << 1) & (stones << 2) & (stones << 3)
    # horizontal (shift 7)
    p = (stones << 7) & (stones << 14)
    r |= p & (stones << 21)
    r |= p & (stones >> 7)
    p = (stones >> 7) & (stones >> 14)
    r |= p & (stones << 7)
    r |= p & (stones >> 21)
    # diagonal (shift 6)
    p = (stones << 6) & (stones << 12)
    r |= p & (stones << 18)
    r |= p & (stones >> 6)
    p = (stones >> 6) & (stones >> 12)
    r |= p & (stones << 6)
    r |= p & (stones >> 18)
    # anti-diagonal (shift 8)
    p = (stones << 8) & (stones << 16)
    r |= p & (stones << 24)
    r |= p & (stones >> 8)
    p = (stones >> 8) & (stones >> 16)
    r |= p & (stones << 8)
    r |= p & (stones >> 24)
    return r & (BOARD_MASK ^ mask)


class Connect4Solver:
    """Keeps its transposition table between calls: solving related positions gets cheaper."""

    def __init__(self) -> None:
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.nodes = 0

    def reset(self) -> None:
        self.lower.clear()
        self.upper.clear()
        self.nodes = 0

    def negamax(self, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """Score within (alpha, beta) for the side to move, which cannot win at once."""
        self.nodes += 1
        possible = (mask + BOTTOM) & BOARD_MASK
        opponent_win = winning_cells(current ^ mask, mask)
        forced = possible & opponent_win
        if forced:
            if forced & (forced - 1):  # two threats to block: lost with the opponent's next stone
                return -((CELLS - moves) // 2)
            possible = forced
        candidates = possible & ~(opponent_win >> 1)  # never play right under their winning cell
        if not candidates:
            return -((CELLS - moves) // 2)
        if moves >= CELLS - 2:
            return 0
        low = -((CELLS - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (CELLS - 1 - moves) // 2
        key = current + mask
        bound = self.upper.get(key)
        if bound is not None and bound < high:
            high = bound
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        bound = self.lower.get(key)
        if bound is not None and bound > alpha:
            alpha = bound
            if alpha >= beta:
                return alpha

        # Order by the threats each move creates, the centre first among equals.
        ordered = []
        for rank, column in enumerate(COLUMN_MASKS_CENTRE_FIRST):
            move = candidates & column
            if move:
                threats = winning_cells(current | move, mask).bit_count()
                ordered.append((-threats, rank, move))
        if len(ordered) > 1:
            ordered.sort()
        next_current = current ^ mask
        next_moves = moves + 1
        for _, _, move in ordered:
            score = -self.negamax(next_current, mask | move, next_moves, -beta, -alpha)
            if score >= beta:
                if len(self.lower) > TT_LIMIT:
                    self.lower.clear()
                self.lower[key] = score
                return score
            if score > alpha:
                alpha = score
        if len(self.upper) > TT_LIMIT:
            self.upper.clear()
        self.upper[key] = alpha
        return alpha

    def solve(self, current: int, mask: int, moves: int, weak: bool = False) -> int:
        """The exact score of a live position (or only its sign when `weak`)."""
        if has_four(current ^ mask):  # the previous stone won
            return -((CELLS + 2 - moves) // 2)
        if moves >= CELLS:
            return 0
        possible = (mask + BOTTOM) & BOARD_MASK
        if winning_cells(current, mask) & possible:
            return (CELLS + 1 - moves) // 2
        low, high = -((CELLS - moves) // 2), (CELLS + 1 - moves) // 2
        if weak:
            low, high = -1, 1
        while low < high:  # iterative narrowing by null-window probes
            med = low + (high - low) // 2
            if med <= 0 and -(-low // 2) < med:  # low / 2 rounded towards zero
                med = -(-low // 2)
            elif med >= 0 and high // 2 > med:
                med = high // 2
            score = self.negamax(current, mask, moves, med, med + 1)
            if score <= med:
                high = score
            else:
                low = score
        return low

    def solve_state(self, state: Connect4State, weak: bool = False) -> int:
        return self.solve(state.current, state.mask, state.moves, weak)

    def move_scores(self, state: Connect4State) -> dict[str, int]:
        """The exact score of every legal move, for the seat to move (as in analysis boards)."""
        out = {}
        for col in range(WIDTH):
            if state.mask & (1 << (col * H1 + HEIGHT - 1)):
                continue
            move = (state.mask + (1 << (col * H1))) & (((1 << HEIGHT) - 1) << (col * H1))
            if winning_cells(state.current, state.mask) & move:
                out[str(col + 1)] = (CELLS + 1 - state.moves) // 2
                continue
            out[str(col + 1)] = -self.solve(state.current ^ state.mask, state.mask | move, state.moves + 1)
        return out
