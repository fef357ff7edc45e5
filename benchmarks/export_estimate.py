"""The export size estimate at scale: its time, and its bytes against a real export's.

    .venv/bin/python benchmarks/export_estimate.py [--games 20000] [--plies 40]

Makes a temporary SQLite database with ``--games`` stored matches (the data of
``benchmarks/exports.py``: a third each human-vs-human, human-vs-bot, bot-vs-bot, bot moves
with search figures), analyses it as a database in service is, then times
``export_estimate`` for a few filters (the best of 3 runs) and writes the whole exports
in-process to compare their bytes with the estimate's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = ("", "pairing=human-vs-bot", "max=5000", "min_plies=40&pairing=bot-vs-bot", "bot=connect4-deep")


def best_of(runs: int, call):
    times, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--plies", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="plyground-estimate-") as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        os.environ["RESEARCH_PSEUDONYM_SECRET_FILE"] = f"{tmp}/secret"
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")
        import django

        django.setup()
        from django.core.management import call_command
        from django.http import QueryDict

        from benchmarks.exports import analyze, generate
        from server.research.estimate import export_estimate
        from server.research.filters import parse_filters
        from server.research.streaming import export_chunks

        call_command("migrate", verbosity=0)
        generate(args.games, args.plies)
        analyze()
        print(f"Export estimate: {args.games:,} stored matches (~{args.plies} plies), SQLite, planner statistics")
        head = f"{'filters':<34} {'ms':>7} {'matches':>8} {'moves':>9} {'export':<12}"
        print(f"{head} {'estimate':>12} {'real':>12} {'off':>7}")
        for query in QUERIES:
            filters = parse_filters(QueryDict(query))
            seconds, figures = best_of(3, lambda filters=filters: export_estimate(filters))
            for name, fmt, guess in (
                ("games.jsonl", "jsonl", figures.jsonl_bytes),
                ("moves.csv", "csv", figures.csv_bytes),
            ):
                real = sum(len(chunk) for chunk in export_chunks(filters, fmt))
                off = (guess - real) / real if real else 0.0
                print(
                    f"{query or '(none)':<34} {seconds * 1000:>7.1f} {figures.matches:>8,} {figures.moves:>9,}"
                    f" {name:<12} {guess:>12,} {real:>12,} {off:>+7.2%}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
