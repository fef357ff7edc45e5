"""Post-game analysis: one job per match, every position searched, each move classified."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from server.analysis import engine
from server.analysis.models import Analysis
from server.analysis.services import analysis_request, analysis_step
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


def test_thresholds_are_in_units_of_max_utility():
    assert engine.classify(0.0, 1.0) is None
    assert engine.classify(0.099, 1.0) is None
    assert engine.classify(0.1, 1.0) == "inaccuracy"
    assert engine.classify(0.25, 1.0) == "mistake"
    assert engine.classify(0.5, 1.0) == "blunder"
    assert engine.classify(2.0, 1.0) == "blunder"  # a won game thrown away
    assert engine.classify(0.5, 10.0) is None  # the same loss is small on a scale of 10
    assert engine.classify(5.0, 10.0) == "blunder"


@committing
def test_a_finished_match_is_analysed_move_by_move(alice, bob):
    match = finished_tictactoe(alice, bob, BLUNDERED_GAME)
    channel = async_to_sync(get_channel_layer().new_channel)()
    async_to_sync(get_channel_layer().group_add)(broadcast.match_group(match.pk), channel)

    analysis, started = analysis_request(match.pk, alice)  # the inline runner searches it all now
    assert started
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.progress == analysis.total == len(BLUNDERED_GAME)
    assert analysis.engine["profile"] == "tictactoe-perfect"  # the level-5 profile's search
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
    assert body["engine"]["is_ai"] and body["thresholds"] == {"blunder": 0.5, "mistake": 0.25, "inaccuracy": 0.1}
    assert [p["class"] for p in body["plies"]].count("blunder") >= 1


@committing
def test_games_with_dice_or_three_players_are_refused(alice):
    from server.bots.models import BotProfile

    bot = BotProfile.objects.get(slug="backgammon-random")
    match = services.match_create(
        "backgammon", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], alice
    )
    services.match_resign(match.pk, 0)
    with pytest.raises(Exception) as refused:
        analysis_request(match.pk, alice)
    assert getattr(refused.value, "code", None) == "analysis_unavailable"
