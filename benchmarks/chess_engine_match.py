"""The chess Master with its compiled engine against an older Master.

Not in CI.  Both play the seeded Master profile (book and tables included where installed),
each capped at ``--ms`` a move.  ``--against python``: the other one searches with the Python
search of `ai.alphabeta` (``engine`` off, as before the engine).  ``--against pesto``: the
other one searches with the engine too, its evaluation PeSTO's tables alone (every term of
`games.chess.evaluation.TERMS` zero), as before those terms.  ``--against terms``: the other
one searches with the engine and the TERMS of the JSON list ``--terms`` (the hand-set values
the terms had before they were fitted: benchmarks/results/chess_terms_hand_set.json).  Games go in pairs from the same
random opening (``--opening-plies``), colours swapped; a game still going after
``--max-plies`` is scored a draw.  Printed: the engine Master's score with a 95 % interval
and the Elo difference it implies; every game is appended to ``--log`` (JSON lines) and a
run resumes from it.  Two runs may share a log, each its own seeds (``--first-seed``): each
prints the total of the log so far.

    .venv/bin/python benchmarks/chess_engine_match.py [--against python|pesto|terms] [--terms FILE]
        [--games 20] [--first-seed 0] [--ms 200] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botplay import ProfileBot, Tally, interval, ladder, play_capped, read_log

from games import registry
from games.base import Game, Move, State
from games.chess import engine
from games.chess.evaluation import EG_SIGNED, MG_SIGNED, PHASE_WEIGHT, TERMS


def elo(score: float) -> float:
    s = min(max(score, 0.01), 0.99)
    return 400 * math.log10(s / (1 - s))


@dataclass
class EvaluationBot:
    """A bot whose compiled engine scores with `terms` (set before each of its moves: the engine's
    evaluation is one for the whole process)."""

    bot: ProfileBot
    terms: Sequence[int]

    @property
    def tally(self) -> Tally:
        return self.bot.tally

    def move(self, game: Game[Any], state: State, seed: int, match_id: str) -> Move:
        assert engine.compiled is not None, "the chess engine extension is not built"
        engine.compiled.set_evaluation(MG_SIGNED, EG_SIGNED, PHASE_WEIGHT, self.terms)
        return self.bot.move(game, state, seed, match_id)


def play_one(engine_bot: Any, other_bot: Any, engine_white: bool, seed: int, args: argparse.Namespace) -> dict:
    game = registry.get("chess")

    def choose(state: State, plies: int) -> Move:
        bot = engine_bot if state.board.turn == engine_white else other_bot
        return bot.move(game, state, seed * 1000 + plies, f"match:{seed}:{engine_white}")

    state, plies = play_capped(game, choose, seed, args.opening_plies, args.max_plies)
    returns = game.returns(state) if game.is_terminal(state) else [0.0, 0.0]
    mine = returns[0 if engine_white else 1]
    score = 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    return {"seed": seed, "engine_white": engine_white, "score": score, "plies": plies, "ms": args.ms,
            "against": args.against, "load": os.getloadavg()[0], "cut": not game.is_terminal(state)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", choices=("python", "pesto", "terms"), default="python", help="the other Master")
    parser.add_argument("--games", type=int, default=20, help="games (pairs of colours)")
    parser.add_argument("--terms", type=Path, default=Path(__file__).parent / "results" / "chess_terms_hand_set.json",
                        help="with --against terms: the other Master's TERMS, a JSON list")  # fmt: skip
    parser.add_argument("--first-seed", type=int, default=0, help="the first opening's seed")
    parser.add_argument("--ms", type=int, default=200, help="each side's budget a move")
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--log", type=Path, default=Path("chess_engine_match.jsonl"))
    args = parser.parse_args()
    master = ladder("chess")[5]
    engine_spec = {**master, "search_options": {**master["search_options"], "engine": True}}
    engine_bot: Any
    other_bot: Any
    if args.against == "python":
        python_spec = {**master, "search_options": {**master["search_options"], "engine": False}}
        engine_bot, other_bot = ProfileBot(engine_spec, args.ms), ProfileBot(python_spec, args.ms)
        names = ("engine Master", "Python Master")
    elif args.against == "pesto":
        engine_bot = EvaluationBot(ProfileBot(engine_spec, args.ms), TERMS)
        other_bot = EvaluationBot(ProfileBot(engine_spec, args.ms), [0] * len(TERMS))
        names = ("engine Master, full evaluation", "engine Master, PeSTO's tables alone")
    else:
        other_terms = json.loads(args.terms.read_text())
        assert len(other_terms) == len(TERMS), f"{args.terms} holds {len(other_terms)} values, TERMS {len(TERMS)}"
        engine_bot = EvaluationBot(ProfileBot(engine_spec, args.ms), TERMS)
        other_bot = EvaluationBot(ProfileBot(engine_spec, args.ms), other_terms)
        names = ("engine Master, TERMS", f"engine Master, {args.terms.name}")
        args.against = f"terms:{args.terms.name}"

    def logged() -> list[dict[str, Any]]:
        return [r for r in read_log(args.log) if r.get("ms") == args.ms and r.get("against", "python") == args.against]

    records = logged()
    done = {(r["seed"], r["engine_white"]) for r in records}
    started = time.time()
    for seed in range(args.first_seed, args.first_seed + args.games // 2):
        for engine_white in (True, False):
            if (seed, engine_white) in done:
                continue
            record = play_one(engine_bot, other_bot, engine_white, seed, args)
            with args.log.open("a") as log:
                log.write(json.dumps(record) + "\n")
            records.append(record)
            colour = "white" if engine_white else "black"
            print(f"# game {len(records)}: seed {seed}, engine {colour}, score {record['score']}, "
                  f"{record['plies']} plies, {time.time() - started:.0f} s", flush=True)  # fmt: skip
    records = logged()
    n = len(records)
    score = sum(r["score"] for r in records) / max(n, 1)
    half = interval(score, n)
    wdl = "-".join(str(sum(r["score"] == v for r in records)) for v in (1.0, 0.5, 0.0))
    print(f"| {names[0]} vs {names[1]} | {args.ms} ms | {n} games | {score:.2f} ± {half:.2f} | {wdl} | "
          f"{elo(score):+.0f} ({elo(score - half):+.0f} to {elo(score + half):+.0f}) Elo |")  # fmt: skip
    for name, bot in zip(names, (engine_bot, other_bot), strict=True):
        t = bot.tally
        print(f"# {name}: {t.moves} moves searched, mean depth "
              f"{t.depth / max(t.moves, 1):.1f}, {t.nodes / max(t.ms / 1000, 1e-9):,.0f} nodes a second")  # fmt: skip
    one, five, _ = os.getloadavg()
    print(f"# load average {one:.1f} / {five:.1f} at the end")


if __name__ == "__main__":
    main()
