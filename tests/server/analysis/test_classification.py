"""Moves judged against exact values: the published Connect Four positions and tic-tac-toe solved."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ai
from games import registry
from server.analysis import positions

DATA = Path("/work/shared/data/connect4")
CONNECT4 = registry.get("connect4")
TICTACTOE = registry.get("tictactoe")
SOLVED = {"algorithm": "alphabeta", "time_budget_ms": 20000, "options": {"exact_endgame": 0}}


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


def exact_loss(game, state, move) -> int:
    """What `move` loses in `state` with perfect play on both sides (0, 1 or 2: win to draw 1, win to loss 2)."""
    best = sign(ai.solve(game, state))
    after = game.apply(state, move)
    seat = game.to_move(state)
    played = game.returns(after)[seat] if game.is_terminal(after) else -sign(ai.solve(game, after))
    return best - played


def placeholder(move: str) -> dict:
    """An earlier position nobody asks about: the last two decide the last verdicts."""
    return {"best_move": move, "value": 0.0, "depth": 1, "nodes": 1, "exact": False}


def judged_last(game, history: list[str], move: str, config: dict) -> dict:
    """The verdict on `move` played after `history`, the two last positions searched with `config`."""
    moves = [(ply, ply % 2, m) for ply, m in enumerate([*history, move])]
    state = game.initial_state()
    for m in history:
        state = game.apply(state, m)
    after = game.apply(state, move)
    searched = [placeholder(m) for m in history]
    searched.append(positions.search_position(game.id, game.to_json(state), config, move))
    if not game.is_terminal(after):
        reply = game.legal_moves(after)[0]
        moves.append((len(moves), len(moves) % 2, reply))
        searched.append(positions.search_position(game.id, game.to_json(after), config, reply))
    return positions.ply_results(game.id, moves, searched)[len(history)]


def pons_positions(name: str, count: int, seed: int) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    rows = [(moves, int(score)) for moves, score in (line.split() for line in lines if line.strip())]
    return random.Random(seed).sample(rows, count)


def as_moves(sequence: str) -> list[str]:
    """The test sets' columns 1-7 are the game's moves."""
    return list(sequence)


# --- the case that was judged "lost 0.00" ----------------------------------------------


def test_a_move_the_search_thought_best_that_the_next_position_proves_lost_is_a_blunder():
    """+0.22 (heuristic) before the move, +1.00 (exact) for the opponent after it: the mover lost 1.22."""
    moves = [(0, 0, "3"), (1, 1, "3"), (2, 0, "4")]
    searched = [
        {"best_move": "3", "value": 0.1, "depth": 9, "nodes": 9, "exact": False},
        {"best_move": "3", "value": 0.22, "depth": 9, "nodes": 9, "exact": False},  # it played what it found best
        {"best_move": "4", "value": 1.0, "depth": 28, "nodes": 9, "exact": True},  # solved: the opponent wins
    ]
    plies = positions.ply_results("connect4", moves, searched)
    judged = plies[1]
    assert judged["value"] == 0.22 and judged["best_value"] == 0.22
    assert judged["played_value"] == -1.0 and judged["loss"] == pytest.approx(1.22)
    assert judged["class"] == "blunder"


def test_a_move_that_keeps_a_proven_win_loses_nothing_however_long_the_win_takes():
    """A win in 3 found here, the move played wins in 9: both are a win."""
    moves = [(0, 0, "3"), (1, 1, "2"), (2, 0, "4")]
    searched = [
        {"best_move": "3", "value": 0.997, "depth": 3, "nodes": 9, "exact": True},
        {"best_move": "4", "value": 0.1, "depth": 9, "nodes": 9, "exact": False},
        {"best_move": "4", "value": -0.991, "depth": 9, "nodes": 9, "exact": True},  # lost in 9 for the opponent
    ]
    first = positions.ply_results("connect4", moves, searched)[0]
    assert first["value"] == first["best_value"] == first["played_value"] == 1.0
    assert first["loss"] == 0 and first["class"] is None


def test_a_proven_draw_thrown_into_a_proven_loss_is_a_blunder_and_a_lucky_move_loses_nothing():
    moves = [(0, 0, "3"), (1, 1, "2")]
    drawn_then_lost = [
        {"best_move": "5", "value": 0.0, "depth": 30, "nodes": 9, "exact": True},
        {"best_move": "4", "value": 0.98, "depth": 9, "nodes": 9, "exact": True},  # the opponent wins in 20
    ]
    first = positions.ply_results("connect4", moves, drawn_then_lost)[0]
    assert (first["best_value"], first["played_value"], first["loss"], first["class"]) == (0.0, -1.0, 1.0, "blunder")
    better_than_thought = [
        {"best_move": "5", "value": -0.3, "depth": 9, "nodes": 9, "exact": False},
        {"best_move": "4", "value": -1.0, "depth": 9, "nodes": 9, "exact": True},  # the opponent is lost
    ]
    first = positions.ply_results("connect4", moves, better_than_thought)[0]
    assert first["played_value"] == 1.0 and first["best_value"] == 1.0 and first["loss"] == 0
    assert first["class"] is None


# --- the published Connect Four positions, every move judged against the solver ----------


@pytest.mark.parametrize("sequence,score", pons_positions("Test_L3_R1", 4, seed=7))
def test_connect4_end_game_moves_are_judged_as_the_solver_values_them(sequence, score):
    history = as_moves(sequence)
    state = CONNECT4.from_moves(sequence)
    assert sign(ai.solve(CONNECT4, state)) == sign(score)  # the test set's value, for the side to move
    for move in CONNECT4.legal_moves(state):
        expected = exact_loss(CONNECT4, state, move)
        judged = judged_last(CONNECT4, history, move, SOLVED)
        assert judged["loss"] == expected, (sequence, move)
        assert judged["class"] == ("blunder" if expected else None), (sequence, move)


def test_connect4_a_heuristic_position_before_a_solved_one_the_case_of_the_lost_win():
    """Searched heuristically before the move (below the solving ply), solved after it, as the level-5 bot does."""
    found = 0
    for sequence, score in pons_positions("Test_L2_R1", 40, seed=3):
        state = CONNECT4.from_moves(sequence)
        if score < 0:
            continue  # only a win or a draw can be thrown away
        stones = len(sequence)
        config = {"algorithm": "alphabeta", "max_depth": 2, "options": {"exact_endgame": stones + 1}}
        for move in CONNECT4.legal_moves(state):
            after = CONNECT4.apply(state, move)
            if CONNECT4.is_terminal(after) or ai.solve(CONNECT4, after) <= 0:
                continue  # this move keeps the win or the draw
            judged = judged_last(CONNECT4, as_moves(sequence), move, config)
            if judged["exact"]:
                continue  # the shallow search proved something itself: not the case under test
            assert judged["played_value"] == -1.0 and judged["class"] == "blunder", (sequence, move, judged)
            found += 1
        if found >= 3:
            break
    assert found >= 3


# --- tic-tac-toe, solved from every position ------------------------------------------


def test_tictactoe_games_are_judged_as_perfect_play_values_them():
    rng = random.Random(17)
    config = {"algorithm": "alphabeta", "time_budget_ms": 5000}
    judged_any = set()
    for _ in range(8):
        state, history = TICTACTOE.initial_state(), []
        while not TICTACTOE.is_terminal(state):
            move = rng.choice(TICTACTOE.legal_moves(state))
            history.append(move)
            state = TICTACTOE.apply(state, move)
        moves = [(ply, ply % 2, m) for ply, m in enumerate(history)]
        state, searched, expected = TICTACTOE.initial_state(), [], []
        for move in history:
            searched.append(positions.search_position("tictactoe", TICTACTOE.to_json(state), config, move))
            expected.append(exact_loss(TICTACTOE, state, move))
            state = TICTACTOE.apply(state, move)
        plies = positions.ply_results("tictactoe", moves, searched)
        for p, loss in zip(plies, expected, strict=True):
            assert p["loss"] == loss, (history, p)
            assert p["class"] == ("blunder" if loss else None)
            judged_any.add(p["class"])
    assert judged_any == {None, "blunder"}
