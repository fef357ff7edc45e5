"""The chess ladder rated against Stockfish held to an Elo (``UCI_LimitStrength``, ``UCI_Elo``).

Not in CI. Needs Debian's engine: ``apt-get install -y stockfish`` (the binary is
``/usr/games/stockfish``). Each pairing ``LEVEL:ELO`` of ``--pairings`` plays up to
``--games`` games against Stockfish at that ``UCI_Elo``, through python-chess's
``chess.engine``. Games go in rounds over every pairing, two games a round with colours
swapped after the same random opening plies, so a run stopped by ``--minutes`` leaves every
pairing with the same number of games. Stockfish gets, per move, the level's own budget
capped at ``--budget-cap-ms`` (the same time the level has; ``--sf-ms`` overrides it), one
thread and 16 MB of hash. A game still going after ``--max-plies`` is scored a draw.
The level's rating on Stockfish's scale is the Elo that its score implies,
``elo + 400 log10(s / (1 - s))``, with the interval of the score's 95% bounds.

Every game is appended to ``--log`` (JSON lines); ``--summarize LOG`` prints the table
from a log, and ``--write-ratings`` also stores it in ``server/bots/stockfish_ratings.json``.

    .venv/bin/python benchmarks/chess_stockfish.py [--pairings 3:1500,5:1700] [--games 40]
        [--budget-cap-ms 200] [--sf-ms MS] [--minutes 60] [--max-plies 240] [--log FILE]
    .venv/bin/python benchmarks/chess_stockfish.py --summarize FILE [--write-ratings]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from collections import defaultdict
from typing import Any

import chess
import chess.engine
from botplay import ProfileBot, budget_ms, interval, ladder, play_capped

from games import registry
from server.bots import measured, public_rating

STOCKFISH_PATHS = ("stockfish", "/usr/games/stockfish")
CLIP = 0.02  # scores are clipped to [CLIP, 1 - CLIP] to keep the implied Elo finite


def rating(elo: int, score: float) -> float:
    """The Elo a score against an `elo` opponent implies (scores of 0 and 1 clipped to keep it finite)."""
    s = min(max(score, CLIP), 1 - CLIP)
    return elo + 400 * math.log10(s / (1 - s))


def play_one(
    engine: chess.engine.SimpleEngine, bot: ProfileBot, bot_white: bool, opening_seed: int, sf_ms: int,
    args: argparse.Namespace,
) -> tuple[float, int, bool]:  # fmt: skip
    """One game; returns the bot's score (1, 1/2, 0), plies, and whether it was cut at max plies."""
    game = registry.get("chess")

    def choose(state: Any, plies: int) -> str:
        if (state.board.turn == chess.WHITE) == bot_white:
            return bot.move(game, state, opening_seed * 1000 + plies, f"sf:{opening_seed}:{bot_white}")
        # A new `game` key makes python-chess send `ucinewgame` (fresh hash) at each game's first move.
        played = engine.play(state.board, chess.engine.Limit(time=sf_ms / 1000), game=(opening_seed, bot_white))
        assert played.move is not None
        return played.move.uci()

    state, plies = play_capped(game, choose, opening_seed, args.opening_plies, args.max_plies)
    if not game.is_terminal(state):
        return 0.5, plies, True
    mine = game.returns(state)[0 if bot_white else 1]
    return (1.0 if mine > 0 else 0.5 if mine == 0 else 0.0), plies, False


def summarize(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (profile, Stockfish Elo): games, score, W-D-L, cut games, rating and its 95% bounds."""
    groups: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[(r["slug"], r["sf_elo"])].append(r)
    rows = []
    for (slug, elo), games in groups.items():
        n = len(games)
        s = sum(g["score"] for g in games) / n
        half = interval(s, n)
        first = games[0]
        rows.append({
            "slug": slug, "level": first["level"], "sf_elo": elo, "games": n, "score": s,
            "wdl": [sum(g["score"] == v for g in games) for v in (1.0, 0.5, 0.0)],
            "cut": sum(g["cut"] for g in games), "plies": sum(g["plies"] for g in games) / n,
            "elo": rating(elo, s), "low": rating(elo, s - half), "high": rating(elo, s + half),
            # An interval reaching a score of 0 (or 1) bounds the rating on one side only.
            "bound": "below" if s - half <= CLIP else "above" if s + half >= 1 - CLIP else None,
            "bot_ms": first["bot_ms"], "sf_ms": first["sf_ms"], "budget_cap_ms": first["budget_cap_ms"],
            "max_plies": first["max_plies"], "opening_plies": first["opening_plies"],
            "stockfish": first["stockfish"], "fingerprint": first.get("fingerprint"),
        })  # fmt: skip
    return sorted(rows, key=lambda r: (r["level"], r["sf_elo"]))


def estimate_text(row: dict[str, Any]) -> str:
    if row["bound"] == "above":  # e.g. a clean sweep: the rating is bounded from below only
        return f"above {row['low']:.0f}"
    if row["bound"] == "below":
        return f"below {row['high']:.0f}"
    return f"{row['elo']:.0f} ({row['low']:.0f} to {row['high']:.0f})"


def print_table(rows: list[dict[str, Any]]) -> None:
    print("| level | Stockfish UCI_Elo | ms/move (level, Stockfish) | games | score | W-D-L | cut at max plies "
          "| plies/game | rating (95%) |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['slug']} | {r['sf_elo']} | {r['bot_ms']}, {r['sf_ms']} | {r['games']} | {r['score']:.2f} "
            f"| {'-'.join(map(str, r['wdl']))} | {r['cut']} | {r['plies']:.0f} | {estimate_text(r)} |"
        )


def read_log(path: str) -> list[dict[str, Any]]:
    """The games of the rounds every pairing finished (a run stopped mid-round leaves the counts equal)."""
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    pairings = {(r["level"], r["sf_elo"], r["bot_white"]) for r in records}
    rounds: dict[int, set[tuple[int, int, bool]]] = defaultdict(set)
    for r in records:
        rounds[r["opening_seed"]].add((r["level"], r["sf_elo"], r["bot_white"]))
    return [r for r in records if rounds[r["opening_seed"]] == pairings]


def run(args: argparse.Namespace) -> None:
    path = next((p for p in map(shutil.which, STOCKFISH_PATHS) if p), None)
    if path is None:
        sys.exit("Stockfish not found: apt-get install -y stockfish")
    levels = ladder("chess")
    pairings = [tuple(int(x) for x in p.split(":")) for p in args.pairings.split(",")]
    one, five, _ = os.getloadavg()
    print(
        f"# up to {args.games} games per pairing, levels' budgets capped at {args.budget_cap_ms} ms, Stockfish "
        f"{args.sf_ms or 'the same'} ms/move (1 thread, 16 MB), {args.opening_plies} random opening plies, "
        f"draw at {args.max_plies} plies; load average {one:.1f} / {five:.1f}",
        flush=True,
    )
    started = time.time()
    # Resume after the rounds a log already holds complete (a stopped run's last round is played again).
    records = read_log(args.log) if os.path.exists(args.log) else []
    with open(args.log, "w") as log:
        log.writelines(json.dumps(r) + "\n" for r in records)
    first = len({r["opening_seed"] for r in records})
    # No timeout on engine commands: on a loaded machine a niced Stockfish may take seconds to answer.
    with chess.engine.SimpleEngine.popen_uci(path, timeout=None) as engine, open(args.log, "a") as log:
        version = engine.id.get("name", "Stockfish")
        for round_ in range(first, args.games // 2):
            if args.minutes and time.time() - started > args.minutes * 60:
                print(f"# stopped after round {round_} ({args.minutes} minutes)", flush=True)
                break
            for level, elo in pairings:
                engine.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": elo})
                spec = levels[level]
                bot = ProfileBot(spec, args.budget_cap_ms)
                bot_ms = budget_ms(spec, args.budget_cap_ms)
                sf_ms = args.sf_ms or bot_ms
                for bot_white in (True, False):
                    score, plies, cut = play_one(engine, bot, bot_white, round_, sf_ms, args)
                    record = dict(
                        slug=spec["slug"], level=level, sf_elo=elo, bot_white=bot_white, opening_seed=round_,
                        score=score, plies=plies, cut=cut, bot_ms=bot_ms, sf_ms=sf_ms,
                        budget_cap_ms=args.budget_cap_ms, max_plies=args.max_plies,
                        opening_plies=args.opening_plies, stockfish=version, load=os.getloadavg()[0],
                        fingerprint=measured.fingerprint(spec),
                        at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    )  # fmt: skip
                    log.write(json.dumps(record) + "\n")
                    log.flush()
                    records.append(record)
            print(f"# round {round_ + 1} done, {time.time() - started:.0f} s", flush=True)
    print_table(summarize(records))
    one, five, _ = os.getloadavg()
    print(f"\n# {time.time() - started:.0f} s wall; load average {one:.1f} / {five:.1f} at the end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairings", default="3:1500,5:1700", help="LEVEL:UCI_ELO,... (Debian's 15.1: 1350 at least)")
    parser.add_argument("--games", type=int, default=4, help="games per pairing at most (even)")
    parser.add_argument("--budget-cap-ms", type=int, default=200, help="cap every level's budget")
    parser.add_argument("--sf-ms", type=int, default=0, help="Stockfish's time per move (default: the level's)")
    parser.add_argument("--minutes", type=float, default=0, help="start no new round after this long")
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--log", default="chess_stockfish.jsonl")
    parser.add_argument("--summarize", metavar="LOG", help="print the table of a log instead of playing")
    parser.add_argument("--write-ratings", action="store_true", help="with --summarize: store the ratings")
    args = parser.parse_args()
    if args.summarize:
        rows = summarize(read_log(args.summarize))
        print_table(rows)
        if args.write_ratings:
            write_ratings(rows)
        return
    run(args)


def write_ratings(rows: list[dict[str, Any]]) -> None:
    """Store each profile's row in `server/bots/stockfish_ratings.json` (the one nearest an even score
    when a profile met several Stockfish settings: the most telling)."""
    best: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["slug"] not in best or abs(row["score"] - 0.5) < abs(best[row["slug"]]["score"] - 0.5):
            best[row["slug"]] = row
    specs = {spec["slug"]: spec for spec in ladder("chess").values()}
    today = time.strftime("%Y-%m-%d", time.gmtime())
    entries = {slug: rating_entry(row, specs[slug], today) for slug, row in best.items()}
    public_rating.write(entries)
    print(f"\n# wrote {len(entries)} entries to {public_rating.DATA_PATH}")


def rating_entry(row: dict[str, Any], spec: dict[str, Any], today: str) -> dict[str, Any]:
    """A data-file entry (`server.bots.public_rating`); the fingerprint is the one the games were played with."""
    capped = row["budget_cap_ms"] is not None and row["budget_cap_ms"] < spec["time_budget_ms"]
    method = (
        f"benchmarks/chess_stockfish.py --pairings {row['level']}:{row['sf_elo']} --games {row['games']} "
        f"--budget-cap-ms {row['budget_cap_ms']} --max-plies {row['max_plies']} "
        f"--opening-plies {row['opening_plies']}"
    )
    return {
        "game": "chess",
        "scale": f"{row['stockfish']}'s UCI_Elo",
        "elo": round(row["elo"], 1),
        "low": round(row["low"], 1),
        "high": round(row["high"], 1),
        "bound": row["bound"],
        "games": row["games"],
        "score": round(row["score"], 3),
        "wins_draws_losses": row["wdl"],
        "cut_at_max_plies": row["cut"],
        "opponent": f"{row['stockfish']} held to UCI_Elo {row['sf_elo']} (UCI_LimitStrength), "
        f"{row['sf_ms']} ms a move, 1 thread, 16 MB hash",
        "budget_cap_ms": row["budget_cap_ms"] if capped else None,
        "measured_on": today,
        "method": method,
        "fingerprint": row["fingerprint"] or measured.fingerprint(spec),
    }


if __name__ == "__main__":
    main()
