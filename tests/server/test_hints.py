"""Hints: only in unrated matches of one person against bots, created with them, for the player to move."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from server.analysis.services import hint_request
from server.matches import services
from server.matches.models import MatchEvent, Move
from server.players.models import Player
from tests.server.conftest import human_match

# The bot replies inline after each move: real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def create(client, seats, hints=True, game="tictactoe", **extra):
    return client.post("/api/matches/", {"game": game, "seats": seats, "hints": hints, **extra}, format="json")


BOT = {"kind": "bot", "profile": "tictactoe-random"}
HUMAN = {"kind": "human"}


def test_a_hint_gives_the_best_move_and_is_logged_with_the_next_move(token_client, settings):
    settings.HINT_TIME_BUDGET_MS = 200
    match = create(token_client, [HUMAN, BOT]).json()
    assert match["hints_allowed"] is True
    hint = token_client.post(f"/api/matches/{match['id']}/hint/")
    assert hint.status_code == 200, hint.json()
    body = hint.json()
    assert body["status"] == "done"  # the inline runner searched it at once; on workers a 202 first
    assert body["type"] == "hint" and body["seat"] == 0 and body["ply"] == 0 and body["is_ai"]
    assert body["move"] in [str(i) for i in range(1, 10)] and isinstance(body["value"], float)
    assert MatchEvent.objects.filter(match_id=match["id"], frame__type="hint").count() == 1

    services.submit_move(match["id"], 0, body["move"], 0)
    played = Move.objects.get(match_id=match["id"], ply=0)
    assert played.stats["hint"]["move"] == body["move"]  # exports show the hint with the move
    bot_reply = Move.objects.get(match_id=match["id"], ply=1)
    assert "hint" not in (bot_reply.stats or {})


def test_hints_are_refused_clearly(token_client, bob, settings):
    settings.HINT_TIME_BUDGET_MS = 100
    # Off by default.
    plain = create(token_client, [HUMAN, BOT], hints=False).json()
    refused = token_client.post(f"/api/matches/{plain['id']}/hint/")
    assert refused.status_code == 403 and refused.json()["code"] == "hints_off"
    # Not against a bot: refused at creation, whatever the rating.
    people = create(token_client, [HUMAN, HUMAN])
    assert people.status_code == 400 and "against bots" in people.json()["detail"]
    # Rated games never allow them.
    settings.BOT_GAMES_RATED_FOR_HUMANS = True
    rated = create(token_client, [HUMAN, BOT], rated=True)
    assert rated.status_code == 400 and "rated" in rated.json()["detail"]
    settings.BOT_GAMES_RATED_FOR_HUMANS = False
    # A spectator has no seat to ask for.
    match = create(token_client, [HUMAN, BOT]).json()
    other = APIClient()
    other.force_authenticate(Player.objects.get(pk=bob.pk))
    assert other.post(f"/api/matches/{match['id']}/hint/").json()["code"] == "not_seated"


def test_no_hint_when_it_is_not_your_turn(alice, bob, settings):
    match = human_match("tictactoe", alice, bob)
    match.hints_allowed = True  # forced on, to reach the turn check
    match.save(update_fields=["hints_allowed"])
    with pytest.raises(Exception) as refused:
        hint_request(match.pk, bob)
    assert refused.value.code == "not_your_turn"
