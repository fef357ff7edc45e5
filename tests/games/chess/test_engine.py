"""The compiled chess engine (games/chess/_engine.c) against python-chess and the Python evaluation.

Perft on the standard positions, legal move sets over random games, the evaluation on many
positions, SEE, repetition keys; then the search: legal moves, mates found, draws by
repetition, a node cap and a passed deadline respected, and the Master using it.
"""

from __future__ import annotations

import random
import time

import chess
import pytest

import ai
from ai.budget import Deadline
from ai.types import SearchConfig
from games import registry
from games.chess import engine
from games.chess.evaluation import evaluate_board
from games.chess.rules import position_key
from games.chess.search import see
from games.chess.spec import MASTER_SEARCH

compiled = engine.compiled
pytestmark = pytest.mark.skipif(compiled is None, reason="the chess engine extension is not built")
CHESS = registry.get("chess")

# The chessprogramming wiki's perft positions and counts (depths 1..4, start to 4).
PERFT = [
    (chess.STARTING_FEN, [20, 400, 8902, 197281]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039, 97862]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", [46, 2079, 89890]),
]


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_perft_matches_the_published_counts(fen, counts):
    assert [compiled.perft(fen, depth) for depth in range(1, len(counts) + 1)] == counts


def random_boards(games: int, seed: int) -> list[chess.Board]:
    """Every position of `games` random games (at most 120 plies each), promotions and castling included."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 120:
            board.push(rng.choice(list(board.legal_moves)))
            boards.append(board.copy(stack=False))
    return boards


BOARDS = random_boards(8, seed=46)


def test_legal_moves_equal_python_chess_over_random_games():
    assert len(BOARDS) > 300
    for board in BOARDS:
        fen = board.fen(en_passant="fen")  # the square after every double push, legal capture or not
        assert sorted(compiled.legal_moves(fen)) == sorted(m.uci() for m in board.legal_moves), fen


def test_the_evaluation_equals_the_python_one():
    for board in BOARDS:
        assert compiled.evaluate(board.fen()) == evaluate_board(board), board.fen()


# Positions where each term beyond the tables weighs: passed pawns with free and blocked paths
# and kings near and far, doubled and isolated pawns, the bishop pair, rooks on open and half-open
# files, kings castled, in the centre and stormed, and pieces on the king's zone.
TERM_POSITIONS = [
    "8/1P6/8/8/8/8/6k1/K7 w - - 0 1",
    "8/8/1k6/1p6/1P6/8/5K2/8 b - - 0 1",
    "6k1/8/3P4/3p1P2/2P5/1K6/8/8 w - - 0 1",
    "8/2p5/2p5/2P3P1/6P1/1k6/8/4K3 w - - 0 1",
    "r4rk1/pp3ppp/2p5/8/8/2P5/PP3PPP/R4RK1 w - - 0 1",
    "r1bqk2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R1BQK2R w KQkq - 0 9",
    "r1bq1rk1/ppp2p1p/2n3p1/3p2P1/3P3P/2N5/PPP2P2/R1BQK2R w KQ - 0 14",
    "r1b2rk1/ppp2ppp/2n5/3q4/3P2Q1/2N5/PPP2PPP/R1B1K2R w KQ - 0 12",
    "6k1/5p1p/6pB/8/8/2Q5/5PPP/6K1 w - - 0 1",
    "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R b - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
    "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
]


@pytest.mark.parametrize("fen", TERM_POSITIONS)
def test_the_evaluation_equals_the_python_one_where_the_terms_weigh(fen):
    for board in (chess.Board(fen), chess.Board(fen).mirror()):
        assert compiled.evaluate(board.fen()) == evaluate_board(board), board.fen()


def test_static_exchange_equals_the_python_one():
    checked = 0
    for board in BOARDS[::3]:
        for move in board.generate_legal_captures():
            assert compiled.see(board.fen(), move.uci()) == see(board, move), (board.fen(), move.uci())
            checked += 1
    assert checked > 50


def test_a_repetition_key_is_the_key_of_its_position():
    for board in BOARDS[::7]:
        key = position_key(board)
        fen = board.fen()  # the en-passant square only where a capture there is legal, as the key has it
        assert compiled.history_key(key) == compiled.key(fen)


def search(fen: str, history=(), **limits):
    return compiled.Engine(12).search(fen, list(history), None, limits.pop("max_depth", 64), **limits)


def test_a_mate_in_two_is_found_and_scored_as_one():
    move, score, depth, pv = search("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", max_depth=4)
    assert move == "h5f7" and score == engine.MATE - 1 and pv == ["h5f7"]
    move, score, _, pv = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", max_depth=6)  # back-rank mate
    assert move == "a1a8" and score == engine.MATE - 1


def test_the_line_is_legal_and_a_node_cap_is_kept():
    fen = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8"
    eng = compiled.Engine(14)
    move, _, depth, pv = eng.search(fen, [], None, 64, 20_000)
    assert eng.nodes <= 20_000 and depth >= 2
    board = chess.Board(fen)
    assert pv[0] == move
    for uci in pv:
        assert chess.Move.from_uci(uci) in board.legal_moves
        board.push_uci(uci)


def test_a_passed_deadline_still_answers_a_legal_move():
    eng = compiled.Engine(12)
    move, _, depth, _ = eng.search(chess.STARTING_FEN, [], time.monotonic() - 1.0, 64)
    assert depth <= 1 and move in compiled.legal_moves(chess.STARTING_FEN)


def test_a_position_of_the_games_history_counts_as_a_draw():
    # Winning, white would not play into a position the game has seen: that repeats it (a draw).
    fen = "7k/8/8/8/8/8/R7/K7 w - - 10 40"
    first, score, _, _ = search(fen, max_depth=6)
    assert score > 300
    seen = chess.Board(fen)
    seen.push_uci(first)
    second, score, _, _ = search(fen, [position_key(seen)], max_depth=6)
    assert second != first and score > 300
    repeated = chess.Board(fen)
    repeated.push_uci(second)
    _, score, _, _ = search(fen, [position_key(seen), position_key(repeated)], max_depth=1)
    assert score > 300  # a third way to win


def test_the_master_searches_with_the_engine_and_reports_its_figures():
    state = CHESS.from_fen("r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8")
    config = SearchConfig(algorithm="alphabeta", max_depth=5, options=MASTER_SEARCH)
    result = ai.choose_move(CHESS, state, config, deadline=Deadline(time.monotonic() + 3600))
    assert result.move in CHESS.legal_moves(state)
    assert result.stats["kernel"] == "chess-engine" and result.depth == 5 and result.nodes > 0
    assert result.pv[0] == result.move and -1 < result.value < 1


def test_without_the_option_the_python_search_runs():
    state = CHESS.initial_state()
    config = SearchConfig(algorithm="alphabeta", max_depth=2, options={**MASTER_SEARCH, "engine": False})
    result = ai.choose_move(CHESS, state, config, deadline=Deadline(time.monotonic() + 3600))
    assert result.stats.get("kernel") != "chess-engine"


def test_unbuilt_the_master_runs_the_python_search(monkeypatch):
    monkeypatch.setattr(engine, "ENGINE", None)  # as where the extension could not be compiled
    assert CHESS.search_engine() is None
    state = CHESS.initial_state()
    config = SearchConfig(algorithm="alphabeta", max_depth=2, options=MASTER_SEARCH)
    result = ai.choose_move(CHESS, state, config, deadline=Deadline(time.monotonic() + 3600))
    assert result.move in CHESS.legal_moves(state) and result.depth == 2 and result.nodes > 0
    assert result.stats.get("kernel") != "chess-engine"


def test_threads_search_at_once_each_on_its_own_engine():
    from concurrent.futures import ThreadPoolExecutor

    states = [CHESS.initial_state(), CHESS.from_fen(PERFT[1][0])]
    with ThreadPoolExecutor(2) as pool:
        found = list(pool.map(lambda s: engine.ENGINE.search(s, ai.scores.SCALE, None, 5), states * 2))
    for state, result in zip(states * 2, found, strict=True):
        assert result.move in CHESS.legal_moves(state) and result.depth == 5
