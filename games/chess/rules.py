"""Chess under the FIDE Laws, with python-chess (``chess`` on PyPI) doing the move generation.

Notation: moves travel as UCI strings, ``"e2e4"``, ``"e7e8q"`` (promotion piece in
lower case), castling as the king's move ``"e1g1"``; `Chess.canonical_move` also
takes SAN (``"Nf3"``, ``"O-O"``, ``"exd5"``, ``"e8=Q"``) and answers the UCI move.
`Chess.move_notation` writes a move in SAN, as players read it.  Seat 0 is white
and moves first, seat 1 black.  Positions are written as FEN.

Endings (`Outcome.reason`), automatic as the Laws (9.6) make them:

- ``"checkmate"``: the side that gave mate wins;
- ``"stalemate"``, ``"insufficient material"`` (no sequence of legal moves could
  mate: K v K, K+minor v K, bishops all on one colour), ``"75-move rule"`` (75 moves
  each without a capture or pawn move, unless the last move mated) and
  ``"fivefold repetition"`` (the same position, same side to move, same castling and
  en-passant rights, for the fifth time): draws.

Threefold repetition and the 50-move rule only allow a draw to be *claimed*
(`Chess.claimable_draw` names the reason; the server ends the match on a claim,
docs/design.md §2).  A claim is judged on the position on the board; announcing a
move that would repeat the position for the third time is not supported.

State: the python-chess board (never mutated once in a state), its repetition key and
the keys of the earlier positions since the last capture or pawn move, which is all
the repetition rules need (no earlier position can recur across such a move).

JSON (``to_json``), what the board module draws::

    {"fen": "<FEN>", "board": [8 rows, rank 8 first, each 8 cells a..h: null | "KQRBNPkqrbnp"],
     "turn": 0|1, "check": "e1" | null, "castling": "KQkq" | "-", "ep": "e3" | null,
     "halfmove": 0, "fullmove": 1,
     "captured": {"white": ["p", ...], "black": ["P", ...]},   # pieces each side has taken
     "material": 0,                                            # white minus black, P1 N3 B3 R5 Q9
     "history": ["<repetition key>", ...],                      # positions since the last capture or pawn move
     "claimable_draw": "threefold repetition" | "50-move rule" | null}  # what the side to move may claim

``from_json`` reads ``fen`` and ``history`` (optional) and ignores the rest.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import chess
import chess.pgn
import chess.polyglot

from games.base import BookChoice, Game, IllegalMove, Move, Outcome, Seat, TableChoice
from games.chess import engine, evaluation, search, tables
from games.chess.record import match_pgn, pgn_game
from games.chess.spec import ID, SPEC
from games.hooks import SearchEngine
from games.records import GameRecord, PlayedMatch

PositionKey: TypeAlias = tuple[int, int, int, int, int, int, int, int, bool, int, int | None]

PIECE_VALUES: dict[int, int] = {
    chess.PAWN: 1,
    chess.KNIGHT: 3,
    chess.BISHOP: 3,
    chess.ROOK: 5,
    chess.QUEEN: 9,
    chess.KING: 0,
}
START_COUNTS: dict[int, int] = {chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1}
MAX_FEN_LENGTH = 100  # a legal FEN is under 90 characters
FIFTY_MOVE_PLIES = 100
SEVENTY_FIVE_MOVE_PLIES = 150


def position_key(board: chess.Board) -> PositionKey:
    """What makes two positions "the same" for the repetition rules (FIDE 9.2.3): pieces,
    side to move, castling rights, and an en-passant capture only where one is legal."""
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else None
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights(),
        ep,
    )


SYMBOLS = [(piece_type, colour, chess.Piece(piece_type, colour).symbol()) for colour in chess.COLORS
           for piece_type in chess.PIECE_TYPES]  # fmt: skip
EMPTY_RUN = re.compile("1{2,8}")


def fen(state: ChessState) -> str:
    """The position's FEN, as ``board.fen()`` writes it (an en passant square only where a
    capture there is legal), from the bitboards: about twice as fast, for exports that
    write one per move."""
    board = state.board
    cells = ["1"] * 64
    for piece_type, colour, symbol in SYMBOLS:
        for square in chess.scan_forward(board.pieces_mask(piece_type, colour)):
            cells[square] = symbol
    ranks = "/".join("".join(cells[rank * 8 : rank * 8 + 8]) for rank in range(7, -1, -1))
    placement = EMPTY_RUN.sub(lambda run: str(len(run.group())), ranks)
    ep = state.position[-1]
    return (
        f"{placement} {'w' if board.turn else 'b'} {board.castling_xfen()} "
        f"{'-' if ep is None else chess.SQUARE_NAMES[ep]} {board.halfmove_clock} {board.fullmove_number}"
    )


def encode_key(key: PositionKey) -> str:
    """A repetition key as JSON text: side, castling and en-passant square, then eight bitboards."""
    *bitboards, turn, castling, ep = key
    return ":".join(
        ["w" if turn else "b", f"{castling:x}", "-" if ep is None else str(ep), *(f"{b:x}" for b in bitboards)]
    )


def decode_key(text: object) -> PositionKey:
    """`encode_key` reversed; ValueError for anything it could not have written."""
    if not isinstance(text, str) or len(text) > 200:
        raise ValueError("a history entry is a repetition key string")
    parts = text.split(":")
    if len(parts) != 11 or parts[0] not in ("w", "b"):
        raise ValueError(f"{text[:40]!r} is not a repetition key")
    try:
        castling = int(parts[1], 16)
        ep = None if parts[2] == "-" else int(parts[2])
        bitboards = [int(p, 16) for p in parts[3:]]
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a repetition key") from None
    if ep is not None and not 0 <= ep < 64 or not all(0 <= b < 1 << 64 for b in [castling, *bitboards]):
        raise ValueError(f"{text[:40]!r} is not a repetition key")
    p, n, b, r, q, k, white, black = bitboards
    return (p, n, b, r, q, k, white, black, parts[0] == "w", castling, ep)


class ChessState:
    """One position and what its repetition rules need; an immutable, hashable value.

    `board` is shared between states and must never be changed: `Chess.apply` copies it.
    Equality is by position, move counters and history, never by the board's move stack.
    """

    __slots__ = ("board", "position", "history", "_moves", "_ending", "_zobrist", "_noisy")

    board: chess.Board
    position: PositionKey
    history: tuple[PositionKey, ...]

    def __init__(self, board: chess.Board, history: tuple[PositionKey, ...] = ()) -> None:
        self.board = board
        self.position = position_key(board)
        self.history = history
        self._moves: list[Move] | None = None
        self._ending: str | None = None
        self._zobrist: int | None = None
        self._noisy: list[Move] | None = None

    def _identity(self) -> tuple[Any, ...]:
        return (self.position, self.board.halfmove_clock, self.board.fullmove_number, self.history)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChessState) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"

    @property
    def repetitions(self) -> int:
        """How many times this position has stood on the board, this time included."""
        return 1 + self.history.count(self.position)


def material(board: chess.Board) -> int:
    """White's material minus black's, in pawns (P1 N3 B3 R5 Q9)."""
    total = 0
    for piece_type, value in PIECE_VALUES.items():
        if value:
            total += value * (len(board.pieces(piece_type, chess.WHITE)) - len(board.pieces(piece_type, chess.BLACK)))
    return total


def captured(board: chess.Board) -> dict[str, list[str]]:
    """The pieces each side has taken, counted against the start position's material.

    A piece beyond the start's count (a second queen) was a pawn that promoted: that
    pawn is not counted as taken.
    """
    taken: dict[str, list[str]] = {"white": [], "black": []}
    for colour, taker in ((chess.BLACK, "white"), (chess.WHITE, "black")):
        counts = {piece_type: len(board.pieces(piece_type, colour)) for piece_type in START_COUNTS}
        promoted = sum(max(0, counts[t] - start) for t, start in START_COUNTS.items() if t != chess.PAWN)
        for piece_type, start in START_COUNTS.items():
            missing = start - counts[piece_type] - (promoted if piece_type == chess.PAWN else 0)
            taken[taker] += [chess.Piece(piece_type, colour).symbol()] * max(0, missing)
    return taken


class Chess(Game[ChessState]):
    id = ID
    spec = SPEC
    num_players = 2

    def initial_state(self) -> ChessState:
        return ChessState(chess.Board())

    def from_fen(self, fen: str) -> ChessState:
        """The position a FEN describes, with no earlier positions; ValueError if it is not a legal one."""
        if not isinstance(fen, str) or len(fen) > MAX_FEN_LENGTH:
            raise ValueError("a FEN is a string of at most 100 characters")
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"not a FEN: {error}") from None
        if not board.is_valid():
            raise ValueError(f"not a legal chess position: {board.status()!r}")
        return ChessState(board)

    def to_move(self, state: ChessState) -> Seat:
        return 0 if state.board.turn == chess.WHITE else 1

    def _ending_of(self, state: ChessState) -> str:
        """Why the game is over, or "" while it goes on (cached; finds one legal move, not all)."""
        if state._ending is None:
            board = state.board
            if not any(True for _ in board.generate_legal_moves()):
                ending = "checkmate" if board.is_check() else "stalemate"
            elif board.is_insufficient_material():
                ending = "insufficient material"
            elif board.halfmove_clock >= SEVENTY_FIVE_MOVE_PLIES:
                ending = "75-move rule"
            elif state.repetitions >= 5:
                ending = "fivefold repetition"
            else:
                ending = ""
            state._ending = ending
        return state._ending

    def legal_moves(self, state: ChessState) -> list[Move]:
        if state._moves is None:
            state._moves = [] if self._ending_of(state) else [move.uci() for move in state.board.legal_moves]
        return list(state._moves)

    def apply(self, state: ChessState, move: Move) -> ChessState:
        board = state.board.copy(stack=False)
        board.push(search.parsed_move(move))
        history = () if board.halfmove_clock == 0 else (*state.history, state.position)
        return ChessState(board, history)

    def is_terminal(self, state: ChessState) -> bool:
        return bool(self._ending_of(state))

    def outcome(self, state: ChessState) -> Outcome:
        ending = self._ending_of(state)
        if not ending:
            raise ValueError("the game is not over")
        if ending == "checkmate":
            winner = 1 - self.to_move(state)
            returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
            return Outcome(returns, winner, "checkmate", (winner, 1 - winner))
        return Outcome((0.0, 0.0), None, ending)

    def claimable_draw(self, state: ChessState) -> str | None:
        """Threefold repetition or the 50-move rule, where a player may claim the draw now (FIDE 9.2, 9.3)."""
        if self.is_terminal(state):
            return None
        if state.repetitions >= 3:
            return "threefold repetition"
        if state.board.halfmove_clock >= FIFTY_MOVE_PLIES:
            return "50-move rule"
        return None

    def ply(self, state: ChessState) -> int:
        return 2 * (state.board.fullmove_number - 1) + (state.board.turn == chess.BLACK)

    def key(self, state: ChessState) -> int:
        """The Polyglot Zobrist hash of the position (cached on the state)."""
        if state._zobrist is None:
            state._zobrist = chess.polyglot.zobrist_hash(state.board)
        return state._zobrist

    # --- notation -------------------------------------------------------------
    def canonical_move(self, state: ChessState, move: Move) -> Move:
        """The UCI move that `move`, in UCI or SAN, names; IllegalMove if it names no legal move."""
        moves = self.legal_moves(state)
        if move in moves:
            return move
        board = state.board
        text = move.strip()
        parsed: chess.Move | None = None
        try:
            parsed = chess.Move.from_uci(text)
        except ValueError:
            try:
                parsed = board.parse_san(text)
            except ValueError:
                parsed = None
        if parsed and board.is_legal(parsed):
            uci = board.uci(parsed)
            if uci in moves:
                return uci
        raise IllegalMove(self.why_illegal(state, text))

    def why_illegal(self, state: ChessState, move: Move) -> str:
        board = state.board
        side = "white" if board.turn == chess.WHITE else "black"
        try:
            parsed = chess.Move.from_uci(move)
        except ValueError:
            try:
                board.parse_san(move)
            except chess.AmbiguousMoveError:
                return f"{move!r} is ambiguous here: say which piece moves (e.g. Nbd2) or give the move in UCI (b1d2)"
            except ValueError:
                pass
            return f"{move!r} is not a legal move here: give a move in UCI (e2e4, e7e8q) or SAN (Nf3, O-O, exd5, e8=Q)"
        piece = board.piece_at(parsed.from_square) if parsed else None
        if not parsed or piece is None or piece.color != board.turn:
            return f"{move!r} is not a legal move here: there is no {side} piece on {move[:2]}"
        if board.is_pseudo_legal(parsed):
            return f"{move!r} is not a legal move here: it would leave your king in check"
        return f"{move!r} is not a legal move here"

    def move_notation(self, state: ChessState, move: Move) -> str:
        """The move in SAN (``Nf3``, ``exd8=Q+``, ``O-O#``)."""
        return state.board.san(chess.Move.from_uci(move))

    def position_notation(self, state: ChessState) -> str:
        """The position's FEN (python-chess's: an en passant square only where a capture there is legal)."""
        return fen(state)

    def standard_notation(self, moves: Sequence[Move]) -> tuple[str, str] | None:
        """The game as PGN movetext: the moves in SAN and the result ("*" while it goes on).

        >>> CHESS.standard_notation(["f2f3", "e7e5", "g2g4", "d8h4"])
        ('pgn', '1. f3 e5 2. g4 Qh4# 0-1')
        """
        game = pgn_game(moves)
        if game is None:
            return None
        exporter = chess.pgn.StringExporter(headers=False, variations=False, comments=False)
        return "pgn", game.accept(exporter)

    def match_record(self, played: PlayedMatch) -> GameRecord:
        """The match as PGN, with tags, clocks and how it ended (`games.chess.record`)."""
        return match_pgn(played)

    # --- JSON ---------------------------------------------------------------
    def to_json(self, state: ChessState) -> dict[str, Any]:
        board = state.board
        king = board.king(board.turn)
        ep = state.position[-1]
        return {
            "fen": board.fen(),
            "board": [
                [piece.symbol() if (piece := board.piece_at(chess.square(f, r))) else None for f in range(8)]
                for r in range(7, -1, -1)
            ],
            "turn": self.to_move(state),
            "check": chess.square_name(king) if king is not None and board.is_check() else None,
            "castling": board.castling_xfen(),
            "ep": None if ep is None else chess.square_name(ep),
            "halfmove": board.halfmove_clock,
            "fullmove": board.fullmove_number,
            "captured": captured(board),
            "material": material(board),
            "history": [encode_key(key) for key in state.history],
            "claimable_draw": self.claimable_draw(state),
        }

    def from_json(self, data: dict[str, Any]) -> ChessState:
        if not isinstance(data, dict):
            raise ValueError("a chess state is a JSON object")
        state = self.from_fen(data.get("fen"))  # type: ignore[arg-type]  # from_fen checks the type
        history = data.get("history", [])
        if not isinstance(history, list) or len(history) > state.board.halfmove_clock:
            raise ValueError("history lists at most one repetition key per move since the last capture or pawn move")
        return ChessState(state.board, tuple(decode_key(entry) for entry in history))

    # --- search hooks (games/chess/evaluation.py, games/chess/search.py) ---
    def evaluate(self, state: ChessState, seat: Seat) -> float:
        """PeSTO's tapered tables for `seat` (`games.chess.evaluation`), the ladder's; a pawn is about 0.01."""
        return self._scored(state, seat, terms=False)

    def evaluation(self, name: str) -> Callable[[ChessState, Seat], float] | None:
        """``"terms"``: the tables and the classic terms (passed pawns, king safety, mobility...), the
        Master's and the compiled engine's."""
        return functools.partial(self._scored, terms=True) if name == "terms" else None

    def _scored(self, state: ChessState, seat: Seat, terms: bool) -> float:
        ending = self._ending_of(state)
        if ending == "checkmate":
            return -0.99 if self.to_move(state) == seat else 0.99
        if ending:
            return 0.0
        return evaluation.evaluate_for(state.board, seat == 0, self.max_utility, terms)

    def in_check(self, state: ChessState) -> bool:
        return state.board.is_check()

    def null_move(self, state: ChessState) -> ChessState | None:
        passed = search.null_move(state.board)
        return None if passed is None else ChessState(passed, (*state.history, state.position))

    def is_tactical(self, state: ChessState, move: Move) -> bool:
        return search.is_tactical(state.board, move)

    def gives_check(self, state: ChessState, move: Move) -> bool:
        return state.board.gives_check(search.parsed_move(move))

    def capture_gain(self, state: ChessState, move: Move) -> float:
        return search.capture_gain(state.board, move, self.max_utility)

    def exchange_value(self, state: ChessState, move: Move) -> float:
        return search.exchange_value(state.board, move, self.max_utility)

    def order_moves(self, state: ChessState, moves: Sequence[Move]) -> list[Move]:
        """Captures and promotions by MVV-LVA first, then the quiet moves."""
        return search.order_moves(state.board, moves)

    def noisy_moves(self, state: ChessState) -> list[Move]:
        """Captures and queen promotions, best victims first; every evasion when in check (cached)."""
        if state._noisy is None:
            state._noisy = [] if self.is_terminal(state) else search.noisy_moves(state.board)
        return list(state._noisy)

    def is_quiet(self, state: ChessState) -> bool:
        return not self.noisy_moves(state)  # cached: quiescence asks for the moves next

    def book_move(self, state: ChessState, rng: random.Random) -> BookChoice | None:
        """A move of the Polyglot opening book (`games.chess.tables`), drawn by weight with `rng`."""
        return tables.book_move(state.board, rng)

    def table_move(self, state: ChessState) -> TableChoice | None:
        """The best move by distance to mate in the Gaviota tables (`games.chess.tables`), few pieces left."""
        if self.is_terminal(state):
            return None
        return tables.table_move(state.board, self.order_moves(state, self.legal_moves(state)))

    def search_engine(self) -> SearchEngine | None:
        """The compiled search (`games.chess.engine`) where it is built and the evaluation is this class's."""
        return engine.ENGINE if type(self).evaluate is Chess.evaluate else None

    def rollout_move(self, state: ChessState, rng: random.Random) -> Move:
        """A capture half the time one is on offer, else any legal move."""
        noisy = self.noisy_moves(state)
        if noisy and rng.random() < 0.5:
            return rng.choice(noisy)
        return rng.choice(self.legal_moves(state))


def perft(game: Chess, state: ChessState, depth: int) -> int:
    """Leaf count of the move tree `depth` plies deep, through the Game API (`legal_moves`, `apply`)."""
    moves = game.legal_moves(state)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    return sum(perft(game, game.apply(state, move), depth - 1) for move in moves)


CHESS = Chess()
