"""``GET /api/exports/estimate/``: an export's size before the download, with the exports' filters and permission."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.players.services import player_create_guest_with_token
from server.research import estimate
from tests.server.research.helpers import T0, client_for, store_match
from tests.server.research.test_research_exports import BAD_FILTER_CASES, FILTER_CASES, GAMES, MOVES

pytestmark = pytest.mark.django_db

ESTIMATE = "/api/exports/estimate/"


def body_of(response) -> bytes:
    return b"".join(response.streaming_content)


def sizes(client, query: str = "") -> dict:
    response = client.get(f"{ESTIMATE}?{query}")
    assert response.status_code == 200, response.json()
    return response.json()


def real_export(client, query: str = "") -> dict:
    """The figures of the downloads themselves: lines, CSV rows and bytes."""
    games = body_of(client.get(f"{GAMES}?{query}"))
    moves = body_of(client.get(f"{MOVES}?{query}"))
    return {
        "matches": games.count(b"\n"),
        "moves": len(moves.decode().splitlines()) - 1,  # no cell of the dataset holds a newline
        "bytes": {"games.jsonl": len(games), "moves.csv": len(moves)},
    }


def test_only_researchers_may_ask(dataset, researcher):
    assert APIClient().get(ESTIMATE).status_code == 403  # anonymous
    assert client_for(player_create_guest_with_token()[0]).get(ESTIMATE).status_code == 403  # a guest
    refused = client_for(dataset.people["zeb"]).get(ESTIMATE)  # an account, not a researcher
    assert refused.status_code == 403 and "researcher" in refused.json()["detail"]
    assert researcher.get(ESTIMATE).status_code == 200


def test_a_bad_token_is_401(dataset):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert client.get(ESTIMATE).status_code == 401


def test_small_exports_are_measured_exactly_with_every_filter(dataset, researcher):
    # Six matches: the sample is the whole selection, so every figure is the download's own.
    for query, _ in FILTER_CASES:
        found = sizes(researcher, query)
        assert found["exact"] is True, query
        assert {k: found[k] for k in ("matches", "moves", "bytes")} == real_export(researcher, query), query


def test_an_empty_selection_is_zero_matches_and_the_csv_header(dataset, researcher):
    found = sizes(researcher, "game=othello")
    assert found["matches"] == found["moves"] == 0 and found["bytes"]["games.jsonl"] == 0
    assert found["bytes"]["moves.csv"] == real_export(researcher, "game=othello")["bytes"]["moves.csv"] > 0


def test_bad_filters_are_the_exports_400s(dataset, researcher):
    for query, field in BAD_FILTER_CASES:
        response = researcher.get(f"{ESTIMATE}?{query}")
        assert response.status_code == 400, query
        assert list(response.json()) == [field], (query, response.json())


def many_matches(count: int) -> None:
    """`count` bot games of varying length (with search figures), and an unstarted match first."""
    bot = BotProfile.objects.get(slug="connect4-shallow")
    store_match("connect4", [bot, None], [], status="aborted", created_at=T0 - timedelta(days=1))
    for i in range(count):
        moves = [(ply % 2, str(1 + (ply + i) % 7)) for ply in range(4 + i % 17)]
        store_match("connect4", [bot, bot], moves, winner=i % 2, created_at=T0 + timedelta(minutes=i))


def test_large_exports_are_counted_exactly_and_sized_from_a_sample(db, researcher, monkeypatch):
    monkeypatch.setattr(estimate, "SAMPLE_MATCHES", 10)
    many_matches(60)
    for query in ("status=any", "max=40", "status=any&since=2026-03-01T00:30:00Z"):
        found, real = sizes(researcher, query), real_export(researcher, query)
        assert found["exact"] is False, query
        assert (found["matches"], found["moves"]) == (real["matches"], real["moves"]), query
        for name, size in real["bytes"].items():
            assert abs(found["bytes"][name] - size) <= 0.15 * size, (query, name, found["bytes"][name], size)


def test_a_sample_without_moves_measures_the_moves_elsewhere(db, researcher, monkeypatch):
    monkeypatch.setattr(estimate, "SAMPLE_MATCHES", 1)  # the aborted match alone: no moves in it
    many_matches(5)
    found, real = sizes(researcher, "status=any"), real_export(researcher, "status=any")
    assert found["moves"] == real["moves"] > 0
    assert abs(found["bytes"]["moves.csv"] - real["bytes"]["moves.csv"]) <= 0.3 * real["bytes"]["moves.csv"]


def test_counting_is_a_fixed_number_of_queries(db, researcher, monkeypatch, django_assert_max_num_queries):
    monkeypatch.setattr(estimate, "SAMPLE_MATCHES", 5)
    many_matches(30)
    # auth, the count, two samples of four queries (matches, seats, moves, rating changes): not a query a match
    with django_assert_max_num_queries(18):
        assert sizes(researcher, "status=any")["matches"] == 31


def test_a_second_match_like_the_first_doubles_the_lines_and_the_rows(db, researcher):
    bot = BotProfile.objects.get(slug="connect4-shallow")
    store_match("connect4", [bot, bot], [(0, "4"), (1, "4")], winner=None, reason="board full")
    one = sizes(researcher)["bytes"]
    store_match("connect4", [bot, bot], [(0, "4"), (1, "4")], winner=None, reason="board full")
    two = sizes(researcher)["bytes"]
    header = len(body_of(researcher.get(f"{MOVES}?game=othello")))  # an empty export: the header alone
    assert two["games.jsonl"] == 2 * one["games.jsonl"]
    assert two["moves.csv"] - header == 2 * (one["moves.csv"] - header)


def test_estimates_are_throttled_per_researcher(db, researcher, monkeypatch):
    from django.core.cache import cache

    from server.players.throttles import EstimateThrottle

    monkeypatch.setattr(
        EstimateThrottle, "THROTTLE_RATES", {**EstimateThrottle.THROTTLE_RATES, "export_estimate": "2/minute"}
    )
    cache.clear()
    try:
        assert [researcher.get(ESTIMATE).status_code for _ in range(3)] == [200, 200, 429]
    finally:
        cache.clear()
