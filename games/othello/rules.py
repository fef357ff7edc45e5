"""Othello (Reversi under the World Othello Federation rules) on an 8x8 board.

Notation: squares ``"a1"``..``"h8"``, columns a-h from the left and rows 1-8
from the top, as in the World Othello Championship transcripts; ``"pass"`` is
the move of a player who has no legal move.  A game is written as its moves
joined together (``"f5d6c3d3c4"``), passes included.

::

      a b c d e f g h
    1 . . . . . . . .
    2 . . . . . . . .
    3 . . . . . . . .
    4 . . . O X . . .      X black (seat 0, moves first)
    5 . . . X O . . .      O white (seat 1)
    6 . . . . . . . .
    7 . . . . . . . .
    8 . . . . . . . .

Rules: black moves first from the standard start (white d4 e5, black e4 d5).  A
move places a disc on an empty square so that, in at least one of the eight
directions, an unbroken line of the opponent's discs runs from it to one of the
mover's own discs; every such line, in every direction at once, is flipped.  A
player with no legal move must pass, and may pass only then.  The game ends
when neither player can move (a full board, a wipe-out, or a blocked position).
The player with more discs wins; equal counts are a draw.  Returns are +1 / -1,
or 0 / 0 for a draw.  The reported score gives the empty squares to the winner
(shared equally on a draw), as in tournament play.

Edge cases (each tested in ``tests/games/othello/test_rules.py``):

- ``pass`` is a legal move only when the player has no other move; it is the
  only legal move then, and counts as a ply.
- Two passes in a row never happen: when neither side can move the game is over
  and there are no legal moves at all (a wipe-out ends it at once).
- Lines never wrap around the board's edge (h4 does not touch a5).
- A disc flips lines in several directions in one move; a line ending at the
  board's edge or an empty square flips nothing.

State: two 64-bit bitboards, bit ``row * 8 + col`` (a1 = bit 0, h1 = bit 7,
a8 = bit 56), the seat to move and the ply.

JSON (``to_json``), for the browser and the database::

    {"board": [[null|0|1, ... 8 cells a..h], ... 8 rows 1..8 from the top],
     "to_move": 0|1,            # seat to move (the seat that would move, when over)
     "ply": 12,                 # moves played so far, passes included
     "discs": [black, white],   # disc counts
     "legal": ["d3", ...]}      # squares the player to move may take (or ["pass"])

``from_json`` reads ``board``, ``to_move`` and ``ply`` and ignores the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from games.base import Game, Move, Outcome, Seat, is_seat_index
from games.othello.spec import ID, SPEC

if TYPE_CHECKING:
    from games.hooks import SearchEngine, Solver

Bitboard: TypeAlias = int
Square: TypeAlias = int

SIZE = 8
FULL: Bitboard = (1 << 64) - 1
PASS: Move = "pass"
FILES = "abcdefgh"
SQUARE_NAMES: tuple[Move, ...] = tuple(f"{FILES[sq % 8]}{sq // 8 + 1}" for sq in range(64))
SQUARE_OF: dict[Move, Square] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
BIT_OF: dict[Move, Bitboard] = {name: 1 << sq for sq, name in enumerate(SQUARE_NAMES)}

FILE_A: Bitboard = sum(1 << (r * 8) for r in range(8))
FILE_H: Bitboard = FILE_A << 7
NOT_A: Bitboard = FULL ^ FILE_A
NOT_H: Bitboard = FULL ^ FILE_H
INNER_COLS: Bitboard = NOT_A & NOT_H  # discs that a horizontal or diagonal line can pass through

START_BLACK: Bitboard = BIT_OF["e4"] | BIT_OF["d5"]
START_WHITE: Bitboard = BIT_OF["d4"] | BIT_OF["e5"]

CORNERS: Bitboard = BIT_OF["a1"] | BIT_OF["h1"] | BIT_OF["a8"] | BIT_OF["h8"]
# Each corner with its X-square (diagonal neighbour) and C-squares (edge neighbours).
CORNER_ZONES: tuple[tuple[Bitboard, Bitboard, Bitboard], ...] = tuple(
    (BIT_OF[c], BIT_OF[x], BIT_OF[c1] | BIT_OF[c2])
    for c, x, c1, c2 in (
        ("a1", "b2", "b1", "a2"),
        ("h1", "g2", "g1", "h2"),
        ("a8", "b7", "b8", "a7"),
        ("h8", "g7", "g8", "h7"),
    )
)
EDGES: Bitboard = FILE_A | FILE_H | 0xFF | (0xFF << 56)

# Static square values (corners best, X-squares worst): move ordering and rollouts.
SQUARE_VALUE: tuple[int, ...] = (
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2,  1,  1,  1,  1,  -2,  10,
      5,  -2,  1,  0,  0,  1,  -2,   5,
      5,  -2,  1,  0,  0,  1,  -2,   5,
     10,  -2,  1,  1,  1,  1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
)  # fmt: skip


def _lines() -> tuple[tuple[Bitboard, ...], ...]:
    """Every row, column and diagonal (of two squares or more), grouped by axis."""
    axes: list[list[Bitboard]] = [[], [], [], []]
    for r in range(8):
        axes[0].append(sum(1 << (r * 8 + c) for c in range(8)))
    for c in range(8):
        axes[1].append(sum(1 << (r * 8 + c) for r in range(8)))
    for d in range(-6, 7):  # c - r == d
        axes[2].append(sum(1 << (r * 8 + r + d) for r in range(8) if 0 <= r + d < 8))
    for s in range(1, 14):  # c + r == s
        axes[3].append(sum(1 << (r * 8 + s - r) for r in range(8) if 0 <= s - r < 8))
    return tuple(tuple(axis) for axis in axes)


LINES = _lines()


def shift(b: Bitboard, d: int) -> Bitboard:
    """Move every disc one step in direction `d` (a bit offset); no wrap control."""
    return (b << d) & FULL if d > 0 else b >> -d


# (offset, mask of squares a line may pass through) for the eight directions.
DIRECTIONS: tuple[tuple[int, Bitboard], ...] = (
    (1, INNER_COLS),  # east
    (-1, INNER_COLS),  # west
    (8, FULL),  # south (down the board)
    (-8, FULL),  # north
    (9, INNER_COLS),  # south-east
    (-9, INNER_COLS),  # north-west
    (7, INNER_COLS),  # south-west
    (-7, INNER_COLS),  # north-east
)


def move_mask(own: Bitboard, opp: Bitboard) -> Bitboard:
    """Empty squares where `own` may play: a run of `opp` discs then an `own` disc."""
    empty = FULL ^ (own | opp)
    moves = 0
    for d, inner in DIRECTIONS:
        o = opp & inner
        if d > 0:
            x = (own << d) & o
            x |= (x << d) & o
            x |= (x << d) & o
            x |= (x << d) & o
            x |= (x << d) & o
            x |= (x << d) & o
            moves |= (x << d) & empty
        else:
            e = -d
            x = (own >> e) & o
            x |= (x >> e) & o
            x |= (x >> e) & o
            x |= (x >> e) & o
            x |= (x >> e) & o
            x |= (x >> e) & o
            moves |= (x >> e) & empty
    return moves


def flips(own: Bitboard, opp: Bitboard, move: Bitboard) -> Bitboard:
    """The `opp` discs that a disc of `own` placed on `move` turns over."""
    flipped = 0
    for d, inner in DIRECTIONS:
        o = opp & inner
        x = shift(move, d) & o
        if not x:
            continue
        y = shift(x, d)
        while y & o:
            x |= y
            y = shift(y, d)
        if y & own:
            flipped |= x
    return flipped


def stable_discs(own: Bitboard, opp: Bitboard) -> Bitboard:
    """Discs of `own` that can never be flipped (a safe under-estimate).

    A disc is stable when, on each of the four axes, its line is full or it has a
    stable own disc (or the board's edge) beside it on that axis.
    """
    occupied = own | opp
    full = [0, 0, 0, 0]
    for axis, lines in enumerate(LINES):
        for line in lines:
            if occupied & line == line:
                full[axis] |= line
    edge_w, edge_e = FILE_A, FILE_H
    edge_n, edge_s = 0xFF, 0xFF << 56
    stable = own & CORNERS
    while True:
        horizontal = full[0] | edge_w | edge_e | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H)
        vertical = full[1] | edge_n | edge_s | ((stable << 8) & FULL) | (stable >> 8)
        diag = full[2] | edge_n | edge_s | edge_w | edge_e | ((stable << 9) & NOT_A & FULL) | ((stable >> 9) & NOT_H)
        anti = full[3] | edge_n | edge_s | edge_w | edge_e | ((stable << 7) & NOT_H & FULL) | ((stable >> 7) & NOT_A)
        grown = stable | (own & horizontal & vertical & diag & anti)
        if grown == stable:
            return stable
        stable = grown


def bits(b: Bitboard) -> list[Square]:
    """Square indices of the set bits of `b`, in increasing order."""
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


@dataclass(frozen=True, slots=True)
class OthelloState:
    """`black`/`white`: bitboards of discs; `seat`: 0 black or 1 white to move; `ply`: moves so far."""

    black: Bitboard = START_BLACK
    white: Bitboard = START_WHITE
    seat: Seat = 0
    ply: int = 0

    def own_opp(self) -> tuple[Bitboard, Bitboard]:
        """Discs of the seat to move, then of the other seat."""
        return (self.black, self.white) if self.seat == 0 else (self.white, self.black)


def _after(state: OthelloState, move: Move) -> OthelloState:
    own, opp = state.own_opp()
    if move != PASS:
        m = BIT_OF[move]
        f = flips(own, opp, m)
        own |= m | f
        opp ^= f
    black, white = (own, opp) if state.seat == 0 else (opp, own)
    return OthelloState(black, white, 1 - state.seat, state.ply + 1)


def perft(state: OthelloState, depth: int) -> int:
    """Leaf count of the move tree `depth` plies deep, passes counted as moves."""
    own, opp = state.own_opp()
    return _perft(own, opp, depth, False)


def _perft(own: Bitboard, opp: Bitboard, depth: int, passed: bool) -> int:
    if depth == 0:
        return 1
    moves = move_mask(own, opp)
    if not moves:
        if passed:
            return 0  # neither side can move: the game ended before this depth
        if not move_mask(opp, own):
            return 0
        return _perft(opp, own, depth - 1, True)
    if depth == 1:
        return moves.bit_count()
    total = 0
    while moves:
        m = moves & -moves
        moves ^= m
        f = flips(own, opp, m)
        total += _perft(opp ^ f, own | m | f, depth - 1, False)
    return total


class Othello(Game[OthelloState]):
    id = ID
    spec = SPEC
    num_players = 2

    def initial_state(self) -> OthelloState:
        return OthelloState()

    def to_move(self, state: OthelloState) -> Seat:
        return state.seat

    def legal_moves(self, state: OthelloState) -> list[Move]:
        own, opp = state.own_opp()
        moves = move_mask(own, opp)
        if moves:
            return [SQUARE_NAMES[sq] for sq in bits(moves)]
        if move_mask(opp, own):
            return [PASS]
        return []

    def apply(self, state: OthelloState, move: Move) -> OthelloState:
        return _after(state, move)

    def why_illegal(self, state: OthelloState, move: Move) -> str:
        own, opp = state.own_opp()
        moves = move_mask(own, opp)
        if move == PASS:
            return "you may pass only when you have no legal move"
        if move not in BIT_OF:
            return f"{move!r} is not a square: columns a to h from the left, rows 1 to 8 from the top, or 'pass'"
        if not moves:
            return "you have no legal move and must pass"
        if BIT_OF[move] & (own | opp):
            return f"{move} is already taken"
        return f"a disc on {move} would flip nothing: it must close a line of your opponent's discs"

    def is_terminal(self, state: OthelloState) -> bool:
        own, opp = state.own_opp()
        return not move_mask(own, opp) and not move_mask(opp, own)

    def score(self, state: OthelloState) -> tuple[int, int]:
        """Final score (black, white), the empty squares going to the winner."""
        b, w = state.black.bit_count(), state.white.bit_count()
        empty = 64 - b - w
        if b > w:
            return b + empty, w
        if w > b:
            return b, w + empty
        return b + empty // 2, w + empty // 2

    def outcome(self, state: OthelloState) -> Outcome:
        if not self.is_terminal(state):
            raise ValueError("the game is not over")
        b, w = self.score(state)
        if b == w:
            return Outcome((0.0, 0.0), None, f"draw {b}-{w}")
        winner = 0 if b > w else 1
        returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        return Outcome(returns, winner, f"{'black' if winner == 0 else 'white'} wins {b}-{w}", (winner, 1 - winner))

    def ply(self, state: OthelloState) -> int:
        return state.ply

    def key(self, state: OthelloState) -> tuple[Bitboard, Bitboard, Seat]:
        return (state.black, state.white, state.seat)

    def to_json(self, state: OthelloState) -> dict[str, Any]:
        board = [
            [0 if state.black >> (r * 8 + c) & 1 else 1 if state.white >> (r * 8 + c) & 1 else None for c in range(8)]
            for r in range(8)
        ]
        return {
            "board": board,
            "to_move": state.seat,
            "ply": state.ply,
            "discs": [state.black.bit_count(), state.white.bit_count()],
            "legal": self.legal_moves(state),
        }

    def from_json(self, data: dict[str, Any]) -> OthelloState:
        if not isinstance(data, dict):
            raise ValueError("an Othello state is a JSON object")
        board, seat, ply = data.get("board"), data.get("to_move"), data.get("ply")
        if (
            not isinstance(board, list)
            or len(board) != 8
            or any(not isinstance(row, list) or len(row) != 8 for row in board)
            or any(c is not None and not is_seat_index(c) for row in board for c in row)
        ):
            raise ValueError("board must be 8 rows of 8 cells, each null, 0 or 1")
        if not is_seat_index(seat):
            raise ValueError("to_move must be 0 (black) or 1 (white)")
        if type(ply) is not int or ply < 0:
            raise ValueError("ply must be a whole number of moves")
        black = sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if board[r][c] == 0)
        white = sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if board[r][c] == 1)
        if (black | white) & (START_BLACK | START_WHITE) != START_BLACK | START_WHITE:
            raise ValueError("the four centre squares are never empty")
        if ply < (black | white).bit_count() - 4:
            raise ValueError("ply is smaller than the number of discs placed")
        return OthelloState(black, white, seat, ply)

    def from_moves(self, moves: str) -> OthelloState:
        """The position after a transcript such as "f5d6c3"; validates each move."""
        state = self.initial_state()
        i = 0
        while i < len(moves):
            step = 4 if moves.startswith(PASS, i) else 2
            state = self.play(state, moves[i : i + step])
            i += step
        return state

    # --- search hooks ------------------------------------------------------
    def new_solver(self) -> Solver:
        from games.othello.endgame import OthelloSolver

        return OthelloSolver()

    def search_engine(self) -> SearchEngine | None:
        """The compiled search (`games.othello.engine`) where it is built and the evaluation is this one."""
        if type(self).evaluate is not Othello.evaluate:
            return None
        from games.othello.engine import ENGINE  # its weights are handed over on first use

        return ENGINE

    def order_moves(self, state: OthelloState, moves: Sequence[Move]) -> list[Move]:
        return sorted(moves, key=lambda m: -SQUARE_VALUE[SQUARE_OF[m]] if m in SQUARE_OF else 0)

    def evaluate(self, state: OthelloState, seat: Seat) -> float:
        """Mobility, corners (and the squares that give them away), stability, parity; in (-1, 1).

        Disc difference takes over as the board fills; a finished game is scored
        by its result, scaled just inside the returns.
        """
        own, opp = (state.black, state.white) if seat == 0 else (state.white, state.black)
        occupied = own | opp
        empties = 64 - occupied.bit_count()
        my_moves, their_moves = move_mask(own, opp).bit_count(), move_mask(opp, own).bit_count()
        if not my_moves and not their_moves:
            diff = own.bit_count() - opp.bit_count()
            return 0.0 if diff == 0 else (0.99 if diff > 0 else -0.99)
        mobility = (my_moves - their_moves) / (my_moves + their_moves + 1)
        corners = 0.0
        for corner, x_square, c_squares in CORNER_ZONES:
            if own & corner:
                corners += 1.0
            elif opp & corner:
                corners -= 1.0
            else:  # an empty corner: discs next to it tend to give it away
                corners -= 0.5 * bool(own & x_square) + 0.2 * (own & c_squares).bit_count()
                corners += 0.5 * bool(opp & x_square) + 0.2 * (opp & c_squares).bit_count()
        corners /= 4
        stability = 0.0
        if occupied & CORNERS:
            mine, theirs = stable_discs(own, opp).bit_count(), stable_discs(opp, own).bit_count()
            stability = (mine - theirs) / (mine + theirs + 4)
        # Parity: with an odd number of empties the side to move gets the last move.
        parity = (1.0 if empties % 2 else -1.0) * (1 if state.seat == seat else -1)
        discs = (own.bit_count() - opp.bit_count()) / (occupied.bit_count())
        late = max(0.0, (20 - empties) / 20)  # 0 until 20 empties are left, 1 at the end
        score = (1 - late) * (0.30 * mobility + 0.40 * corners + 0.25 * stability + 0.05 * parity) + late * (
            0.35 * discs + 0.25 * corners + 0.25 * stability + 0.05 * mobility + 0.10 * parity
        )
        return max(-0.95, min(0.95, score))

    def evaluation(self, name: str) -> Callable[[OthelloState, Seat], float] | None:
        """``"patterns"``: the fitted pattern evaluation (`games.othello.patterns`), the Master's."""
        if name != "patterns":
            return None
        from games.othello.patterns import evaluate  # its tables are built on first use

        return evaluate

    def rollout_move(self, state: OthelloState, rng: random.Random) -> Move:
        """Corners when offered, never an X- or C-square next to an empty corner if avoidable."""
        own, opp = state.own_opp()
        moves = move_mask(own, opp)
        if not moves:
            return PASS
        corners = moves & CORNERS
        if corners:
            return SQUARE_NAMES[rng.choice(bits(corners))]
        risky = 0
        for corner, x_square, c_squares in CORNER_ZONES:
            if not (own | opp) & corner:
                risky |= x_square | c_squares
        safe = moves & ~risky
        pool = safe or moves
        edges = pool & EDGES
        if edges and rng.random() < 0.5:
            pool = edges
        return SQUARE_NAMES[rng.choice(bits(pool))]

    def standard_notation(self, moves: Sequence[Move]) -> tuple[str, str] | None:
        """A WOF-style transcript: squares joined, passes left out (they are forced, so implied).

        >>> OTHELLO.standard_notation(["f5", "d6", "pass", "c3"])
        ('othello-transcript', 'f5d6c3')
        """
        squares = [m for m in moves if m != PASS]
        if not all(len(m) == 2 and m[0] in FILES and m[1] in "12345678" for m in squares):
            return None
        return "othello-transcript", "".join(squares)


OTHELLO = Othello()
