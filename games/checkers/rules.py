"""English draughts (checkers): 8×8, men and kings, forced captures, the 40-move rule.

Rules (those of the English Draughts Association and the WCDF, with the two draws made automatic):

- Black moves first, from squares 1-12; White starts on 21-32.  Men move one square
  diagonally forward; kings, one square in any diagonal direction.
- A capture jumps an adjacent enemy piece onto the empty square beyond it and removes the
  piece.  Capturing is compulsory: when any capture is possible, only captures are legal,
  and a capture goes on jumping while it can (any such sequence may be chosen: there is no
  rule of the greatest number).  A jumped piece leaves the board at once.
- A man that reaches the far row is crowned king, and that ends the move, even if the new
  king could jump on.
- A player who cannot move (no pieces, or all blocked) loses.
- Draws, automatic here: the same position with the same player to move for the third time
  (threefold repetition), or forty moves by each player (80 plies) with no capture and no
  man moved (the 40-move rule).

Notation: the standard numbered squares, 1-32, of the dark squares, read from Black's side:
square 1 at the top left as White sees the board (b8), 4 at h8, 29 at a1 and 32 at g1.  A move
is ``"11-15"``; a capture ``"15x24"``, a multi-jump every landing square ``"15x24x31"``.
Those are the canonical moves (the wire, the database, exports); `canonical_move` also takes
a capture by its first and last squares (``"15x31"``) where only one capture matches.

>>> game = Checkers()
>>> state = game.initial_state()
>>> game.legal_moves(state)[:4]
['9-13', '9-14', '10-14', '10-15']
>>> state = game.play(state, "11-15")
>>> game.to_move(state), game.position_notation(state)
(1, 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15')

Differences from OpenSpiel's ``checkers`` (``tests/games/checkers/test_openspiel.py``
compares the two over thousands of random games where the rules agree): OpenSpiel plays a
multi-jump as one action per jump, draws after 40 plies in a row without a capture (men's
moves do not reset its count), ends every game at 1,000 plies, and has no repetition rule.
Here a move is the whole jump sequence, the 40-move rule counts 80 plies without a capture
or a man's move, and the third repetition draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from games.base import Game, IllegalMove, Move, Outcome, Seat
from games.checkers.spec import ID, SPEC

Square: TypeAlias = int  # 0..31, the standard square number minus one
Bitboard: TypeAlias = int  # bit i set: square i + 1 holds a piece

BLACK: Final = 0  # moves first, down the board (towards 32)
WHITE: Final = 1
QUIET_PLIES_DRAW: Final = 80  # the 40-move rule: forty moves each without a capture or a man's move
REPETITIONS_DRAW: Final = 3
FULL: Final = (1 << 32) - 1
START_BLACK: Final = (1 << 12) - 1
START_WHITE: Final = FULL ^ ((1 << 20) - 1)
KING_ROW: Final = (0xF << 28, 0xF)  # where each seat's men are crowned: Black on 29-32, White on 1-4


def _coords(square: Square) -> tuple[int, int]:
    """(row from the top, column from the left as White sees it) of a square."""
    row = square // 4
    return row, 2 * (square % 4) + (1 if row % 2 == 0 else 0)


_AT: Final = {_coords(sq): sq for sq in range(32)}
DIRECTIONS: Final = ((1, -1), (1, 1), (-1, -1), (-1, 1))  # the first two are Black's forward, the last White's


def _step(square: Square, dr: int, dc: int, times: int) -> Square | None:
    row, col = _coords(square)
    return _AT.get((row + dr * times, col + dc * times))


# For each square and direction: the neighbour, and the (jumped, landing) pair; None off the board.
STEPS: Final = tuple(tuple(_step(sq, dr, dc, 1) for dr, dc in DIRECTIONS) for sq in range(32))
JUMPS: Final = tuple(
    tuple((o, t) if (o := _step(sq, dr, dc, 1)) is not None and (t := _step(sq, dr, dc, 2)) is not None else None
          for dr, dc in DIRECTIONS)
    for sq in range(32)
)  # fmt: skip
OVER: Final = {(sq, jump[1]): jump[0] for sq in range(32) for jump in JUMPS[sq] if jump is not None}
"""The square jumped in a jump from one square to another."""
FORWARD_DIRS: Final = ((0, 1), (2, 3))  # direction indices of each seat's men
KING_DIRS: Final = (0, 1, 2, 3)
CENTRE: Final = sum(1 << (sq - 1) for sq in (14, 15, 18, 19))
DOUBLE_CORNERS: Final = sum(1 << (sq - 1) for sq in (1, 5, 28, 32))
DISTANCE: Final = tuple(
    tuple(max(abs(_coords(a)[0] - _coords(b)[0]), abs(_coords(a)[1] - _coords(b)[1])) for b in range(32))
    for a in range(32)
)  # kings' moves between two squares on an empty board
DRIVE_PIECES: Final = 6  # from this many pieces down, the side ahead hunts (`_drive`)


def bits(board: Bitboard) -> list[Square]:
    """The squares set in `board`, in order."""
    return [sq for sq in range(32) if board >> sq & 1]


@dataclass(frozen=True)
class CheckersState:
    """A position: each seat's pieces, which of them are kings, the seat to move, and the counts the draws need.

    `seen` holds the positions since the last capture or man's move (each as `key`), which is what
    threefold repetition needs: no position before such a move can come again.
    """

    black: Bitboard
    white: Bitboard
    kings: Bitboard
    to_move: Seat
    ply: int = 0
    quiet: int = 0  # plies since the last capture or man's move
    seen: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def key(self) -> tuple[int, int, int, int]:
        return (self.black, self.white, self.kings, self.to_move)

    def pieces(self, seat: Seat) -> Bitboard:
        return self.black if seat == BLACK else self.white


def _jumps(state: CheckersState, seat: Seat) -> list[list[Square]]:
    """Every complete capture of `seat`: the squares it lands on, starting square first."""
    own, opp = state.pieces(seat), state.pieces(1 - seat)
    paths: list[list[Square]] = []
    for start in bits(own):
        king = bool(state.kings >> start & 1)
        _extend(paths, [start], own & ~(1 << start), opp, king, seat)
    return paths


def _extend(
    paths: list[list[Square]], path: list[Square], own: Bitboard, opp: Bitboard, king: bool, seat: Seat
) -> None:
    at = path[-1]
    grew = False
    for d in KING_DIRS if king else FORWARD_DIRS[seat]:
        jump = JUMPS[at][d]
        if jump is None:
            continue
        over, to = jump
        if not opp >> over & 1 or (own | opp) >> to & 1:
            continue
        grew = True
        if not king and KING_ROW[seat] >> to & 1:  # crowned: the move ends here
            paths.append([*path, to])
        else:
            _extend(paths, [*path, to], own, opp & ~(1 << over), king, seat)
    if not grew and len(path) > 1:
        paths.append(path)


def _steps(state: CheckersState, seat: Seat) -> list[tuple[Square, Square]]:
    own = state.pieces(seat)
    empty = FULL & ~(state.black | state.white)
    moves = []
    for start in bits(own):
        for d in KING_DIRS if state.kings >> start & 1 else FORWARD_DIRS[seat]:
            to = STEPS[start][d]
            if to is not None and empty >> to & 1:
                moves.append((start, to))
    return moves


def _after(state: CheckersState, path: Sequence[Square], capture: bool) -> CheckersState:
    """The position after the side to move plays `path` (a step, or every landing square of a capture)."""
    seat = state.to_move
    own, opp, kings = state.pieces(seat), state.pieces(1 - seat), state.kings
    start, end = path[0], path[-1]
    king = bool(kings >> start & 1)
    own = own & ~(1 << start) | 1 << end
    kings &= ~(1 << start)
    if capture:
        for a, b in zip(path, path[1:], strict=False):
            over = OVER[a, b]
            opp &= ~(1 << over)
            kings &= ~(1 << over)
    if king or KING_ROW[seat] >> end & 1:
        kings |= 1 << end
    black, white = (own, opp) if seat == BLACK else (opp, own)
    irreversible = capture or not king
    return CheckersState(
        black,
        white,
        kings,
        1 - seat,
        state.ply + 1,
        0 if irreversible else state.quiet + 1,
        () if irreversible else (*state.seen, state.key),
    )


def children(state: CheckersState) -> list[CheckersState]:
    """The position after each move of `Checkers.legal_moves`, in its order, draws not checked:
    what a search over many positions asks, without the moves' text (`games.checkers.endgame`)."""
    jumps = _jumps(state, state.to_move)
    if jumps:
        return [_after(state, path, True) for path in jumps]
    return [_after(state, step, False) for step in _steps(state, state.to_move)]


def _text(path: Sequence[Square], capture: bool) -> Move:
    return ("x" if capture else "-").join(str(sq + 1) for sq in path)


def parse(move: Move) -> tuple[list[Square], bool] | None:
    """The squares of a move in the standard notation and whether it captures; None if it is not one.

    >>> parse("15x24x31"), parse("11-15"), parse("33-1")
    (([14, 23, 30], True), ([10, 14], False), None)
    """
    capture = "x" in move
    parts = move.split("x" if capture else "-")
    if len(parts) < 2 or (not capture and len(parts) != 2) or not all(p.isdigit() and len(p) <= 2 for p in parts):
        return None
    squares = [int(p) - 1 for p in parts]
    return (squares, capture) if all(0 <= sq < 32 for sq in squares) else None


class Checkers(Game[CheckersState]):
    """English draughts (docs/design.md §2); seat 0 is Black and moves first."""

    id = ID
    spec = SPEC

    def initial_state(self) -> CheckersState:
        return CheckersState(START_BLACK, START_WHITE, 0, BLACK)

    def to_move(self, state: CheckersState) -> Seat:
        return state.to_move

    def ply(self, state: CheckersState) -> int:
        return state.ply

    def _draw_reason(self, state: CheckersState) -> str | None:
        if state.quiet >= QUIET_PLIES_DRAW:
            return "40-move rule"
        if state.seen.count(state.key) + 1 >= REPETITIONS_DRAW:
            return "threefold repetition"
        return None

    def _moves(self, state: CheckersState) -> list[Move]:
        jumps = _jumps(state, state.to_move)
        if jumps:
            return [_text(path, True) for path in jumps]
        return [_text(step, False) for step in _steps(state, state.to_move)]

    def legal_moves(self, state: CheckersState) -> list[Move]:
        if self._draw_reason(state) is not None:
            return []
        return self._moves(state)

    def is_terminal(self, state: CheckersState) -> bool:
        return self._draw_reason(state) is not None or not self._moves(state)

    def apply(self, state: CheckersState, move: Move) -> CheckersState:
        parsed = parse(move)
        if parsed is None:  # a damaged record replayed (exports): a ValueError, as `play` would raise
            raise IllegalMove(f"{move!r} is not a checkers move")
        path, capture = parsed
        return _after(state, path, capture)

    def canonical_move(self, state: CheckersState, move: Move) -> Move:
        """A capture may be named by its first and last squares (``"15x31"``) where only one matches."""
        parsed = parse(move.strip())
        if parsed is None:
            raise IllegalMove(f"{move!r} is not a move: write squares 1-32 as 11-15, or a capture as 15x24 (15x24x31)")
        path, capture = parsed
        text = _text(path, capture)
        legal = self.legal_moves(state)
        if text in legal or not capture:
            return text
        matches = [m for m in legal if "x" in m and m.split("x")[0] == str(path[0] + 1)
                   and m.split("x")[-1] == str(path[-1] + 1)]  # fmt: skip
        return matches[0] if len(matches) == 1 else text

    def why_illegal(self, state: CheckersState, move: Move) -> str:
        legal = self.legal_moves(state)
        if legal and "x" in legal[0] and "x" not in move:
            return f"{move} is not legal: a capture is compulsory ({', '.join(legal)})"
        if "x" in move and any(m.startswith(move + "x") for m in legal):
            return f"{move} is not legal: a capture goes on while it can jump"
        return f"{move!r} is not a legal move here"

    def outcome(self, state: CheckersState) -> Outcome:
        reason = self._draw_reason(state)
        if reason is not None:
            return Outcome((0.0, 0.0), None, reason)
        if self._moves(state):
            raise ValueError("the game is not over")
        loser = state.to_move
        winner = 1 - loser
        why = "no pieces left" if not state.pieces(loser) else "no move left"
        return Outcome((1.0, -1.0) if winner == BLACK else (-1.0, 1.0), winner, why)

    def to_json(self, state: CheckersState) -> dict[str, Any]:
        """``board``: 32 characters, square 1 first: ``b``/``w`` a man, ``B``/``W`` a king, ``.`` empty."""
        return {
            "board": _board_text(state.black, state.white, state.kings),
            "to_move": state.to_move,
            "ply": state.ply,
            "quiet": state.quiet,
            "seen": [_board_text(b, w, k) + str(s) for b, w, k, s in state.seen],
        }

    def from_json(self, data: dict[str, Any]) -> CheckersState:
        try:
            black, white, kings = _read_board(data["board"])
            seen = tuple((*_read_board(text[:32]), _seat(text[32:])) for text in data.get("seen", []))
            to_move, ply, quiet = _seat(data["to_move"]), data["ply"], data["quiet"]
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"not a checkers state: {error!r}") from None
        if not (type(ply) is int and type(quiet) is int and 0 <= quiet <= ply):
            raise ValueError("a checkers state's ply and quiet count are whole numbers, quiet <= ply")
        return CheckersState(black, white, kings, to_move, ply, quiet, seen)

    def key(self, state: CheckersState) -> tuple[int, int, int, int]:
        return state.key

    # --- search hooks -----------------------------------------------------------
    def evaluate(self, state: CheckersState, seat: Seat) -> float:
        """Material (a king worth 1.5 men), men's advance, the centre and the back row kept; in (-1, 1).

        The difference counts for more as the board empties (a man up in an endgame wins, so the
        side ahead likes to trade); a man up in the opening is worth about 0.2 of a win.
        """
        mine, theirs = _side_score(state, seat), _side_score(state, 1 - seat)
        pieces = (state.black | state.white).bit_count()
        lead = mine - theirs
        if abs(lead) >= 0.5 and pieces <= DRIVE_PIECES:
            lead += _drive(state, seat if lead > 0 else 1 - seat) * (1 if lead > 0 else -1)
        return 0.95 * math.tanh(lead * 32 / (pieces + 16) / 3)

    def order_moves(self, state: CheckersState, moves: Sequence[Move]) -> list[Move]:
        """Longer captures first, then crowning moves, then the rest as given."""

        def rank(move: Move) -> int:
            jumps = move.count("x")
            to = int(move.rsplit("x" if jumps else "-", 1)[1]) - 1
            start = int(move.split("x" if jumps else "-", 1)[0]) - 1
            crowns = not state.kings >> start & 1 and KING_ROW[state.to_move] >> to & 1
            return -(10 * jumps + bool(crowns))

        return sorted(moves, key=rank)

    def is_quiet(self, state: CheckersState) -> bool:
        """A position with a capture to make is not quiet: the material is about to change."""
        return not _jumps(state, state.to_move)

    def noisy_moves(self, state: CheckersState) -> list[Move]:
        return [_text(path, True) for path in _jumps(state, state.to_move)]

    def is_tactical(self, state: CheckersState, move: Move) -> bool:
        return "x" in move

    # --- notation -----------------------------------------------------------------
    def position_notation(self, state: CheckersState) -> str:
        """The position as PDN's FEN tag: side to move, then White's and Black's squares, ``K`` for kings."""

        def side(letter: str, board: Bitboard) -> str:
            return letter + ",".join(("K" if state.kings >> sq & 1 else "") + str(sq + 1) for sq in bits(board))

        return f"{'B' if state.to_move == BLACK else 'W'}:{side('W', state.white)}:{side('B', state.black)}"

    def standard_notation(self, moves: Sequence[Move]) -> tuple[str, str] | None:
        """The game in PDN (Portable Draughts Notation), which draughts programs read: the moves and
        the result (``1-0`` Black won, ``0-1`` White, ``1/2-1/2``, ``*`` while it goes on); None for
        moves that are not this game's, in order.

        >>> Checkers().standard_notation(["11-15", "23-19", "8-11"])[1].splitlines()[-1]
        '1. 11-15 23-19 2. 8-11 *'
        >>> Checkers().standard_notation(["11-15", "roll 6-3"]) is None
        True
        """
        state = self.initial_state()
        for move in moves:
            if move not in self.legal_moves(state):
                return None
            state = self.apply(state, move)
        result = "*"
        if self.is_terminal(state):
            winner = self.outcome(state).winner
            result = "1/2-1/2" if winner is None else ("1-0" if winner == BLACK else "0-1")
        turns = [f"{i // 2 + 1}. {' '.join(moves[i : i + 2])}" for i in range(0, len(moves), 2)]
        return "pdn", f'[GameType "21"]\n[Result "{result}"]\n\n' + " ".join([*turns, result])


def _drive(state: CheckersState, seat: Seat) -> float:
    """What the side ahead in a thin ending gains by hunting: its kings near the other side's pieces,
    and those kings out of the double corners, where a lone king holds out longest.  A search that
    sees only material shuffles its kings until the 40-move rule draws a won ending."""
    theirs = bits(state.pieces(1 - seat))
    hunters = bits(state.pieces(seat) & state.kings)
    if not theirs or not hunters:
        return 0.0
    far = sum(min(DISTANCE[king][sq] for sq in theirs) for king in hunters)
    cornered = (state.pieces(1 - seat) & state.kings & ~DOUBLE_CORNERS).bit_count()
    return 0.1 * cornered - 0.03 * far


def _side_score(state: CheckersState, seat: Seat) -> float:
    pieces = state.pieces(seat)
    kings = pieces & state.kings
    men = pieces & ~state.kings
    score = 1.0 * men.bit_count() + 1.5 * kings.bit_count()
    for sq in bits(men):  # a man nearer its crowning row is worth a little more
        row = sq // 4
        score += 0.04 * (row if seat == BLACK else 7 - row)
    score += 0.05 * (pieces & CENTRE).bit_count()
    score += 0.05 * (men & KING_ROW[1 - seat]).bit_count()  # the back row kept stops the other side crowning
    return score


def _board_text(black: Bitboard, white: Bitboard, kings: Bitboard) -> str:
    def piece(sq: Square) -> str:
        letter = "b" if black >> sq & 1 else "w" if white >> sq & 1 else "."
        return letter.upper() if kings >> sq & 1 else letter

    return "".join(piece(sq) for sq in range(32))


def _seat(value: object) -> Seat:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value not in (0, 1, "0", "1"):
        raise ValueError(f"a checkers seat is 0 or 1, not {value!r}")
    return int(value)


def _read_board(text: str) -> tuple[Bitboard, Bitboard, Bitboard]:
    if not isinstance(text, str) or len(text) != 32 or set(text) - set("bBwW."):
        raise ValueError("a checkers board is 32 characters of b, B, w, W and .")
    black = sum(1 << i for i, c in enumerate(text) if c in "bB")
    white = sum(1 << i for i, c in enumerate(text) if c in "wW")
    kings = sum(1 << i for i, c in enumerate(text) if c in "BW")
    return black, white, kings


CHECKERS = Checkers()
