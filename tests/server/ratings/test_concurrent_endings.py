"""Exactly once under races: endings that collide rate a match once and lose no update.

Runs on the test database in use: SQLite by default, PostgreSQL with
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/test``.
"""

from __future__ import annotations

import pytest

from server.matches import services
from server.matches.models import Match
from server.ratings.models import PlayerRating, RatingChange
from server.ratings.services import rate_match
from tests.support import race

pytestmark = pytest.mark.django_db(transaction=True)

HUMAN = services.SeatRequest("human")
OPENING = ["5", "1", "9", "3"]  # two moves each: enough for an ending to be rated (RATING_MIN_PLIES)


def rated_match(first, second, opening=OPENING) -> Match:
    """A rated tic-tac-toe match between `first` and `second`, past its `opening`."""
    match = services.match_create("tictactoe", [HUMAN, HUMAN], first, rated=True)
    services.match_join(match.pk, second)
    for ply, cell in enumerate(opening):
        services.submit_move(match.pk, ply % 2, cell, ply)
    return match


def test_both_players_resigning_at_once_rate_the_match_once(alice, bob):
    match = rated_match(alice, bob)
    results = race(lambda i: services.match_resign(match.pk, i % 2), 4)
    assert sum(isinstance(r, Match) for r in results) == 1, results
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(PlayerRating.objects.values_list("games", flat=True)) == [1, 1]


def test_a_winning_move_racing_a_resignation_and_an_abort_rates_at_most_once(alice, bob):
    match = rated_match(alice, bob, opening=["1", "4", "2", "5"])
    endings = [
        lambda: services.submit_move(match.pk, 0, "3", 4),
        lambda: services.match_resign(match.pk, 1),
        lambda: services.match_resign(match.pk, 0),
        lambda: services.match_abort(match.pk, "an admin's"),
    ]
    race(lambda i: endings[i](), len(endings))
    match.refresh_from_db()
    rated = RatingChange.objects.filter(match=match).count()
    assert (match.status, rated) in ((Match.Status.FINISHED, 2), (Match.Status.ABORTED, 0))
    assert all(r.games == rated // 2 for r in PlayerRating.objects.all())


def test_rating_a_match_again_changes_nothing(alice, bob):
    match = rated_match(alice, bob)
    services.match_resign(match.pk, 1)
    before = list(PlayerRating.objects.order_by("pk").values())
    match.refresh_from_db()
    assert race(lambda i: rate_match(match), 3) == [[], [], []]
    assert list(PlayerRating.objects.order_by("pk").values()) == before


def test_matches_of_the_same_people_ending_at_once_lose_no_update(alice, bob, settings):
    settings.RATING_PAIR_MATCHES_PER_DAY = 6  # all six count: the races are what is tested here
    matches = [rated_match(alice, bob) if i % 2 else rated_match(bob, alice) for i in range(6)]
    race(lambda i: services.match_resign(matches[i].pk, 1), len(matches))
    assert RatingChange.objects.count() == 12
    for row in PlayerRating.objects.all():
        assert row.games == 6
        chain = list(RatingChange.objects.filter(player=row.player).order_by("pk"))
        assert chain[-1].rating_after == pytest.approx(row.rating)
        for earlier, later in zip(chain, chain[1:], strict=False):
            assert later.rating_before == pytest.approx(earlier.rating_after)  # each saw the one before
