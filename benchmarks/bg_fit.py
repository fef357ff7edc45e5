"""Fit backgammon's contact models to GNU Backgammon's outputs, and judge evaluations by its lights.

Positions: games that gnubg plays against itself with its beginner preset's noise
(0-ply, 0.06); at every roll the play it chose and up to ``--extra`` other legal plays
at random (a search compares every play's result, not only good ones).  Each resulting
position is evaluated by gnubg at 0 ply, cubeless: the five outputs are the targets.
Games with an even index fit, odd ones judge.

Fits (logistic, soft targets, Newton's method with a little ridge), on contact positions:
P(win) on the difference of the two sides' features, P(gammon | win) weighted by
P(win), P(backgammon | gammon) weighted by P(gammon).  Prints the weight tables for
``logistic_evaluation.py`` (the contact models before the network), once per ``--variants`` (``all features``, or with
the shot counts left out: ``no gammon threat``, ``no threat``, ``no shots``).  Then, on the held-out
games, for the weights as they stand in the module and for each refit: the mean
absolute error of each output and of the equity, race and contact apart; and the
equity a one-ply choice gives away per decision against gnubg's best 0-ply play,
judged by gnubg, on the same decisions for every evaluation.  Needs ``apt-get install -y gnubg``.

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bg_fit.py [--games 200] [--extra 4] [--seed 1] \\
        [--cache FILE] [--judge-games 40] [--variants "all features,no shots"]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import logistic_evaluation as lg
from gnubg_bridge import PRESETS, Gnubg, Outputs

from games.backgammon import BACKGAMMON, BackgammonState, legal_plays, sides
from games.backgammon import evaluation as ev

Sample = dict[str, object]
T = TypeVar("T")


def own_sides(state: BackgammonState, seat: int) -> tuple[ev.Side, ev.Side]:
    """(`seat`'s checkers, the opponent's), each in its own numbering."""
    return sides(state, seat)[0], sides(state, 1 - seat)[0]


def roll(state: BackgammonState, rng: random.Random) -> BackgammonState:
    outcomes = BACKGAMMON.chance_outcomes(state)
    return BACKGAMMON.apply(state, rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])


class Pool:
    """Several gnubg processes, one a thread: each request sleeps ~10 ms inside gnubg (its task
    wait), not on the CPU, so parallel processes hide the latency at no cost in CPU.  One
    executor for the pool's life: a gnubg process belongs to a thread, so new threads on every
    `map` would start new processes (a loop of calls once ran the machine out of memory)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._local = threading.local()
        self._all: list[Gnubg] = []
        self._lock = threading.Lock()
        self._executor = ThreadPoolExecutor(workers)

    def gnubg(self) -> Gnubg:
        if not hasattr(self._local, "gnubg"):
            self._local.gnubg = Gnubg()
            with self._lock:
                self._all.append(self._local.gnubg)
        return self._local.gnubg  # type: ignore[no-any-return]

    def map(self, function: Callable[[Gnubg, int], list[T]], indices: Sequence[int]) -> list[T]:
        results = self._executor.map(lambda i: function(self.gnubg(), i), indices)
        return [item for chunk in results for item in chunk]

    def close(self) -> None:
        self._executor.shutdown()
        for gnubg in self._all:
            gnubg.close()


def collect_game(gnubg: Gnubg, index: int, extra: int, seed: int, preset: str = "beginner") -> list[Sample]:
    """Positions after the plays of one game gnubg plays against itself with `preset`'s noise,
    with the mover's outputs from gnubg."""
    rng = random.Random(seed * 100_003 + index)
    noise = PRESETS[preset]["noise"]
    samples: list[Sample] = []
    state = roll(BACKGAMMON.initial_state(), rng)
    while not BACKGAMMON.is_terminal(state):
        plays = legal_plays(state)
        chosen = gnubg.move(state, 0, noise)
        others = [m for m in plays if m != chosen]
        for move in [chosen, *rng.sample(others, min(extra, len(others)))]:
            child = plays[move]
            if BACKGAMMON.is_terminal(child):
                continue
            outputs = gnubg.evaluate(child).flipped()  # gnubg speaks for the side to roll
            me, op = own_sides(child, state.turn)
            samples.append({"game": index, "me": me, "op": op, "out": list(vars_of(outputs))})
        state = BACKGAMMON.apply(state, chosen)
        if not BACKGAMMON.is_terminal(state):
            state = roll(state, rng)
    return samples


def vars_of(outputs: Outputs) -> tuple[float, ...]:
    return (outputs.win, outputs.win_gammon, outputs.win_backgammon, outputs.lose_gammon, outputs.lose_backgammon)


# --- logistic regression on soft targets ---------------------------------------------


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit_logistic(rows: Sequence[tuple[Sequence[float], float, float]], ridge: float = 1e-3) -> list[float]:
    """Weights minimising the weighted cross-entropy of sigmoid(w·x) against soft targets (x, target, weight)."""
    d = len(rows[0][0])
    w = [0.0] * d
    for _ in range(25):
        grad = [ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        for x, target, weight in rows:
            p = 1 / (1 + math.exp(-max(-40.0, min(40.0, sum(wi * xi for wi, xi in zip(w, x, strict=True))))))
            g = weight * (p - target)
            h = weight * p * (1 - p)
            for i in range(d):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(i, d):
                    row[j] += hx * x[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


WIN_COLUMNS = ("on roll", "race lead", "hit threat", *ev.WIN_FEATURES)  # WIN_ON_ROLL, WIN_LEAD, WIN_THREAT


def win_rows(samples: list[Sample]) -> list[tuple[list[float], float, float]]:
    rows = []
    for s in samples:
        me, op = s["me"], s["op"]
        assert isinstance(me, tuple) and isinstance(op, tuple) and isinstance(s["out"], list)
        mine, theirs = ev.side_features(me, op), ev.side_features(op, me)
        diff = [a - b for a, b in zip(mine, theirs, strict=True)]
        # The mover has just played: the other side rolls.
        rows.append(([-1.0, lg.race_lead(me, op), lg.hit_threat(mine, theirs, False), *diff], s["out"][0], 1.0))
    return rows


def gammon_rows(
    samples: list[Sample],
) -> tuple[list[tuple[tuple[float, ...], float, float]], list[tuple[tuple[float, ...], float, float]]]:
    gammons, backgammons = [], []
    for s in samples:
        win, wg, wbg, lg, lbg = s["out"]  # type: ignore[misc]
        me, op = s["me"], s["op"]
        # My hit threat, the other side rolling next (its own is minus mine).
        threat = lg.hit_threat(ev.side_features(me, op), ev.side_features(op, me), False)  # type: ignore[arg-type]
        for winner, loser, winner_rolls, p_win, p_g, p_bg in (
            (me, op, False, win, wg, wbg),
            (op, me, True, 1 - win, lg, lbg),
        ):
            if loser[ev.OFF] or p_win < 0.01:
                continue
            winner_threat = -threat if winner_rolls else threat
            gammons.append(
                (lg.gammon_features(winner, loser, winner_rolls, winner_threat), min(1.0, p_g / p_win), p_win)
            )
            if any(loser[p] for p in range(19, 26)) and p_g > 0.005:
                backgammons.append((lg.backgammon_features(winner, loser), min(1.0, p_bg / p_g), p_g))
    return gammons, backgammons


# --- judging ---------------------------------------------------------------------------


def model_outputs(s: Sample) -> tuple[float, ...]:
    p = lg.side_probabilities(s["me"], s["op"], False)  # type: ignore[arg-type]
    return (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon)


def gnubg_equity(out: Sequence[float]) -> float:
    return ev.equity(ev.Probabilities(*out))


def errors(samples: list[Sample]) -> None:
    for label, keep in (("race", True), ("contact", False)):
        chosen = [s for s in samples if ev.race_started(s["me"], s["op"]) == keep]  # type: ignore[arg-type]
        if not chosen:
            continue
        totals = [0.0] * 6
        for s in chosen:
            mine, theirs = model_outputs(s), s["out"]
            assert isinstance(theirs, list)
            for i in range(5):
                totals[i] += abs(mine[i] - theirs[i])
            totals[5] += abs(ev.equity(ev.Probabilities(*mine)) - gnubg_equity(theirs))
        means = " ".join(f"{t / len(chosen):.3f}" for t in totals)
        print(f"{label}: {len(chosen)} positions; mean |error| win, wg, wbg, lg, lbg, equity: {means}")


Evaluation = Callable[[BackgammonState, int], float]
Decision = tuple[int, list[BackgammonState], list[float]]  # mover, the plays' positions, gnubg's equities


def game_decisions(gnubg: Gnubg, index: int, seed: int) -> list[Decision]:
    """Every decision of one game with more than one play: each play's position, judged by gnubg 0-ply
    (a finished game by its points)."""
    rng = random.Random(seed * 100_003 + index)
    out: list[Decision] = []
    state = roll(BACKGAMMON.initial_state(), rng)
    while not BACKGAMMON.is_terminal(state):
        plays = legal_plays(state)
        chosen = gnubg.move(state, 0, PRESETS["beginner"]["noise"])
        if len(plays) > 1:
            mover = state.turn
            children = list(plays.values())
            judged = [
                BACKGAMMON.returns(child)[mover] if BACKGAMMON.is_terminal(child) else -gnubg.evaluate(child).equity
                for child in children
            ]
            out.append((mover, children, judged))
        state = BACKGAMMON.apply(state, chosen)
        if not BACKGAMMON.is_terminal(state):
            state = roll(state, rng)
    return out


def choice_loss(decisions: list[Decision], games: int, name: str, evaluate: Evaluation) -> None:
    """Equity the evaluation's one-ply choice gives away per decision, judged by gnubg 0-ply."""
    lost = []
    for mover, children, judged in decisions:
        pick = max(
            range(len(children)),
            key=lambda i: judged[i] if BACKGAMMON.is_terminal(children[i]) else evaluate(children[i], mover),
        )
        lost.append(max(judged) - judged[pick])
    agree = sum(1 for x in lost if x <= 1e-9)
    print(
        f"{name}: {len(lost)} decisions in {games} games, equity given away per decision"
        f" {sum(lost) / len(lost):.4f}, gnubg's 0-ply play chosen {agree / len(lost):.1%}"
    )


# --- the evaluation's weights, fitted or as they stand ------------------------------------

WEIGHT_NAMES = ("WIN_ON_ROLL", "WIN_LEAD", "WIN_THREAT", "WIN_WEIGHTS", "GAMMON_WEIGHTS", "BACKGAMMON_WEIGHTS")
Weights = dict[str, object]


def current_weights() -> Weights:
    return {name: getattr(lg, name) for name in WEIGHT_NAMES}


def install(weights: Weights) -> None:
    """Make the logistic models use `weights` (single-threaded use: they are the module's globals)."""
    for name, value in weights.items():
        setattr(lg, name, value)
    lg.logistic_evaluate.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--extra", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=8, help="gnubg processes (they mostly sleep)")
    parser.add_argument("--cache", default="", help="JSON file to keep the samples in (reused when present)")
    parser.add_argument("--judge-games", type=int, default=40, help="held-out games for the choice comparison")
    parser.add_argument(
        "--variants",
        default="all features",
        help=f"refits to judge beside the weights as they stand: {', '.join(VARIANTS)}",
    )
    args = parser.parse_args()
    start = time.time()
    pool = Pool(args.workers)
    try:
        if args.cache and os.path.exists(args.cache):
            with open(args.cache) as f:
                samples = [{**s, "me": tuple(s["me"]), "op": tuple(s["op"])} for s in json.load(f)]
        else:
            samples = pool.map(lambda g, i: collect_game(g, i, args.extra, args.seed), range(args.games))
            if args.cache:
                with open(args.cache, "w") as f:
                    json.dump(samples, f)
        print(f"{len(samples)} positions from {args.games} games ({time.time() - start:.0f} s)")
        candidates = {"as it stands": current_weights()}
        for name in args.variants.split(","):
            print(f"--- refit, {name}")
            candidates[f"refit, {name}"] = fit(samples, VARIANTS[name])
        held_out = [s for s in samples if s["game"] % 2 == 1]  # type: ignore[operator]
        for name, weights in candidates.items():
            print(f"held-out errors, {name}:")
            install(weights)
            errors(held_out)
        judge = [i for i in range(args.games) if i % 2 == 1][: args.judge_games]
        if judge:
            decisions = pool.map(lambda g, i: game_decisions(g, i, args.seed), judge)
            for name, weights in candidates.items():
                install(weights)
                choice_loss(decisions, len(judge), name, lg.logistic_evaluate)
    finally:
        pool.close()
    print(f"{time.time() - start:.0f} s")


# Refits by the features they leave out: the shot counts are compared with the model without them.
VARIANTS = {
    "all features": frozenset[str](),
    "no gammon threat": frozenset({"winner's hit threat"}),
    "no threat": frozenset({"hit threat", "winner's hit threat"}),
    "no shots": frozenset({"hit threat", "winner's hit threat", "shots/36", "pips hit/900"}),
}


def fit(samples: list[Sample], drop: frozenset[str] = frozenset()) -> Weights:
    """Fit the three contact models on the even games, print their tables and return them;
    the features named in `drop` are left out (their weights 0)."""
    train = [s for s in samples if s["game"] % 2 == 0]  # type: ignore[operator]
    contact = [s for s in train if not ev.race_started(s["me"], s["op"])]  # type: ignore[arg-type]
    win_keep = [i for i, name in enumerate(WIN_COLUMNS) if name not in drop]
    gammon_keep = [i for i, name in enumerate(lg.GAMMON_FEATURES) if name not in drop]
    win = widen(fit_logistic(kept(win_rows(contact), win_keep)), win_keep, len(WIN_COLUMNS))
    gammons, backgammons = gammon_rows(contact)
    gammon = widen(fit_logistic(kept(gammons, gammon_keep)), gammon_keep, len(lg.GAMMON_FEATURES))
    backgammon = fit_logistic(backgammons)
    print(f"fitted on {len(contact)} contact positions: {len(gammons)} gammon rows, {len(backgammons)} backgammon rows")
    print(f"WIN_ON_ROLL: Final = {win[0]:.4f}")
    print(f"WIN_LEAD: Final = {win[1]:.4f}")
    print(f"WIN_THREAT: Final = {win[2]:.4f}")
    for name, weights in (("WIN_WEIGHTS", win[3:]), ("GAMMON_WEIGHTS", gammon), ("BACKGAMMON_WEIGHTS", backgammon)):
        print(f"{name}: Final = ({', '.join(f'{w:.4f}' for w in weights)})")
    return {
        "WIN_ON_ROLL": round(win[0], 4),
        "WIN_LEAD": round(win[1], 4),
        "WIN_THREAT": round(win[2], 4),
        "WIN_WEIGHTS": tuple(round(w, 4) for w in win[3:]),
        "GAMMON_WEIGHTS": tuple(round(w, 4) for w in gammon),
        "BACKGAMMON_WEIGHTS": tuple(round(w, 4) for w in backgammon),
    }


Row = tuple[Sequence[float], float, float]


def kept(rows: Sequence[Row], columns: list[int]) -> list[Row]:
    return [([x[i] for i in columns], target, weight) for x, target, weight in rows]


def widen(weights: list[float], columns: list[int], width: int) -> list[float]:
    """The weights of the kept columns back in place, 0 for the dropped ones."""
    out = [0.0] * width
    for column, weight in zip(columns, weights, strict=True):
        out[column] = weight
    return out


if __name__ == "__main__":
    main()
