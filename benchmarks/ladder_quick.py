"""Quick ladder check: each seeded level against the level below, straight through `ai.choose_move`.

No server, no database: the profiles come from `server/bots/seed.py` and play with
their own settings (budgets optionally capped or scaled).  Two-player games alternate
seats; three-player games rotate the six seatings of two levels over three seats.  The
score is the upper level's share of head-to-head comparisons: in a two-player game a
win counts 1 and a draw 1/2; with three seats each (upper seat, lower seat) pair counts
1 when the upper one finished ahead (a shared place 1/2), so 50% means equal strength.
The ladder's bar is 65% per step (over 100 games; use ``--games`` to afford what you can).

    .venv/bin/python benchmarks/ladder_quick.py [--game ID ...] [--games N] [--steps 1,2,...]
        [--budget-cap-ms MS | --budget-scale F] [--jobs J] [--log FILE] [--summary]

With ``--log FILE`` each finished game is appended to FILE as a JSON line (step, game index,
seeds, seats, returns, score, plies, each side's time and moves) and flushed at once; a run
with the same arguments plays only the games not yet in FILE, so a stopped run resumes.
``--summary --log FILE`` prints the table of FILE's games without playing.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool
from pathlib import Path

from botplay import GameLog, ProfileBot, Record, Tally, interval, ladder, pairwise_score, play, read_log

from games import registry

THRESHOLD = 0.65
SEATINGS_3 = ("ULL", "LUL", "LLU", "LUU", "ULU", "UUL")  # U: upper level, L: lower level


def seating(num_players: int, index: int) -> str:
    if num_players == 2:
        return "UL" if index % 2 == 0 else "LU"
    if num_players == 3:
        return SEATINGS_3[index % len(SEATINGS_3)]
    raise ValueError(f"no seating rotation for {num_players} players")


def key(record: Record) -> tuple:
    """What identifies a game across runs: the same key, the same game."""
    return tuple(record[k] for k in ("game", "step", "index", "budget_cap_ms", "budget_scale", "opening_plies"))


def one_game(task: tuple[str, int, int, int | None, float, int]) -> Record:
    game_id, step, index, cap_ms, scale, opening_plies = task
    game = registry.get(game_id)
    levels = ladder(game_id)
    upper = ProfileBot(levels[step], cap_ms, scale)
    lower = ProfileBot(levels[step - 1], cap_ms, scale)
    seats = seating(game.num_players, index)
    bots = [upper if s == "U" else lower for s in seats]
    # Both seatings of a pair of games start from the same random opening.
    rotation = 2 if game.num_players == 2 else len(SEATINGS_3)
    seed, opening_seed = 1000 * step + index, index // rotation
    returns, plies = play(game, bots, seed, opening_plies, opening_seed=opening_seed)
    mine = [i for i, s in enumerate(seats) if s == "U"]
    theirs = [i for i, s in enumerate(seats) if s == "L"]
    return {
        "game": game_id,
        "step": step,
        "index": index,
        "budget_cap_ms": cap_ms,
        "budget_scale": scale,
        "opening_plies": opening_plies,
        "seed": seed,
        "opening_seed": opening_seed,
        "seats": seats,  # seat i's level, U upper or L lower; seat 0 moves first (White in chess)
        "returns": returns,
        "score": pairwise_score(returns, mine, theirs),
        "won": min(returns[a] for a in mine) > max(returns[b] for b in theirs),
        "plies": plies,
        "upper_ms_per_move": round(upper.tally.ms / max(upper.tally.moves, 1)),
        "lower_ms_per_move": round(lower.tally.ms / max(lower.tally.moves, 1)),
        "upper": asdict(upper.tally),
        "lower": asdict(lower.tally),
    }


@dataclass
class Row:
    """One step's figures over its games."""

    score: float = 0.0
    wins: int = 0
    losses: int = 0
    plies: int = 0
    games: int = 0
    upper: Tally = field(default_factory=Tally)
    lower: Tally = field(default_factory=Tally)

    def add(self, record: Record) -> None:
        self.score += record["score"]
        self.wins += record["won"]
        self.losses += record["score"] == 0
        self.plies += record["plies"]
        self.games += 1
        self.upper.merge(Tally(**record["upper"]))
        self.lower.merge(Tally(**record["lower"]))


def table(records: list[Record]) -> str:
    """The ladder table of some games: one per game and number of opening plies, a row per step and budget."""
    rows: dict[tuple, Row] = {}
    for record in records:
        rows.setdefault(key(record)[:2] + key(record)[3:], Row()).add(record)
    lines = []
    for gid, step, cap_ms, scale, opening_plies in sorted(rows, key=lambda k: (k[0], k[4], k[1], k[3], k[2] or 0)):
        heading = f"{gid}, {opening_plies} random opening plies"
        if f"\n{heading}" not in lines:
            lines += [
                f"\n{heading}",
                "| step | upper | lower | games | score | ±95% | W-D-L | plies/game "
                "| upper ms/move | lower ms/move | ≥65% |",
                "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            ]
        lines.append(row_text(gid, step, rows[(gid, step, cap_ms, scale, opening_plies)], cap_ms, scale))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="game id (repeatable); default: every registered game")
    parser.add_argument("--games", type=int, default=20, help="games per step (default 20)")
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="index of the first game (its seeds follow): other games than a run before, e.g. to confirm"
        " settings chosen on that run's games (at most 1000 - --games)",
    )
    parser.add_argument("--steps", default="1,2,3,4,5", help="upper levels to test, e.g. 3,4 (default all)")
    parser.add_argument("--budget-cap-ms", type=int, default=None, help="cap every profile's budget")
    parser.add_argument("--budget-scale", type=float, default=1.0, help="multiply every profile's budget")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel (default 1)")
    parser.add_argument("--opening-plies", type=int, default=0, help="random moves before the bots play (default 0)")
    parser.add_argument(
        "--log",
        type=Path,
        help="append each finished game to this file (JSON lines, .gz for gzipped); games in it are not played again",
    )
    parser.add_argument("--summary", action="store_true", help="print the table of the --log file's games, play none")
    args = parser.parse_args()
    if args.first_game + args.games > 1000:
        parser.error("the games' seeds would run into the next step's: --first-game + --games must be <= 1000")
    logged = read_log(args.log)
    if args.summary:
        if not args.log:
            parser.error("--summary needs --log")
        print(table(logged))
        return
    game_ids = args.game or [g.id for g in registry.all()]
    steps = [int(s) for s in args.steps.split(",")]
    tasks = [
        (gid, step, i, args.budget_cap_ms, args.budget_scale, args.opening_plies)
        for gid in game_ids
        for step in steps
        for i in range(args.first_game, args.first_game + args.games)
    ]
    wanted = set(tasks)
    records = {key(r): r for r in logged if key(r) in wanted}
    tasks = [t for t in tasks if t not in records]
    print(
        f"# ladder_quick: {args.games} games per step, budget cap {args.budget_cap_ms or 'none'} ms, "
        f"scale {args.budget_scale}, {args.jobs} jobs, {args.opening_plies} random opening plies"
        + (f", {len(records)} games already in {args.log}" if args.log else ""),
        flush=True,
    )
    started = time.time()
    log = GameLog(args.log)
    with Pool(args.jobs) as pool:
        for done, record in enumerate(pool.imap_unordered(one_game, tasks), 1):
            records[key(record)] = record
            log.append(record)
            if done % 10 == 0:
                print(f"  {done}/{len(tasks)} games ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    print(table(list(records.values())))
    print(f"\n# {time.time() - started:.0f} s wall", flush=True)


def row_text(gid: str, step: int, row: Row, cap_ms: int | None, scale: float) -> str:
    levels = ladder(gid)
    n = row.games
    mean = row.score / n
    return (
        f"| {step - 1}→{step} | {describe(levels[step], cap_ms, scale)} | {describe(levels[step - 1], cap_ms, scale)} "
        f"| {n} | {mean:.0%} | {interval(mean, n):.0%} | {row.wins}-{n - row.wins - row.losses}-{row.losses} "
        f"| {row.plies / n:.0f} | {row.upper.ms / max(row.upper.moves, 1):.0f} "
        f"| {row.lower.ms / max(row.lower.moves, 1):.0f} | {'yes' if mean >= THRESHOLD else 'NO'} |"
    )


def describe(spec: dict, cap_ms: int | None, scale: float) -> str:
    from botplay import budget_ms

    parts = [spec["algorithm"]]
    if spec.get("max_depth"):
        parts.append(f"d{spec['max_depth']}")
    if spec.get("max_iterations"):
        parts.append(f"{spec['max_iterations']} iterations")
    if spec.get("slip_rate"):
        parts.append(f"err {spec['slip_rate']}")
    if spec.get("temperature"):
        parts.append(f"T {spec['temperature']}")
    options = spec.get("search_options") or {}
    if options.get("paranoid"):
        parts.append("paranoid")
    if options.get("trap_model"):
        parts.append(f"traps {options['trap_model']}")
    if spec["algorithm"] != "random":
        parts.append(f"{budget_ms(spec, cap_ms, scale)} ms")
    return " ".join(parts)


if __name__ == "__main__":
    main()
