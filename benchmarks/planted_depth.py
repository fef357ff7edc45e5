"""The depth the analysis's time buys on the planted positions (tests/data/planted/<game>.json).

Not in CI.  tests/server/analysis/test_planted.py searches to a fixed depth (``DEPTH``) so
that its verdicts do not depend on the machine; that depth should be about what the
analysis's own budget reaches.  Here each planted entry's position before the move and the
one after it are searched as the analysis searches them (the strongest fixed profile's
settings, book and tables off, every root move valued), for ``--ms`` instead of to a depth.
Printed: the depths reached (median, quartiles, range) and the load average.

    .venv/bin/python benchmarks/planted_depth.py [--game chess] [--ms 3000] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from games import registry
from server.analysis import positions
from server.bots.seed import PROFILES

PLANTED = Path(__file__).resolve().parents[1] / "tests" / "data" / "planted"
SKIPPED_OPTIONS = ("opening_book", "tablebases", "trap_model")


def config(game_id: str, ms: int) -> dict[str, Any]:
    strongest = max((p for p in PROFILES if p["game"] == game_id and not p.get("adaptive")), key=lambda p: p["level"])
    options = {k: v for k, v in (strongest.get("search_options") or {}).items() if k not in SKIPPED_OPTIONS}
    return {
        "algorithm": strongest["algorithm"],
        "time_budget_ms": ms,
        "max_depth": None,
        "seed": 0,
        "options": {**options, "exact_root": True},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("--ms", type=int, default=3000)
    parser.add_argument("--limit", type=int, default=0, help="first N entries (0: all)")
    args = parser.parse_args()
    game = registry.get(args.game)
    entries = json.loads((PLANTED / f"{args.game}.json").read_text())["entries"]
    depths = []
    started = time.time()
    for e in entries[: args.limit or None]:
        state = game.initial_state()
        for m in e["moves"]:
            state = game.apply(state, m)
        after = game.apply(state, e["move"])
        for position, move in ((state, e["move"]), (after, None)):
            if game.is_terminal(position):
                continue
            found = positions.search_position(args.game, game.to_json(position), config(args.game, args.ms), move)
            if not found.get("forced"):
                depths.append(found["depth"])
    q = statistics.quantiles(depths, n=4)
    one, five, _ = os.getloadavg()
    print(f"| {args.game} | {args.ms} ms | {len(depths)} positions | depth median {statistics.median(depths):g}, "
          f"quartiles {q[0]:g}-{q[2]:g}, range {min(depths)}-{max(depths)} | {time.time() - started:.0f} s | "
          f"load {one:.1f} / {five:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
