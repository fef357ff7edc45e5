"""The cost of backgammon's contact evaluation: the network against the logistic models it replaced, in one run.

Positions: every position before a roll in seeded playouts (`rollout_move`), both seats,
contact only.  Times `side_probabilities` over them, alternating rounds of the network
(`games.backgammon.evaluation`) and the logistic models (`logistic_evaluation.py`), and
prints the best round's cost per position of each (the least disturbed by other work) and
their ratio; also the network's share: its inputs (`network_inputs`) and its arithmetic.

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bg_eval_speed.py [--games 40] [--rounds 10]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import logistic_evaluation as lg

from games.backgammon import BACKGAMMON, sides
from games.backgammon import evaluation as ev
from games.backgammon.network import contact_network

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
    network, inputs = contact_network(), ev.network_inputs(*pairs[0])
    timings: dict[str, list[float]] = {"network": [], "logistic": [], "inputs": [], "arithmetic": []}
    for _ in range(args.rounds):
        timings["logistic"].append(seconds(lambda me, op: lg.side_probabilities(me, op, True), pairs))
        timings["network"].append(seconds(lambda me, op: ev.side_probabilities(me, op, True), pairs))
        timings["inputs"].append(seconds(ev.network_inputs, pairs))
        timings["arithmetic"].append(seconds(lambda me, op: network.outputs(inputs), pairs))
    n = len(pairs)
    best = {name: min(times) / n * 1e6 for name, times in timings.items()}
    print(f"{n} contact positions, best of {args.rounds} rounds each")
    print(
        f"logistic {best['logistic']:.1f} us, network {best['network']:.1f} us a position:"
        f" x{best['network'] / best['logistic']:.2f}; of which inputs {best['inputs']:.1f} us,"
        f" arithmetic {best['arithmetic']:.1f} us"
    )


if __name__ == "__main__":
    main()
