"""Backgammon bots against GNU Backgammon's presets: win rate and points per game, with 95% intervals.

Cubeless money games (a single game pays 1, a gammon 2, a backgammon 3; no cube, no
Jacoby rule).  Each pair of games uses one dice sequence twice, the bot in seat 0 and
then in seat 1, so luck cancels in the pair; with ``--evaluations logistic,new`` the bot
plays those same pairs once with each backgammon evaluation (``logistic``: the contact
model before the network, `benchmarks/logistic_evaluation.py`; ``new``: the equity of
`games.backgammon.evaluation` as it stands), and the difference new - logistic is
reported per pair too.  ``--part i/n``
plays every n-th pair, so n processes can share a run (each with its own ``--log``;
``--summary`` reads several, comma-separated).

gnubg plays through `gnubg_bridge` (0-ply, its preset's deterministic noise,
cubeless).  The bot is a seeded profile (`server/bots/seed.py`, level 5 by default:
the Master) searching through `ai.choose_move` with its own settings, its budget
optionally capped, its depth optionally limited.  Every game is appended to ``--log``
as a JSON line; ``--summary`` prints the table from a log alone (a run may be stopped
and summarised, or resumed: games already in the log are not played again).

Needs ``apt-get install -y gnubg`` (Debian's 1.07).  CPU: run it niced, one at a time:

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/gnubg_match.py \\
        --presets beginner,casual,intermediate --pairs 50 --evaluations logistic,new \\
        [--level 5] [--budget-cap-ms MS] [--max-depth D] [--seed 1] [--log FILE] [--summary]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import botplay
from botplay import ProfileBot, ladder
from gnubg_bridge import PRESETS, Gnubg
from logistic_evaluation import logistic_evaluate

import games.backgammon.evaluation as race
import games.backgammon.rules as rules
from games.backgammon import BACKGAMMON, BackgammonState
from games.backgammon.network import CONTACT_WEIGHTS, Network, Outputs


@contextmanager
def evaluation(name: str) -> Iterator[None]:
    """Backgammon's evaluation swapped for the named one while the bot thinks."""
    if name == "new":
        yield
        return
    if name == "normal-race":  # the race model before the bear-off database
        kept = race._rolls_to_finish, race._rolls_to_save_gammon, rules.bear_off_rolls
        race._rolls_to_finish, race._rolls_to_save_gammon = pip_count_finish, pip_count_save_gammon
        rules.bear_off_rolls = lambda state, seat: 0.0
        rules._evaluate.cache_clear()
        try:
            yield
        finally:
            race._rolls_to_finish, race._rolls_to_save_gammon, rules.bear_off_rolls = kept
            rules._evaluate.cache_clear()
        return
    if name == "previous":  # the contact network of --previous-weights, reading the first of today's inputs
        shipped = race.contact_network  # type: ignore[attr-defined]
        previous = FirstInputs(Network.load(PREVIOUS_WEIGHTS[0]))
        race.contact_network = lambda: previous  # type: ignore[attr-defined,assignment]
        rules._evaluate.cache_clear()
        try:
            yield
        finally:
            race.contact_network = shipped  # type: ignore[attr-defined]
            rules._evaluate.cache_clear()
        return
    kept = rules._evaluate
    rules._evaluate = logistic_evaluate  # type: ignore[assignment]
    try:
        yield
    finally:
        rules._evaluate = kept


PREVIOUS_WEIGHTS: list[Path] = [CONTACT_WEIGHTS]  # set by --previous-weights


class FirstInputs:
    """A network fed only the first of the evaluation's inputs (inputs are only ever added at the end)."""

    def __init__(self, network: Network) -> None:
        self.network = network

    def outputs(self, inputs: Sequence[float]) -> Outputs:
        return self.network.outputs(inputs[: self.network.inputs])


def pip_count_finish(side: race.Side) -> race.AtLeast:
    """The race model before the bear-off database: a normal of the effective pip count (pips and 1.5 a
    checker, no fewer rolls than checkers / 2.33), variance pips x 18.47 / 8.17^3."""
    left = race.CHECKERS - side[race.OFF]
    pips = sum(p * n for p, n in enumerate(side))
    mean = max((pips + 1.5 * left) / race.ROLL_PIPS, left / (7 / 3))
    return race._normal(mean, pips * race.ROLL_VARIANCE_PER_PIP + race.VARIANCE_FLOOR)


def pip_count_save_gammon(side: race.Side) -> race.AtLeast:
    outside = sum((p - 6) * side[p] for p in range(7, 26))
    return race._normal(outside / race.ROLL_PIPS + 1, outside * race.ROLL_VARIANCE_PER_PIP + race.VARIANCE_FLOOR)


def play_game(gnubg: Gnubg, bot: ProfileBot, preset: str, bot_seat: int, dice_seed: int, name: str) -> dict[str, Any]:
    """One game; the dice come from `dice_seed` alone, in the order they are rolled."""
    dice = random.Random(dice_seed)
    moves = random.Random(dice_seed * 7 + bot_seat)
    settings = PRESETS[preset]
    state: BackgammonState = BACKGAMMON.initial_state()
    bot_ms = 0.0
    while not BACKGAMMON.is_terminal(state):
        if not state.dice:
            outcomes = BACKGAMMON.chance_outcomes(state)
            state = BACKGAMMON.apply(state, dice.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if state.turn == bot_seat:
            started = time.perf_counter()
            with evaluation(name):
                move = bot.move(BACKGAMMON, state, moves.randrange(2**31), f"gnubg:{dice_seed}:{bot_seat}")
            bot_ms += 1000 * (time.perf_counter() - started)
        else:
            move = gnubg.move(state, int(settings["plies"]), settings["noise"])
        state = BACKGAMMON.apply(state, move)
    outcome = BACKGAMMON.outcome(state)
    return {
        "preset": preset,
        "evaluation": name,
        "dice_seed": dice_seed,
        "bot_seat": bot_seat,
        "points": outcome.returns[bot_seat],
        "reason": outcome.reason,
        "plies": state.ply,
        "bot_ms": round(bot_ms),
    }


@dataclass
class Line:
    """The results of one (preset, evaluation) pairing."""

    points: list[float] = field(default_factory=list)
    pairs: dict[int, float] = field(default_factory=dict)  # dice seed -> points of both seatings
    seatings: dict[int, int] = field(default_factory=dict)  # dice seed -> games played with it

    def add(self, game: dict[str, Any]) -> None:
        self.points.append(game["points"])
        self.pairs[game["dice_seed"]] = self.pairs.get(game["dice_seed"], 0.0) + game["points"]
        self.seatings[game["dice_seed"]] = self.seatings.get(game["dice_seed"], 0) + 1

    def complete(self) -> set[int]:
        """The dice seeds played in both seatings."""
        return {seed for seed, n in self.seatings.items() if n == 2}

    def row(self) -> str:
        n = len(self.points)
        wins = sum(1 for p in self.points if p > 0)
        rate = wins / n
        rate_half = 1.96 * math.sqrt(rate * (1 - rate) / n)
        ppg, ppg_half = mean_interval(self.points)
        count = {k: sum(1 for p in self.points if p == k) for k in (3, 2, -2, -3)}
        return (
            f"{n} | {rate:.0%} ± {rate_half:.0%} | {ppg:+.2f} ± {ppg_half:.2f} | "
            f"{count[2]} / {count[3]} | {count[-2]} / {count[-3]}"
        )


def mean_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def summary(games: list[dict[str, Any]]) -> None:
    lines: dict[tuple[str, str], Line] = {}
    for game in games:
        lines.setdefault((game["preset"], game["evaluation"]), Line()).add(game)
    print("| gnubg preset | evaluation | games | bot wins | points per game | gammons / backgammons won | lost |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (preset, name), line in sorted(lines.items(), key=lambda kv: (list(PRESETS).index(kv[0][0]), kv[0][1])):
        print(f"| {preset} | {name} | {line.row()} |")
    for preset in PRESETS:
        new = lines.get((preset, "new"))
        for other in ("logistic", "normal-race", "previous"):
            old = lines.get((preset, other))
            if old is None or new is None:
                continue
            both = sorted(old.complete() & new.complete())
            if len(both) < 2:
                continue
            # A pair: both seatings of one dice sequence, so the difference per pair is in points per game.
            diff, half = mean_interval([(new.pairs[s] - old.pairs[s]) / 2 for s in both])
            print(
                f"{preset}: new - {other}, paired on {len(both)} dice sequences:"
                f" {diff:+.2f} ± {half:.2f} points per game"
            )
    ms = [g["bot_ms"] / max(1, g["plies"] // 4) for g in games]
    print(f"bot time per move, roughly (its share of the plies): {sum(ms) / max(1, len(ms)):.0f} ms")


def read_log(path: str) -> list[dict[str, Any]]:
    return botplay.read_log(Path(path)) if path else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="beginner,casual,intermediate")
    parser.add_argument("--pairs", type=int, default=50, help="dice sequences per preset (two games each)")
    parser.add_argument(
        "--evaluations",
        default="new",
        help="any of new (the game's, as it stands), logistic (the contact model before the network), "
        "normal-race (races by normals alone, without the bear-off database), previous (--previous-weights)",
    )
    parser.add_argument(
        "--previous-weights",
        type=Path,
        default=CONTACT_WEIGHTS,
        help="the contact network the `previous` evaluation plays with (e.g. the weights before a refit)",
    )
    parser.add_argument("--part", default="0/1", help="i/n: play only the pairs whose index is i modulo n")
    parser.add_argument("--level", type=int, default=5, help="the seeded backgammon level that plays (default 5)")
    parser.add_argument("--budget-cap-ms", type=int, default=None)
    parser.add_argument("--max-depth", type=int, default=None, help="limit the profile's search depth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--log", default="", help="JSON lines, one per game, .gz for gzipped (appended; games in it are skipped)"
    )
    parser.add_argument("--summary", action="store_true", help="only summarise --log")
    args = parser.parse_args()
    done = [game for path in args.log.split(",") for game in read_log(path)]
    if args.summary:
        summary(done)
        return
    if "," in args.log:
        parser.error("--log names one file when playing")
    if unknown := set(args.evaluations.split(",")) - {"new", "logistic", "normal-race", "previous"}:
        parser.error(f"unknown evaluations: {', '.join(sorted(unknown))} (new, logistic, normal-race, previous)")
    PREVIOUS_WEIGHTS[0] = args.previous_weights
    spec = dict(ladder("backgammon")[args.level])
    if args.max_depth is not None:
        spec["max_depth"] = args.max_depth
    bot = ProfileBot(spec, args.budget_cap_ms)
    seen = {(g["preset"], g["evaluation"], g["dice_seed"], g["bot_seat"]) for g in done}
    games = list(done)
    started = time.time()
    with Gnubg() as gnubg:
        part, parts = map(int, args.part.split("/"))
        for pair in range(part, args.pairs, parts):
            for preset in args.presets.split(","):
                dice_seed = args.seed * 1_000_003 + pair
                for name in args.evaluations.split(","):
                    for seat in (0, 1):
                        if (preset, name, dice_seed, seat) in seen:
                            continue
                        game = play_game(gnubg, bot, preset, seat, dice_seed, name)
                        games.append(game)
                        if args.log:
                            botplay.append_line(Path(args.log), json.dumps(game))
            print(f"pair {pair + 1}/{args.pairs}, {time.time() - started:.0f} s", file=sys.stderr, flush=True)
    print(
        f"{bot.name}: {spec['algorithm']} depth {spec.get('max_depth')},"
        f" budget {bot.cap_ms or spec['time_budget_ms']} ms"
    )
    summary(games)


if __name__ == "__main__":
    main()
