"""The analysis over planted blunders and good moves, each confirmed by an outside reference.

The sets (``tests/data/planted/<game>.json``) come from `benchmarks/planted_confirm.py`:
Stockfish at depth 20 for chess, our exact solver for Connect Four, full minimax for
tic-tac-toe and for Othello endgames of at most 8 empty squares, GNU Backgammon's 2-ply
cubeless equity for backgammon's chequer plays, our retrograde endgame solver
(`games.checkers.endgame`, which the analysis's alpha-beta does not use) for checkers
endgames of at most 3 pieces, each side's fewest moves home searched exactly for races of
two-player Chinese checkers (the sides apart for good, each at most 3 moves from home).
Each entry is searched as an analysis searches it, with the strongest profile's settings:
the position before the move, and the one after it unless dice come between (expectimax
values every play in the first search); then `positions.ply_results` judges it.  Every
planted blunder must come out a blunder, no good move may be flagged at all.  The searches
are bounded by depth, not time, so that a verdict does not depend on the machine's load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games import CHANCE, registry
from server.analysis import positions
from server.bots.seed import PROFILES

pytestmark = pytest.mark.timeout(900)  # depth-bounded searches: their time is the machine's load

PLANTED = Path(__file__).resolve().parents[2] / "data" / "planted"
# The analysis searches by time; here by depth, deep enough to see what a hung piece costs.
# Backgammon's strongest bot looks no further than its own play (games/backgammon/spec.py): so does its analysis.
# Checkers' endgames of at most 3 pieces are cheap: the analysis's 3 s reach 16 to 64 plies in
# those it does not solve sooner (load 9-14 on 2 cores), so the test searches 20, not a middlegame's 8.
# Chinese checkers' races of at most 3 moves a side end within 5 plies, what its strongest bot's 3 s reach.
DEPTH = {
    "chess": 12,  # the compiled engine's: its 3 s reach 11-17 here, median 13 (benchmarks/planted_depth.py)
    "connect4": 6,
    "tictactoe": None,
    "othello": None,
    "backgammon": 1,
    "checkers": 20,
    "chinese-checkers-2": 5,
}  # None: to the end
GAMES = tuple(DEPTH)
SKIPPED_OPTIONS = ("opening_book", "tablebases", "trap_model")


def analysis_config(game_id: str) -> dict[str, Any]:
    """`selectors.analysis_settings` without the database: the seeded strongest fixed profile's search."""
    strongest = max((p for p in PROFILES if p["game"] == game_id and not p.get("adaptive")), key=lambda p: p["level"])
    options = {k: v for k, v in (strongest.get("search_options") or {}).items() if k not in SKIPPED_OPTIONS}
    return {
        "algorithm": strongest["algorithm"],
        "time_budget_ms": 600_000,
        "max_depth": DEPTH[game_id],
        "seed": 0,
        "options": {**options, "exact_root": True},
    }


def placeholder(move: str) -> dict[str, Any]:
    """An earlier position nobody asks about: only the last two decide the verdict."""
    return {"best_move": move, "value": 0.0, "depth": 1, "nodes": 1, "exact": False}


def judged(game_id: str, history: list[str], move: str) -> dict[str, Any]:
    """The analysis's verdict on `move` played after `history`."""
    game = registry.get(game_id)
    config = analysis_config(game_id)
    state = game.initial_state()
    for m in history:
        state = game.apply(state, m)
    after = game.apply(state, move)
    moves = [(ply, game.to_move(s), m) for ply, (s, m) in enumerate(_states(game, [*history, move]))]
    searched = [placeholder(m) for _, seat, m in moves[:-1] if seat != CHANCE]  # the rolls are not judged
    decided = len(searched)  # the move's index among the decisions
    searched.append(positions.search_position(game_id, game.to_json(state), config, move))
    # The next position, and past it while a position has one legal move (an Othello pass): such a
    # position is not searched, its value is the next one's, as in a whole game's analysis.  Up to
    # the dice, where a searcher that values every root move (expectimax) has valued the move.
    while not game.is_terminal(after) and game.to_move(after) != CHANCE:
        reply = game.legal_moves(after)[0]
        moves.append((len(moves), game.to_move(after), reply))
        searched.append(positions.search_position(game_id, game.to_json(after), config, reply))
        if not searched[-1].get("forced"):
            break
        after = game.apply(after, reply)
    return positions.ply_results(game_id, moves, searched)[decided]


def _states(game: Any, moves: list[str]) -> list[tuple[Any, str]]:
    state, pairs = game.initial_state(), []
    for m in moves:
        pairs.append((state, m))
        state = game.apply(state, m)
    return pairs


# Where the analysis at the test's depth disagrees with the reference (measured 7 December 2026;
# strict: the day a deeper or better search judges one right, its mark must go).
#
# Chess, searched by the Master's compiled engine at depth 12 (measured 8 December 2026, with the
# terms fitted on Stockfish's scores; the analysis's 3 s reach depth 13, median of the planted
# positions, load 3; depth 13 here took twice as long for the same verdicts): 38 of 41.
# Stockfish's best h5g4 (the black king kept in the centre) gives away 0.091 to us (0.168 with the
# hand-set terms), the blunder Nd5 (white's open king after g4) costs 0.071 (0.094), below a
# blunder; the good e3c5 gives away 0.053, just over an inaccuracy (it passed with the hand-set
# terms); the good e5g6 (an endgame of passed pawns), missed at depth 8, passes.
# Backgammon: our network, one ply, prefers another play by 0.43 and 0.20 of equity where gnubg
# 2-ply prefers the played one by 0.23 and 0.36 (its 2-ply equities in the reasons).
#
# Checkers (endgames of at most 3 pieces, by our retrograde solver): none at depth 20.  At depth 8
# a draw turned into a loss was beyond the search (47% both ways), and a good move kept a win the
# solver proves but the search did not, beside the best move's proven one (win -> 94%, 0.063).
# Seven good moves still give away 0.040-0.047 at depth 20, each a win the search values as a
# heuristic 95-96% (two kings against one) beside a proven win: close to the 0.05 of an inaccuracy.
KNOWN_MISSES = {
    "chess-blunder-f8e8.g2g4.g6g5-c3d5": "depth 12 sees 0.071 of the 0.34 Stockfish sees (+0.00 -> -0.78, best g4f5)",
    "chess-good-c4b5.a2a4.b5a5-h5g4": "depth 12 gives away 0.091 (-0.49 -> -1.52, best d6e5); Stockfish: h5g4 best",
    "chess-good-d8e7.e4e5.d7d5-e3c5": "depth 12 gives away 0.053 (+0.88 -> +0.30, best e5d6); Stockfish: e3c5 best",
}


def planted(game_id: str) -> list[Any]:
    path = PLANTED / f"{game_id}.json"
    if not path.exists():  # the count test below says which set is missing
        return []
    body = json.loads(path.read_text())
    params = []
    for e in body["entries"]:
        name = f"{game_id}-{e['kind']}-{'.'.join(e['moves'][-3:])}-{e['move']}"
        miss = KNOWN_MISSES.get(name)
        marks = [pytest.mark.xfail(strict=True, reason=miss)] if miss else []
        params.append(pytest.param(game_id, e["moves"], e["move"], e["kind"], id=name, marks=marks))
    return params


@pytest.mark.parametrize("game_id,history,move,kind", [p for game_id in GAMES for p in planted(game_id)])
def test_planted(game_id, history, move, kind):
    verdict = judged(game_id, history, move)
    figures = (
        f"drop {verdict['drop']} ({verdict['value_text']} -> {verdict['played_text']}, best {verdict['best_move']})"
    )
    if kind == "blunder":
        assert verdict["class"] == "blunder", figures
    else:
        assert verdict["class"] is None, figures


def test_every_set_has_twenty_of_each_confirmed_by_its_reference():
    for game_id in GAMES:
        body = json.loads((PLANTED / f"{game_id}.json").read_text())
        kinds = [e["kind"] for e in body["entries"]]
        assert kinds.count("blunder") >= 20 and kinds.count("good") >= 20, game_id
        assert body["reference"]["engine"]
        for e in body["entries"]:
            assert (e["drop"] >= 0.25) if e["kind"] == "blunder" else (e["drop"] <= 0.01), e
