"""``GET /api/algorithms/``: the algorithm catalogue (`ai.CATALOGUE`) as the API serves it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import ai
from server.bots.models import BotProfile, profile_problems
from tests.server.test_schema import Contract


@pytest.mark.django_db
def test_the_catalogue_is_served_as_declared():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    response = APIClient().get("/api/algorithms/")
    body = Contract(schema).check(response, "/api/algorithms/", "get")
    assert [a["id"] for a in body] == list(ai.CATALOGUE)
    by_id = {a["id"]: a for a in body}
    assert by_id["maxn"]["label"] == "max^n" and by_id["maxn"]["games"] == ["chinese-checkers"]
    assert "backgammon" not in by_id["alphabeta"]["games"] and "backgammon" in by_id["expectimax"]["games"]
    rollout = next(o for o in by_id["mcts"]["options"] if o["name"] == "rollout")
    assert rollout == {"name": "rollout", "type": "string", "choices": ["random", "heuristic"], "default": "random"}
    assert by_id["mcts"]["counts_iterations"] and by_id["expectimax"]["uses_opponent_model"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"paranoid": True}, "unknown option 'paranoid' for alphabeta"),
        ({"tt_size": "big"}, "option 'tt_size' is int"),
    ],
)
def test_the_admin_names_an_option_the_algorithm_does_not_take(options, words):
    profile = BotProfile(slug="x", game="connect4", name="X", level=2, algorithm="alphabeta", search_options=options)
    assert words in profile_problems(profile)["search_options"]
