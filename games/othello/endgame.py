"""Exact Othello endgames: the final disc score of a position under perfect play.

The score is the mover's, as a finished game is scored (`Othello.score`): the mover's discs
minus the opponent's, the empty squares going to the winner; positive when the mover wins, 0
a draw.  `OthelloSolver` is the game's `Solver` (`games.hooks.Solver`): the Master
(`exact_endgame` in its search options, `ai.endgame`) asks it, in the last empties, for a
move that keeps a win, else for the best score, within a share of its time.

The search is negamax with fail-soft alpha-beta on the two bitboards, compiled
(`games/othello/_endgame.c`, built by ``pip install``: fastest-first ordering, a
transposition table, the last square counted directly); where it was not built, or with
``compiled=False``, `search` below runs: the same search in Python without the table, the
reference the tests compare the compiled one with, and fast enough for about ten empties.

>>> from games.othello import OTHELLO
>>> state = OTHELLO.from_moves(  # a random game, 12 squares left, black to move
...     "f5f6e6f4g6d7c3c5d3g4c6c4e8g7f3c7h4b2g5h3b4f2e7e3g8a4c2c8b5d6a2c1b1h8d1a5h2e2b7a6g3f7g2h5d2b6h7g1")
>>> OthelloSolver().solve_state(state), OthelloSolver(compiled=False).solve_state(state)
(6, 6)
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Final

from games.base import Move
from games.othello.rules import CORNERS, OTHELLO, Bitboard, OthelloState, flips, move_mask

compiled_search: ModuleType | None
try:
    from games.othello import _endgame as compiled_search
except ImportError:  # built without a C compiler: the Python search runs
    compiled_search = None

MAX_SCORE: Final = 64
TABLE_SIZE: Final = 1 << 20  # entries of 24 bytes: 24 MB a process, kept between moves


def final_score(mover: Bitboard, other: Bitboard) -> int:
    """The mover's score if the game ends here: the empty squares go to the winner."""
    mine, theirs = mover.bit_count(), other.bit_count()
    if mine > theirs:
        return 64 - 2 * theirs
    if mine < theirs:
        return 2 * mine - 64
    return 0


class OthelloSolver:
    """Exact scores for the seat to move (`games.hooks.Solver`); the compiled table lives as long as it does."""

    def __init__(self, compiled: bool = True) -> None:
        self.kernel = compiled_search.Kernel(TABLE_SIZE) if compiled and compiled_search is not None else None
        self.deadline: float | None = None
        self._nodes = 0

    @property
    def nodes(self) -> int:
        return self.kernel.nodes if self.kernel is not None else self._nodes

    @nodes.setter
    def nodes(self, value: int) -> None:
        if self.kernel is not None:
            self.kernel.nodes = value
        self._nodes = value

    def score(self, mover: Bitboard, other: Bitboard, alpha: int = -MAX_SCORE, beta: int = MAX_SCORE) -> int:
        """The fail-soft score within (alpha, beta): exact inside, a bound at or beyond either end."""
        if self.kernel is not None:
            return int(self.kernel.solve(mover, other, alpha, beta, self.deadline))
        return self._search(mover, other, alpha, beta, False)

    def solve_state(self, state: OthelloState, weak: bool = False) -> int:
        mover, other = state.own_opp()
        if weak:
            value = self.score(mover, other, -1, 1)
            return (value > 0) - (value < 0)
        return self.score(mover, other)

    def wins(self, state: OthelloState) -> bool:
        mover, other = state.own_opp()
        return self.score(mover, other, 0, 1) > 0

    def move_scores(self, state: OthelloState) -> dict[Move, int]:
        scores: dict[Move, int] = {}
        for move in OTHELLO.legal_moves(state):
            after = OTHELLO.apply(state, move)
            mover, other = after.own_opp()  # the opponent's view
            if OTHELLO.is_terminal(after):
                scores[move] = -final_score(mover, other)
            else:
                scores[move] = -self.solve_state(after)
        return scores

    # --- the reference search ---------------------------------------------
    def _search(self, mover: Bitboard, other: Bitboard, alpha: int, beta: int, passed: bool) -> int:
        self._nodes += 1
        if self.deadline is not None and self._nodes & 1023 == 0 and time.monotonic() >= self.deadline:
            raise TimeoutError("the deadline passed before the position was solved")
        moves = move_mask(mover, other)
        if not moves:
            if passed:
                return final_score(mover, other)
            return -self._search(other, mover, -beta, -alpha, True)
        best = -MAX_SCORE - 1
        for bit in _fastest_first(mover, other, moves):
            f = flips(mover, other, bit)
            score = -self._search(other ^ f, mover | bit | f, -beta, -max(alpha, best), False)
            if score > best:
                best = score
                if best >= beta:
                    break
        return best


def _fastest_first(mover: Bitboard, other: Bitboard, moves: Bitboard) -> list[Bitboard]:
    """The moves as bits, fewest replies left to the opponent first, a corner a little earlier."""
    keyed = []
    while moves:
        bit = moves & -moves
        moves ^= bit
        f = flips(mover, other, bit)
        replies = move_mask(other ^ f, mover | bit | f).bit_count()
        keyed.append((replies * 4 - (3 if bit & CORNERS else 0), bit.bit_length(), bit))
    keyed.sort()
    return [bit for _, _, bit in keyed]
