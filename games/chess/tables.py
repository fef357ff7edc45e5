"""Chess knowledge read from files the system provides: an opening book and endgame tables.

- The opening book is a Polyglot file (16-byte big-endian entries: Zobrist key, move,
  weight, learn; sorted by key), read with `chess.polyglot`.  Debian's ``gnuchess-book``
  ships one at `DEFAULT_BOOK_PATH` (public domain: the book of GNU Chess, built from
  free game collections).  A book move is drawn at random, weighted by the entries'
  weights, with the caller's random generator, so a seeded search plays the same move.
- Endgame tables are Gaviota's (Debian's ``gaviotatb``, MIT licence: three-piece tables,
  LZMA-compressed, at `DEFAULT_GAVIOTA_PATH`), probed with python-chess's prober.  The
  move chosen is the best by distance to mate (DTM) of each reply: a win as fast as
  possible, else a draw, else the longest resistance (`best_by_dtm`).

Neither file is in the repository nor required: the paths come from the environment
(``CHESS_BOOK_PATH``, ``CHESS_GAVIOTA_PATH``; the Django settings of the same names pass
theirs through `configure`), and where a file is missing the bot searches as it would
without it, after one log line.

>>> len(polyglot_book([(chess.Board(), "e2e4", 3), (chess.Board(), "d2d4", 1)]))  # two 16-byte entries
32
"""

from __future__ import annotations

import logging
import os
import random
import struct
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Final, Protocol

import chess
import chess.gaviota
import chess.polyglot

from games.base import BookChoice, TableChoice

log = logging.getLogger(__name__)

DEFAULT_BOOK_PATH: Final = "/usr/share/games/gnuchess/book.bin"
DEFAULT_GAVIOTA_PATH: Final = "/usr/share/gaviotatb/gtb4"
GAVIOTA_MAX_PIECES: Final = 5  # the most pieces, kings included, any Gaviota table holds


class DtmProber(Protocol):
    """What `best_by_dtm` asks of a tablebase (`chess.gaviota`'s prober has it)."""

    def get_dtm(self, board: chess.Board) -> int | None: ...


# --- where the files are ---------------------------------------------------------
_paths: dict[str, str] = {}
_books: dict[str, chess.polyglot.MemoryMappedReader | None] = {}
_tablebases: dict[str, DtmProber | None] = {}


def configure(book_path: str | None = None, gaviota_path: str | None = None) -> None:
    """Use these files (the Django settings' paths); None leaves the environment's or the default."""
    for name, path in (("book", book_path), ("gaviota", gaviota_path)):
        if path is not None:
            _paths[name] = path


def book_path() -> str:
    return _paths.get("book") or os.environ.get("CHESS_BOOK_PATH") or DEFAULT_BOOK_PATH


def gaviota_path() -> str:
    return _paths.get("gaviota") or os.environ.get("CHESS_GAVIOTA_PATH") or DEFAULT_GAVIOTA_PATH


def opening_book() -> chess.polyglot.MemoryMappedReader | None:
    """The book at `book_path`, opened once per process; None (logged once) when it cannot be read."""
    path = book_path()
    if path not in _books:
        try:
            _books[path] = chess.polyglot.open_reader(path)
        except (OSError, ValueError) as exc:
            log.info("no chess opening book at %s (%s): bots search from the first move", path, exc)
            _books[path] = None
    return _books[path]


def tablebase() -> DtmProber | None:
    """The Gaviota tables at `gaviota_path`, opened once per process; None (logged once) where there are none."""
    path = gaviota_path()
    if path not in _tablebases:
        prober: DtmProber | None = None
        if Path(path).is_dir() and any(Path(path).glob("*.gtb.cp*")):
            prober = chess.gaviota.open_tablebase(path, LibraryLoader=None)  # type: ignore[arg-type]  # None: the pure-Python prober, never libgtb (python-chess checks it for truth)
        else:
            log.info("no Gaviota endgame tables at %s: bots search endgames", path)
        _tablebases[path] = prober
    return _tablebases[path]


# --- choosing a move -------------------------------------------------------------
def book_move(
    board: chess.Board, rng: random.Random, book: chess.polyglot.MemoryMappedReader | None = None
) -> BookChoice | None:
    """A move of `book` (by default the installation's) for `board`, drawn by weight with `rng`; None out of book."""
    book = book if book is not None else opening_book()
    if book is None:
        return None
    total = sum(entry.weight for entry in book.find_all(board))
    if not total:
        return None
    entry = book.weighted_choice(board, random=rng)
    return BookChoice(entry.move.uci(), entry.weight / total)


def best_by_dtm(
    board: chess.Board, probe: Callable[[chess.Board], int | None], order: Sequence[str] | None = None
) -> TableChoice | None:
    """The best move by each reply's distance to mate, or None if a reply cannot be probed.

    `probe(board)` is the DTM of `board` for its side to move (Gaviota's convention: plies
    to mate, positive when that side mates, 0 for a draw or a mate already on the board),
    None where no table holds it.  A win takes the fewest plies, a loss the most; among
    equals the first in `order` (the legal moves' order by default) is played.  A mate on
    the board is played at once; otherwise every reply must be probed.
    """
    moves = list(order) if order is not None else [m.uci() for m in board.legal_moves]
    mate = next((uci for uci in moves if _mates(board, uci)), None)
    if mate is not None:
        return TableChoice(mate, 1)  # nothing is faster
    rank: list[tuple[int, int, TableChoice]] = []
    for i, uci in enumerate(moves):
        board.push_uci(uci)
        try:
            plies = _plies_after(board, probe)
        finally:
            board.pop()
        if plies is None:
            return None
        rank.append((_preference(plies), -i, TableChoice(uci, plies)))
    return max(rank)[2] if rank else None


def _mates(board: chess.Board, uci: str) -> bool:
    board.push_uci(uci)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def _plies_after(child: chess.Board, probe: Callable[[chess.Board], int | None]) -> int | None:
    """Plies to the end for the side that just moved into `child` (see `TableChoice`)."""
    if child.is_checkmate():
        return 1
    if child.is_stalemate() or child.is_insufficient_material():
        return 0
    dtm = probe(child)  # for the side now to move
    if dtm is None:
        return None
    if dtm == 0:
        return 0
    return -dtm + 1 if dtm < 0 else -(dtm + 1)


def _preference(plies: int) -> int:
    """Higher is better: any win over a draw over any loss; sooner wins, later losses."""
    if plies > 0:
        return 10_000 - plies
    if plies < 0:
        return -10_000 - plies
    return 0


def table_move(board: chess.Board, order: Sequence[str], prober: DtmProber | None = None) -> TableChoice | None:
    """The tables' best move where `board` has few enough pieces and every reply is in them; else None."""
    if chess.popcount(board.occupied) > GAVIOTA_MAX_PIECES or board.castling_rights:
        return None
    prober = prober if prober is not None else tablebase()
    if prober is None:
        return None
    found = prober  # narrowed for the closure

    def probe(child: chess.Board) -> int | None:
        try:
            return found.get_dtm(child)
        except (ValueError, OSError, IndexError) as exc:  # an unreadable table: search instead
            log.warning("Gaviota probe failed for %s: %r", child.fen(), exc)
            return None

    return best_by_dtm(board.copy(stack=False), probe, order)


# --- writing a book (tests and examples) ------------------------------------------
def polyglot_book(entries: Iterable[tuple[chess.Board, str, int]]) -> bytes:
    """A Polyglot book of (position, UCI move, weight) entries, sorted by key as readers expect."""
    rows = []
    for board, uci, weight in entries:
        move = chess.Move.from_uci(uci)
        # Polyglot writes castling as the king taking its own rook (e1h1).
        if board.is_castling(move):
            rook_file = 7 if board.is_kingside_castling(move) else 0
            move = chess.Move(move.from_square, chess.square(rook_file, chess.square_rank(move.from_square)))
        raw = move.to_square | move.from_square << 6 | (move.promotion - 1 if move.promotion else 0) << 12
        rows.append((chess.polyglot.zobrist_hash(board), raw, weight, 0))
    return b"".join(struct.pack(">QHHI", *row) for row in sorted(rows))
