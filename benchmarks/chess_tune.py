"""Texel tuning of the chess Master's evaluation terms on positions Stockfish has scored.

Not in CI.  Three subcommands:

``generate``: quiet positions from games of the compiled engine against itself (a node
budget a move drawn from ``--nodes``, so a seed replays the same games on any machine; a few
random opening plies and now and then a random move, for variety), scored by Stockfish
(``--stockfish``, fixed ``--depth``, one thread, 16 MB hash).  A position is quiet when the
side to move is not in check and has no promotion and no capture that wins material by the
engine's static exchange evaluation.  Written to ``--data`` (gzipped CSV: game, FEN without
the move counters, Stockfish's centipawns from white's side, mates as +-100000).  The
benchmark logs in benchmarks/results hold results, not moves: they add no positions.

``fit``: minimises the mean squared error between the chess spec's winning chances of our
evaluation, 1 / (1 + exp(-0.00368208 cp)), and Stockfish's, over the terms of
`games.chess.evaluation.TERMS` that are linear in their value: everything but the passed
pawn king-distance cap, the mobility offsets and the attack units (those stay as they are).
A term's weight in a position is read off the compiled evaluation itself (the term set to
1000, the others as they are, less the position's score with it at 0), so the fit sees what
the engine scores; each value keeps its sign (a bonus stays a bonus, a cost a cost).  The
fitted values are rounded to integers and the held-out figures are those of the rounded
values, again from the compiled evaluation.  Material and the square tables are not fitted:
the ladder below the Master scores with them alone and was rated with them.  Games are split
80 / 20 by a hash of their number; only the 80 % are fitted.
``--write`` puts the values into games/chess/evaluation.py and ``--json`` writes them out.

``check``: the held-out figures of the current evaluation (Python's `evaluate_board`, and
the compiled one, which must agree), or of the TERMS in ``--terms`` (a JSON list).

    .venv/bin/python benchmarks/chess_tune.py generate [--positions 40000] [--seed 0] [--depth 8]
    .venv/bin/python benchmarks/chess_tune.py fit [--write] [--json FILE]
    .venv/bin/python benchmarks/chess_tune.py check [--terms FILE]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import random
import re
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

import chess
import chess.engine
import numpy as np

from games.chess import engine, evaluation
from games.chess.evaluation import EG_SIGNED, MG_SIGNED, PHASE_WEIGHT, TERMS

SLOPE = 0.00368208  # the chess spec's map from centipawns to winning chances (games/chess/spec.py)
MATE_CP = 100_000
DATA = Path(__file__).parent / "results" / "chess_tune_positions.csv.gz"
EVALUATION_PY = Path(evaluation.__file__)

# TERMS laid out by name, in the order of evaluation.TERMS (and of the C engine's `Terms`).
LAYOUT: tuple[tuple[str, int], ...] = (
    ("PASSED_MG", 8), ("PASSED_EG", 8), ("PASSED_KING_CAP", 1), ("FREE_BLOCK", 1), ("FREE_PATH", 1),
    ("ISOLATED", 2), ("DOUBLED", 2), ("BISHOP_PAIR", 2), ("ROOK_SEMI_OPEN", 2), ("ROOK_OPEN", 2),
    ("MOBILITY_OFFSET", 4), ("MOBILITY_MG", 4), ("MOBILITY_EG", 4), ("ATTACK_UNITS", 4), ("ATTACK_WEIGHT", 8),
    ("SHELTER", 8), ("STORM", 8), ("OPEN_FILE_NEAR_KING", 1),
)  # fmt: skip
FIXED = {"PASSED_KING_CAP", "MOBILITY_OFFSET", "ATTACK_UNITS"}  # not linear in their value
UNIT = 1000


def slots() -> list[tuple[str, int, int]]:
    """(name, index in the name's tuple, index in TERMS) for every value of TERMS."""
    out, at = [], 0
    for name, size in LAYOUT:
        out.extend((name, i, at + i) for i in range(size))
        at += size
    assert at == len(TERMS)
    return out


def tunable() -> list[int]:
    """Indices into TERMS of the values the fit moves: those linear in the evaluation and not
    pinned to zero (a passed pawn on the first or last rank, attackers 0)."""
    pinned = {("PASSED_MG", 0), ("PASSED_MG", 7), ("PASSED_EG", 0), ("PASSED_EG", 7), ("ATTACK_WEIGHT", 0)}
    return [at for name, i, at in slots() if name not in FIXED and (name, i) not in pinned]


# The sign a value keeps in the fit (a bonus stays a bonus, a cost a cost): the terms say what
# they reward, the fit only how much.
COSTS = {"SHELTER", "STORM", "OPEN_FILE_NEAR_KING"}  # <= 0; every other tuned value >= 0


def bounds(free: Sequence[int]) -> list[tuple[float | None, float | None]]:
    names = {at: name for name, _, at in slots()}
    return [(None, 0.0) if names[at] in COSTS else (0.0, None) for at in free]


def chances(cp: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-SLOPE * np.clip(cp, -5000, 5000)))


def held_out(game: int) -> bool:
    return zlib.crc32(str(game).encode()) % 5 == 0


# --- generate ---------------------------------------------------------------------------------------


def quiet(board: chess.Board) -> bool:
    assert engine.compiled is not None
    if board.is_check():
        return False
    fen = board.fen()
    for move in board.legal_moves:
        if move.promotion:
            return False
        if board.is_capture(move) and engine.compiled.see(fen, move.uci()) > 0:
            return False
    return True


def play_game(rng: random.Random, searcher: object, nodes: tuple[int, int], sample: float) -> list[str]:
    """One game of the engine against itself; the quiet positions sampled from it (FENs)."""
    board = chess.Board()
    searcher.clear()  # type: ignore[attr-defined]
    for _ in range(rng.randint(2, 8)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    budget = rng.randint(*nodes)
    taken = []
    while not board.is_game_over() and board.ply() < 300 and not board.is_repetition(3):
        if board.ply() >= 10 and rng.random() < sample and quiet(board):
            taken.append(" ".join(board.fen().split()[:4]))
        if rng.random() < 0.05:
            board.push(rng.choice(list(board.legal_moves)))
            continue
        found = searcher.search(board.fen(), [], None, 64, budget)  # type: ignore[attr-defined]
        board.push_uci(found[0])
        if abs(found[1]) > 29_000:  # a mate seen: the rest tells little
            break
    return taken


def save(path: Path, rows: Sequence[tuple[int, str, int]]) -> None:
    with gzip.open(path, "wt", compresslevel=9) as out:
        writer = csv.writer(out)
        writer.writerow(("game", "fen", "stockfish_cp"))
        writer.writerows(rows)


def generate(args: argparse.Namespace) -> None:
    assert engine.compiled is not None, "the chess engine extension is not built"
    rng = random.Random(args.seed)
    searcher = engine.compiled.Engine(18)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"Threads": 1, "Hash": 16})
    seen: set[str] = set()
    rows: list[tuple[int, str, int]] = []
    started, game = time.time(), 0
    try:
        while len(rows) < args.positions:
            for fen in play_game(rng, searcher, (args.nodes[0], args.nodes[1]), args.sample):
                if fen in seen:
                    continue
                seen.add(fen)
                info = stockfish.analyse(chess.Board(fen + " 0 1"), chess.engine.Limit(depth=args.depth))
                score = info["score"].white()
                cp = score.score() if not score.is_mate() else (MATE_CP if (score.mate() or 0) > 0 else -MATE_CP)
                rows.append((game, fen, int(cp if cp is not None else 0)))
            game += 1
            if game % 100 == 0:  # written as it goes: a run cut short keeps what it has
                save(args.data, rows)
                print(f"# {game} games, {len(rows)} positions, {time.time() - started:.0f} s", flush=True)
    finally:
        stockfish.quit()
    save(args.data, rows)
    print(f"# {len(rows)} positions from {game} games in {time.time() - started:.0f} s -> {args.data}")


# --- fit and check ----------------------------------------------------------------------------------


def load(path: Path) -> tuple[np.ndarray, list[str], np.ndarray]:
    with gzip.open(path, "rt") as f:
        rows = list(csv.DictReader(f))
    games = np.array([int(r["game"]) for r in rows])
    fens = [r["fen"] + " 0 1" for r in rows]
    cps = np.array([float(r["stockfish_cp"]) for r in rows])
    return games, fens, cps


def compiled_scores(fens: Sequence[str], terms: Sequence[int]) -> np.ndarray:
    assert engine.compiled is not None, "the chess engine extension is not built"
    engine.compiled.set_evaluation(MG_SIGNED, EG_SIGNED, PHASE_WEIGHT, list(terms))
    try:
        return np.array([engine.compiled.evaluate(fen) for fen in fens], dtype=float)
    finally:
        engine.compiled.set_evaluation(MG_SIGNED, EG_SIGNED, PHASE_WEIGHT, TERMS)


def figures(ours: np.ndarray, target: np.ndarray) -> str:
    mse = float(np.mean((chances(ours) - target) ** 2))
    corr = float(np.corrcoef(chances(ours), target)[0, 1])
    return f"MSE {mse:.5f}, correlation {corr:.4f}"


def split(path: Path) -> tuple[list[str], np.ndarray, np.ndarray]:
    games, fens, cps = load(path)
    test = np.array([held_out(int(g)) for g in games])
    return fens, chances(cps), test


def fit(args: argparse.Namespace) -> None:
    from scipy.optimize import minimize

    fens, target, test = split(args.data)
    train = ~test
    start = np.array(TERMS, dtype=float)
    free = tunable()
    base_terms = start.copy()
    base_terms[free] = 0
    base = compiled_scores(fens, [int(v) for v in base_terms])
    features = np.empty((len(fens), len(free)))
    for column, at in enumerate(free):
        terms = base_terms.copy()
        terms[at] = UNIT
        features[:, column] = (compiled_scores(fens, [int(v) for v in terms]) - base) / UNIT
    linear = base + features @ start[free]
    actual = compiled_scores(fens, TERMS)
    print(f"# {len(fens)} positions ({int(train.sum())} fitted, {int(test.sum())} held out), {len(free)} values; "
          f"linear model off the evaluation by {np.max(np.abs(linear - actual)):.1f} cp at most")  # fmt: skip
    x, b, y = features[train], base[train], target[train]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        # Scaled by 1e6: the error moves in its fifth decimal, below the optimiser's tolerances.
        p = chances(b + x @ w)
        r = p - y
        grad = 2 * SLOPE * (x.T @ (r * p * (1 - p))) / len(y) + 2 * args.ridge * (w - start[free])
        return 1e6 * float(np.mean(r**2) + args.ridge * np.sum((w - start[free]) ** 2)), 1e6 * grad

    result = minimize(loss, start[free], jac=True, method="L-BFGS-B", bounds=bounds(free), options={"maxiter": 5000})
    print(f"# {result.nit} iterations: {result.message}")
    fitted = start.copy()
    fitted[free] = np.round(result.x)
    new_terms = [int(v) for v in fitted]
    for label, terms in (("before", list(TERMS)), ("after", new_terms)):
        scores = compiled_scores(fens, terms)
        print(
            f"# {label}: held out {figures(scores[test], target[test])}; fitted {figures(scores[train], target[train])}"
        )
    for name, i, at in slots():
        if TERMS[at] != new_terms[at]:
            print(f"  {name}[{i}]: {TERMS[at]} -> {new_terms[at]}")
    if args.json:
        args.json.write_text(json.dumps(new_terms) + "\n")
    if args.write:
        write_terms(new_terms, int(train.sum()))


def write_terms(terms: Sequence[int], n: int) -> None:
    """Rewrite the values in games/chess/evaluation.py (one `NAME: Final = ...` line each)."""
    text = EVALUATION_PY.read_text()
    at = 0
    for name, size in LAYOUT:
        values = terms[at : at + size]
        at += size
        if name in FIXED:
            continue
        value = str(values[0]) if size == 1 else "(" + ", ".join(map(str, values)) + ")"
        text, count = re.subn(
            rf"^{name}: Final = [^#\n]*?(\s*(#.*)?)$", rf"{name}: Final = {value}\1", text, flags=re.M
        )
        assert count == 1, name
    EVALUATION_PY.write_text(text)
    print(f"# written to {EVALUATION_PY} (fitted on {n} positions)")


def check(args: argparse.Namespace) -> None:
    fens, target, test = split(args.data)
    fens = [f for f, t in zip(fens, test, strict=True) if t]
    target = target[test]
    terms = json.loads(args.terms.read_text()) if args.terms else list(TERMS)
    compiled = compiled_scores(fens, terms)
    print(f"# {len(fens)} held-out positions, compiled evaluation: {figures(compiled, target)}")
    if not args.terms:
        python = np.array([evaluation.evaluate_board(chess.Board(f)) for f in fens], dtype=float)
        print(f"# Python evaluate_board: {figures(python, target)}; differs from the compiled in "
              f"{int(np.sum(python != compiled))} positions")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--positions", type=int, default=40_000)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--depth", type=int, default=8, help="Stockfish's depth")
    g.add_argument("--nodes", type=int, nargs=2, default=(1_000, 8_000), help="the engine's node budget, drawn a game")
    g.add_argument("--sample", type=float, default=0.5, help="the chance a quiet position is taken")
    g.add_argument("--stockfish", default="/usr/games/stockfish")
    f = sub.add_parser("fit")
    f.add_argument("--ridge", type=float, default=1e-9, help="pull toward the current values, per cp^2")
    f.add_argument("--write", action="store_true", help="write the values into games/chess/evaluation.py")
    f.add_argument("--json", type=Path, help="write the fitted TERMS to this file")
    c = sub.add_parser("check")
    c.add_argument("--terms", type=Path, help="a JSON list of TERMS (default: the current ones)")
    args = parser.parse_args()
    {"generate": generate, "fit": fit, "check": check}[args.command](args)


if __name__ == "__main__":
    main()
