"""A move entered part by part: the match object and the move frames carry the game's `move_parts`."""

from __future__ import annotations

import pytest

from games import registry
from server.matches import selectors, services
from server.matches.models import Match, MatchEvent
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match

pytestmark = pytest.mark.django_db(transaction=True)


def to_a_seats_turn(match: Match) -> None:
    """Play the dice (and nothing else) until a seat is to move."""
    match.refresh_from_db()
    while match.to_move == -1:
        game = registry.get(match.game)
        roll = game.chance_outcomes(game.from_json(match.state))[0][0]
        services.submit_move(match.pk, -1, roll, match.ply)
        match.refresh_from_db()


def test_a_backgammon_match_sends_each_plays_steps_with_the_legal_plays(db):
    (alice, _), (bob, _) = player_create_guest_with_token("Alice"), player_create_guest_with_token("Bob")
    match = human_match("backgammon", alice, bob)
    to_a_seats_turn(match)
    body = selectors.match_json(selectors.match_get(match.pk))
    game = registry.get("backgammon")
    expected = [node.to_json() for node in game.move_parts(game.from_json(body["state"]))]
    assert body["move_parts"] == expected and body["legal_moves"]
    ends = {node["move"] for node in body["move_parts"] if node["move"]}
    assert ends == set(body["legal_moves"])
    last = MatchEvent.objects.filter(match=match, frame__type="move").order_by("-v").first()
    assert last.frame["move_parts"] == expected  # the roll's frame: the seat now to move enters its play by steps


def test_a_game_picked_whole_sends_none(two_players):
    match, _, _ = two_players
    assert selectors.match_json(selectors.match_get(match.pk))["move_parts"] is None
    services.submit_move(match.pk, 0, "4", 0)
    assert "move_parts" not in MatchEvent.objects.filter(match=match, frame__type="move").get().frame
