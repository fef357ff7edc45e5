"""What a bot's doubling-cube decision costs: one roll ahead against the position's own evaluation.

Positions before a roll where the seat on roll may double, from random self-play; each decided by
`ai.cube` on `cube_inputs(s, look_ahead=True)` (every roll's best play evaluated, the cache
cleared first) and on `look_ahead=False` (0-ply), side by side, with how often the two agree.
Bots look ahead only with a budget of `ai.cube.LOOK_AHEAD_MIN_BUDGET_MS` or more.

    .venv/bin/python benchmarks/bg_cube_time.py --positions 60 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import cube  # noqa: E402
from games import CHANCE, registry  # noqa: E402
from games.backgammon import rules  # noqa: E402

GAME = registry.get("backgammon").with_options({"cube": True})


def positions(wanted: int, rng: random.Random) -> list[rules.BackgammonState]:
    found: list[rules.BackgammonState] = []
    while len(found) < wanted:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and len(found) < wanted:
            if GAME.to_move(state) == CHANCE:
                outcomes = GAME.chance_outcomes(state)
                state = GAME.apply(state, rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            legal = GAME.legal_moves(state)
            if "double" in legal:
                found.append(state)
                state = GAME.apply(state, "roll")
            else:
                state = GAME.apply(state, rng.choice(legal))
    return found


def timed_ms(state: rules.BackgammonState, look_ahead: bool) -> tuple[float, str]:
    rules._LOOKED_AHEAD.clear()  # each decision from scratch, as a new position is
    started = time.perf_counter()
    inputs = GAME.cube_inputs(state, look_ahead)
    assert inputs is not None
    move = cube.decide(inputs).move
    return (time.perf_counter() - started) * 1000, move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = positions(args.positions, random.Random(args.seed))
    ahead = [timed_ms(state, True) for state in found]
    zero = [timed_ms(state, False) for state in found]
    for name, runs in (("one roll ahead", ahead), ("0-ply", zero)):
        times = sorted(ms for ms, _ in runs)
        print(f"{name:<15} median {statistics.median(times):8.1f} ms, 90th percentile "
              f"{times[int(0.9 * len(times))]:8.1f} ms, max {times[-1]:8.1f} ms")  # fmt: skip
    ratio = statistics.median(ms for ms, _ in ahead) / max(statistics.median(ms for ms, _ in zero), 1e-6)
    same = sum(a == z for (_, a), (_, z) in zip(ahead, zero, strict=True))
    print(f"{len(found)} positions, seed {args.seed}: the look-ahead costs {ratio:.0f}x the 0-ply decision; "
          f"the same decision on {same}/{len(found)}")  # fmt: skip
    print(f"bots look ahead with a budget of {cube.LOOK_AHEAD_MIN_BUDGET_MS} ms or more")


if __name__ == "__main__":
    main()
