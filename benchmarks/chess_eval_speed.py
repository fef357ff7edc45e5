"""The Python chess evaluation's cost: with its terms beyond PeSTO's tables, against the tables alone.

Not in CI.  Scores every position of ``--games`` random games (seeded) ``--rounds`` times,
alternating the full `games.chess.evaluation.evaluate_board` with the same function whose
`structure_terms` answers zero, so both meet the same load; prints microseconds an evaluation
and their ratio.  The pawn-structure cache starts empty in each full round.

    .venv/bin/python benchmarks/chess_eval_speed.py [--games 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import time

import chess

from games.chess import evaluation


def random_boards(games: int, seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 120:
            board.push(rng.choice(list(board.legal_moves)))
            boards.append(board.copy(stack=False))
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    boards = random_boards(args.games, seed=46)
    full_terms = evaluation.structure_terms
    spent = {"full": 0.0, "tables": 0.0}
    for _ in range(args.rounds):
        for name in ("full", "tables"):
            evaluation._pawn_terms.cache_clear()
            evaluation.structure_terms = full_terms if name == "full" else (lambda board: (0, 0))  # type: ignore[assignment]
            started = time.process_time()
            for board in boards:
                evaluation.evaluate_board(board)
            spent[name] += time.process_time() - started
    evaluation.structure_terms = full_terms
    n = len(boards) * args.rounds
    full, tables = (spent[k] / n * 1e6 for k in ("full", "tables"))
    print(f"| Python evaluation, {len(boards)} positions x {args.rounds} | full {full:.1f} µs, PeSTO's tables alone "
          f"{tables:.1f} µs: **{full / tables:.2f}×** |")  # fmt: skip
    one, five, _ = os.getloadavg()
    print(f"# load average {one:.1f} / {five:.1f}")


if __name__ == "__main__":
    main()
