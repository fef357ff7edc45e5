"""The tactical test set kept in tests/data: Win At Chess, and the positions Stockfish confirmed.

No engine here: `benchmarks/tactics_confirm.py` wrote `chess_tactics.epd` with Stockfish; these
tests check that what it kept is well formed, legal and still the source's positions.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

DATA = Path(__file__).resolve().parents[2] / "data"
SOURCE = DATA / "chess" / "win-at-chess.epd"
CONFIRMED = DATA / "chess_tactics.epd"
MIN_CONFIRMED = 250  # of the 300: the run kept more; fewer would mean a damaged file
MIN_DEPTH = 20


def read(path: Path) -> list[tuple[chess.Board, dict]]:
    return [chess.Board.from_epd(line) for line in path.read_text().splitlines()]


SOURCE_FENS = {str(ops["id"]): board.fen() for board, ops in read(SOURCE)}


def test_the_source_is_the_300_win_at_chess_positions_in_order():
    assert list(SOURCE_FENS) == [f"WAC.{n:03d}" for n in range(1, 301)]


@pytest.mark.parametrize("path", [SOURCE, CONFIRMED], ids=["source", "confirmed"])
def test_every_position_is_legal_and_every_best_move_is_legal_in_it(path):
    for board, ops in read(path):
        assert board.is_valid(), ops["id"]
        assert not board.is_game_over(), ops["id"]
        best = ops["bm"]  # parsed as SAN in this position: an illegal move would not parse
        assert best and all(board.is_legal(move) for move in best), ops["id"]


def test_the_confirmed_set_is_a_few_hundred_source_positions_with_stockfish_annotations():
    confirmed = read(CONFIRMED)
    assert len(confirmed) >= MIN_CONFIRMED
    ids = [str(ops["id"]) for _, ops in confirmed]
    assert len(set(ids)) == len(ids)
    for board, ops in confirmed:
        name = str(ops["id"])
        assert board.fen() == SOURCE_FENS[name], f"{name} differs from the source"
        assert isinstance(ops["acd"], int) and ops["acd"] >= MIN_DEPTH, name
        assert isinstance(ops["ce"], int), name
        # Stockfish's line starts with a best move and is playable from the position.
        line = ops["pv"]
        assert line and line[0] in ops["bm"], name
        for move in line:
            assert board.is_legal(move), name
            board.push(move)
