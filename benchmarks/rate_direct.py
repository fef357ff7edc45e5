"""Measured ratings without the server: the calibration round-robin played straight through `ai.choose_move`.

    .venv/bin/python benchmarks/rate_direct.py --game chinese-checkers --games 1 [--budget-cap-ms MS]
        [--jobs J] [--log FILE] [--minutes M] [--write-ratings]

The same games as `manage.py calibrate` (every seeded profile of the game, adaptive bot
included; in two-player games every ordered pair, in three-player games each pair in the
six seatings of two profiles over three seats), the same fit (`server.bots.rating`,
anchored at the random mover) and the same data entries (`server.bots.measured`), but no
daphne, Celery or database: a game costs only its searches.  For games whose moves are
too many for the full stack on a shared machine; the method recorded with the figures
says which way they were measured.  The adaptive bot plays as the server plays it against
a bot: from strength 0.5, eased off or tightened by its last evaluation
(`server.bots.adaptive`).

A round-robin at the bots' own budgets can take longer than one sitting (a chess Master's
game is minutes of search).  With ``--log FILE`` each finished game is appended to FILE
(seats, seed, cap, each seated profile's fingerprint, returns, plies, milliseconds a move)
and a run with the same arguments plays only the games not yet there; a game whose
profiles have changed since (another fingerprint) is played again.  ``--minutes M`` starts
no game after M minutes, so a long measurement goes on over several runs; the figures are
written (``--write-ratings``) only once every game of the round-robin is in.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from multiprocessing import Pool
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from botplay import GameLog, ProfileBot, Record, play, read_log, search_config  # noqa: E402

import ai  # noqa: E402
from games import registry  # noqa: E402
from games.base import Game, Move, State  # noqa: E402
from server.bots import adaptive, measured  # noqa: E402
from server.bots.rating import Result, comparisons, fit, seatings  # noqa: E402
from server.bots.seed import PROFILES, SETTING_DEFAULTS  # noqa: E402


class AdaptiveBot(ProfileBot):
    """An adaptive profile against a bot: strength 0.5, shifted by its own last evaluation."""

    last_value: float | None = None

    def move(self, game: Game, state: State, seed: int, match_id: str) -> Move:
        base = search_config(self.spec, seed, self.cap_ms, self.scale, match_id)
        strength = adaptive.in_match_strength(0.5, self.last_value, game.max_utility)
        fields = {f: getattr(base, f) for f in ("algorithm", "time_budget_ms", "max_depth", "max_iterations",
                                                "slip_rate", "temperature", "style", "opponent_model", "seed",
                                                "options")}  # fmt: skip
        result = ai.choose_move(game, state, ai.SearchConfig(**adaptive.config_for(fields, strength)))
        self.tally.add(result)
        self.last_value = result.value if isinstance(result.value, int | float) else None
        return result.move


def bot_for(spec: dict[str, Any], cap_ms: int | None) -> ProfileBot:
    return (AdaptiveBot if spec.get("adaptive") else ProfileBot)(spec, cap_ms)


Task = tuple[str, tuple[str, ...], int, int | None]  # game, the profile in each seat, seed, budget cap


def key(task: Task) -> tuple:
    """What identifies a game across runs: its task and the playing settings of its profiles."""
    game_id, slugs, seed, cap_ms = task
    specs = {p["slug"]: p for p in PROFILES}
    return (game_id, tuple(slugs), seed, cap_ms, tuple(measured.fingerprint(specs[s]) for s in slugs))


def record_key(record: Record) -> tuple:
    return (record["game"], tuple(record["seats"]), record["seed"], record["budget_cap_ms"],
            tuple(record["fingerprints"]))  # fmt: skip


def one_game(job: tuple[Task, float]) -> Record | None:
    """A game of the round-robin as a log record; None when it would start after the deadline."""
    task, deadline = job
    if time.time() > deadline:
        return None
    game_id, slugs, seed, cap_ms = task
    specs = {p["slug"]: p for p in PROFILES}
    bots = {slug: bot_for(specs[slug], cap_ms) for slug in set(slugs)}
    # One bot object per seat, so that a profile seated twice keeps two trees and two evaluations.
    seated = [bot_for(specs[slug], cap_ms) if slugs.count(slug) > 1 else bots[slug] for slug in slugs]
    returns, plies = play(registry.get(game_id), seated, seed)
    fingerprints = [measured.fingerprint(specs[s]) for s in slugs]
    return {
        "game": game_id,
        "seats": list(slugs),
        "seed": seed,
        "budget_cap_ms": cap_ms,
        "fingerprints": fingerprints,
        "returns": returns,
        "plies": plies,
        "ms_per_move": [round(b.tally.ms / max(b.tally.moves, 1)) for b in seated],
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=2, help="games per seating (default 2)")
    parser.add_argument("--budget-cap-ms", type=int, default=None, help="cap every profile's budget")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (default 2)")
    parser.add_argument(
        "--log", type=Path, help="append each game to this JSON-lines file (.gz: gzipped); resume from it"
    )
    parser.add_argument("--minutes", type=float, default=0, help="start no game after this long (0: no limit)")
    parser.add_argument("--write-ratings", action="store_true", help=f"write into the game's {measured.DATA_FILE}")
    args = parser.parse_args()
    game = registry.get(args.game)
    specs = sorted(
        (p for p in PROFILES if p["game"] == args.game), key=lambda p: (p.get("adaptive", False), p["level"])
    )
    anchor = next(p["slug"] for p in specs if p["algorithm"] == "random")
    every = seatings([p["slug"] for p in specs], game.num_players)
    tasks = [(args.game, seats, 7919 * i + n, args.budget_cap_ms) for i, seats in enumerate(every)
             for n in range(args.games)]  # fmt: skip
    started = time.monotonic()
    wanted = {key(task): task for task in tasks}
    records = {record_key(r): r for r in read_log(args.log) if record_key(r) in wanted}
    to_play = [task for k, task in wanted.items() if k not in records]
    print(f"# {len(tasks)} games, {len(records)} already in {args.log}" if args.log else f"# {len(tasks)} games")
    deadline = time.time() + args.minutes * 60 if args.minutes else float("inf")
    log = GameLog(args.log)
    with Pool(args.jobs) as pool:
        jobs = ((task, deadline) for task in to_play)
        for done, record in enumerate(filter(None, pool.imap_unordered(one_game, jobs)), 1):
            records[record_key(record)] = record
            log.append(record)
            print(f"\r  {done}/{len(to_play)} games ({time.monotonic() - started:.0f} s)", end="", file=sys.stderr,
                  flush=True)  # fmt: skip
    print(file=sys.stderr)
    results: list[Result] = [c for r in records.values() for c in comparisons(r["seats"], r["returns"])]
    missing = len(tasks) - len(records)
    if not results:
        sys.exit("no game played yet")
    games = {p["slug"]: sum(p["slug"] in r["seats"] for r in records.values()) for p in specs}  # not comparisons
    if missing:
        print(f"# {missing} of {len(tasks)} games still to play (run again to go on); the fit so far:")
    ratings = fit(results, anchor=anchor)
    print(f"{'profile':28} {'Elo':>7} {'95% interval':>17} {'games':>6} {'comparisons':>11}")
    for r in ratings:
        print(f"{r.player:28} {r.elo:7.0f} {r.low:8.0f} to {r.high:5.0f} {games[r.player]:6} {r.games:11}")
    print(f"\n{args.game}: {len(records)} of {len(tasks)} games, this run {time.monotonic() - started:.0f} s")
    if args.write_ratings and missing:
        sys.exit(f"ratings not written: {missing} games still to play")
    if args.write_ratings:
        method = f"benchmarks/rate_direct.py --game {args.game} --games {args.games}"
        if args.budget_cap_ms is not None:
            method += f" --budget-cap-ms {args.budget_cap_ms}"
        method += " (direct play through ai.choose_move, no server)"
        by_slug = {p["slug"]: SimpleNamespace(**{**SETTING_DEFAULTS, **p}) for p in specs}
        today = datetime.now(UTC).date()
        entries = {r.player: measured.entry_for(by_slug[r.player], r.elo, r.low, r.high, games[r.player], method, today,
                                                args.budget_cap_ms) for r in ratings}  # fmt: skip
        written = measured.write(entries)
        print(f"{len(entries)} ratings written to {', '.join(map(str, written))}")


if __name__ == "__main__":
    main()
