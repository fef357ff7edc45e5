"""Rated matches change the people's ratings once, in the transaction that ends them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.matches import services
from server.matches.errors import NotRatable
from server.matches.models import Match, Seat
from server.ratings.models import PlayerRating, RatingChange
from server.ratings.selectors import rating_history, ratings_for

HUMAN = services.SeatRequest("human")
X_WINS = ["1", "4", "2", "5", "3"]  # tic-tac-toe: seat 0 takes the top row
DRAWN = ["5", "1", "9", "3", "2", "8", "4", "6", "7"]
OPENING = ["5", "1", "9", "3"]  # two moves each: enough for a rated ending to count (RATING_MIN_PLIES)


def rated_match(first, second, game="tictactoe", rated=True, **kwargs) -> Match:
    match = services.match_create(game, [HUMAN, HUMAN], first, rated=rated, **kwargs)
    services.match_join(match.pk, second)
    match.refresh_from_db()
    return match


def play(match: Match, moves: list[str]) -> None:
    for ply, move in enumerate(moves):
        services.submit_move(match.pk, ply % 2, move, ply)


def rating(player, game="tictactoe") -> PlayerRating:
    return PlayerRating.objects.get(player=player, game=game)


@pytest.mark.django_db
def test_a_win_moves_both_ratings_once_and_keeps_the_history(alice, bob):
    match = rated_match(alice, bob)
    play(match, X_WINS)
    winner, loser = rating(alice), rating(bob)
    assert winner.rating > 1500 > loser.rating and winner.games == loser.games == 1
    assert winner.deviation < 350 and winner.provisional
    change = RatingChange.objects.get(match=match, player=alice)
    assert (change.score, change.rating_before, change.rating_after) == (1.0, 1500, winner.rating)
    assert [h["rating"] for h in rating_history(alice.pk, "tictactoe")] == [winner.rating]
    [entry] = ratings_for(alice.pk)
    assert entry["game"] == "tictactoe" and entry["provisional"] is True and entry["games"] == 1


@pytest.mark.django_db
def test_a_draw_leaves_equal_ratings_equal(alice, bob):
    play(rated_match(alice, bob), DRAWN)
    assert rating(alice).rating == pytest.approx(1500) == pytest.approx(rating(bob).rating)
    assert RatingChange.objects.filter(score=0.5).count() == 2


@pytest.mark.django_db
def test_resignation_rates_the_resigner_as_the_loser(alice, bob):
    match = rated_match(alice, bob)
    play(match, OPENING)
    services.match_resign(match.pk, 0)
    assert rating(alice).rating < 1500 < rating(bob).rating


@pytest.mark.django_db
def test_a_fallen_clock_is_rated(alice, bob, settings):
    match = rated_match(alice, bob, game="connect4", clock=services.Clock(1, 0))
    play(match, ["4", "4", "3", "3", "5"])
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=70))
    assert services.flag_fallen_clocks() == 1
    assert rating(alice, "connect4").rating > 1500 > rating(bob, "connect4").rating


@pytest.mark.django_db
def test_abandonment_is_rated(alice, bob, settings):
    match = rated_match(alice, bob, game="connect4")
    play(match, ["4", "4", "3", "3"])
    services.seat_presence(match.pk, 0, True)
    services.seat_presence(match.pk, 1, True)
    services.seat_presence(match.pk, 1, False)
    later = timezone.now() + timedelta(milliseconds=settings.ABANDON_GRACE_MS + 1000)
    Seat.objects.filter(match=match, index=0).update(last_seen_at=later)
    assert services.abandon_gone_seats(later) == 1
    assert rating(alice, "connect4").rating > 1500 > rating(bob, "connect4").rating


@pytest.mark.django_db
def test_aborted_and_casual_matches_change_no_rating(alice, bob):
    aborted = rated_match(alice, bob)
    services.match_abort(aborted.pk, "an admin's")
    waiting = services.match_create("tictactoe", [HUMAN, HUMAN], alice, rated=True)
    services.match_resign(waiting.pk, 0)  # before the start: aborted
    play(rated_match(alice, bob, rated=False), X_WINS)
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_rated_is_refused_with_bots_or_hints(alice, fast_bot, settings):
    bot = services.SeatRequest("bot", fast_bot)
    with pytest.raises(NotRatable):
        services.match_create("connect4", [HUMAN, bot], alice, rated=True)
    settings.BOT_GAMES_RATED_FOR_HUMANS = True
    with pytest.raises(NotRatable):
        services.match_create("connect4", [HUMAN, bot], alice, rated=True, hints=True)
    assert services.match_create("connect4", [HUMAN, bot], alice, rated=True).rated


@pytest.mark.django_db
def test_idle_time_widens_the_deviation_before_the_next_match(alice, bob, settings):
    play(rated_match(alice, bob), X_WINS)
    after_first = rating(alice).deviation
    PlayerRating.objects.filter(player=alice).update(updated_at=timezone.now() - timedelta(days=365))
    play(rated_match(bob, alice), X_WINS)  # bob first now: alice loses
    change = RatingChange.objects.filter(player=alice).last()
    assert change.deviation_before > after_first
    assert change.deviation_before == pytest.approx(
        min(350, ((after_first / 173.7178) ** 2 + 365 * 0.21436 * 0.06**2) ** 0.5 * 173.7178), rel=1e-3
    )


@pytest.mark.django_db
def test_a_failing_rating_undoes_the_ending(alice, bob, monkeypatch):
    match = rated_match(alice, bob)
    play(match, X_WINS[:-1])

    def broken(*args, **kwargs):
        raise RuntimeError("ratings are down")

    monkeypatch.setattr("server.ratings.services.glicko2.rate", broken)
    with pytest.raises(RuntimeError):
        services.submit_move(match.pk, 0, X_WINS[-1], len(X_WINS) - 1)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and not PlayerRating.objects.exists()
