"""An exact Connect Four solver on bitboards (after Pascal Pons, "Solving Connect 4").

Negamax with alpha-beta on the layout of `games.connect4.bitboard`, and
what makes it node-efficient rather than only fast:

- null-window probes: the score is found by a binary search of ``negamax(med, med + 1)``
  calls ("iterative narrowing"), each one a cheap yes/no question;
- the children are only the moves that do not lose at once (forced blocks, never
  playing under an opponent's winning cell), so the search never looks at a blunder;
- move ordering by threats: the move that creates the most winning cells first,
  the centre first among equals;
- a transposition table holding lower and upper bounds by position key;
- score bounds from the number of stones left (a win cannot come sooner than...).

The same search is compiled (`games/connect4/_solver.c`, built by ``pip install``) and
runs where it was built: about 20 times faster, with its own transposition table (one
64-bit word an entry, 32 MB) and the opening book (`games.connect4.book`) read as bounds.
Without it, or with ``compiled=False``, the Python search runs: the reference the tests
compare the compiled one against.  Its hot loop is `Connect4Solver.search`, a closure
built per solve: bit tricks inlined, counters and tables in local variables, no call but
the recursion.  `negamax` is the same search written plainly, one method call per node;
it runs instead where a subclass overrides it (a hook, e.g. to check a clock) — both visit
the same nodes.

Scores follow the published test sets: positive when the side to move wins,
``(43 - stones) // 2`` if it wins with its next stone, less the later it wins; 0 a draw.

>>> from games.connect4 import CONNECT4
>>> solver = Connect4Solver()
>>> solver.solve_state(CONNECT4.from_moves("2252576253462244111563365343671351441"))
-1
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Final

from games.connect4.bitboard import (
    BOARD_MASK,
    BOTTOM,
    CELLS,
    COLUMN_MASKS_CENTRE_FIRST,
    H1,
    HEIGHT,
    TOP_MASK,
    WIDTH,
    WINDOWS,
    drop,
    has_four,
    winning_cells,
)
from games.connect4.rules import COLUMNS, Connect4State

compiled_solver: ModuleType | None
try:
    from games.connect4 import _solver as compiled_solver
except ImportError:  # built without a C compiler: the Python search runs
    compiled_solver = None

# Entries per table before it is cleared, so that a long-lived process (a bot worker
# serving match after match) stays small: a bound entry costs about 100 bytes, a move
# order about 500, so the three tables hold at most ~75 MB.  Bounded only at millions of
# entries they grew past a gigabyte over a few dozen exact endgames, and solved no more of
# them within the Master's time than these limits do (benchmarks/README.md, "Server: bot
# capacity of one worker").
TT_LIMIT: Final = 250_000  # entries per bound table (lower, upper)
ORDERS_LIMIT: Final = 50_000  # move orders kept by position (`search`)
CLOCK_MASK: Final = 1023  # with a deadline, look at the clock every 1024 nodes
# Column masks by rank in the centre-first order, for decoding the sort keys of `search`.
RANKED_COLUMNS: Final = COLUMN_MASKS_CENTRE_FIRST
Negamax = Callable[..., int]


def _nothing() -> None:
    pass


def _new_wins() -> dict[int, tuple[tuple[int, dict[int, int]], ...]]:
    """Per cell: for each line direction through it, ``(segment, wins)`` where
    ``wins[segment & stones]`` are the cells a stone on that cell makes winning
    (with two of `stones`, along that line) — what it adds to `winning_cells`."""
    windows = WINDOWS
    out = {}
    for col in range(WIDTH):
        for row in range(HEIGHT):
            cell = 1 << (col * H1 + row)
            lines = []
            for shift in (1, H1, H1 - 1, H1 + 1):
                through = [w for w in windows if w & cell and w & (cell << shift | cell >> shift)]
                if not through:
                    continue
                segment = 0
                for w in through:
                    segment |= w
                segment ^= cell
                bits = [1 << i for i in range(segment.bit_length()) if segment >> i & 1]
                wins = {}
                for pattern in range(1 << len(bits)):
                    stones = sum(b for i, b in enumerate(bits) if pattern >> i & 1)
                    made = 0
                    for w in through:
                        for i in range(w.bit_length()):
                            spot = 1 << i
                            if w & spot and spot != cell and (w ^ cell ^ spot) & stones == w ^ cell ^ spot:
                                made |= spot
                    wins[stones] = made
                lines.append((segment, wins))
            out[cell] = tuple(lines)
    return out


NEW_WINS: Final = _new_wins()


class Connect4Solver:
    """Keeps its transposition table between calls: solving related positions gets cheaper.

    With a `deadline` (a `time.monotonic()` instant), a solve that runs past it raises
    `TimeoutError`.
    """

    def __init__(self, deadline: float | None = None, compiled: bool = True, book: bool = True) -> None:
        """`compiled`: the C search where it was built; `book`: with it, the opening book too."""
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.orders: dict[int, Sequence[tuple[int, int, int, int]]] = {}  # search's move order per position
        self.nodes = 0
        self.deadline = deadline
        self.kernel: Any = None
        self.kernel_lock = threading.Lock()
        if compiled and compiled_solver is not None and type(self).negamax is Connect4Solver.negamax:
            self.kernel = compiled_solver.Kernel()
            if book:
                from games.connect4.book import BOOK

                if BOOK is not None:
                    self.kernel.set_book(BOOK.entries, BOOK.ply)

    def reset(self) -> None:
        self.lower.clear()
        self.upper.clear()
        self.orders.clear()
        self.nodes = 0
        if self.kernel is not None:
            self.kernel.reset()

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

    def solve(self, current: int, mask: int, moves: int, weak: bool = False, above: int | None = None) -> int:
        """The exact score of a live position (or only its sign when `weak`).

        With `above`, only whether the score is above it: a result above `above` when it
        is, at most `above` when it is not (one null-window probe).
        """
        low, high = -((CELLS - moves) // 2), (CELLS + 1 - moves) // 2
        if weak:
            low, high = -1, 1
        if above is not None:
            low, high = max(low, above), min(high, above + 1)
        if self.kernel is not None:  # it checks for a game over and a win at once itself
            with self.kernel_lock:  # it searches without the GIL: one thread at a time
                self.kernel.nodes = 0
                try:
                    return int(self.kernel.solve(current, mask, moves, low, high, self.deadline))
                finally:
                    self.nodes += self.kernel.nodes
        if has_four(current ^ mask):  # the previous stone won
            return -((CELLS + 2 - moves) // 2)
        if moves >= CELLS:
            return 0
        possible = (mask + BOTTOM) & BOARD_MASK
        if winning_cells(current, mask) & possible:
            return (CELLS + 1 - moves) // 2
        if type(self).negamax is Connect4Solver.negamax:
            negamax, flush = self.search()
        else:  # a subclass hooks into every node: the plain search
            negamax, flush = self.negamax, _nothing
        while low < high:  # iterative narrowing by null-window probes
            med = low + (high - low) // 2
            if med <= 0 and -(-low // 2) < med:  # low / 2 rounded towards zero
                med = -(-low // 2)
            elif med >= 0 and high // 2 > med:
                med = high // 2
            try:
                score = negamax(current, mask, moves, med, med + 1)
            finally:
                flush()
            if score <= med:
                high = score
            else:
                low = score
        return low

    def search(self) -> tuple[Negamax, Callable[[], None]]:  # noqa: C901 - the hot loop, in one piece on purpose
        """`negamax` as a closure over local tables, the same nodes several times faster,
        and ``flush``, which writes its node count back onto the solver.

        What `negamax` recomputes at every node is carried instead: a node's move order
        (by position, as the narrowing probes come back to the same positions again and
        again), and both sides' winning cells, handed down to each child with its move
        (the threats that ordered the move are the child's opponent's winning cells;
        a move adds to its side's winning cells only along its own lines, `NEW_WINS`).
        """
        lower, upper = self.lower, self.upper
        lower_get, upper_get = lower.get, upper.get
        orders = self.orders
        orders_get = orders.get
        at = math.inf if self.deadline is None else self.deadline
        monotonic = time.monotonic
        ranked = RANKED_COLUMNS
        new_wins = NEW_WINS
        board, bottom = BOARD_MASK, BOTTOM
        nodes = self.nodes

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, opponent_win: int = -1, own_win: int = -1
        ) -> int:
            """`Connect4Solver.negamax`; the winning cells of each side (among the empty
            cells), where known, or -1."""
            nonlocal nodes
            nodes += 1
            if not nodes & CLOCK_MASK and monotonic() >= at:
                raise TimeoutError("the deadline passed before the position was solved")
            key = current + mask
            order = orders_get(key)
            if order is None:
                possible = (mask + bottom) & board
                if opponent_win < 0:  # winning_cells(opponent, mask), inlined
                    s = current ^ mask
                    r = (s << 1) & (s << 2) & (s << 3)
                    u = s << 7
                    d = s >> 7
                    r |= (u & (s << 14) & ((s << 21) | d)) | (d & (s >> 14) & (u | (s >> 21)))
                    u = s << 6
                    d = s >> 6
                    r |= (u & (s << 12) & ((s << 18) | d)) | (d & (s >> 12) & (u | (s >> 18)))
                    u = s << 8
                    d = s >> 8
                    r |= (u & (s << 16) & ((s << 24) | d)) | (d & (s >> 16) & (u | (s >> 24)))
                    opponent_win = r & (board ^ mask)
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
            bound = upper_get(key)
            if bound is not None and bound < high:
                high = bound
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
            bound = lower_get(key)
            if bound is not None and bound > alpha:
                alpha = bound
                if alpha >= beta:
                    return alpha

            if order is None:
                # (sort key, move, the child's opponent_win, the child's own_win), best first.
                if candidates & (candidates - 1):
                    # By the threats each move creates, the centre first among equals.
                    empty = board ^ mask
                    if own_win < 0:  # winning_cells(current, mask), inlined
                        own_win = (current << 1) & (current << 2) & (current << 3)
                        u = current << 7
                        d = current >> 7
                        own_win |= (u & (current << 14) & ((current << 21) | d)) | (
                            d & (current >> 14) & (u | (current >> 21))
                        )
                        u = current << 6
                        d = current >> 6
                        own_win |= (u & (current << 12) & ((current << 18) | d)) | (
                            d & (current >> 12) & (u | (current >> 18))
                        )
                        u = current << 8
                        d = current >> 8
                        own_win |= (u & (current << 16) & ((current << 24) | d)) | (
                            d & (current >> 16) & (u | (current >> 24))
                        )
                        own_win &= empty
                    keyed = []
                    for rank in range(7):
                        move = candidates & ranked[rank]
                        if move:
                            r = own_win
                            for segment, wins in new_wins[move]:
                                r |= wins[segment & current]
                            r &= empty
                            keyed.append((r.bit_count() * 8 + 7 - rank, move, r, opponent_win & ~move))
                    keyed.sort(reverse=True)  # sort keys differ: the rest is never compared
                    order = keyed
                else:
                    order = ((0, candidates, -1, opponent_win & ~candidates),)
                if len(orders) > ORDERS_LIMIT:
                    orders.clear()
                orders[key] = order
            next_current = current ^ mask
            next_moves = moves + 1
            for _, move, threats, blocked in order:
                score = -negamax(next_current, mask | move, next_moves, -beta, -alpha, threats, blocked)
                if score >= beta:
                    if len(lower) > TT_LIMIT:
                        lower.clear()
                    lower[key] = score
                    return score
                if score > alpha:
                    alpha = score
            if len(upper) > TT_LIMIT:
                upper.clear()
            upper[key] = alpha
            return alpha

        solver = self

        def flush() -> None:
            solver.nodes = nodes

        return negamax, flush

    def solve_state(self, state: Connect4State, weak: bool = False) -> int:
        return self.solve(state.current, state.mask, state.moves, weak)

    def wins(self, state: Connect4State) -> bool:
        return self.solve(state.current, state.mask, state.moves, above=0) > 0

    def move_scores(self, state: Connect4State) -> dict[str, int]:
        """The exact score of every legal move, for the seat to move (as in analysis boards)."""
        out = {}
        for col in range(WIDTH):
            if state.mask & TOP_MASK[col]:
                continue
            move = drop(state.mask, col)
            if winning_cells(state.current, state.mask) & move:
                out[COLUMNS[col]] = (CELLS + 1 - state.moves) // 2
                continue
            out[COLUMNS[col]] = -self.solve(state.current ^ state.mask, state.mask | move, state.moves + 1)
        return out
