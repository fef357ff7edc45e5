"""Train backgammon's contact network on GNU Backgammon's outputs, and judge it.

`collect`: positions of games gnubg plays against itself with its beginner preset's
noise (or another ``--preset``'s: expert games are nearer real play), and after each
roll the play it chose and up to ``--extra`` other legal plays at random (a search
compares every play's result, not only good ones).  Each position is evaluated by gnubg
at 0 ply, cubeless: its five outputs are the targets.  One JSON line a game in
``--data``; a stopped run resumes from it.  (The same positions as
``bg_fit.py``'s, from another seed.)

`train`: the network of `games/backgammon/network.py` (one hidden layer, five sigmoid
outputs for the side to roll) fitted on the contact positions of the even games by
cross-entropy on the soft targets, mini-batch Adam; the odd games are held out.  Prints
the held-out mean absolute error of each output and of the equity, beside the
evaluation as it stands, and writes the weights with ``--write``.

`judge`: the equity a one-ply choice gives away per decision against gnubg's best 0-ply
play, judged by gnubg, on held-out games (``bg_fit.choice_loss``).

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bg_net.py collect --games 1200 --data /tmp/bg_net.jsonl
    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bg_net.py train --data /tmp/bg_net.jsonl [--write]
    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bg_net.py judge --games 40

Needs ``apt-get install -y gnubg`` for `collect` and `judge`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import astuple
from pathlib import Path
from typing import Final

import logistic_evaluation as logistic
import numpy as np
from bg_fit import Pool, choice_loss, collect_game, game_decisions, own_sides, vars_of
from gnubg_bridge import PRESETS, Gnubg

from games.backgammon import BACKGAMMON
from games.backgammon import evaluation as ev
from games.backgammon.evaluation import CHECKERS
from games.backgammon.network import CONTACT_WEIGHTS, Network

SEED = 7  # bg_fit.py's positions use seed 1: these are other games


def collect(args: argparse.Namespace) -> None:
    done: set[int] = set()
    if os.path.exists(args.data):
        with open(args.data) as f:
            done = {json.loads(line)["game"] for line in f if line.strip()}
    todo = [i for i in range(args.first, args.first + args.games) if i not in done]
    print(f"{len(done)} games already in {args.data}; {len(todo)} to play")
    pool = Pool(args.workers)
    lock = threading.Lock()
    start = time.time()

    def one(index: int) -> int:
        samples = collect_game(pool.gnubg(), index, args.extra, args.seed, args.preset)
        line = json.dumps({"game": index, "samples": [[s["me"], s["op"], s["out"]] for s in samples]})
        with lock, open(args.data, "a") as f:
            f.write(line + "\n")
        return len(samples)

    try:
        with ThreadPoolExecutor(args.workers) as executor:
            total = 0
            for n, count in enumerate(executor.map(one, todo), 1):
                total += count
                if n % 50 == 0:
                    print(f"{n} games, {total} positions, {time.time() - start:.0f} s", flush=True)
    finally:
        pool.close()
    print(f"done: {len(todo)} games in {time.time() - start:.0f} s")


def collect_races(args: argparse.Namespace) -> None:
    """Race positions of random playouts, evaluated by gnubg at 0 ply: the races of gnubg's own
    games are too few (29,309 in 1,200 games) and too alike to teach the end of a bear-off."""
    pool = Pool(args.workers)
    start = time.time()
    first = RACE_GAMES + args.first  # game numbers apart from `collect`'s; odd ones are held out as there
    source = sampled_races if args.sampled else race_samples
    try:
        # Written as they finish (Pool.map returns at the end); a gnubg process a thread of this executor.
        with open(args.data, "a") as f, ThreadPoolExecutor(args.workers) as executor:
            games = executor.map(lambda i: (i, source(pool.gnubg(), i, args.seed)), range(first, first + args.games))
            for n, (index, samples) in enumerate(games, 1):
                f.write(json.dumps({"game": index, "samples": samples}) + "\n")
                if n % 500 == 0:
                    print(f"{n} games, {time.time() - start:.0f} s", flush=True)
    finally:
        pool.close()


RACE_GAMES: Final = 1_000_000


def sampled_races(gnubg: Gnubg, index: int, seed: int, count: int = 20) -> list[list[object]]:
    """[mover, roller, the mover's outputs] for `count` races drawn at random: each side's
    checkers off (none more often), its rearmost point, and the rest spread below it --
    early races full of checkers, which neither gnubg's games nor playouts reach often."""
    rng = random.Random(seed * 100_003 + index)
    samples: list[list[object]] = []
    while len(samples) < count:
        roller, mover = _random_side(rng), _random_side(rng)
        if max(roller) + max(mover) > 24:  # the armies have not passed each other
            continue
        points = [roller.count(p) - mover.count(25 - p) for p in range(1, 25)]
        off = [CHECKERS - len(roller), CHECKERS - len(mover)]
        state = BACKGAMMON.from_json({"points": points, "bar": [0, 0], "off": off, "turn": 0, "dice": [], "ply": 60})
        me, op = own_sides(state, 1)
        samples.append([me, op, list(vars_of(gnubg.evaluate(state).flipped()))])
    return samples


def _random_side(rng: random.Random) -> list[int]:
    """The points (own numbering) of a side's checkers still on the board."""
    off = rng.choice([0, 0, 0, 0, *range(14)])
    rearmost = rng.randint(1, 18)
    spread = rng.uniform(0.4, 1.6)
    return [rearmost] + [1 + int(rearmost * rng.random() ** spread) for _ in range(CHECKERS - off - 1)]


def race_samples(gnubg: Gnubg, index: int, seed: int) -> list[list[object]]:
    """[mover, roller, the mover's outputs] for each race position of one random playout."""
    rng = random.Random(seed * 100_003 + index)
    state, samples = BACKGAMMON.initial_state(), []
    while not BACKGAMMON.is_terminal(state):
        if not state.dice and state.ply:
            roller, mover = own_sides(state, state.turn)
            if ev.race_started(mover, roller):
                samples.append([mover, roller, list(vars_of(gnubg.evaluate(state).flipped()))])
        state = BACKGAMMON.apply(state, BACKGAMMON.rollout_move(state, rng))
    return samples


def race_inputs(roller: ev.Side, other: ev.Side) -> list[float]:
    """An experimental race network's inputs: the contact network's, and the game's race model's
    five outputs for the roller, which the network would correct."""
    return ev.network_inputs(roller, other) + list(astuple(ev.race_probabilities(roller, other, True)))


def samples(paths: list[str]) -> Iterator[tuple[int, ev.Side, ev.Side, list[float]]]:
    """(game, mover, roller, the mover's outputs) of every position in the files; a game number
    is read once (files collected with other ``--first`` numbers add to one another)."""
    seen: set[int] = set()
    for path in paths:
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                if game["game"] in seen:
                    continue
                seen.add(game["game"])
                for mover, roller, out in game["samples"]:
                    yield game["game"], tuple(mover), tuple(roller), out


def load(paths: list[str], race: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inputs, targets (for the side to roll), game index and `kind` of every race (or contact) position."""
    inputs, targets, games, kinds = [], [], [], []
    rows: list[list[float]] = []  # turned into float32 by the 10,000: lists of floats would take gigabytes
    for index, mover, roller, out in samples(paths):
        if ev.race_started(mover, roller) != race:
            continue
        win, wg, wbg, lg, lbg = out  # the mover's: the roller's are the other way round
        rows.append((race_inputs if race else ev.network_inputs)(roller, mover))
        if len(rows) == 10_000:
            inputs.append(np.array(rows, np.float32))
            rows = []
        targets.append((1 - win, lg, lbg, wg, wbg))
        games.append(index)
        kinds.append(KINDS.index(kind(roller, mover)))
    if rows:
        inputs.append(np.array(rows, np.float32))
    return np.concatenate(inputs), np.array(targets, np.float32), np.array(games), np.array(kinds)


def cached_load(path: str, race: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`load` of one file, kept beside it (``FILE.contact.npz``) and read from there while it is newer."""
    cache = Path(f"{path}.{'race' if race else 'contact'}.npz")
    if cache.exists() and cache.stat().st_mtime > Path(path).stat().st_mtime:
        with np.load(cache) as cached:
            return cached["x"], cached["y"], cached["games"], cached["kinds"]
    x, y, games, kinds = load([path], race)
    np.savez(cache, x=x, y=y, games=games, kinds=kinds)
    return x, y, games, kinds


KINDS: Final = ("on the bar", "a side all home", "both over 130 pips", "the rest")


def kind(roller: ev.Side, other: ev.Side) -> str:
    """A contact position's type, for the error by type: a checker on the bar; else a side with
    all its checkers home (bearing in or off against contact); else early (both sides more than
    130 pips to go); else the rest of the middle game."""
    if roller[ev.BAR] or other[ev.BAR]:
        return KINDS[0]
    if any(not any(side[7:25]) for side in (roller, other)):
        return KINDS[1]
    if min(sum(p * side[p] for p in range(1, 25)) for side in (roller, other)) > 130:
        return KINDS[2]
    return KINDS[3]


def equities(p: np.ndarray) -> np.ndarray:
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def report(name: str, predicted: np.ndarray, targets: np.ndarray, kinds: np.ndarray | None = None) -> None:
    errors = np.abs(predicted - targets).mean(axis=0)
    equity = np.abs(equities(predicted) - equities(targets))
    print(
        f"{name}: mean |error| win, wg, wbg, lg, lbg {' '.join(f'{e:.4f}' for e in errors)}; equity {equity.mean():.4f}"
    )
    if kinds is not None:
        print("  equity by type: " + "; ".join(f"{k} {equity[kinds == i].mean():.4f} ({(kinds == i).sum()})"
                                              for i, k in enumerate(KINDS)))  # fmt: skip


def train(args: argparse.Namespace) -> None:
    start = time.time()
    race = args.kind == "race"
    parts = [cached_load(path, race) if args.cache else load([path], race) for path in args.data]
    x, y, games, kinds = (np.concatenate(arrays) for arrays in zip(*parts, strict=True))
    fit, held = games % 2 == 0, games % 2 == 1
    print(f"{len(x)} {args.kind} positions ({fit.sum()} to fit, {held.sum()} held out), {time.time() - start:.0f} s")
    if not race:
        current = Network.load(CONTACT_WEIGHTS)
        # Inputs only ever grow at the end: the network as it stands reads the first of them.
        current_p = forward(current, x[held][:, : current.inputs])
        report("the contact network as it stands, held out", current_p, y[held], kinds[held])
    if args.inputs:
        x = x[:, : args.inputs]
    mean, scale = x[fit].mean(axis=0), x[fit].std(axis=0) + 1e-3
    xs = (x - mean) / scale
    rng = np.random.default_rng(args.seed)
    hidden = args.hidden
    w1 = rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, 1 / np.sqrt(hidden), (hidden, 5)).astype(np.float32)
    b2 = np.zeros(5, np.float32)
    params = [w1, b1, w2, b2]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    train_x, train_y = xs[fit], y[fit]
    step = 0
    for epoch in range(args.epochs):
        rate = args.rate * 0.5 * (1 + np.cos(np.pi * epoch / args.epochs))
        order = rng.permutation(len(train_x))
        for first in range(0, len(order), args.batch):
            batch = order[first : first + args.batch]
            xb, yb = train_x[batch], train_y[batch]
            h = np.tanh(xb @ w1 + b1)
            p = 1 / (1 + np.exp(-(h @ w2 + b2)))
            dz = (p - yb) / len(batch)  # cross-entropy on soft targets
            dh = (dz @ w2.T) * (1 - h * h)
            grads = [xb.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]
            step += 1
            for param, grad, (m, v) in zip(params, grads, moments, strict=True):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        held_p = 1 / (1 + np.exp(-(np.tanh(xs[held] @ w1 + b1) @ w2 + b2)))
        last = epoch + 1 == args.epochs
        report(
            f"epoch {epoch + 1} ({time.time() - start:.0f} s), held out", held_p, y[held], kinds[held] if last else None
        )
    # Fold the standardisation into the first layer: the product feeds raw inputs.
    w1_raw = (w1 / scale[:, None]).astype(np.float64)
    b1_raw = (b1 - (mean / scale) @ w1).astype(np.float64)
    network = Network(w1_raw, b1_raw, w2.astype(np.float64), b2.astype(np.float64))
    if args.write:
        path = args.out if race else CONTACT_WEIGHTS
        network.save(path)
        print(f"written to {path}")
    if args.save:
        network.save(args.save)
        print(f"written to {args.save}")
    if args.no_reference:
        return
    reference = []
    for mover, roller in held_pairs(args.data, race):
        p = logistic.side_probabilities(roller, mover, True)
        reference.append((p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon))
    name = "the game's race model" if race else "logistic model"
    report(f"{name}, held out", np.array(reference), y[held])


def held_pairs(paths: list[str], race: bool) -> list[tuple[ev.Side, ev.Side]]:
    return [(m, r) for g, m, r, _ in samples(paths) if g % 2 == 1 and ev.race_started(m, r) == race]


def forward(network: Network, x: np.ndarray) -> np.ndarray:
    """The network's outputs for the rows of `x` at once."""
    return 1 / (1 + np.exp(-(np.tanh(x @ network.w1 + network.b1) @ network.w2 + network.b2)))


def judge(args: argparse.Namespace) -> None:
    """The network and the logistic model choose on the same held-out decisions (odd games)."""
    pool = Pool(args.workers)
    try:
        indices = [2 * i + 1 for i in range(args.games)]
        decisions = pool.map(lambda g, i: game_decisions(g, i, SEED + 1), indices)
    finally:
        pool.close()
    choice_loss(decisions, args.games, "logistic model", logistic.logistic_evaluate)
    choice_loss(decisions, args.games, "network", BACKGAMMON.evaluate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=1200)
    c.add_argument("--extra", type=int, default=4)
    c.add_argument("--workers", type=int, default=8, help="gnubg processes (they mostly sleep)")
    c.add_argument("--data", required=True)
    c.add_argument("--seed", type=int, default=SEED)
    c.add_argument("--preset", choices=tuple(PRESETS), default="beginner", help="gnubg's noise in its games")
    c.add_argument("--first", type=int, default=0, help="the first game's number (other files: other numbers)")
    r = sub.add_parser("collect-races")
    r.add_argument("--games", type=int, default=4000)
    r.add_argument("--first", type=int, default=0, help="the first playout's number (to add more)")
    r.add_argument("--sampled", action="store_true", help="races drawn at random, 20 a number, not playouts")
    r.add_argument("--workers", type=int, default=16)
    r.add_argument("--data", required=True)
    r.add_argument("--seed", type=int, default=SEED)
    t = sub.add_parser("train")
    t.add_argument("--data", required=True, nargs="+", help="files of `collect` (and `collect-races`)")
    t.add_argument("--kind", choices=("contact", "race"), default="contact", help="which positions, which network")
    t.add_argument("--hidden", type=int, default=96)
    t.add_argument("--inputs", type=int, default=0, help="fit on the first N inputs only (0: all)")
    t.add_argument("--save", type=Path, help="also write the weights here (a candidate to compare)")
    t.add_argument("--no-reference", action="store_true", help="without the logistic (race) model's error")
    t.add_argument(
        "--cache",
        action="store_true",
        help="keep each file's inputs beside it (FILE.contact.npz)",
    )
    t.add_argument("--epochs", type=int, default=30)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--rate", type=float, default=0.002)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument(
        "--write", action="store_true", help=f"write the weights (contact: to {CONTACT_WEIGHTS.name}; race: to --out)"
    )
    t.add_argument("--out", type=Path, default=Path("/tmp/race_network.json"), help="where --write puts a race network")
    j = sub.add_parser("judge")
    j.add_argument("--games", type=int, default=40)
    j.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    if args.command == "judge":
        judge(args)
    elif args.command == "collect":
        collect(args)
    elif args.command == "collect-races":
        collect_races(args)
    elif args.command == "train":
        train(args)


if __name__ == "__main__":
    main()
