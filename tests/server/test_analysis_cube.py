"""The analysis of backgammon with the doubling cube: cube actions are decisions like plays, valued by
the decider's money equities (`ai.cube`); in match play they are not analysed, and say why."""

from __future__ import annotations

import ai
from games import CHANCE, registry
from server.analysis import positions

FAST = {"algorithm": "expectimax", "time_budget_ms": 60, "max_depth": 1, "seed": 0}


def played_game(options, script):
    """(ply, seat, move) of a game `script` plays: dice and cube actions named, "play" for the first legal play."""
    game = registry.get("backgammon").with_options(options)
    state, moves = game.initial_state(), []
    for ply, wanted in enumerate(script):
        move = game.legal_moves(state)[0] if wanted == "play" else wanted
        moves.append((ply, game.to_move(state), move))
        state = game.play(state, move)
    return game, moves


def analysed(options, script):
    game, moves = played_game(options, script)
    searched = [
        positions.search_position(game.id, p["state"], FAST, p["move"], options)
        for p in positions.positions_to_search(game.id, moves, options)
    ]
    return positions.ply_results(game.id, moves, searched, options), searched


# Seat 1 opens 2-1 and plays; seat 0 doubles at once, seat 1 takes; later seat 1 redoubles and seat 0 drops.
SCRIPT = ["open 1-2", "play", "double", "take", "roll 6-6", "play", "double", "drop"]


def test_a_money_games_cube_actions_are_valued_by_their_equities():
    plies, _ = analysed({"cube": True}, SCRIPT)
    by_move = [(p["move"], p["cube"]) for p in plies]
    assert by_move[1:] == [
        ("double", True),
        ("take", True),
        (plies[3]["move"], False),
        ("double", True),
        ("drop", True),
    ]
    for ply in plies:
        if not ply["cube"]:
            continue
        verdict = ai.cube.decide(_inputs(ply["ply"]))
        assert ply["best_move"] == verdict.move and ply["value"] == verdict.equities[verdict.move]
        assert ply["played_value"] == verdict.equities[ply["move"]]
        assert ply["loss"] == round(ply["best_value"] - ply["played_value"], 6)
        assert "not_analysed" not in ply
    # An early double is a mistake by the equities: no double is worth more than doubling.
    early = plies[1]
    assert early["best_move"] == "roll" and early["loss"] > 0 and early["class"] is not None


def test_a_play_before_a_cube_decision_is_not_valued_by_its_cubeful_equity():
    plies, _ = analysed({"cube": True}, SCRIPT)
    play = plies[0]  # seat 1's opening play, followed at once by seat 0's cube decision
    assert not play["cube"] and play["played_value"] != (None if plies[1]["value"] is None else -plies[1]["value"])


def test_cube_decisions_in_match_play_are_not_analysed_and_say_why():
    plies, _ = analysed({"match_to": 5}, ["open 1-2", "play", "double", "take"])
    cube = [p for p in plies if p["cube"]]
    assert [p["move"] for p in cube] == ["double", "take"]
    for ply in cube:
        assert ply["value"] is None and ply["class"] is None and ply["loss"] is None
        assert ply["not_analysed"] == positions.MATCH_CUBE_NOT_ANALYSED


def _inputs(ply):
    game, moves = played_game({"cube": True}, SCRIPT[:ply])
    state = game.initial_state()
    for _, _, move in moves:
        state = game.apply(state, move)
    assert game.to_move(state) != CHANCE
    return game.cube_inputs(state, look_ahead=FAST["time_budget_ms"] >= ai.cube.LOOK_AHEAD_MIN_BUDGET_MS)


def test_an_accepted_resignation_is_agreed_not_chosen_and_is_not_judged():
    game, moves = played_game({"cube": True}, ["open 1-2", "play"])
    state = game.initial_state()
    for _, _, move in moves:
        state = game.apply(state, move)
    assert game.to_move(state) == 0
    moves.append((2, 1, game.resign_move(state, 1, "gammon")))  # seat 1 resigns while seat 0 is to move
    searched = [
        positions.search_position(game.id, p["state"], FAST, p["move"], {"cube": True})
        for p in positions.positions_to_search(game.id, moves, {"cube": True})
    ]
    plies = positions.ply_results(game.id, moves, searched, {"cube": True})
    assert [p["ply"] for p in plies] == [1]  # the play is judged; the resignation neither valued nor classed
