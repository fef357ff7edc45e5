"""Exact values of small checkers endgames, the 40-move rule included: a retrograde solver of our own.

The positions of an endgame fall into *stretches*: a capture or a man's move never comes
back (material only goes, men only go forward) and resets the 40-move count, so the
positions joined by kings' quiet moves, the same men on the same squares and the same
number of kings, form one stretch, and every other move leaves it for a stretch solved
before it.  Within a stretch the solver runs a retrograde analysis (backwards from the
positions whose values are known: no move left, or a capture or man's move whose value the
next stretch gave) and gets, for every position, how many quiet plies the side to move
needs to win, or can hold out before it loses, against best play.  The 40-move rule is
then a threshold: with `quiet` plies of the count used, a position is won when its winner
needs at most ``80 - quiet`` of them, and drawn when neither side can force a result within
them (`rules.QUIET_PLIES_DRAW`).  A stretch's positions are every placement of its kings
around its men, both sides to move, solved once and kept.

Threefold repetition changes no value: the winner's shortest way never comes back to a
position (each of its moves shortens what is left), and the side holding a draw loses
nothing by a repetition.  The values are exact for a state whose `seen` is empty (after a
capture or a man's move, or a fresh position); with history behind it, a position already
seen twice may end a winning line early.

Cost: a stretch of three kings is ~30,000 positions (seconds); of four kings ten times that
(minutes).  `MAX_PIECES` bounds what a caller may ask.

>>> from games.checkers.rules import CheckersState
>>> solver = EndgameSolver()
>>> kings = 1 << 0 | 1 << 2 | 1 << 31            # Black kings on 1 and 3, a White king on 32
>>> solver.verdict(CheckersState(black=1 << 0 | 1 << 2, white=1 << 31, kings=kings, to_move=0)).value
1
>>> solver.verdict(CheckersState(black=1 << 0, white=1 << 31, kings=1 << 0 | 1 << 31, to_move=0)).value
0
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from itertools import combinations
from typing import Final, TypeAlias

from games.base import Move
from games.checkers.rules import BLACK, CHECKERS, KING_ROW, QUIET_PLIES_DRAW, WHITE, CheckersState, children

MAX_PIECES: Final = 4  # three kings against one: 290,000 positions, minutes and ~200 MB (benchmarks/README.md)

Key: TypeAlias = tuple[int, int, int, int]  # `CheckersState.key`: black, white, kings, seat to move
Stretch: TypeAlias = tuple[int, int, int, int]  # black men, white men, black kings, white kings (counts)

WIN: Final = 1
DRAW: Final = 0
LOSS: Final = -1


@dataclass(frozen=True)
class Verdict:
    """A position's value for the side to move with best play, and how long it takes.

    `quiet_plies`: of the 40-move rule's plies, how many the result needs: the winner's plies
    before it wins or makes its next capture or man's move (which keeps the win), or the
    loser's longest defence until then; None for a draw.  (Chess tables call this the
    distance to zeroing.)
    """

    value: int  # WIN, DRAW or LOSS for the side to move
    quiet_plies: int | None


@dataclass
class _Distances:
    """Each solved position's quiet plies to a forced win (`won`) or loss (`lost`) for the side to move."""

    won: dict[Key, int]
    lost: dict[Key, int]


class EndgameSolver:
    """Exact values and moves for positions of at most `MAX_PIECES` pieces; stretches solved on demand, kept."""

    def __init__(self) -> None:
        self._distances = _Distances({}, {})
        self._solved: set[Stretch] = set()

    def verdict(self, state: CheckersState) -> Verdict:
        """The value of `state` for the side to move, its 40-move count (`state.quiet`) counted."""
        _check_size(state)
        if CHECKERS.is_terminal(state):
            outcome = CHECKERS.outcome(state)
            if outcome.winner is None:
                return Verdict(DRAW, None)
            return Verdict(WIN if outcome.winner == state.to_move else LOSS, 0)
        self._solve(_stretch(state.key))
        left = QUIET_PLIES_DRAW - state.quiet
        won, lost = self._distances.won.get(state.key), self._distances.lost.get(state.key)
        if won is not None and won <= left:
            return Verdict(WIN, won)
        if lost is not None and lost <= left:
            return Verdict(LOSS, lost)
        return Verdict(DRAW, None)

    def moves_keeping(self, state: CheckersState) -> list[Move]:
        """The legal moves that keep `state`'s value for the side to move, in the rules' order.

        In a won position every one of them wins (each leaves the loser fewer plies than the
        count allows); in a lost one, they hold out longest.
        """
        verdict = self.verdict(state)
        moves = CHECKERS.legal_moves(state)
        replies = {move: self.verdict(CHECKERS.apply(state, move)) for move in moves}
        keeping = [move for move in moves if -replies[move].value == verdict.value]
        if verdict.value == LOSS:
            longest = max(replies[move].quiet_plies or 0 for move in keeping)
            keeping = [move for move in keeping if (replies[move].quiet_plies or 0) == longest]
        return keeping

    def best_move(self, state: CheckersState) -> Move:
        """Exact play: the fastest win (a capture or man's move that keeps the win first), else a
        drawing move, else the longest defence."""
        keeping = self.moves_keeping(state)
        if self.verdict(state).value != WIN:
            return keeping[0]

        def plies_left(move: Move) -> int:
            after = CHECKERS.apply(state, move)
            return -1 if after.quiet == 0 else self.verdict(after).quiet_plies or 0

        return min(keeping, key=plies_left)

    # --- the retrograde analysis ---------------------------------------------------
    def _solve(self, stretch: Stretch) -> None:
        if stretch in self._solved:
            return
        positions = list(_positions(stretch))
        index = {key: i for i, key in enumerate(positions)}
        parents: list[list[int]] = [[] for _ in positions]
        quiet_moves = [0] * len(positions)  # of each position's quiet moves, those not yet known to lose
        won = [0] * len(positions)  # plies; 0: not (yet) known
        lost = [0] * len(positions)
        queue: deque[int] = deque()
        for i, key in enumerate(positions):
            state = CheckersState(*key)
            wins_at_once = holds = False  # holds: a capture or man's move that draws, so i cannot be lost
            for after in children(state):
                if after.quiet:  # a king's quiet move: a position of this stretch
                    parents[index[after.key]].append(i)
                    quiet_moves[i] += 1
                    continue
                value = self.verdict(after).value  # the next stretch's, its count at 0
                wins_at_once |= value == LOSS
                holds |= value == DRAW
            if wins_at_once:
                won[i] = 1
                queue.append(i)
            elif holds:
                quiet_moves[i] = -1  # never counted down to a loss
            elif quiet_moves[i] == 0:
                lost[i] = 1  # no move at all, or every move loses at once
                queue.append(i)
        longest = [1] * len(positions)  # a losing position's longest defence found so far
        while queue:
            i = queue.popleft()
            if won[i]:
                for parent in parents[i]:
                    if won[parent] or lost[parent] or quiet_moves[parent] < 0:
                        continue
                    longest[parent] = max(longest[parent], won[i] + 1)
                    quiet_moves[parent] -= 1
                    if quiet_moves[parent] == 0:
                        lost[parent] = longest[parent]
                        queue.append(parent)
            else:
                for parent in parents[i]:
                    if not won[parent] and not lost[parent]:
                        won[parent] = lost[i] + 1
                        queue.append(parent)
        for key, w, lo in zip(positions, won, lost, strict=True):
            if w:
                self._distances.won[key] = w
            elif lo:
                self._distances.lost[key] = lo
        self._solved.add(stretch)


def random_endgame(rng: random.Random, pieces: int, king_share: float = 0.5) -> CheckersState:
    """A random position of `pieces` pieces, each side at least one, for play to be checked on.

    Each piece is a king with chance `king_share` (always on its crowning row), either side
    to move, the count at 0; drawn again until the side to move has a move.
    """
    while True:
        black_count = rng.randint(1, pieces - 1)
        squares = rng.sample(range(32), pieces)
        black = white = kings = 0
        for n, sq in enumerate(squares):
            seat = BLACK if n < black_count else WHITE
            if rng.random() < king_share or KING_ROW[seat] >> sq & 1:
                kings |= 1 << sq
            if seat == BLACK:
                black |= 1 << sq
            else:
                white |= 1 << sq
        state = CheckersState(black, white, kings, rng.randint(0, 1))
        if not CHECKERS.is_terminal(state):
            return state


def _check_size(state: CheckersState) -> None:
    pieces = (state.black | state.white).bit_count()
    if pieces > MAX_PIECES:
        raise ValueError(f"the endgame solver takes at most {MAX_PIECES} pieces, not {pieces}")


def _stretch(key: Key) -> Stretch:
    black, white, kings, _ = key
    return black & ~kings, white & ~kings, (black & kings).bit_count(), (white & kings).bit_count()


def _positions(stretch: Stretch) -> list[Key]:
    """Every position of a stretch: its kings on every free square, either side to move."""
    black_men, white_men, black_kings, white_kings = stretch
    free = [sq for sq in range(32) if not (black_men | white_men) >> sq & 1]
    keys = []
    for black_squares in combinations(free, black_kings):
        black = sum(1 << sq for sq in black_squares)
        rest = [sq for sq in free if not black >> sq & 1]
        for white_squares in combinations(rest, white_kings):
            white = sum(1 << sq for sq in white_squares)
            for seat in (0, 1):
                keys.append((black_men | black, white_men | white, black | white, seat))
    return keys


__all__ = ["DRAW", "LOSS", "MAX_PIECES", "WIN", "EndgameSolver", "Verdict", "random_endgame"]
