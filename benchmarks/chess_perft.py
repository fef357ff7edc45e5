"""Chess move generation through our Game API against python-chess on its own (perft).

    .venv/bin/python benchmarks/chess_perft.py [--depth 4]

Counts the leaves of the move tree from the start and from "Kiwipete" two ways: through
`Chess.legal_moves` / `Chess.apply` (what every searcher uses: UCI strings, immutable
states, repetition keys) and with python-chess's own board (push/pop on one board), and
prints each count, its time and the overhead of the Game API.  The counts must match the
published ones; the times are CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402

from games.chess import CHESS, perft  # noqa: E402

POSITIONS = {  # name: (FEN, published counts by depth from 1)
    "start": (chess.STARTING_FEN, (20, 400, 8_902, 197_281, 4_865_609)),
    "kiwipete": (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        (48, 2_039, 97_862, 4_085_603),
    ),
}


def board_perft(board: chess.Board, depth: int) -> int:
    """python-chess alone: one board, push and pop, the last ply counted without playing it."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += board_perft(board, depth - 1)
        board.pop()
    return total


def timed(count, *args) -> tuple[int, float]:
    start = time.process_time()
    return count(*args), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args()
    for name, (fen, published) in POSITIONS.items():
        depth = min(args.depth, len(published))
        ours, ours_s = timed(perft, CHESS, CHESS.from_fen(fen), depth)
        theirs, theirs_s = timed(board_perft, chess.Board(fen), depth)
        assert ours == theirs == published[depth - 1], (name, ours, theirs)
        print(
            f"{name} depth {depth}: {ours:,} leaves; Game API {ours_s:.2f} s, python-chess alone {theirs_s:.2f} s "
            f"(x{ours_s / theirs_s:.2f})"
        )


if __name__ == "__main__":
    main()
