"""The cost of backgammon's contact evaluation with and without its shot count, in one run.

Positions: every position before a roll in seeded playouts (`rollout_move`), both seats.
Times `side_probabilities` over them, alternating rounds with the shot count made and
replaced by a constant 0 (the evaluation's cost without shots), and prints the best
round's cost per position of each (the least disturbed by other work) and their ratio;
also the cost of `hitting_rolls` alone, which gathers the blots and points itself where
`side_features` shares its own loops.

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bg_eval_speed.py [--games 40] [--rounds 10]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from games.backgammon import BACKGAMMON, sides
from games.backgammon import evaluation as ev

Pair = tuple[ev.Side, ev.Side]


def played_pairs(games: int, seed: int) -> list[Pair]:
    """(me, op), each in its own numbering, for both seats of every position before a roll."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(games):
        state = BACKGAMMON.initial_state()
        while not BACKGAMMON.is_terminal(state):
            if not state.dice and state.ply:
                pairs += [(sides(state, s)[0], sides(state, 1 - s)[0]) for s in (0, 1)]
            state = BACKGAMMON.apply(state, BACKGAMMON.rollout_move(state, rng))
    return pairs


def seconds(function: Callable[[ev.Side, ev.Side], object], pairs: list[Pair]) -> float:
    start = time.perf_counter()
    for me, op in pairs:
        function(me, op)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pairs = [p for p in played_pairs(args.games, args.seed) if not ev.race_started(*p)]
    counted = ev._shots
    evaluate = lambda me, op: ev.side_probabilities(me, op, True)  # noqa: E731
    with_shots, without, alone = [], [], []
    for _ in range(args.rounds):
        ev._shots = lambda *parts: (0, 0)  # type: ignore[assignment]
        without.append(seconds(evaluate, pairs))
        ev._shots = counted
        with_shots.append(seconds(evaluate, pairs))
        alone.append(seconds(ev.hitting_rolls, pairs))
    n = len(pairs)
    print(f"{n} contact positions, best of {args.rounds} rounds each")
    print(
        f"without shots {min(without) / n * 1e6:.1f} us, with shots {min(with_shots) / n * 1e6:.1f} us a position:"
        f" x{min(with_shots) / min(without):.2f}; hitting_rolls alone {min(alone) / n * 1e6:.1f} us"
    )


if __name__ == "__main__":
    main()
