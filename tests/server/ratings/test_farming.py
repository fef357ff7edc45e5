"""Ratings nobody can farm: rated games need accounts, one pair moves each other's ratings in
a few matches a day, and an instant resignation counts for nothing (docs/security.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.matches import services
from server.matches.errors import RatedNeedsAccount
from server.matches.models import Match
from server.players.services import player_create_guest, player_create_guest_with_token
from server.ratings.models import PlayerRating, RatingChange
from tests.server.conftest import with_account

HUMAN = services.SeatRequest("human")
X_WINS = ["1", "4", "2", "5", "3"]  # tic-tac-toe: seat 0 takes the top row
# Twenty decisive games between the same two accounts in one day move a rating by at most this
# much: three counted wins, 1500 to 1753 for two new (provisional, deviation 350) ratings, and
# 1500 to 1529 for two established ones (deviation 60).
NEW_PAIR_DAY_BOUND = 260
ESTABLISHED_PAIR_DAY_BOUND = 30


def rated_match(first, second) -> Match:
    match = services.match_create("tictactoe", [HUMAN, HUMAN], first, rated=True)
    services.match_join(match.pk, second)
    return match


def win(first, second) -> Match:
    """A rated match that `first` (seat 0) wins."""
    match = rated_match(first, second)
    for ply, cell in enumerate(X_WINS):
        services.submit_move(match.pk, ply % 2, cell, ply)
    return match


def rating(player) -> float:
    row = PlayerRating.objects.filter(player=player, game="tictactoe").first()
    return 1500.0 if row is None else row.rating


@pytest.mark.django_db
def test_a_guest_cannot_create_or_join_a_rated_match(alice):
    guest = player_create_guest("Drifter")
    with pytest.raises(RatedNeedsAccount) as refused:
        services.match_create("tictactoe", [HUMAN, HUMAN], guest, rated=True)
    assert refused.value.code == "rated_needs_account" and "sign up" in refused.value.message
    match = services.match_create("tictactoe", [HUMAN, HUMAN], alice, rated=True)
    with pytest.raises(RatedNeedsAccount):
        services.match_join(match.pk, guest)
    assert match.seats.filter(player=guest).count() == 0
    casual = services.match_create("tictactoe", [HUMAN, HUMAN], guest)
    assert services.match_join(casual.pk, alice).status == Match.Status.ACTIVE  # casual: anyone


@pytest.mark.django_db
def test_the_api_answers_a_guests_rated_match_with_a_clear_error():
    from rest_framework.test import APIClient

    _guest, token = player_create_guest_with_token("Drifter")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    body = {"game": "tictactoe", "seats": [{"kind": "human"}, {"kind": "human"}], "rated": True}
    refused = client.post("/api/matches/", body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "rated_needs_account"
    assert "sign up" in refused.json()["detail"] and not Match.objects.exists()


@pytest.mark.django_db
def test_twenty_wins_between_the_same_two_accounts_in_a_day_count_three_times(alice, bob, settings):
    assert settings.RATING_PAIR_MATCHES_PER_DAY == 3
    after = []
    for _ in range(20):
        win(alice, bob)
        after.append(rating(alice))
    assert Match.objects.filter(status=Match.Status.FINISHED, rated=True).count() == 20  # all rated, all listed
    assert RatingChange.objects.filter(player=alice).count() == 3
    assert after[2] == after[19] and after[0] < after[1] < after[2]  # the fourth on changes nothing
    assert 0 < after[19] - 1500 <= NEW_PAIR_DAY_BOUND and 0 < 1500 - rating(bob) <= NEW_PAIR_DAY_BOUND
    assert PlayerRating.objects.get(player=alice).games == 3


@pytest.mark.django_db
def test_twenty_wins_between_two_established_accounts_move_them_little(alice, bob):
    for person in (alice, bob):
        PlayerRating.objects.create(
            player=person, game="tictactoe", rating=1500, deviation=60, games=50, updated_at=timezone.now()
        )
    for _ in range(20):
        win(alice, bob)
    assert 0 < rating(alice) - 1500 <= ESTABLISHED_PAIR_DAY_BOUND
    assert 0 < 1500 - rating(bob) <= ESTABLISHED_PAIR_DAY_BOUND


@pytest.mark.django_db
def test_the_pair_limit_is_per_pair_and_rolls_with_the_day(alice, bob):
    for _ in range(3):
        win(alice, bob)
    carol = with_account(player_create_guest("Carol"))
    win(alice, carol)  # another partner: counts
    assert RatingChange.objects.filter(player=alice).count() == 4
    win(alice, bob)
    assert RatingChange.objects.filter(player=alice).count() == 4
    RatingChange.objects.update(at=timezone.now() - timedelta(hours=25))  # a day later
    win(alice, bob)
    assert RatingChange.objects.filter(player=alice).count() == 5


@pytest.mark.django_db
def test_an_instant_resignation_changes_no_rating(alice, bob):
    resigned_at_once = rated_match(alice, bob)
    services.match_resign(resigned_at_once.pk, 1)
    after_one_move = rated_match(alice, bob)
    services.submit_move(after_one_move.pk, 0, "5", 0)
    services.submit_move(after_one_move.pk, 1, "1", 1)
    services.submit_move(after_one_move.pk, 0, "9", 2)
    services.match_resign(after_one_move.pk, 1)
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 2
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
