"""Othello's pattern evaluation: the positions it is fitted on, the fit, and how well it predicts.

    python benchmarks/othello_patterns.py generate --games 3000 --seed 1 --out results/othello_positions.npz
    python benchmarks/othello_patterns.py fit --data results/othello_positions.npz
    python benchmarks/othello_patterns.py check --positions 300 --seed 7
    python benchmarks/othello_patterns.py match --games 40 --budget-cap-ms 500

``generate``: games of a noisy one-ply player (the hand-written evaluation, `Othello.evaluate`,
plus Gaussian noise, after 4-9 random opening plies; seeded per game).  From
``--solve-at`` empty squares on (16) the exact solver (`games.othello.endgame`) plays the game
out perfectly, so every position from there on is labelled with its exact final disc score;
earlier positions are labelled with the exact score of the game where the solver took over
(the outcome the game's own play led to, seen from each position's mover).  Written as one
``.npz`` (mover's and opponent's bitboards, label, game number).

``fit``: least squares (conjugate gradients on the sparse pattern features, numpy) of the
weights of `games.othello.patterns`, one set per phase (`PHASES`), each phase fitted on the
positions of its own and its neighbours' disc counts; a small ridge term pulls rare
configurations to 0.  Quantised to int16 and written to ``games/othello/patterns.bin.xz``.

``check``: held-out positions (a different seed) at 14-16 empties, scored exactly, and earlier
positions (24-40 empties) scored by the solver's continuation: how often each evaluation
has the sign of the exact result, and its correlation with it.

``match``: the Master with the pattern evaluation against the same Master with the hand-written
one, the same capped budget, the same random openings with colours swapped; the score with a
95 % interval.
"""

from __future__ import annotations

import argparse
import lzma
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import botplay  # noqa: E402

from games.othello import OTHELLO, OthelloState, move_mask  # noqa: E402
from games.othello import patterns as pt  # noqa: E402
from games.othello.endgame import OthelloSolver  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def empties(own: int, opp: int) -> int:
    return 64 - (own | opp).bit_count()


def noisy_move(state: OthelloState, rng: random.Random, noise: float) -> str:
    """The move whose position the hand-written evaluation likes best, with Gaussian noise."""
    moves = OTHELLO.legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    seat = state.seat
    return max(moves, key=lambda m: OTHELLO.evaluate(OTHELLO.apply(state, m), seat) + rng.gauss(0, noise))


def one_game(seed: int, solve_at: int, solver: OthelloSolver) -> list[tuple[int, int, int]]:
    """(mover, opponent, label) for every position of one game where the mover has a move."""
    rng = random.Random(seed)
    state = OTHELLO.initial_state()
    opening = rng.randint(4, 9)
    played: list[OthelloState] = []
    while not OTHELLO.is_terminal(state):
        own, opp = state.own_opp()
        if empties(own, opp) <= solve_at:
            break
        if move_mask(own, opp):
            played.append(state)
        move = rng.choice(OTHELLO.legal_moves(state)) if state.ply < opening else noisy_move(state, rng, 0.08)
        state = OTHELLO.apply(state, move)
    out: list[tuple[int, int, int]] = []
    exact_value: int | None = None  # of the first solved position, for its mover
    exact_seat = state.seat
    while not OTHELLO.is_terminal(state):
        own, opp = state.own_opp()
        if not move_mask(own, opp):
            state = OTHELLO.apply(state, "pass")
            continue
        scores = solver.move_scores(state)
        best = max(scores.values())
        if exact_value is None:
            exact_value, exact_seat = best, state.seat
        out.append((own, opp, best))
        move = min(m for m, v in scores.items() if v == best)
        state = OTHELLO.apply(state, move)
    if exact_value is None:  # the game ended before the solver took over
        own, opp = state.own_opp()
        b, w = OTHELLO.score(state)
        exact_value, exact_seat = (b - w), 0
    for s in played:
        own, opp = s.own_opp()
        out.append((own, opp, exact_value if s.seat == exact_seat else -exact_value))
    return out


def generate(args: argparse.Namespace) -> None:
    out = botplay.in_benchmarks(args.out)
    solver = OthelloSolver()
    rows: list[tuple[int, int, int, int]] = []
    started = time.perf_counter()
    for game in range(args.games):
        for own, opp, label in one_game(args.seed * 1_000_003 + game, args.solve_at, solver):
            rows.append((own, opp, label, game))
        if (game + 1) % 100 == 0 or game + 1 == args.games:
            print(f"{game + 1} games, {len(rows)} positions, {time.perf_counter() - started:.0f} s", flush=True)
            save(out, rows)


def save(path: Path, rows: list[tuple[int, int, int, int]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    own = np.array([r[0] for r in rows], dtype=np.uint64)
    opp = np.array([r[1] for r in rows], dtype=np.uint64)
    label = np.array([r[2] for r in rows], dtype=np.int8)
    game = np.array([r[3] for r in rows], dtype=np.int32)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, own=own, opp=opp, label=label, game=game)
    tmp.replace(path)


# --- the features, in numpy over many positions ----------------------------------------------
def canonical_ids(shape: str) -> tuple[np.ndarray, int]:
    """For each index of the shape's table, the number of its class of mirror-image arrangements."""
    cells = pt.SHAPES[shape]
    squares = [pt._square(r, c) for r, c in cells]
    n = len(squares)
    index = np.arange(3**n)
    digits = (index[:, None] // 3 ** np.arange(n)) % 3
    canon = index.copy()
    for sym in pt.SYMMETRIES:
        image = [pt._square(*sym(r, c)) for r, c in cells]
        if set(image) != set(squares):
            continue
        moved = [squares.index(sq) for sq in image]  # digit i lands on place moved[i]
        canon = np.minimum(canon, (digits * 3 ** np.array(moved)).sum(axis=1))
    _, ids = np.unique(canon, return_inverse=True)
    return ids, int(ids.max()) + 1


def np_move_count(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """`move_mask(own, opp).bit_count()` over arrays of bitboards."""
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    inner = np.uint64(0x7E7E7E7E7E7E7E7E)
    empty = ~(own | opp) & full
    moves = np.zeros_like(own)
    for d, mask in ((1, inner), (8, full), (9, inner), (7, inner)):
        o = opp & mask
        step = np.uint64(d)
        for shift in (np.left_shift, np.right_shift):
            x = shift(own, step) & o
            for _ in range(5):
                x |= shift(x, step) & o
            moves |= shift(x, step) & empty
    return np.array([int(m).bit_count() for m in moves.tolist()], dtype=np.float64)


def features(own: np.ndarray, opp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each position's 46 parameter numbers, and both sides' numbers of legal moves."""
    ids = [canonical_ids(name) for name in pt.SHAPE_NAMES]
    starts = np.cumsum([0] + [count for _, count in ids])
    cols = np.empty((len(own), len(pt.PATTERNS)), dtype=np.int64)
    for k, (shape, squares) in enumerate(pt.PATTERNS):
        index = np.zeros(len(own), dtype=np.int64)
        for i, sq in enumerate(squares):
            bit = np.uint64(sq)
            cell = ((own >> bit) & np.uint64(1)).astype(np.int64) + 2 * ((opp >> bit) & np.uint64(1)).astype(np.int64)
            index += 3**i * cell
        cols[:, k] = starts[shape] + ids[shape][0][index]
    return cols, np_move_count(own, opp), np_move_count(opp, own)


def fit_phase(
    cols: np.ndarray, mob: np.ndarray, label: np.ndarray, params: int, ridge: float, steps: int
) -> np.ndarray:
    """Ridge least squares by preconditioned conjugate gradients: params, then mobility (2) and the constant."""
    n = len(label)
    dense = np.column_stack([mob, np.ones(n)])  # the mover's and opponent's moves, the constant

    def product(w: np.ndarray) -> np.ndarray:  # (X^T X + ridge) w
        xw = w[:params][cols].sum(axis=1) + dense @ w[params:]
        out = np.concatenate([np.bincount(cols.ravel(), np.repeat(xw, cols.shape[1]), params), dense.T @ xw])
        out[:params] += ridge * w[:params]
        return out

    rhs = np.concatenate([np.bincount(cols.ravel(), np.repeat(label, cols.shape[1]), params), dense.T @ label])
    diag = np.concatenate([np.bincount(cols.ravel(), minlength=params) + ridge, (dense**2).sum(axis=0)])
    w = np.zeros(params + 3)
    r = rhs - product(w)
    z = r / diag
    p = z.copy()
    rz = r @ z
    for _ in range(steps):
        q = product(p)
        alpha = rz / (p @ q)
        w += alpha * p
        r -= alpha * q
        z = r / diag
        rz, previous = r @ z, rz
        p = z + (rz / previous) * p
    return w


def later_positions(
    games: np.ndarray, discs: np.ndarray, labels: np.ndarray, ahead: int
) -> tuple[np.ndarray, np.ndarray]:
    """For each position, the row of its game's first position with `ahead` more discs (-1: none), and
    +1 where that position's mover is the same, -1 where it is the other seat (0: a drawn game, unknown).

    Before the solver took over every position's label is the game's one result seen by its mover,
    so equal labels mean the same mover."""
    rows: dict[tuple[int, int], int] = {(int(g), int(d)): i for i, (g, d) in enumerate(zip(games, discs, strict=True))}
    later = np.full(len(discs), -1)
    same = np.zeros(len(discs))
    for i, (g, d) in enumerate(zip(games.tolist(), discs.tolist(), strict=True)):
        for step in range(ahead, ahead + 3):  # passes leave a disc count out
            j = rows.get((g, d + step))
            if j is not None:
                later[i] = j
                same[i] = 0 if labels[i] == 0 else (1 if labels[j] == labels[i] else -1)
                break
    return later, same


def fit(args: argparse.Namespace) -> None:
    data = np.load(botplay.in_benchmarks(args.data))
    own, opp, label = data["own"], data["opp"], data["label"].astype(np.float64)
    started = time.perf_counter()
    cols, mine, theirs = features(own, opp)
    discs = np.array([int(b).bit_count() for b in (own | opp).tolist()])
    phases = np.minimum(pt.PHASES - 1, (discs - 4) // pt.PHASE_DISCS)
    ids = [canonical_ids(name) for name in pt.SHAPE_NAMES]
    params = sum(count for _, count in ids)
    starts = np.cumsum([0] + [count for _, count in ids])
    print(f"{len(label)} positions of {len(set(data['game'].tolist()))} games; {params} weights a phase "
          f"({pt.PHASE_WEIGHTS} stored); features in {time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
    later, same = later_positions(data["game"], discs, data["label"], args.ahead)
    predicted = np.full(len(label), np.nan)
    tables = np.zeros((pt.PHASES, pt.PHASE_WEIGHTS), dtype=np.int16)
    for p in reversed(range(pt.PHASES)):  # the last phases first: earlier ones bootstrap from their values
        near = np.abs(phases - p) <= args.window  # a phase learns from its neighbours' positions too
        target = label.copy()
        ahead = (discs < 64 - args.solve_at) & (later >= 0)
        ahead[ahead] &= ~np.isnan(predicted[later[ahead]])
        target[ahead] = (1 - args.bootstrap) * label[ahead] + args.bootstrap * same[ahead] * predicted[later[ahead]]
        w = fit_phase(
            cols[near], np.column_stack([mine[near], theirs[near]]), target[near], params, args.ridge, args.steps
        )
        mine_p = phases == p
        predicted[mine_p] = (w[:params][cols[mine_p]].sum(axis=1) + w[params] * mine[mine_p]
                             + w[params + 1] * theirs[mine_p] + w[params + 2])  # fmt: skip
        residual = (w[:params][cols[near]].sum(axis=1) + w[params] * mine[near] + w[params + 1] * theirs[near]
                    + w[params + 2] - label[near])  # fmt: skip
        own_phase = phases[near] == p
        full = np.concatenate([w[:params][starts[s] + ids[s][0]] for s in range(len(pt.SHAPE_NAMES))] + [w[params:]])
        tables[p] = np.clip(np.round(full * pt.UNIT), -32767, 32767).astype(np.int16)
        rms = math.sqrt(float((residual[own_phase] ** 2).mean())) if own_phase.any() else float("nan")
        print(f"phase {p} ({4 + p * pt.PHASE_DISCS}+ discs): {int(near.sum())} positions, "
              f"rms error {rms:.1f} discs (label sd {label[phases == p].std():.1f})", flush=True)  # fmt: skip
    blob = lzma.compress(tables.astype("<i2").tobytes(), preset=9 | lzma.PRESET_EXTREME)
    out = Path(args.out) if args.out else pt.WEIGHTS_FILE
    out.write_bytes(blob)
    print(f"wrote {out} ({len(blob) / 1e6:.2f} MB)")


def held_out(args: argparse.Namespace) -> list[tuple[int, int, int, int]]:
    """(mover, opponent, label, empties) of games with the check's own seed."""
    solver = OthelloSolver()
    rows = []
    for game in range(args.games):
        for own, opp, label in one_game(args.seed * 1_000_003 + game, args.solve_at, solver):
            rows.append((own, opp, label, empties(own, opp)))
    return rows


def solved_positions(count: int, seed: int, low: int, high: int) -> list[tuple[int, int, int]]:
    """(mover, opponent, exact score) at `low`-`high` empties, from noisy games of the seed."""
    solver = OthelloSolver()
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        cut = rng.randint(low, high)
        state = OTHELLO.initial_state()
        opening = rng.randint(4, 9)
        while not OTHELLO.is_terminal(state) and 64 - (state.black | state.white).bit_count() > cut:
            move = rng.choice(OTHELLO.legal_moves(state)) if state.ply < opening else noisy_move(state, rng, 0.08)
            state = OTHELLO.apply(state, move)
        own, opp = state.own_opp()
        if OTHELLO.is_terminal(state) or not move_mask(own, opp):
            continue
        out.append((own, opp, solver.solve_state(state)))
    return out


def agreement(rows: Sequence[tuple[int, int, int]], weights: Sequence[Any]) -> dict[str, tuple[float, float]]:
    """Per evaluation: the share of decided positions whose sign it gets right, and its correlation."""
    labels = np.array([r[2] for r in rows], dtype=np.float64)
    out = {}
    for name, value in (
        ("hand-written", lambda own, opp: OTHELLO.evaluate(state_of(own, opp), 0)),
        ("patterns", lambda own, opp: pt.disc_value(own, opp, weights)),
    ):
        values = np.array([value(own, opp) for own, opp, _ in rows])
        decided = labels != 0
        sign = float((np.sign(values[decided]) == np.sign(labels[decided])).mean())
        out[name] = (sign, float(np.corrcoef(values, labels)[0, 1]))
    return out


def state_of(own: int, opp: int) -> OthelloState:
    """A position with `own` (as black) to move; the ply is a guess the evaluations do not read."""
    return OthelloState(own, opp, 0, (own | opp).bit_count() - 4)


def check(args: argparse.Namespace) -> None:
    weights = pt.load_weights(botplay.in_benchmarks(args.weights)) if args.weights else pt.WEIGHTS
    rows = held_out(args)
    print(f"held-out games of seed {args.seed}: {args.games}, {len(rows)} positions; labels: exact from "
          f"{args.solve_at} empties, the game's solved outcome before")  # fmt: skip
    print("| empties | positions | hand-written: sign / correlation | patterns: sign / correlation |")
    print("| --- | --- | --- | --- |")
    for low, high in ((45, 56), (35, 44), (25, 34), (15, 24), (0, 14)):
        bucket = [(own, opp, label) for own, opp, label, e in rows if low <= e <= high]
        if len(bucket) < 10:
            continue
        found = agreement(bucket, weights)
        cells = " | ".join(f"{found[k][0]:.1%} / {found[k][1]:.3f}" for k in ("hand-written", "patterns"))
        print(f"| {low}-{high} | {len(bucket)} | {cells} |")
    if args.solved:
        rows3 = []
        for line in botplay.in_benchmarks(args.solved).read_text().splitlines():
            if line and not line.startswith("#"):
                own, opp, score = line.split()
                rows3.append((int(own, 16), int(opp, 16), int(score)))
        found = agreement(rows3, weights)
        print(f"{len(rows3)} solved positions of {args.solved}: "
              + ", ".join(f"{k} {v[0]:.1%} / {v[1]:.3f}" for k, v in found.items()))  # fmt: skip
    if args.fixture:
        solved = solved_positions(args.fixture_positions, args.seed + 1, 16, 18)
        found = agreement(solved, weights)
        print(f"{len(solved)} positions at 16-18 empties, solved: "
              + ", ".join(f"{k} {v[0]:.1%} / {v[1]:.3f}" for k, v in found.items()))  # fmt: skip
        lines = [f"{own:016x} {opp:016x} {score}" for own, opp, score in solved]
        header = (f"# benchmarks/othello_patterns.py check --fixture (seed {args.seed + 1}): mover's discs, "
                  "opponent's discs (hex bitboards, a1 = bit 0), the mover's exact final score\n")  # fmt: skip
        botplay.in_benchmarks(args.fixture).write_text(header + "\n".join(lines) + "\n")
        print(f"wrote {args.fixture}")


def match(args: argparse.Namespace) -> None:
    master = dict(botplay.ladder("othello")[5])
    options = dict(master.get("search_options") or {})
    assert options.get("evaluation") == "patterns", "the Master does not use the pattern evaluation"
    old = {**master, "search_options": {k: v for k, v in options.items() if k != "evaluation"}}
    budget = botplay.budget_ms(master, args.budget_cap_ms)
    print(f"# the Master ({options}) against itself with the hand-written evaluation, "
          f"{budget} ms a move, {args.games} games, seed {args.seed}", flush=True)  # fmt: skip
    label = "with the patterns"
    botplay.paired_match(OTHELLO, (master, old), args.games, args.seed, args.budget_cap_ms, args.log, label)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--games", type=int, default=3000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--solve-at", type=int, default=16)
    g.add_argument("--out", default="results/othello_positions.npz")
    f = sub.add_parser("fit")
    f.add_argument("--data", default="results/othello_positions.npz")
    f.add_argument("--ridge", type=float, default=30.0)
    f.add_argument("--steps", type=int, default=60)
    f.add_argument("--window", type=int, default=2, help="phases either side whose positions a phase learns from")
    f.add_argument("--bootstrap", type=float, default=0.5, help="share of the target taken from the fitted value "
                   "of the same game's position --ahead plies later (the rest: the game's result)")  # fmt: skip
    f.add_argument("--ahead", type=int, default=6)
    f.add_argument("--solve-at", type=int, default=14, help="as generated: from here on labels are exact")
    f.add_argument("--out", default="")
    c = sub.add_parser("check")
    c.add_argument("--games", type=int, default=200)
    c.add_argument("--seed", type=int, default=7)
    c.add_argument("--solve-at", type=int, default=14)
    c.add_argument("--fixture", default="", help="also write solved positions at 16-18 empties here")
    c.add_argument("--fixture-positions", type=int, default=120)
    c.add_argument("--weights", default="", help="a weights file other than the game's")
    c.add_argument("--solved", default="", help="also score the solved positions of this file (a --fixture)")
    m = sub.add_parser("match")
    m.add_argument("--games", type=int, default=40)
    m.add_argument("--budget-cap-ms", type=int, default=500)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--log", default="", help="a JSON-lines log of finished games; a rerun continues from it")
    args = parser.parse_args()
    {"generate": generate, "fit": fit, "check": check, "match": match}[args.command](args)


if __name__ == "__main__":
    main()
