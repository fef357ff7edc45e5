"""Checkers' rules against OpenSpiel's ``checkers``: the full differential of random games.

The suite plays a sample (tests/games/checkers/test_openspiel.py, 200 games); this plays the
full set with the same seed, so the suite's games are its first ones.  Every position's legal
moves and every decisive result are asserted equal, as there; it prints what was compared and
how long the run took.

    nice .venv/bin/python benchmarks/checkers_rules_vs_openspiel.py [games] [seed]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.games.checkers.test_openspiel import SEED, play_random_games  # noqa: E402

FULL_SET = 2000


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else FULL_SET
    seed = int(argv[1]) if len(argv) > 1 else SEED
    started = time.monotonic()
    tally = play_random_games(games, seed)
    seconds = time.monotonic() - started
    print(
        f"{tally.games} random games (seed {seed}) agree with OpenSpiel: {tally.positions} positions' moves, "
        f"{tally.wins} decisive results ({tally.wins / tally.games:.0%}), the rest ended by a draw rule; "
        f"{seconds:.1f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
