"""How many moves may a slip choose from?  The stakes-only margin against `slip_floor`, per game.

For random positions of each game, a weakened search (the game's ladder-style searcher,
``error_rate`` 1) gives its root values; counted are the moves the old guard let a slip
choose (within ``BLUNDER_MARGIN × max_utility`` of the best, no proven loss) and the moves
`ai.weakening.sane_moves` lets through now (the better half of the values' spread as
well), and the positions where every legal move passed the old guard.

    PYTHONPATH=. .venv/bin/python benchmarks/slip_margin.py [positions_per_game]
"""

from __future__ import annotations

import math
import random
import sys

import ai
import ai.weakening as weakening
from games import registry
from games.base import CHANCE

CASES = [  # (game, algorithm, depth, iterations), as the weakened ladder bots search
    ("tictactoe", "alphabeta", 1, None),
    ("connect4", "alphabeta", 2, None),
    ("othello", "alphabeta", 1, None),
    ("backgammon", "expectimax", 1, None),
    ("chinese-checkers", "maxn", 1, None),
    ("chinese-checkers-2", "alphabeta", 1, None),
]


def root_values(game_id: str, algorithm: str, depth: int | None, iterations: int | None, count: int) -> list[dict]:
    game = registry.get(game_id)
    seen: list[dict] = []
    real = weakening.configured_pick

    def spy(config, values, best, max_utility, rng, immediate_win=False):  # type: ignore[no-untyped-def]
        seen.append(dict(values))
        return real(config, values, best, max_utility, rng, immediate_win)

    weakening.configured_pick = spy
    rng = random.Random(11)
    try:
        while len(seen) < count:
            state = game.initial_state()
            for _ in range(rng.randrange(0, 40)):
                if game.is_terminal(state):
                    break
                state = game.apply(state, rng.choice(game.legal_moves(state)))
            while not game.is_terminal(state) and game.to_move(state) == CHANCE:
                state = game.apply(state, rng.choice(game.legal_moves(state)))
            if game.is_terminal(state) or len(game.legal_moves(state)) < 2:
                continue
            config = ai.SearchConfig(algorithm=algorithm, error_rate=1.0, max_depth=depth, max_iterations=iterations)
            ai.choose_move(game, state, config)
    finally:
        weakening.configured_pick = real
    return seen[:count]


def main(count: int) -> None:
    print(f"{count} positions a game: moves a slip may choose, of all legal moves")
    print("| game | legal moves | old guard (stakes only) | now (`slip_floor`) | positions: old guard passed all |")
    print("| --- | --- | --- | --- | --- |")
    for game_id, algorithm, depth, iterations in CASES:
        max_utility = registry.get(game_id).max_utility
        decisive = 0.95 * max_utility
        legal = old = new = all_pass = 0
        for values in root_values(game_id, algorithm, depth, iterations, count):
            best = max(values.values())
            floor = best - weakening.BLUNDER_MARGIN * max_utility
            lost = -decisive if best > -decisive else -math.inf  # proven losses, unless every move is one
            was = {m for m, v in values.items() if (v >= floor or v > decisive) and v > lost}
            legal += len(values)
            old += len(was)
            new += len(weakening.sane_moves(values, max_utility, decisive))
            all_pass += len(was) == len(values)
        shares = f"{old} ({old / legal:.0%}) | {new} ({new / legal:.0%})"
        print(f"| {game_id} | {legal} | {shares} | {all_pass} of {count} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
