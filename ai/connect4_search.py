"""Alpha-beta on Connect Four's bitboards: the search of `ai.alphabeta`, only faster.

DESIGN §2 lets a game offer a faster internal encoding for the searchers' hot loops.
`Connect4AlphaBeta` is `ai.alphabeta.AlphaBeta` with the negamax rewritten on plain
ints: a position is ``(current, mask, moves)`` as in `games.connect4`, a move is a
column index, and nothing is allocated per node but the transposition-table entry.

It is the same search, node for node: the same principal variation search, the same
transposition table (keyed by Pons' ``current + mask``, the game's own `key`), the same
killers, history and centre-first ordering, the same wins-sooner scores and the same
evaluation — `Connect4.evaluate` / `evaluate_terms` and the play styles of
`ai.evaluation`, kept incrementally: each seat's open-window total changes only in the
windows through the stone just played (`CELL_LINES`).  So it returns
the same values, moves, principal variations and node counts as the generic searcher
(tests/ai/test_connect4_search.py checks this on random positions); only nodes per
second differ.  `ai.alphabeta.search` uses it by itself for Connect Four unless
``options["fast"]`` is false.

>>> from games.connect4 import CONNECT4
>>> searcher = Connect4AlphaBeta(CONNECT4)
>>> state = CONNECT4.from_moves("445566")
>>> searcher.search_root(state, 2, ["3", "7", "1"], False, {})  # the win on 3, one ply away
('3', 999.0)
"""

from __future__ import annotations

import itertools
from typing import Final, TypeAlias

from ai.alphabeta import COMPLETE, DECISIVE, INF, NULL_WIDTH, WIN, AlphaBeta, Timeout
from ai.budget import Deadline
from ai.connect4_solver import winning_cells
from ai.evaluation import Evaluator
from ai.tt import EXACT, LOWER, UPPER, TranspositionTable
from games.base import Game, Move, Seat, State
from games.connect4 import CELLS, CENTRE_FIRST, COLUMNS, H1, HEIGHT, WIDTH, WINDOWS, Connect4, Connect4State

Bitboard: TypeAlias = int
Column: TypeAlias = int  # 0..6 from the left; the move string is COLUMNS[column]

NO_MOVE: Final = -1
BOTTOM_BIT: Final = tuple(1 << (c * H1) for c in range(WIDTH))
COLUMN_BITS: Final = tuple(((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH))
TOP_BIT: Final = tuple(1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH))
TOP_ROW: Final = sum(TOP_BIT)
COLUMN_OF: Final[dict[Move, Column]] = {m: c for c, m in enumerate(COLUMNS)}
CLOCK_MASK: Final = 255  # look at the clock every 256 nodes (about a millisecond)

# The open columns, centre first (the game's `order_moves`), by which columns are full.
OPEN_COLUMNS: Final[dict[Bitboard, tuple[Column, ...]]] = {
    sum(TOP_BIT[c] for c in range(WIDTH) if full >> c & 1): tuple(c for c in CENTRE_FIRST if not full >> c & 1)
    for full in range(1 << WIDTH)
}

# --- the evaluation, kept incrementally ---------------------------------------
# `Connect4.evaluate` sums, over the 69 windows, WEIGHTS[stones] for the seat whose
# stones are alone in it.  Both seats' totals live in one int: seat 0's in the low
# bits, seat 1's shifted by SEAT_SHIFT.  A stone changes only the windows through its
# cell; those of one direction lie on a segment of at most 7 cells, and the change
# they make is looked up by the segment's contents, ``(seg & current) + (seg & mask)``
# (unique, as Pons' key is): a few dict lookups per move instead of 69 windows.
WEIGHTS: Final = (0, 1, 4, 16, 0)  # as in Connect4.evaluate
SEAT_SHIFT: Final = 16
SEAT_BITS: Final = (1 << SEAT_SHIFT) - 1
LINE_SHIFTS: Final = (1, H1, H1 - 1, H1 + 1)  # vertical, horizontal, the two diagonals


def _window_delta(a: int, b: int) -> tuple[int, int]:
    """(mover's, other's) change when the mover drops into a window holding `a` of its
    stones and `b` of the other's."""
    mine = WEIGHTS[a + 1] - WEIGHTS[a] if b == 0 else 0
    theirs = -WEIGHTS[b] if a == 0 else 0  # the other seat's window is blocked now
    return mine, theirs


def _cell_lines() -> tuple[dict[Bitboard, tuple[tuple[Bitboard, dict[int, int]], ...]], ...]:
    """Per seat, per cell: ``(segment, packed change by segment contents)`` per direction."""
    out: tuple[dict, dict] = ({}, {})
    for col in range(WIDTH):
        for row in range(HEIGHT):
            cell = 1 << (col * H1 + row)
            lines: tuple[list, list] = ([], [])
            for shift in LINE_SHIFTS:
                windows = [w for w in WINDOWS if w & cell and w & (cell << shift | cell >> shift)]
                if not windows:
                    continue
                segment = 0
                for w in windows:
                    segment |= w
                others = [1 << i for i in range(segment.bit_length()) if (segment ^ cell) >> i & 1]
                tables: tuple[dict[int, int], dict[int, int]] = ({}, {})
                for contents in itertools.product((0, 1, 2), repeat=len(others)):  # empty, mover, other
                    mover = sum(b for b, c in zip(others, contents, strict=True) if c == 1)
                    other = sum(b for b, c in zip(others, contents, strict=True) if c == 2)
                    mine = theirs = 0
                    for w in windows:
                        dm, dt = _window_delta((w & mover).bit_count(), (w & other).bit_count())
                        mine, theirs = mine + dm, theirs + dt
                    key = mover + (mover | other)
                    tables[0][key] = mine + (theirs << SEAT_SHIFT)
                    tables[1][key] = theirs + (mine << SEAT_SHIFT)
                for seat in (0, 1):
                    lines[seat].append((segment, tables[seat]))
            for seat in (0, 1):
                out[seat][cell] = tuple(lines[seat])
    return out


CELL_LINES: Final = _cell_lines()
MAX_TOTAL: Final = sum(WEIGHTS[3] for _ in WINDOWS)  # no seat's total reaches this
# -Connect4.evaluate for the other side, by (own - other) total: a leaf's score in one lookup.
NEGATED_BALANCED: Final = tuple(-max(-0.9, min(0.9, d / 200)) for d in range(-MAX_TOTAL, MAX_TOTAL + 1))


def window_totals(state: Connect4State) -> int:
    """Both seats' open-window totals of `state`, packed (seat 0 low)."""
    packed = 0
    for seat in (0, 1):
        mine, theirs = state.stones(seat), state.stones(1 - seat)
        total = sum(WEIGHTS[(w & mine).bit_count()] for w in WINDOWS if not w & theirs)
        packed += total << (SEAT_SHIFT * seat)
    return packed


def supports(game: Game, state: State) -> bool:
    """True where the kernel computes exactly what the generic search would."""
    cls = type(game)
    return (
        isinstance(game, Connect4)
        and isinstance(state, Connect4State)
        and cls.evaluate is Connect4.evaluate
        and cls.evaluate_terms is Connect4.evaluate_terms
        and cls.order_moves is Connect4.order_moves
        and cls.returns is Connect4.returns
        and game.max_utility == 1.0
    )


def _never() -> bool:
    return False


class Connect4AlphaBeta(AlphaBeta):
    """`AlphaBeta` for Connect Four on raw bitboards (ordering and PVS always on)."""

    def __init__(
        self,
        game: Game,
        deadline: Deadline | None = None,
        evaluator: Evaluator | None = None,
        tt: TranspositionTable | None = None,
        *,
        use_tt: bool = True,
    ) -> None:
        super().__init__(game, deadline, evaluator, tt, use_tt=use_tt)
        self.killers_by_column: list[list[Column]] = [[NO_MOVE, NO_MOVE] for _ in range(len(self.killers))]
        self.history_by_column: list[int] = [0] * WIDTH

    # --- the generic interface, on bitboards ----------------------------------
    def negamax(self, state: State, seat: Seat, depth: int, alpha: float, beta: float, ply: int) -> float:
        """As `AlphaBeta.negamax` (for tests and callers that use it directly)."""
        assert isinstance(state, Connect4State)
        if depth <= 0:
            return self.quiesce(state, seat, alpha, beta, ply, 0)
        negamax, _, flush = self._kernel()
        try:
            return negamax(state.current, state.mask, state.moves, window_totals(state), depth, alpha, beta, ply)
        finally:
            flush()

    def search_root(
        self, state: State, depth: int, moves: list[Move], exact_all: bool, root_values: dict[Move, float]
    ) -> tuple[Move, float]:
        assert isinstance(state, Connect4State)
        _, child_value, flush = self._kernel()
        current, mask, stones = state.current, state.mask, state.moves
        packed = window_totals(state)
        wins = winning_cells(current, mask)
        alpha, beta = -INF, INF
        best_move, best = moves[0], -INF
        try:
            for i, move in enumerate(moves):
                col = COLUMN_OF[move]
                if i == 0 or exact_all:
                    score = child_value(
                        current, mask, stones, packed, wins, col, depth, -INF if exact_all else alpha, beta, 0
                    )
                else:
                    score = child_value(current, mask, stones, packed, wins, col, depth, alpha, alpha + NULL_WIDTH, 0)
                    if score > alpha:
                        score = child_value(current, mask, stones, packed, wins, col, depth, score, beta, 0)
                root_values[move] = score
                if score > best:
                    best, best_move = score, move
                    alpha = max(alpha, score)
        finally:
            flush()
        return best_move, best

    def principal_variation(self, state: State, first: Move, limit: int) -> list[Move]:
        assert isinstance(state, Connect4State)
        pv = [first]
        state = self.game.apply(state, first)
        seen = set()
        tt = self.tt
        while tt is not None and len(pv) < limit and not self.game.is_terminal(state):
            key = state.current + state.mask
            entry = tt.probe(key)
            if entry is None or entry[3] is None or entry[3] == NO_MOVE or key in seen:
                break
            col = entry[3]
            if state.mask & TOP_BIT[col]:
                break
            seen.add(key)
            pv.append(COLUMNS[col])
            state = self.game.apply(state, COLUMNS[col])
        return pv

    # --- the kernel -----------------------------------------------------------
    def _kernel(self):  # noqa: C901 - one hot loop, kept in one place on purpose
        """Closures ``negamax``, ``child_value`` and ``flush`` over this searcher's tables.

        Counters live in the closure (cheaper than attributes); ``flush`` writes them back
        onto the searcher and retires the kernel (call it once, also after a timeout).  The searcher does not keep them,
        so no reference cycle keeps it (and its table) alive after a search.
        """
        tt = self.tt
        slots = tt.slots if tt is not None else None
        tt_mask = tt.mask if tt is not None else 0
        age = tt.age if tt is not None else 0
        killers = self.killers_by_column
        history = self.history_by_column
        by_history = history.__getitem__
        expired = self.deadline.expired if self.deadline is not None else _never
        evaluator = self.evaluate
        balanced = evaluator.style == "balanced" or getattr(self.game, "evaluate_terms", None) is None
        mine_weight, theirs_weight, limit = evaluator.mine_weight, evaluator.theirs_weight, evaluator.limit
        draw_value = evaluator.draw_value
        root_parity = self.root_seat
        open_columns, bottom_bit, column_bits = OPEN_COLUMNS, BOTTOM_BIT, COLUMN_BITS
        cell_lines = CELL_LINES
        negated_balanced = NEGATED_BALANCED
        nodes = self.nodes
        cut = self.depth_cut
        probes = hits = stores = 0

        def leaf(packed: int, seat: Seat) -> float:
            """The evaluation of a live position for `seat`, from the packed totals."""
            if seat:
                own, other = packed >> SEAT_SHIFT, packed & SEAT_BITS
            else:
                own, other = packed & SEAT_BITS, packed >> SEAT_SHIFT
            if balanced:
                return max(-0.9, min(0.9, (own - other) / 200))
            value = mine_weight * (own / 200) - theirs_weight * (other / 200)
            return max(-limit, min(limit, value))

        def child_value(
            cur: int, mask: int, stones: int, packed: int, wins: int, col: Column,
            depth: int, alpha: float, beta: float, ply: int,
        ) -> float:  # fmt: skip
            """`AlphaBeta.child_score`: the value for the mover of dropping in `col`."""
            nonlocal nodes, cut
            move = (mask + bottom_bit[col]) & column_bits[col]
            if move & wins or stones + 1 == CELLS:
                nodes += 1
                if move & wins:
                    return WIN - (ply + 1)
                return draw_value if stones & 1 == root_parity else -draw_value
            seat = stones & 1
            for segment, change in cell_lines[seat][move]:
                packed += change[(segment & cur) + (segment & mask)]
            if depth <= 1:
                nodes += 1
                if not nodes & CLOCK_MASK and expired():
                    raise Timeout
                cut = True
                return -leaf(packed, seat ^ 1)
            return -negamax(cur ^ mask, mask | move, stones + 1, packed, depth - 1, -beta, -alpha, ply + 1)

        def negamax(
            cur: int, mask: int, stones: int, packed: int, depth: int, alpha: float, beta: float, ply: int
        ) -> float:
            """`AlphaBeta.negamax` for a live position at ``depth >= 1``."""
            nonlocal nodes, cut, probes, hits, stores
            nodes += 1
            if not nodes & CLOCK_MASK and expired():
                raise Timeout
            tt_move = NO_MOVE
            if slots is not None:
                key = cur + mask
                probes += 1
                entry = slots[key & tt_mask]  # the generic table's slot: hash(key) == key below 2**61
                if entry is not None and entry[0] == key:
                    hits += 1
                    tt_move = entry[4]
                    e_depth = entry[1]
                    if e_depth >= depth:
                        if e_depth < COMPLETE:
                            cut = True
                        score = entry[3]
                        if score > DECISIVE:
                            score -= ply
                        elif score < -DECISIVE:
                            score += ply
                        flag = entry[2]
                        if flag == EXACT:
                            return score
                        if flag == LOWER:
                            if score >= beta:
                                return score
                        elif score <= alpha:
                            return score
            alpha0 = alpha
            outer_cut = cut
            cut = False
            order = open_columns[mask & TOP_ROW]
            if len(order) > 1:
                order = sorted(order, key=by_history, reverse=True)  # stable: centre first on ties
                k0, k1 = killers[ply]
                if k1 in order:
                    order.remove(k1)
                    order.insert(0, k1)
                if k0 in order:
                    order.remove(k0)
                    order.insert(0, k0)
                if tt_move in order:
                    order.remove(tt_move)
                    order.insert(0, tt_move)
            seat = stones & 1
            lines = cell_lines[seat]
            # The cells where the mover would make four (`winning_cells`, inlined; only
            # ever tested against an empty cell, so not masked to the empty ones).
            wins = (cur << 1) & (cur << 2) & (cur << 3)
            up1, up2, down1, down2 = cur << 7, cur << 14, cur >> 7, cur >> 14
            wins |= (up1 & up2 & ((cur << 21) | down1)) | (down1 & down2 & (up1 | (cur >> 21)))
            up1, up2, down1, down2 = cur << 6, cur << 12, cur >> 6, cur >> 12
            wins |= (up1 & up2 & ((cur << 18) | down1)) | (down1 & down2 & (up1 | (cur >> 18)))
            up1, up2, down1, down2 = cur << 8, cur << 16, cur >> 8, cur >> 16
            wins |= (up1 & up2 & ((cur << 24) | down1)) | (down1 & down2 & (up1 | (cur >> 24)))
            other = cur ^ mask
            last = stones + 1 == CELLS
            won = WIN - (ply + 1)
            drawn = draw_value if seat == root_parity else -draw_value
            best, best_move = -INF, NO_MOVE
            first = True
            for col in order:
                move = (mask + bottom_bit[col]) & column_bits[col]
                if move & wins or last:  # the game ends here
                    nodes += 1
                    score = won if move & wins else drawn
                    if not first and alpha < score < beta:
                        nodes += 1  # the generic search looks at it again with the full window
                elif depth <= 1:  # a leaf: the evaluation, from the child's side, negated
                    child = packed
                    for segment, change in lines[move]:
                        child += change[(segment & cur) + (segment & mask)]
                    nodes += 1
                    if not nodes & CLOCK_MASK and expired():
                        raise Timeout
                    cut = True
                    if seat:
                        own, theirs = child & SEAT_BITS, child >> SEAT_SHIFT
                    else:
                        own, theirs = child >> SEAT_SHIFT, child & SEAT_BITS
                    if balanced:
                        score = negated_balanced[own - theirs + MAX_TOTAL]
                    else:
                        score = -max(-limit, min(limit, mine_weight * (own / 200) - theirs_weight * (theirs / 200)))
                    if not first and alpha < score < beta:
                        nodes += 1
                else:
                    child = packed
                    for segment, change in lines[move]:
                        child += change[(segment & cur) + (segment & mask)]
                    if first:
                        score = -negamax(other, mask | move, stones + 1, child, depth - 1, -beta, -alpha, ply + 1)
                    else:
                        score = -negamax(
                            other, mask | move, stones + 1, child, depth - 1, -(alpha + NULL_WIDTH), -alpha, ply + 1
                        )
                        if alpha < score < beta:
                            score = -negamax(other, mask | move, stones + 1, child, depth - 1, -beta, -score, ply + 1)
                first = False
                if score > best:
                    best, best_move = score, col
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            ks = killers[ply]
                            if ks[0] != col:
                                ks[1] = ks[0]
                                ks[0] = col
                            history[col] += depth * depth
                            break
            if slots is not None:
                flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
                stored = best
                if best > DECISIVE:
                    stored = best + ply
                elif best < -DECISIVE:
                    stored = best - ply
                stored_depth = depth if cut else COMPLETE
                index = key & tt_mask
                old = slots[index]
                if old is None or stored_depth >= old[1] or old[5] != age:
                    slots[index] = (key, stored_depth, flag, stored, best_move, age)
                    stores += 1
            cut = cut or outer_cut
            return best

        def flush() -> None:
            nonlocal probes, hits, stores, negamax, child_value
            searcher.nodes, searcher.depth_cut = nodes, cut
            if tt is not None:
                tt.probes += probes
                tt.hits += hits
                tt.stores += stores
            probes = hits = stores = 0
            # The two call each other through their closure cells: a reference cycle that
            # would keep the table alive until a full collection, which searches hold off
            # (`collector_paused`).  The kernel is done with once flushed: break the cycle.
            negamax = child_value = None  # type: ignore[assignment]

        searcher = self  # referred to by `flush` only, which the caller drops after use
        return negamax, child_value, flush
