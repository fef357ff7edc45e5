"""Chess from files the system provides (`games.chess.tables`): the opening book and the endgame tables.

No test needs the Debian files: the book is a tiny Polyglot file written here, and the
tables a fake prober (the real ones are exercised by benchmarks/chess_tables.py).
"""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path

import chess
import pytest

import ai
from games import registry
from games.chess import tables
from games.chess.tables import best_by_dtm, polyglot_book

CHESS = registry.get("chess")
START = chess.Board()
AFTER_E4 = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
CASTLING = chess.Board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")


def write_book(directory: Path, entries: list[tuple[chess.Board, str, int]]) -> Path:
    path = directory / "book.bin"
    path.write_bytes(polyglot_book(entries))
    return path


@pytest.fixture
def book(tmp_path, monkeypatch):
    """The installation's book is a tiny one: 1.e4 three times as often as 1.d4, then O-O in the Italian."""
    path = write_book(tmp_path, [(START, "e2e4", 3), (START, "d2d4", 1), (AFTER_E4, "e7e5", 1), (CASTLING, "e1g1", 5)])
    monkeypatch.setitem(tables._paths, "book", str(path))
    return path


def choose(board: chess.Board, seed: int, **options: object) -> ai.SearchResult:
    config = ai.SearchConfig(max_depth=1, time_budget_ms=60_000, seed=seed, options={"opening_book": True, **options})
    return ai.choose_move(CHESS, CHESS.from_fen(board.fen()), config)


def test_the_bot_plays_a_book_move_and_says_so(book):
    result = choose(START, seed=1)
    assert result.move in ("e2e4", "d2d4")
    assert result.stats["source"] == "book"
    assert result.stats["book_share"] == {"e2e4": 0.75, "d2d4": 0.25}[result.move]
    assert result.nodes == 0 and result.depth == 0  # nothing was searched


def test_book_moves_follow_the_weights_over_seeds(book):
    counts = Counter(choose(START, seed).move for seed in range(400))
    assert set(counts) == {"e2e4", "d2d4"}
    assert 0.68 < counts["e2e4"] / 400 < 0.82  # 3:1 in the book


def test_a_seed_plays_the_same_book_move_again(book):
    assert [choose(START, seed).move for seed in range(20)] == [choose(START, seed).move for seed in range(20)]


def test_castling_is_read_from_polyglot_notation(book):
    assert choose(CASTLING, seed=3).move == "e1g1"  # the book stores it as the king taking its rook, e1h1


def test_out_of_book_the_bot_searches(book):
    board = chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    result = choose(board, seed=1)
    assert "source" not in result.stats
    assert result.depth == 1 and result.nodes > 0


def test_without_the_option_the_book_is_not_used(book):
    result = choose(START, seed=1, opening_book=False)
    assert "source" not in result.stats and result.nodes > 0


def test_a_missing_book_means_search_and_one_log_line(tmp_path, monkeypatch, caplog):
    monkeypatch.setitem(tables._paths, "book", str(tmp_path / "absent.bin"))
    with caplog.at_level(logging.INFO, logger="games.chess.tables"):
        first, second = choose(START, seed=1), choose(START, seed=2)
    assert "source" not in first.stats and "source" not in second.stats
    assert first.nodes > 0
    assert len([r for r in caplog.records if "no chess opening book" in r.message]) == 1


def test_a_file_that_is_no_book_means_search(tmp_path, monkeypatch):
    path = tmp_path / "odd.bin"
    path.write_bytes(b"not a book")  # not a multiple of 16 bytes
    monkeypatch.setitem(tables._paths, "book", str(path))
    assert "source" not in choose(START, seed=1).stats


def test_the_environment_names_the_book_when_nothing_is_configured(tmp_path, monkeypatch):
    monkeypatch.delitem(tables._paths, "book", raising=False)
    monkeypatch.setenv("CHESS_BOOK_PATH", str(tmp_path / "mine.bin"))
    assert tables.book_path() == str(tmp_path / "mine.bin")
    monkeypatch.delenv("CHESS_BOOK_PATH")
    assert tables.book_path() == tables.DEFAULT_BOOK_PATH


# --- endgame tables ---------------------------------------------------------------
class FakeTables:
    """DTM by position (the board part of the FEN), for the side to move; None where absent."""

    def __init__(self, dtm: dict[str, int]) -> None:
        self.dtm = dtm
        self.probes = 0

    def get_dtm(self, board: chess.Board) -> int | None:
        self.probes += 1
        return self.dtm.get(board.board_fen())


def after(board: chess.Board, uci: str) -> str:
    child = board.copy()
    child.push_uci(uci)
    return child.board_fen()


# White: Kd1, Qe1; black: Kd3 (a KQK ending).
KQK = chess.Board("8/8/8/8/8/3k4/8/3KQ3 w - - 0 1")


def dtm_for_every_reply(board: chess.Board, special: dict[str, int], default: int) -> FakeTables:
    return FakeTables({after(board, m.uci()): special.get(m.uci(), default) for m in board.legal_moves})


def test_a_win_takes_the_fastest_mate():
    fake = dtm_for_every_reply(KQK, {"e1e5": -8, "e1e6": -10}, default=-14)
    choice = best_by_dtm(KQK, fake.get_dtm)
    assert choice is not None and choice.move == "e1e5" and choice.plies_to_end == 9


def test_a_draw_is_kept_rather_than_a_loss():
    fake = dtm_for_every_reply(KQK, {"e1e4": 0}, default=6)  # every other reply lets the opponent mate
    choice = best_by_dtm(KQK, fake.get_dtm)
    assert choice is not None and choice.move == "e1e4" and choice.plies_to_end == 0


def test_a_loss_is_put_off_as_long_as_possible():
    fake = dtm_for_every_reply(KQK, {"e1h1": 20, "e1a5": 30}, default=4)
    choice = best_by_dtm(KQK, fake.get_dtm)
    assert choice is not None and choice.move == "e1a5" and choice.plies_to_end == -31


def test_a_mate_on_the_board_needs_no_probe():
    board = chess.Board("7k/8/6K1/8/8/8/8/Q7 w - - 0 1")  # Qa8#
    fake = FakeTables({})
    choice = best_by_dtm(board, fake.get_dtm, ["a1b1", "a1a8"])
    assert choice is not None and choice.move == "a1a8" and choice.plies_to_end == 1


def test_a_reply_the_tables_do_not_hold_leaves_the_choice_to_search():
    fake = dtm_for_every_reply(KQK, {}, default=-14)
    del fake.dtm[after(KQK, "e1e5")]
    assert best_by_dtm(KQK, fake.get_dtm) is None


@pytest.fixture
def fake_tables(monkeypatch):
    fake = dtm_for_every_reply(KQK, {"e1e5": -8}, default=-14)
    monkeypatch.setitem(tables._paths, "gaviota", "/fake/gtb")
    monkeypatch.setitem(tables._tablebases, "/fake/gtb", fake)
    return fake


def choose_in_endgame(board: chess.Board, **options: object) -> ai.SearchResult:
    config = ai.SearchConfig(max_depth=1, time_budget_ms=60_000, seed=1, options={"tablebases": True, **options})
    return ai.choose_move(CHESS, CHESS.from_fen(board.fen()), config)


def test_the_bot_plays_the_tables_move_and_says_so(fake_tables):
    result = choose_in_endgame(KQK)
    assert result.move == "e1e5"
    assert result.stats["source"] == "tablebase" and result.stats["plies_to_end"] == 9
    assert result.value == 1.0 and result.nodes == 0


def test_too_many_pieces_for_the_tables_means_search(fake_tables):
    middle_game = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    result = choose_in_endgame(middle_game)
    assert "source" not in result.stats and result.nodes > 0
    assert fake_tables.probes == 0


def test_a_position_the_tables_do_not_hold_means_search(fake_tables):
    board = chess.Board("8/8/8/8/8/3k4/8/3KR3 w - - 0 1")  # KRK: not in the fake tables
    result = choose_in_endgame(board)
    assert "source" not in result.stats and result.nodes > 0


def test_without_the_option_the_tables_are_not_used(fake_tables):
    result = choose_in_endgame(KQK, tablebases=False)
    assert "source" not in result.stats and fake_tables.probes == 0


def test_missing_tables_mean_search_and_one_log_line(tmp_path, monkeypatch, caplog):
    monkeypatch.setitem(tables._paths, "gaviota", str(tmp_path))
    with caplog.at_level(logging.INFO, logger="games.chess.tables"):
        first, second = choose_in_endgame(KQK), choose_in_endgame(KQK)
    assert "source" not in first.stats and first.nodes > 0 and "source" not in second.stats
    assert len([r for r in caplog.records if "no Gaviota endgame tables" in r.message]) == 1


class BrokenTables(FakeTables):
    def get_dtm(self, board: chess.Board) -> int | None:
        raise ValueError("read length must be non-negative or -1")  # what a damaged table file raises


def test_a_table_that_fails_to_read_means_search(monkeypatch):
    monkeypatch.setitem(tables._paths, "gaviota", "/broken/gtb")
    monkeypatch.setitem(tables._tablebases, "/broken/gtb", BrokenTables({}))
    result = choose_in_endgame(KQK)
    assert "source" not in result.stats and result.nodes > 0
