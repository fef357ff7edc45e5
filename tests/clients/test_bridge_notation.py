"""The bridges' notation mappings, checked against the games' own rules (pure and fast: no engine, no server).

The bridges import nothing of the site (clients/plyground_bot/bridges): what they know of a
position comes from the wire.  Here the rules library plays random games and says what each
mapping must give.
"""

from __future__ import annotations

import random
import sys

import pytest

from games import registry
from tests.support import ROOT

sys.path.insert(0, str(ROOT / "clients"))

from plyground_bot.bridges import gnubg, gtp, uci  # noqa: E402
from plyground_bot.bridges.engine import EngineError, engine_command, turn_limit_s  # noqa: E402
from plyground_bot.client import Turn  # noqa: E402


def turn(game: str, seat: int, ply: int, state: dict, legal: list[str], moves=(), clock=None, options=None) -> Turn:
    return Turn(1, game, seat, ply, state, legal, clock, [], tuple(moves), options or {})


# --- UCI -----------------------------------------------------------------------------------


def test_uci_position_sends_every_move_from_the_start_and_the_fen_when_they_are_not_all_known():
    assert uci.position_command(turn("chess", 0, 0, {}, ["e2e4"])) == "position startpos"
    played = turn("chess", 0, 2, {"fen": "F"}, [], moves=("e2e4", "e7e5"))
    assert uci.position_command(played) == "position startpos moves e2e4 e7e5"
    gap = turn("chess", 1, 3, {"fen": "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR b KQkq - 0 2"}, [], moves=("e2e4",))
    assert uci.position_command(gap) == "position fen rnbqkbnr/8/8/8/8/8/8/RNBQKBNR b KQkq - 0 2"


def test_uci_go_takes_the_clock_of_the_side_to_move_less_its_elapsed_time():
    clock = {"initial_ms": 60000, "increment_ms": 2000, "remaining_ms": [50000, 40000], "running": 1, "elapsed_ms": 300}
    assert uci.go_command(turn("chess", 1, 5, {}, [], clock=clock), None, None) == (
        "go wtime 50000 btime 39700 winc 2000 binc 2000"
    )
    assert uci.go_command(turn("chess", 1, 5, {}, [], clock=clock), 50, None) == "go movetime 50"
    assert uci.go_command(turn("chess", 1, 5, {}, [], clock=clock), 50, 3) == "go depth 3"
    assert uci.go_command(turn("chess", 0, 0, {}, []), None, None) == f"go movetime {uci.UNCLOCKED_MOVETIME_MS}"


def test_uci_bestmove_is_the_sites_move_as_it_is():
    """The site writes chess moves in UCI: castling as the king's move, promotions in lower case."""
    game = registry.get("chess")
    state = game.from_json({"fen": "r3k2r/pP6/8/8/8/8/8/R3K2R w KQkq - 0 1"})
    legal = game.legal_moves(state)
    for line, move in (("bestmove e1g1 ponder e8c8", "e1g1"), ("bestmove b7a8q", "b7a8q"), ("bestmove e1c1", "e1c1")):
        assert uci.best_move(line) == move and move in legal
    for line in ("bestmove (none)", "info depth 3", "bestmove"):
        with pytest.raises(EngineError):
            uci.best_move(line)


def test_uci_options_are_name_equals_value():
    assert uci.option("UCI_Elo=1500") == ("UCI_Elo", "1500")
    assert uci.option("Skill Level = 3") == ("Skill Level", "3")
    with pytest.raises(ValueError, match="Name=value"):
        uci.option("UCI_Elo")


# --- GTP (Othello) -----------------------------------------------------------------------------


def test_gtp_vertices_are_the_sites_squares_in_capitals():
    game = registry.get("othello")
    squares = {f"{c}{r}" for c in "abcdefgh" for r in range(1, 9)}
    for square in squares:
        assert gtp.from_vertex(gtp.to_vertex(square)) == square
    assert gtp.from_vertex("pass") == gtp.from_vertex("PASS") == "pass"
    # The site's first legal moves are GRhino's too: black's four, rows counted from the top.
    assert sorted(game.legal_moves(game.initial_state())) == ["c4", "d3", "e6", "f5"]
    for bad in ("i1", "a9", "", "A"):
        with pytest.raises(EngineError):
            gtp.from_vertex(bad)
    with pytest.raises(EngineError, match="resigns"):
        gtp.from_vertex("resign")
    with pytest.raises(ValueError):
        gtp.to_vertex("z9")


def test_gtp_replay_leaves_passes_to_the_colours():
    """Random games with passes: each `play` names the colour of the seat that played it."""
    game, rng = registry.get("othello"), random.Random(5)
    passes = 0
    for _ in range(30):
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            move = rng.choice(game.legal_moves(state))
            moves.append(move)
            state = game.apply(state, move)
        passes += moves.count("pass")
        commands = gtp.replay(moves)
        assert len(commands) == len(moves) - moves.count("pass")
        expected = [f"play {('black', 'white')[ply % 2]} {m.upper()}" for ply, m in enumerate(moves) if m != "pass"]
        assert commands == expected
    assert passes, "the sample should hold passes"


def test_gtp_answers_are_read_or_refused():
    assert gtp.answer(["= C3", ""], "genmove black") == "C3"
    assert gtp.answer(["=", ""], "boardsize 8") == ""
    with pytest.raises(EngineError, match="illegal move"):
        gtp.answer(["? illegal move", ""], "play black a1")


# --- gnubg (backgammon) -----------------------------------------------------------------------


def part_paths(nodes, node=0, steps=()):
    """Every (steps, move) of a move-parts graph: the single-die steps that make each legal play."""
    found = []
    here = nodes[node]
    if here.move is not None:
        found.append((steps, here.move))
    for part, child in here.parts:
        frm, to = part.split(":")[1].rstrip("*").split("/")
        step = (25 if frm == "bar" else int(frm), 0 if to == "off" else int(to))
        found += part_paths(nodes, child, (*steps, step))
    return found


def backgammon_positions(count: int, seed: int):
    """(state, its JSON) of random positions with dice to play, from random games."""
    game, rng = registry.get("backgammon"), random.Random(seed)
    state = game.initial_state()
    while count:
        if game.is_terminal(state):
            state = game.initial_state()
        moves = game.legal_moves(state)
        if state.dice and len(moves) > 1:
            count -= 1
            yield state, game.to_json(state)
        state = game.apply(state, rng.choice(moves))


def test_gnubg_steps_map_to_the_one_legal_play_of_the_site_they_make():
    """Two ways of making a legal play die by die (the rules' move parts: the first and the last
    found, steps in another order) map to that play; a dozen plays of each position."""
    game = registry.get("backgammon")
    checked = set()
    for state, data in backgammon_positions(150, seed=3):
        legal = game.legal_moves(state)
        ways: dict[str, list] = {}
        for steps, move in part_paths(game.move_parts(state)):
            ways.setdefault(move, []).append(steps)
        assert set(ways) == set(legal)
        for move, paths in sorted(ways.items())[:: max(len(ways) // 12, 1)]:
            for steps in {paths[0], paths[-1]}:
                assert gnubg.site_play(data, state.turn, steps, legal) == move
                checked.add((move, steps))
    assert len(checked) > 1000 and any("*" in move for move, _ in checked) and any("off" in m for m, _ in checked)


def test_gnubg_board_is_the_opponent_then_the_roller_each_in_its_own_numbering():
    game = registry.get("backgammon")
    start = game.to_json(game.initial_state())
    for seat in (0, 1):
        board = gnubg.gnubg_board(*gnubg.sides(start, seat))
        own = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
        assert board == own + own  # the start is the same from both sides
    data = {"points": [-1] + [0] * 22 + [2], "bar": [1, 0], "off": [12, 14]}
    mine, theirs = gnubg.sides(data, 0)
    assert mine[25] == 1 and mine[24] == 2 and mine[0] == 12 and theirs[1] == 1
    board = gnubg.gnubg_board(mine, theirs)
    assert board[23] == 1 and board[25 + 23] == 2 and board[25 + 24] == 1  # seat 1's 24 is seat 0's 1


def test_gnubg_steps_that_make_no_legal_play_are_refused():
    game = registry.get("backgammon")
    state, data = next(backgammon_positions(1, seed=8))
    with pytest.raises(EngineError):
        gnubg.site_play(data, state.turn, [(6, 5)], game.legal_moves(state))
    with pytest.raises(EngineError, match="not a play"):
        gnubg.steps_of(["24", "18", "18"])


def test_gnubg_cube_answers():
    assert gnubg.cube_answer(["double", "roll"], 0.4, 0.6, 1.0) == "double"
    assert gnubg.cube_answer(["double", "roll"], 0.7, 0.6, 1.0) == "roll"
    assert gnubg.cube_answer(["take", "drop"], 0.5, 0.8, 1.0) == "take"
    assert gnubg.cube_answer(["take", "drop"], 0.5, 1.3, 1.0) == "drop"
    state = {"cube": {"value": 2, "owner": 1}, "score": [3, 1], "match_to": 5, "crawford": None}
    assert gnubg.cube_words(state, 1, False) == "2 0 5 1 3 0 0"
    assert gnubg.cube_words(state, 0, False) == "2 1 5 3 1 0 0"


# --- what every bridge shares ------------------------------------------------------------------


def test_a_turn_may_take_the_seats_clock_less_a_margin():
    clock = {"initial_ms": 60000, "increment_ms": 0, "remaining_ms": [9000, 20000], "running": 0, "elapsed_ms": 1000}
    assert turn_limit_s(turn("chess", 0, 4, {}, [], clock=clock)) == pytest.approx(7.5)
    assert turn_limit_s(turn("chess", 1, 4, {}, [], clock=clock)) == pytest.approx(19.5)
    assert turn_limit_s(turn("chess", 1, 4, {}, [])) == 60.0


def test_an_engine_is_found_in_usr_games_or_named_as_missing():
    assert engine_command("sh -c 'exit 3'")[1:] == ["-c", "exit 3"]
    with pytest.raises(ValueError, match="not found"):
        engine_command("no-such-engine-anywhere")
