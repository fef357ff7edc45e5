"""Alpha-beta's negamax on Connect Four's bitboards (`Game.search_kernel`, `games.hooks`).

docs/design.md §2 lets a game offer a faster internal encoding for the searchers' hot
loops.  This kernel is the negamax of ``ai.alphabeta`` rewritten on plain ints: a
position is ``(current, mask, moves)`` as in `games.connect4.bitboard`, a move is a
column index, and nothing is allocated per node but the transposition-table entry.
``ai.kernel_search`` drives it, handing over its tables, clock, score scale and style.

It is the same search, node for node: the same principal variation search, the same
transposition table (keyed by Pons' ``current + mask``, the game's own `key`), the same
killers, history and centre-first ordering, the same wins-sooner scores and the same
evaluation — `Connect4.evaluate` / `evaluate_terms` weighed by the play style, kept
incrementally: each seat's open-window total changes only in the windows through the
stone just played (`CELL_LINES`).  So it returns the same values, moves, principal
variations and node counts as the generic searcher (tests/ai/test_kernel_search.py
checks this on random positions); only nodes per second differ.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final

from games.base import Game, Move, Seat
from games.connect4.bitboard import (
    BOTTOM_MASK,
    CELLS,
    CENTRE_FIRST,
    COLUMN_MASK,
    H1,
    HEIGHT,
    TOP_MASK,
    TOP_ROW,
    WIDTH,
    WINDOWS,
    Bitboard,
    Column,
    winning_cells,
)
from games.connect4.rules import COLUMNS, WINDOW_WEIGHTS, Connect4, Connect4State
from games.hooks import EXACT, LOWER, NO_MOVE, UPPER, KernelSetup, KernelTally

COLUMN_OF: Final[dict[Move, Column]] = {m: c for c, m in enumerate(COLUMNS)}
CLOCK_MASK: Final = 255  # look at the clock every 256 nodes (about a millisecond)

# The open columns, centre first (the game's `order_moves`), by which columns are full.
OPEN_COLUMNS: Final[dict[Bitboard, tuple[Column, ...]]] = {
    sum(TOP_MASK[c] for c in range(WIDTH) if full >> c & 1): tuple(c for c in CENTRE_FIRST if not full >> c & 1)
    for full in range(1 << WIDTH)
}

# --- the evaluation, kept incrementally ---------------------------------------
# `Connect4.evaluate` sums, over the 69 windows, WEIGHTS[stones] for the seat whose
# stones are alone in it.  Both seats' totals live in one int: seat 0's in the low
# bits, seat 1's shifted by SEAT_SHIFT.  A stone changes only the windows through its
# cell; those of one direction lie on a segment of at most 7 cells, and the change
# they make is looked up by the segment's contents, ``(seg & current) + (seg & mask)``
# (unique, as Pons' key is): a few dict lookups per move instead of 69 windows.
WEIGHTS: Final = WINDOW_WEIGHTS
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
    out: tuple[dict[Bitboard, Any], dict[Bitboard, Any]] = ({}, {})
    for col in range(WIDTH):
        for row in range(HEIGHT):
            cell = 1 << (col * H1 + row)
            lines: tuple[list[Any], list[Any]] = ([], [])
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


class Connect4Kernel:
    """The `games.hooks.SearchKernel` of Connect Four."""

    name = "connect4-bitboard"
    move_codes = WIDTH

    def supports(self, game: Game[Any], state: Any) -> bool:
        """True where the kernel computes exactly what the generic search would."""
        if not isinstance(game, Connect4) or not isinstance(state, Connect4State):
            return False
        cls = type(game)
        return (
            cls.evaluate is Connect4.evaluate
            and cls.evaluate_terms is Connect4.evaluate_terms
            and cls.order_moves is Connect4.order_moves
            and cls.returns is Connect4.returns
            and game.max_utility == 1.0
        )

    def start(self, setup: KernelSetup) -> Connect4Pass:
        return Connect4Pass(setup)

    def move_text(self, state: Connect4State, code: int) -> Move | None:
        if code == NO_MOVE or state.mask & TOP_MASK[code]:
            return None
        return COLUMNS[code]


KERNEL: Final = Connect4Kernel()


class Connect4Pass:
    """One pass of the kernel (an iteration's root search, or one negamax call)."""

    def __init__(self, setup: KernelSetup) -> None:
        self._negamax, self._child_value, self._flush = _kernel(setup)
        self._null_width = setup.scale.null_width

    def negamax(self, state: Connect4State, depth: int, alpha: float, beta: float, ply: int) -> float:
        return self._negamax(state.current, state.mask, state.moves, window_totals(state), depth, alpha, beta, ply)

    def search_root(
        self, state: Connect4State, depth: int, moves: list[Move], exact_all: bool, root_values: dict[Move, float]
    ) -> tuple[Move, float]:
        """The root loop of principal variation search, as the generic searcher's."""
        child_value = self._child_value
        null_width = self._null_width
        current, mask, stones = state.current, state.mask, state.moves
        packed = window_totals(state)
        wins = winning_cells(current, mask)
        inf = float("inf")
        alpha, beta = -inf, inf
        best_move, best = moves[0], -inf
        for i, move in enumerate(moves):
            col = COLUMN_OF[move]
            if i == 0 or exact_all:
                score = child_value(
                    current, mask, stones, packed, wins, col, depth, -inf if exact_all else alpha, beta, 0
                )
            else:
                score = child_value(current, mask, stones, packed, wins, col, depth, alpha, alpha + null_width, 0)
                if score > alpha:
                    score = child_value(current, mask, stones, packed, wins, col, depth, score, beta, 0)
            root_values[move] = score
            if score > best:
                best, best_move = score, move
                alpha = max(alpha, score)
        return best_move, best

    def finish(self) -> KernelTally:
        return self._flush()


Kernel = tuple[Callable[..., float], Callable[..., float], Callable[[], KernelTally]]


def _kernel(setup: KernelSetup) -> Kernel:  # noqa: C901 - one hot loop, kept in one place on purpose
    """Closures ``negamax``, ``child_value`` and ``flush`` over the searcher's tables.

    Counters live in the closure (cheaper than attributes); ``flush`` hands them back.
    """
    slots = setup.slots
    tt_mask = setup.table_mask
    age = setup.table_age
    killers = setup.killers
    history = setup.history
    by_history = history.__getitem__
    stop = setup.stop
    style = setup.style
    balanced = style.balanced
    mine_weight, theirs_weight, limit = style.mine, style.theirs, style.limit
    draw_value = style.draw_value
    root_parity = setup.root_seat
    scale = setup.scale
    WIN, DECISIVE, COMPLETE, NULL_WIDTH = scale.win, scale.decisive, scale.complete, scale.null_width  # noqa: N806
    INF = float("inf")  # noqa: N806
    open_columns, bottom_bit, column_bits = OPEN_COLUMNS, BOTTOM_MASK, COLUMN_MASK
    cell_lines = CELL_LINES
    negated_balanced = NEGATED_BALANCED
    nodes = setup.nodes
    cut = setup.depth_cut
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
            if not nodes & CLOCK_MASK:
                stop()
            cut = True
            return -leaf(packed, seat ^ 1)
        return -negamax(cur ^ mask, mask | move, stones + 1, packed, depth - 1, -beta, -alpha, ply + 1)

    def negamax(
        cur: int, mask: int, stones: int, packed: int, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        """`AlphaBeta.negamax` for a live position at ``depth >= 1``."""
        nonlocal nodes, cut, probes, hits, stores
        nodes += 1
        if not nodes & CLOCK_MASK:
            stop()
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
                    score: float = entry[3]
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
        order: Sequence[Column] = open_columns[mask & TOP_ROW]
        if len(order) > 1:
            ranked = sorted(order, key=by_history, reverse=True)  # stable: centre first on ties
            k0, k1 = killers[ply]
            if k1 in ranked:
                ranked.remove(k1)
                ranked.insert(0, k1)
            if k0 in ranked:
                ranked.remove(k0)
                ranked.insert(0, k0)
            if tt_move in ranked:
                ranked.remove(tt_move)
                ranked.insert(0, tt_move)
            order = ranked
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
                if not nodes & CLOCK_MASK:
                    stop()
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

    def flush() -> KernelTally:
        nonlocal probes, hits, stores, negamax, child_value
        tally = KernelTally(nodes, cut, probes, hits, stores)
        probes = hits = stores = 0
        # The two call each other through their closure cells: a reference cycle that
        # would keep the table alive until a full collection, which searches hold off.
        # The pass is done with once flushed: break the cycle.
        negamax = child_value = None  # type: ignore[assignment]  # done with: breaks the closures\' cycle
        return tally

    return negamax, child_value, flush
