"""Post-game analysis: one job per match, every position searched, each move classified."""

from __future__ import annotations

import asyncio
import random

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

import ai
from games import CHANCE, chances, registry
from server.analysis import positions
from server.analysis.jobs import analysis_step
from server.analysis.models import Analysis
from server.analysis.selectors import search_settings
from server.analysis.services import analysis_request
from server.matches import broadcast, services
from tests.server.conftest import human_match

# Analyses are queued on commit: these tests need real transactions.
committing = pytest.mark.django_db(transaction=True)

# X: 5, O: 1 (fine), X: 9, O: 2?? (loses: 3 wins for X at once), X: 3.
BLUNDERED_GAME = ["5", "1", "9", "2", "3", "7", "6"]


def finished_tictactoe(alice, bob, moves):
    match = human_match("tictactoe", alice, bob)
    for ply, move in enumerate(moves):
        services.submit_move(match.pk, ply % 2, move, ply)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def received_frames(channel, until, timeout=5.0):
    async def collect():
        layer, frames = get_channel_layer(), []
        while not frames or not until(frames[-1]):
            frames.append((await asyncio.wait_for(layer.receive(channel), timeout))["frame"])
        return frames

    return async_to_sync(collect)()


def test_thresholds_are_drops_in_expected_score():
    assert chances.classify(0.0) is None
    assert chances.classify(0.049) is None
    assert chances.classify(0.05) == "inaccuracy"
    assert chances.classify(0.1) == "mistake"
    assert chances.classify(0.15) == "blunder"
    assert chances.classify(1.0) == "blunder"  # a won game thrown away


def test_a_queen_is_a_queen_on_chess_s_scale():
    """The reported case: a queen (0.09 on chess's scale of a won game) is near-certain winning chances."""
    chess = registry.get("chess").spec.chances
    assert chess.expected_score(0.09) > 0.95 and chess.expected_score(-0.09) < 0.05
    assert chess.text(0.09) == "+9.00"


@committing
def test_a_finished_match_is_analysed_move_by_move(alice, bob, settings):
    # Tic-tac-toe is searched to its end in a few milliseconds, and the search stops there: a long
    # budget costs nothing, and keeps a loaded machine from cutting a search short.
    settings.ANALYSIS_TIME_BUDGET_MS = 20_000
    match = finished_tictactoe(alice, bob, BLUNDERED_GAME)
    channel = async_to_sync(get_channel_layer().new_channel)()
    async_to_sync(get_channel_layer().group_add)(broadcast.match_group(match.pk), channel)

    analysis, started = analysis_request(match.pk, alice)  # the inline runner searches it all now
    assert started
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.progress == analysis.total == len(BLUNDERED_GAME)
    assert analysis.search["profile"] == "tictactoe-perfect"  # the level-5 profile's search
    plies = analysis.plies
    assert [p["move"] for p in plies] == BLUNDERED_GAME
    assert [p["ply"] for p in plies] == list(range(len(BLUNDERED_GAME)))
    assert all(p["exact"] for p in plies)  # tic-tac-toe is searched to the end
    first = plies[0]
    assert first["value"] == 0.0 and first["class"] is None  # the empty board is a draw
    blunder = plies[3]
    assert blunder["seat"] == 1 and blunder["move"] == "2"
    assert blunder["best_value"] == 0.0 and blunder["played_value"] < -0.9
    assert blunder["class"] == "blunder" and blunder["best_move"] != "2"
    assert blunder["loss"] == pytest.approx(blunder["best_value"] - blunder["played_value"])
    last = plies[-1]
    assert last["played_value"] > 0.99 and last["class"] is None  # the winning move (sooner wins score higher)

    frames = received_frames(channel, until=lambda f: f.get("status") == "done")
    assert [f["progress"] for f in frames] == list(range(1, len(BLUNDERED_GAME) + 1))
    assert all(f["type"] == "analysis" and f["total"] == len(BLUNDERED_GAME) for f in frames)


@committing
def test_asking_twice_returns_the_same_analysis(alice, bob, monkeypatch):
    match = finished_tictactoe(alice, bob, BLUNDERED_GAME)
    # Queued, never run: a second request while it waits must not start another.
    monkeypatch.setattr("server.analysis.runners.queue_analysis", lambda analysis_id: None)
    first, started = analysis_request(match.pk, alice)
    again, started_again = analysis_request(match.pk, bob)
    assert started and not started_again and first.pk == again.pk
    assert Analysis.objects.filter(match=match).count() == 1
    # A duplicate or late step does nothing.
    assert analysis_step(first.pk, 3) is None
    assert analysis_step(first.pk, 0) == 1
    assert analysis_step(first.pk, 0) is None
    first.refresh_from_db()
    assert first.progress == 1 and first.status == "running"


@committing
def test_the_api_starts_reports_and_refuses_clearly(token_client, bob):
    from server.players.models import Player

    alice = Player.objects.get(pk=token_client.player.pk)
    live = human_match("tictactoe", alice, bob)
    assert token_client.get(f"/api/matches/{live.pk}/analysis/").status_code == 404
    refused = token_client.post(f"/api/matches/{live.pk}/analysis/")
    assert refused.status_code == 409 and refused.json()["code"] == "not_finished"
    assert token_client.post("/api/matches/999999/analysis/").status_code == 404

    match = finished_tictactoe(alice, bob, BLUNDERED_GAME)
    started = token_client.post(f"/api/matches/{match.pk}/analysis/")
    assert started.status_code == 202
    again = token_client.post(f"/api/matches/{match.pk}/analysis/")
    assert again.status_code == 200
    body = token_client.get(f"/api/matches/{match.pk}/analysis/").json()
    assert body["status"] == "done" and body["progress"] == body["total"] == 7
    assert body["search"]["is_ai"] and "engine" not in body  # one word per idea: the search
    assert body["thresholds"] == {"blunder": 0.15, "mistake": 0.1, "inaccuracy": 0.05}
    assert [p["class"] for p in body["plies"]].count("blunder") >= 1


def play_first_legal_moves(match, decisions):
    """Each seat to move plays its last legal move in the game's order, `decisions` times (dice roll themselves)."""
    game = registry.get(match.game)
    for _ in range(decisions):
        match.refresh_from_db()
        state = game.from_json(match.state)
        services.submit_move(match.pk, match.to_move, game.legal_moves(state)[-1], match.ply)
    match.refresh_from_db()
    return match


def stored_moves(match):
    return list(match.moves.order_by("ply").values_list("ply", "seat", "move"))


def assert_judged_consistently(plies, max_utility):
    for p in plies:
        assert p["loss"] is None or p["loss"] >= 0
        if p["forced"]:
            assert p["loss"] == 0 and p["class"] is None and p["best_move"] == p["move"]
        if p["loss"] is not None:
            assert p["class"] == chances.classify(p["drop"])
            assert p["loss"] == pytest.approx(p["best_value"] - p["played_value"], abs=1e-6)
        for value in (p["value"], p["played_value"], *p["seat_values"]):
            assert value is None or -max_utility <= value <= max_utility


@committing
def test_a_backgammon_match_is_analysed_decision_by_decision(alice, bob, settings, monkeypatch):
    settings.ANALYSIS_TIME_BUDGET_MS = 80  # small searches: the checks below hold at any depth
    monkeypatch.setattr(services.moves, "_dice", random.Random(11))
    match = play_first_legal_moves(human_match("backgammon", alice, bob), 6)
    services.match_resign(match.pk, match.to_move if match.to_move in (0, 1) else 0)
    moves = stored_moves(match)
    assert "resigns" in moves[-1][2]  # stored as the resigning seat's move, not judged (agreed, not chosen)
    decisions = [(ply, seat, move) for ply, seat, move in moves[:-1] if seat != CHANCE]
    assert len(decisions) == 6 and len(moves) > 7  # dice are moves of their own

    analysis, _ = analysis_request(match.pk, alice)
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.total == len(decisions)
    assert analysis.search["profile"] == "backgammon-master" and analysis.search["config"]["algorithm"] == "expectimax"
    plies = analysis.plies
    assert [(p["ply"], p["seat"], p["move"]) for p in plies] == decisions  # no verdict for a roll
    rolls = {ply + 1: move for ply, seat, move in moves if seat == CHANCE}
    assert [p["roll"] for p in plies] == [rolls.get(p["ply"]) for p in plies]
    assert plies[0]["roll"].startswith("open ")
    assert_judged_consistently(plies, max_utility=3)
    searched = [p for p in plies if not p["forced"]]
    assert searched and all(p["loss"] is not None and p["value"] is not None for p in searched)
    assert all(p["seat_values"] == [p["value"], -p["value"]][:: 1 if p["seat"] == 0 else -1] for p in searched)


@committing
def test_a_three_player_chinese_checkers_match_is_analysed_with_every_seats_value(alice, settings):
    from server.bots.models import BotProfile

    settings.ANALYSIS_TIME_BUDGET_MS = 80
    bot = BotProfile.objects.get(slug="chinese-checkers-random")
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", bot), services.SeatRequest("bot", bot)]
    match = services.match_create("chinese-checkers", seats, alice)
    game = registry.get("chinese-checkers")
    for _ in range(2):  # the random bots reply inline
        match.refresh_from_db()
        services.submit_move(match.pk, 0, game.legal_moves(game.from_json(match.state))[0], match.ply)
    services.match_resign(match.pk, 0)
    match.refresh_from_db()
    assert match.ply >= 5

    analysis, _ = analysis_request(match.pk, alice)
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.total == match.ply
    # The strongest profile runs MCTS; analysis values every root move with max^n instead.
    assert analysis.search["config"]["algorithm"] == "maxn" and analysis.search["config"]["options"]["exact_root"]
    plies = analysis.plies
    assert [p["seat"] for p in plies] == [ply % 3 for ply in range(match.ply)]
    assert_judged_consistently(plies, max_utility=1)
    for p in plies:
        assert len(p["seat_values"]) == 3 and None not in p["seat_values"]
        assert p["value"] == p["seat_values"][p["seat"]]  # the loss is in the mover's own component


@pytest.mark.parametrize("game_id", ["backgammon", "chinese-checkers"])
def test_exact_root_values_every_root_move_as_a_full_window_does(game_id):
    """Without it the searchers bound the moves that cannot beat the best; analysis needs their values."""
    game = registry.get(game_id)
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    algorithm = "expectimax" if game.has_chance else "maxn"
    # Depth 2 bounds the searches; the budget is generous so that a busy machine still reaches it.
    config = {"algorithm": algorithm, "max_depth": 2, "time_budget_ms": 60000}
    found = positions.search_position(game_id, game.to_json(state), {**config, "options": {"exact_root": True}})
    exact = ai.choose_move(game, state, ai.SearchConfig(**config, options={"exact_root": True}))
    # A weakened bot searches every root move with a full window too.
    full = ai.choose_move(game, state, ai.SearchConfig(**config, slip_rate=0.01, seed=1))
    assert exact.stats["root_values"] == full.stats["root_values"]
    values = exact.stats["root_values"]
    assert found["value"] == max(values.values()) and values[found["best_move"]] == found["value"]
    if algorithm == "maxn":
        seat = game.to_move(state)
        assert all(exact.stats["root_vectors"][m][seat] == v for m, v in values.items())
        assert found["vector"] == exact.stats["root_vectors"][found["best_move"]]


def test_backgammon_losses_are_measured_on_its_scale_of_three():
    """A roll is skipped; a forced move takes no blame; 0.15 of equity lost from +0.2 is an inaccuracy
    (the winning chances drop 0.07), 1.6 a blunder."""
    moves = [(0, CHANCE, "open 3-1"), (1, 0, "8/5 6/5"), (2, CHANCE, "roll 6-5"), (3, 1, "24/13")]
    searched = [
        {"best_move": "24/21 6/5", "value": 0.2, "played_value": 0.05, "depth": 2, "nodes": 9, "exact": False},
        {"best_move": "13/2", "value": 0.5, "played_value": -1.1, "depth": 2, "nodes": 9, "exact": False},
    ]
    plies = positions.ply_results("backgammon", moves, searched)
    assert [(p["ply"], p["roll"], p["loss"], p["class"]) for p in plies] == [
        (1, "open 3-1", pytest.approx(0.15), "inaccuracy"),
        (3, "roll 6-5", pytest.approx(1.6), "blunder"),
    ]
    forced = [{"best_move": "24/13", "value": 0.0, "forced": True, "depth": 0, "nodes": 0, "exact": False}]
    only = positions.ply_results("backgammon", moves, [searched[0], *forced])[1]
    assert only["loss"] == 0 and only["class"] is None and only["value"] is None


def test_a_forced_move_takes_its_value_from_what_follows():
    """Two seats, no dice: the move before a forced one is judged by the forced move's outcome."""
    moves = [(ply, ply % 2, move) for ply, move in enumerate(["3", "2", "5", "1", "8", "9", "6", "7", "4"])]
    searched = [{"best_move": m, "value": 0.0, "depth": 9, "nodes": 1, "exact": True} for _, _, m in moves]
    searched[7] = {"best_move": "4", "value": 0.0, "depth": 9, "nodes": 1, "exact": True}  # O had to take 4
    searched[8] = {"best_move": "4", "value": 0.0, "forced": True, "depth": 0, "nodes": 0, "exact": False}
    plies = positions.ply_results("tictactoe", moves, searched)
    last, before = plies[8], plies[7]
    assert last["forced"] and last["value"] == 1.0 and last["class"] is None  # X's only move wins
    assert before["played_value"] == -1.0 and before["loss"] == 1.0 and before["class"] == "blunder"


@pytest.mark.django_db
def test_chess_analysis_searches_without_the_masters_book_and_tables():
    chosen = search_settings("chess")
    assert chosen["profile"] == "chess-master"
    options = chosen["config"]["options"]
    assert "opening_book" not in options and "tablebases" not in options  # they give no searched figures
    assert options["null_move"] is True  # the Master's search otherwise
