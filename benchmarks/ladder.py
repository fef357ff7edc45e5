"""Measured difficulty on the real stack: `manage.py calibrate` against daphne + Celery + Redis.

    .venv/bin/python benchmarks/ladder.py --game connect4 --games 4 [--concurrency 2]
        [--budget-cap-ms MS] [--write-ratings]

Starts a fresh full stack (tests/support.py), runs the calibrate command against it (the
matches go through the normal match path and the Celery workers, with the bots' real
budgets) and prints the command's rating table and ladder.  For a quicker look at the
ladder without the server, `benchmarks/ladder_quick.py` plays adjacent levels directly.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import LiveStack  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=4, help="games per pairing and seat order")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument(
        "--budget-cap-ms", type=int, default=None, help="cap every bot's budget (say so with the figures)"
    )
    parser.add_argument(
        "--write-ratings", action="store_true", help="write the ratings into the game's games/<id>/seed_ratings.json"
    )
    args = parser.parse_args()
    started = time.monotonic()
    with LiveStack(extra_env={"WORKER_CONCURRENCY": str(args.concurrency)}) as stack:
        command = [sys.executable, "manage.py", "calibrate", "--game", args.game, "--games", str(args.games),
                   "--concurrency", str(args.concurrency)]  # fmt: skip
        if args.budget_cap_ms is not None:
            command += ["--budget-cap-ms", str(args.budget_cap_ms)]
        if args.write_ratings:
            command.append("--write-ratings")
        subprocess.run(command, cwd=ROOT, env=stack.env, check=True)
    print(f"\n{args.game}: calibrated on the full stack in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
