"""Do two checkouts search alike, node for node?  ``search_identity.py REFERENCE_TREE [--emit]``

Runs the same searches (fixed depth or iteration count, a budget too long to matter, a
fixed seed) over a few dozen positions of every game, once with this tree's `ai` and
once with the reference checkout's (its own venv, its own modules), and compares move,
value, depth, nodes, line and statistics.  Prints one line per difference and a summary;
exits 1 if anything differs.  ``--weakened-pick`` also accepts a weakened search whose only
difference is the value, line and ``best_move`` its pick reports (see `_without_pick`).
``--emit`` prints this tree's results as JSON lines (what the comparison runs in each tree).

    .venv/bin/python benchmarks/search_identity.py /path/to/reference/checkout
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

LONG_BUDGET_MS = 600_000  # a fixed depth or iteration count ends every search first

# (game, plies played at random before the search, seed of those plies, config)
CASES: list[tuple[str, int, int, dict[str, Any]]] = []


def _cases() -> None:
    ab = {"algorithm": "alphabeta"}
    for plies, seed in ((0, 1), (2, 2), (4, 3), (3, 4)):
        CASES.append(("tictactoe", plies, seed, {**ab, "max_depth": 9}))
        CASES.append(("tictactoe", plies, seed, {**ab, "max_depth": 9, "slip_rate": 0.5, "seed": seed}))
    for plies, seed in ((0, 1), (3, 2), (6, 3), (10, 4), (16, 5)):
        CASES.append(("connect4", plies, seed, {**ab, "max_depth": 7}))
        CASES.append(("connect4", plies, seed, {**ab, "max_depth": 5, "options": {"fast": False}}))
        CASES.append(("connect4", plies, seed, {**ab, "max_depth": 5, "style": "aggressive", "temperature": 0.2}))
        CASES.append(("connect4", plies, seed, {"algorithm": "mcts", "max_iterations": 400, "seed": seed}))
    for plies, seed in ((0, 1), (8, 2), (20, 3)):
        CASES.append(("othello", plies, seed, {**ab, "max_depth": 4}))
        CASES.append(("othello", plies, seed, {**ab, "max_depth": 3, "options": {"tt": False, "pvs": False}}))
        CASES.append(
            ("othello", plies, seed, {"algorithm": "mcts", "max_iterations": 200, "seed": seed, "slip_rate": 0.3})
        )
    for plies, seed in ((1, 1), (7, 2), (15, 3)):
        CASES.append(("backgammon", plies, seed, {"algorithm": "expectimax", "max_depth": 1}))
        CASES.append(
            (
                "backgammon",
                plies,
                seed,
                {"algorithm": "alphabeta", "max_depth": 1, "opponent_model": "epsilon:0.2", "slip_rate": 0.4},
            )
        )
    for plies, seed in ((0, 1), (6, 2), (12, 3)):
        CASES.append(("chinese-checkers", plies, seed, {"algorithm": "maxn", "max_depth": 3}))
        paranoid = {"algorithm": "maxn", "max_depth": 3, "options": {"paranoid": True}}
        CASES.append(("chinese-checkers", plies, seed, paranoid))
        CASES.append(
            ("chinese-checkers", plies, seed, {"algorithm": "maxn", "max_depth": 2, "temperature": 0.3, "seed": 5})
        )
        CASES.append(("chinese-checkers", plies, seed, {"algorithm": "mcts", "max_iterations": 150, "seed": seed}))
        CASES.append(("chinese-checkers-2", plies, seed, {**ab, "max_depth": 3}))
        CASES.append(
            (
                "chinese-checkers-2",
                plies,
                seed,
                {"algorithm": "expectimax", "max_depth": 2, "opponent_model": "uniform"},
            )
        )


_cases()


def position(game: Any, plies: int, seed: int) -> Any:
    """A live position `plies` random moves in (the first seed from `seed` up whose playout is not over)."""
    for attempt in range(100):
        state = _playout(game, plies, random.Random(seed * 100 + attempt))
        if not game.is_terminal(state):
            return state
    raise ValueError(f"no live position {plies} plies into {game.id}")


def _playout(game: Any, plies: int, rng: random.Random) -> Any:
    state = game.initial_state()
    from games.base import CHANCE

    played = 0
    while not game.is_terminal(state) and (played < plies or game.to_move(state) == CHANCE):
        if game.to_move(state) == CHANCE:
            moves, weights = zip(*game.chance_outcomes(state), strict=True)
            state = game.apply(state, rng.choices(moves, weights)[0])
        else:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            played += 1
    return state


def emit() -> None:
    import ai
    from ai import mcts
    from games import registry

    for game_id, plies, seed, fields in CASES:
        game = registry.get(game_id)
        state = position(game, plies, seed)
        mcts.forget_trees()
        config = ai.SearchConfig(**{"time_budget_ms": LONG_BUDGET_MS, "seed": 7, **fields})
        result = ai.choose_move(game, state, config, deadline=None)
        out = result.to_json()
        for volatile in ("elapsed_ms", "nps"):
            out.pop(volatile, None)
        print(json.dumps({"case": [game_id, plies, seed, fields], "result": out}, sort_keys=False))


def run(tree: Path) -> list[dict[str, Any]]:
    # The same string hashes in both runs: the transposition table indexes slots by hash.
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [str(tree / ".venv/bin/python"), __file__, "--emit"], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def _without_pick(run: dict[str, Any]) -> str:
    """A weakened search's figures without what the weakening step reports of its pick.

    The shared weakening step (`ai.weakening.weaken`) gives every searcher's pick its own
    value and line and records ``best_move``; before it, only alpha-beta did.
    """
    result = {k: v for k, v in run["result"].items() if k not in ("value", "pv", "best_move")}
    return json.dumps({**run, "result": result})


def main() -> None:
    if "--emit" in sys.argv:
        emit()
        return
    reference = Path(next(a for a in sys.argv[1:] if not a.startswith("--"))).resolve()
    ours, theirs = run(Path(__file__).resolve().parent.parent), run(reference)
    differ = picks = 0
    for a, b in zip(ours, theirs, strict=True):
        if json.dumps(a) == json.dumps(b):  # byte for byte, key order included
            continue
        if "--weakened-pick" in sys.argv and _without_pick(a) == _without_pick(b):
            picks += 1
            continue
        differ += 1
        print("DIFFERS", a["case"], "\n  ours:     ", a["result"], "\n  reference:", b["result"])
    nodes = sum(r["result"]["nodes"] for r in ours)
    same = len(ours) - differ - picks
    print(f"{len(ours)} searches, {nodes} nodes in all: {same} identical, {picks} differ only in the weakened pick's")
    print(f"value, line and best_move, {differ} differ otherwise")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
