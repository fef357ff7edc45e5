"""Planted blunders and good moves, each confirmed by a reference outside the searcher under test.

Writes ``tests/data/planted/<game>.json``, which `tests/server/analysis/test_planted.py`
runs the analysis over: every blunder must be flagged a blunder at its move, no good move
flagged at all.  Each entry is a position (the moves from the start) and a move, with the
reference's verdict: its value of the best move and of the played one, as the mover's
expected score, and the drop between them.  The references:

- chess: Stockfish (Debian's ``stockfish`` package, 15.1) at depth 20, one thread,
  64 MB hash, through python-chess's engine module; centipawns read as expected score by
  lichess's published map, 1 / (1 + exp(-0.00368208 * cp)), mates as 1 or 0;
- Connect Four: our exact solver (`games.connect4.solver`, not the alpha-beta searcher
  the analysis runs): a win 1, a draw 1/2, a loss 0;
- tic-tac-toe: full minimax written here, over the whole game tree;
- Othello: the same minimax, to the end, from positions with at most 8 empty squares;
- backgammon: GNU Backgammon (Debian's ``gnubg``, 1.07) at 2-ply, through
  `benchmarks/gnubg_bridge.py`: its cubeless equity of the position each chequer play
  leaves, read as expected score by backgammon's own map (a logistic of slope 2); no cube;
- checkers: our retrograde endgame solver (`games.checkers.endgame`, the 40-move rule
  counted; not the alpha-beta searcher the analysis runs), at the first position of a
  random game with at most 3 pieces left (right after a capture, so no history bends it);
- Chinese checkers, two players: races, where the sides are 3 rows apart or more and can no
  longer meet, each at most 3 moves from home: each side's fewest moves home searched
  exactly, alone (iterative-deepening A*, `moves_home`; not the alpha-beta the analysis
  runs); the side to move wins when it needs no more moves than the other.

A blunder is kept when the reference's drop is at least ``CLEAR_BLUNDER`` (0.25, above
the analysis's 0.15, so that a borderline verdict cannot make the test flaky), a good
move when it is the reference's best move, or within ``CLEAR_GOOD`` (0.01) of it.
Candidates come from games the reference plays against itself with some randomness
(chess: Stockfish at depth 6 picking among its three best; backgammon: gnubg 0-ply with
its beginner's noise, plays its 0-ply ranks at least 0.3 worse as the candidate blunders;
Chinese checkers: the move gaining most ground, one of the three best on 3 moves in 10;
elsewhere random moves), a fixed seed making a run repeatable:

    .venv/bin/python benchmarks/planted_confirm.py chess --count 20
    .venv/bin/python benchmarks/planted_confirm.py connect4 tictactoe
    .venv/bin/python benchmarks/planted_confirm.py backgammon checkers chinese-checkers-2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import sys
from pathlib import Path
from typing import Any

from games import registry

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "planted"
CLEAR_BLUNDER = 0.25
CLEAR_GOOD = 0.01
GAMES = ["chess", "connect4", "tictactoe", "othello", "backgammon", "checkers", "chinese-checkers-2"]
LICHESS_SLOPE = 0.00368208  # per centipawn: lichess's winning-chances map (lila's WinPercent)


def write(name: str, reference: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """The set so far (written after each find, so that a long run keeps what it found)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    body = {"game": name if name in GAMES else name.split("-")[0], "reference": reference, "entries": entries}
    path.write_text(json.dumps(body, indent=1) + "\n")
    blunders = sum(e["kind"] == "blunder" for e in entries)
    print(f"{path}: {blunders} blunders, {len(entries) - blunders} good moves", flush=True)


def entry(moves: list[str], move: str, kind: str, best: str, best_score: float, played_score: float) -> dict[str, Any]:
    return {
        "moves": moves,
        "move": move,
        "kind": kind,
        "reference_best": best,
        "best_score": round(best_score, 4),
        "played_score": round(played_score, 4),
        "drop": round(best_score - played_score, 4),
    }


# --- chess: Stockfish at depth 20 -------------------------------------------------------


def chess_planted(count: int, seed: int, depth: int, out: str = "chess") -> None:
    import chess
    import chess.engine

    binary = shutil.which("stockfish") or "/usr/games/stockfish"
    engine = chess.engine.SimpleEngine.popen_uci(binary)
    engine.configure({"Threads": 1, "Hash": 64})
    name = engine.id.get("name", "Stockfish")
    rng = random.Random(seed)

    def score(board: chess.Board, limit: chess.engine.Limit) -> tuple[float, str | None]:
        """The expected score of the side to move, and the engine's best move."""
        info = engine.analyse(board, limit)
        pov = info["score"].pov(board.turn)
        pv = info.get("pv") or [None]
        return expected(pov), pv[0].uci() if pv[0] else None

    def expected(pov: chess.engine.Score) -> float:
        if pov.is_mate():
            return 1.0 if (pov.mate() or 0) > 0 else 0.0
        return 1 / (1 + math.exp(-LICHESS_SLOPE * (pov.score() or 0)))

    def after(board: chess.Board, move: str, limit: chess.engine.Limit) -> float:
        board.push_uci(move)
        try:
            if board.is_game_over():
                result = board.outcome()
                assert result is not None
                return 0.5 if result.winner is None else 1.0
            return 1 - score(board, limit)[0]
        finally:
            board.pop()

    deep = chess.engine.Limit(depth=depth)
    quick = chess.engine.Limit(depth=4)  # only picks candidates: the deep search confirms them
    entries: list[dict[str, Any]] = []
    reported = ["d2d4", "e7e5", "d4e5"]  # the reported case: 2...Qg5?? 3.Bxg5
    board = chess.Board()
    for m in reported:
        board.push_uci(m)
    best_score, best = score(board, deep)
    entries.append(entry(reported, "d8g5", "blunder", best or "", best_score, after(board, "d8g5", deep)))
    reference = {
        "engine": name,
        "settings": f"depth {depth}, Threads 1, Hash 64 MB",
        "map": f"expected score = 1 / (1 + exp(-{LICHESS_SLOPE} * centipawns)); mate 1 or 0",
        "seed": seed,
    }

    def chess_position(board: chess.Board, moves: list[str]) -> list[dict[str, Any]]:
        """A good move and a blunder in this position, where the deep search confirms them."""
        found: list[dict[str, Any]] = []
        best_score, best = score(board, deep)
        if not 0.3 < best_score < 0.7 or best is None:  # roughly even: a blunder then moves the chances most
            return found
        if goods < count:
            played = after(board, best, deep)
            if best_score - played <= CLEAR_GOOD:
                found.append(entry(list(moves), best, "good", best, best_score, played))
        if blunders < count:
            ranked = engine.analyse(board, quick, multipv=64)
            bad = [
                i["pv"][0].uci()
                for i in ranked
                if i.get("pv") and best_score - expected(i["score"].pov(board.turn)) >= 0.4
            ]
            if bad:
                move = rng.choice(bad)
                played = after(board, move, deep)
                if best_score - played >= CLEAR_BLUNDER:
                    found.append(entry(list(moves), move, "blunder", best, best_score, played))
        return found

    blunders = goods = 0
    while blunders < count or goods < count:
        board, moves = chess.Board(), []
        looks = set(range(rng.randrange(10, 18), 70, 9))  # several positions of each game
        while len(moves) < 70 and not board.is_game_over() and (blunders < count or goods < count):
            if len(moves) in looks:
                found = chess_position(board, moves)
                blunders += sum(e["kind"] == "blunder" for e in found)
                goods += sum(e["kind"] == "good" for e in found)
                entries.extend(found)
                write(out, reference, entries)
            infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
            move = rng.choice([i["pv"][0] for i in infos if i.get("pv")])
            board.push(move)
            moves.append(move.uci())

    engine.quit()
    write(out, reference, entries)


# --- backgammon: GNU Backgammon at 2-ply ------------------------------------------------


def backgammon_planted(count: int, seed: int, plies: int = 2) -> None:
    """Chequer plays judged by gnubg's cubeless equity at `plies`, read as expected score by our map.

    Positions come from games gnubg plays against itself at 0-ply with its beginner's noise,
    the dice drawn by their odds; in each, the plays gnubg's 0-ply ranks worst are the
    candidate blunders and its `plies` choice the candidate good move, each confirmed (or
    not) by its `plies` evaluation of every candidate's resulting position.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gnubg_bridge import PRESETS, Gnubg

    from games.backgammon import legal_plays

    game = registry.get("backgammon")
    rng = random.Random(seed)
    reference = {
        "engine": f"GNU Backgammon (gnubg {plies}-ply, cubeless, no noise)",
        "settings": f"{plies}-ply evaluation of each play's resulting position; positions from gnubg 0-ply "
        f"self-play with noise {PRESETS['beginner']['noise']}",
        "map": "expected score = 1 / (1 + exp(-2 * cubeless equity)), backgammon's map (games/backgammon/spec.py)",
        "seed": seed,
    }
    entries: list[dict[str, Any]] = []
    blunders = goods = 0

    def chances(equity: float) -> float:
        return game.spec.chances.expected_score(equity)

    with Gnubg() as gnubg:

        def equity(child: Any, mover: int, depth: int) -> float:
            """The mover's cubeless equity after a play (gnubg speaks for the side to roll next)."""
            if game.is_terminal(child):
                return float(game.returns(child)[mover])
            return -gnubg.evaluate(child, depth).equity

        def judge(state: Any, moves: list[str], plays: dict[str, Any], mover: int) -> list[dict[str, Any]]:
            quick = {m: chances(equity(child, mover, 0)) for m, child in plays.items()}
            best_quick = max(quick.values())
            candidates = [m for m, v in quick.items() if best_quick - v >= 0.3]
            good = gnubg.move(state, plies)
            looked = [good] + ([rng.choice(candidates)] if candidates and blunders < count else [])
            # The best at `plies` among gnubg's choice and the 0-ply's three best.
            top = sorted(quick, key=lambda m: -quick[m])[:3]
            deep = {m: chances(equity(plays[m], mover, plies)) for m in dict.fromkeys([*top, *looked])}
            best = max(deep, key=lambda m: deep[m])
            found = []
            if goods < count and deep[best] - deep[good] <= CLEAR_GOOD and len(set(quick.values())) > 1:
                found.append(entry(list(moves), good, "good", best, deep[best], deep[good]))
            for move in looked[1:]:
                if deep[best] - deep[move] >= CLEAR_BLUNDER:
                    found.append(entry(list(moves), move, "blunder", best, deep[best], deep[move]))
            return found

        while blunders < count or goods < count:
            state, moves = game.initial_state(), []
            while not game.is_terminal(state) and (blunders < count or goods < count):
                if game.to_move(state) < 0:  # the dice, by their odds
                    outcomes = game.chance_outcomes(state)
                    move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
                else:
                    mover, plays = state.turn, legal_plays(state)
                    if len(plays) > 2 and rng.random() < 0.3:  # some positions of each game
                        found = judge(state, moves, plays, mover)
                        blunders += sum(e["kind"] == "blunder" for e in found)
                        goods += sum(e["kind"] == "good" for e in found)
                        entries.extend(found)
                        if found:
                            write("backgammon", reference, entries)
                    move = gnubg.move(state, 0, PRESETS["beginner"]["noise"])
                state = game.apply(state, move)
                moves.append(move)


# --- Connect Four: our exact solver; tic-tac-toe: full minimax --------------------------


def exact_planted(
    game_id: str, count: int, seed: int, values: Any, reference: dict[str, Any], ready: Any = lambda state: False
) -> None:
    """Positions from random play, stopped at a random ply in ``reference["plies"]`` or where
    `ready(state)` first holds; `values(state)` is the exact score (1, 1/2, 0) of every legal move."""
    game = registry.get(game_id)
    rng = random.Random(seed)
    entries: list[dict[str, Any]] = []
    seen: set[tuple[str, ...]] = set()
    blunders = goods = 0
    while blunders < count or goods < count:
        state, moves = game.initial_state(), []
        stop = rng.randrange(*reference["plies"])
        while len(moves) < stop and not game.is_terminal(state) and not ready(state):
            move = rng.choice(game.legal_moves(state))
            state = game.apply(state, move)
            moves.append(move)
        if game.is_terminal(state) or tuple(moves) in seen or (reference.get("pieces") and not ready(state)):
            continue
        seen.add(tuple(moves))
        scores = values(game, state)
        best = max(scores.values())
        best_move = max(scores, key=lambda m: scores[m])
        worse = [m for m in scores if best - scores[m] >= CLEAR_BLUNDER]
        good = [m for m in scores if scores[m] == best]
        if worse and blunders < count:
            move = rng.choice(worse)
            entries.append(entry(moves, move, "blunder", best_move, best, scores[move]))
            blunders += 1
        elif good and goods < count and len(good) < len(scores):  # a choice that matters
            move = rng.choice(good)
            entries.append(entry(moves, move, "good", best_move, best, best))
            goods += 1
    write(game_id, {k: v for k, v in reference.items() if k not in ("plies", "pieces")}, entries)


def exact_scores(game: Any, state: Any, reply_value: Any) -> dict[str, float]:
    """Every move's exact expected score for the mover: 1, 1/2 or 0, from `reply_value(after)`, the
    position's value (-1, 0, 1) for the side to move after it."""
    seat = game.to_move(state)
    found = {}
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        if game.is_terminal(after):
            found[move] = (game.returns(after)[seat] + 1) / 2
        else:
            found[move] = 0.5 - 0.5 * reply_value(after)  # the reply's value, from our side
    return found


def solver_values(game: Any, state: Any) -> dict[str, float]:
    solver = game.new_solver()

    def sign(after: Any) -> int:
        theirs = solver.solve_state(after, weak=True)
        return (theirs > 0) - (theirs < 0)

    return exact_scores(game, state, sign)


def checkers_endgame_values(game: Any, state: Any) -> dict[str, float]:
    """Every move's exact score by our retrograde endgame solver (the 40-move rule counted)."""
    from games.checkers.endgame import EndgameSolver

    solver = _CHECKERS_SOLVER.setdefault("solver", EndgameSolver())
    return exact_scores(game, state, lambda after: solver.verdict(after).value)


_CHECKERS_SOLVER: dict[str, Any] = {}  # one solver for the run: its solved stretches are kept
# The solver takes 4 (`endgame.MAX_PIECES`), but a stretch of four kings takes minutes: 3 take seconds.
CHECKERS_PIECES = 3


def checkers_endgame_ready(state: Any) -> bool:
    """At most the solver's pieces, and no position since the last capture or man's move (its values exact)."""
    return bin(state.black | state.white).count("1") <= CHECKERS_PIECES and not state.seen


# --- Chinese checkers, two players: races, each side's fewest moves home searched exactly ---------

RACE_GAP = 3  # rows between the two sides' nearest pieces: neither can reach the other's to jump over it
RACE_MOVES = 3  # at most this many moves home for either side: the search to the end stays small


def race_rows(state: Any, seat: int) -> list[int]:
    """The rows (0 at the top) of `seat`'s pieces."""
    from games.chinese_checkers.rules import COORDS, _members

    return [COORDS[c][1] + 8 for c in _members(state.pieces[seat])]


def is_race(state: Any) -> bool:
    """Seat 0 (bound for the top) wholly above seat 1 (bound for the bottom), RACE_GAP rows apart or more."""
    return max(race_rows(state, 0)) + RACE_GAP < min(race_rows(state, 1))


def moves_home(game: Any, state: Any, seat: int, limit: int) -> int | None:
    """The fewest moves that fill `seat`'s target with its own pieces, the other side's left out
    (a race: they cannot meet), by iterative-deepening A* on the pieces still outside the target
    (each move brings at most one in); None beyond `limit`."""
    from games.chinese_checkers.rules import ChineseCheckersState, _moves

    target = game.targets[seat]
    parity = seat  # the seat to move is ply % 2

    def outside(pieces: int) -> int:
        return (pieces & ~target).bit_count()

    def reach(pieces: int, spent: int, bound: int, seen: dict[int, int]) -> bool:
        if not outside(pieces):
            return True
        if spent + outside(pieces) > bound or seen.get(pieces, bound + 1) <= spent:
            return False
        seen[pieces] = spent
        alone = ChineseCheckersState((pieces, 0) if seat == 0 else (0, pieces), parity)
        steps = sorted(_moves(alone).values(), key=lambda od: not target >> od[1] & 1)  # into the target first
        return any(reach(pieces & ~(1 << o) | 1 << d, spent + 1, bound, seen) for o, d in steps)

    pieces = state.pieces[seat]
    for bound in range(outside(pieces), limit + 1):
        if reach(pieces, 0, bound, {}):
            return bound
    return None


def race_values(game: Any, state: Any) -> dict[str, float] | None:
    """Each move's exact score for the mover in a race (1 won, 0 lost), for the moves that keep it a
    race; None when either side is more than RACE_MOVES from home.  The side to move wins a race
    when it needs no more moves than the other (it finishes first)."""
    mover, other = game.to_move(state), 1 - game.to_move(state)
    theirs = moves_home(game, state, other, RACE_MOVES)
    if theirs is None or moves_home(game, state, mover, RACE_MOVES) is None:
        return None
    found = {}
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        if game.is_terminal(after):
            found[move] = (game.returns(after)[mover] + 1) / 2
        elif is_race(after):
            mine = moves_home(game, after, mover, RACE_MOVES + 1)
            found[move] = 1.0 if mine is not None and mine < theirs else 0.0
    return found


def chinese_checkers_planted(count: int, seed: int) -> None:
    """Races from games of two greedy players with slips: the first position of each game where the
    sides can no longer meet and each is at most RACE_MOVES from home."""
    game = registry.get("chinese-checkers-2")
    rng = random.Random(seed)
    reference = {
        "engine": "exact race: each side's fewest moves home by iterative-deepening A* (benchmarks/planted_confirm.py)",
        "settings": f"races only: the sides {RACE_GAP} rows apart or more, each at most {RACE_MOVES} moves from home; "
        "the side to move wins when it needs no more moves than the other",
        "seed": seed,
    }
    entries: list[dict[str, Any]] = []
    blunders = goods = 0
    while blunders < count or goods < count:
        state, moves, values = game.initial_state(), [], None
        while not game.is_terminal(state):
            if is_race(state):
                values = race_values(game, state)
                if values is not None:
                    break
            ranked = game.order_moves(state, game.legal_moves(state))  # most ground gained first
            move = rng.choice(ranked[:3]) if rng.random() < 0.3 else ranked[0]
            state = game.apply(state, move)
            moves.append(move)
        if not values or max(values.values()) < 1:  # a lost race: every move loses, nothing to judge
            continue
        best_move = max(values, key=lambda m: values[m])
        worse, good = [m for m in values if values[m] == 0], [m for m in values if values[m] == 1]
        if worse and blunders < count:
            move = rng.choice(worse)
            entries.append(entry(moves, move, "blunder", best_move, 1.0, 0.0))
            blunders += 1
        if good and len(worse) > 0 and goods < count:  # a choice that matters
            move = rng.choice(good)
            entries.append(entry(moves, move, "good", best_move, 1.0, 1.0))
            goods += 1
        write("chinese-checkers-2", reference, entries)


def minimax_values(game: Any, state: Any) -> dict[str, float]:
    def value(s: Any) -> int:  # for the seat to move: 1, 0, -1
        seat = game.to_move(s)
        best = -2
        for m in game.legal_moves(s):
            a = game.apply(s, m)
            v = int(game.returns(a)[seat]) if game.is_terminal(a) else -value(a)
            best = max(best, v)
        return best

    seat = game.to_move(state)
    found = {}
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        v = game.returns(after)[seat] if game.is_terminal(after) else -value(after)
        found[move] = (v + 1) / 2
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="+", choices=GAMES)
    parser.add_argument("--count", type=int, default=20, help="blunders and good moves each (default 20)")
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--depth", type=int, default=20, help="Stockfish's depth (default 20)")
    parser.add_argument(
        "--out",
        help="chess: the file's name under tests/data/planted/ (default chess); two runs with other seeds "
        "and names can share the work, their entries then joined",
    )
    args = parser.parse_args()
    for game_id in args.games:
        if game_id == "chess":
            chess_planted(args.count, args.seed, args.depth, args.out or "chess")
        elif game_id == "backgammon":
            backgammon_planted(args.count, args.seed)
        elif game_id == "checkers":  # endgames from random play: at most 3 pieces
            engine = {
                "engine": "games.checkers.endgame (exact retrograde solver, 40-move rule counted)",
                "seed": args.seed,
                "plies": (400, 401),  # long enough: the first position of at most 4 pieces stops it
                "pieces": CHECKERS_PIECES,
            }
            exact_planted("checkers", args.count, args.seed, checkers_endgame_values, engine, checkers_endgame_ready)
        elif game_id == "chinese-checkers-2":  # races: each side's fewest moves home, searched exactly
            chinese_checkers_planted(args.count, args.seed)
        elif game_id == "connect4":
            engine = {"engine": "games.connect4.solver (exact, weak solve)", "seed": args.seed, "plies": (14, 32)}
            exact_planted("connect4", args.count, args.seed, solver_values, engine)
        elif game_id == "othello":  # an exact endgame: at most 8 empty squares, minimax to the end
            engine = {"engine": "full minimax to the end (at most 8 empties)", "seed": args.seed, "plies": (52, 57)}
            exact_planted("othello", args.count, args.seed, minimax_values, engine)
        else:
            engine = {"engine": "full minimax over the game tree", "seed": args.seed, "plies": (0, 7)}
            exact_planted("tictactoe", args.count, args.seed, minimax_values, engine)


if __name__ == "__main__":
    main()
