"""Bots and people on one Glicko-2 scale: placed by calibration, moved by rated games against people."""

from __future__ import annotations

import importlib
from datetime import date

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from server.bots import measured, placement
from server.bots.models import BotProfile
from server.bots.seed import seed_profiles
from server.matches import services
from server.ratings import glicko2
from server.ratings.models import BotRatingChange, PlayerRating

HUMAN = services.SeatRequest("human")


@pytest.fixture(autouse=True)
def measured_bots(db):
    """The bots with their measured ratings, as `seed_bots` leaves a fresh install (migrations seed none)."""
    seed_profiles(BotProfile)


def rated_against(person, slug: str):
    """A rated tic-tac-toe match of `person` (seat 0) against the bot `slug`, won by the person at once."""
    bot = BotProfile.objects.get(slug=slug)
    match = services.match_create("tictactoe", [HUMAN, services.SeatRequest("bot", bot)], person, rated=True)
    services.match_resign(match.pk, 1)  # the bot's seat gives up: the person wins
    return match


@pytest.fixture
def rated_bot_games(settings):
    settings.BOT_GAMES_RATED_FOR_HUMANS = True
    settings.RATING_MIN_PLIES = 0  # a resignation before any move counts here: the scale is what is tested


@pytest.mark.django_db
def test_a_rated_game_against_a_person_moves_the_bot_and_the_person_on_one_scale(alice, rated_bot_games, settings):
    bot = BotProfile.objects.get(slug="tictactoe-shallow")
    before = glicko2.Rating(bot.rating, bot.deviation, bot.volatility)
    match = rated_against(alice, "tictactoe-shallow")
    bot.refresh_from_db()
    change = BotRatingChange.objects.get(match=match, profile=bot)
    assert (change.rating_before, change.score) == (before.rating, 0.0)
    expected = glicko2.rate(before, [glicko2.Result(glicko2.Rating(), 0.0)], tau=settings.RATING_TAU)
    assert bot.rating == pytest.approx(expected.rating) and bot.rating < before.rating
    assert bot.deviation == pytest.approx(expected.deviation)  # against a new player it barely narrows
    # The person was rated against the bot's rating as it stood, with its own deviation.
    person = PlayerRating.objects.get(player=alice, game="tictactoe")
    assert person.rating == pytest.approx(
        glicko2.rate(glicko2.Rating(), [glicko2.Result(before, 1.0)], tau=settings.RATING_TAU).rating
    )
    # The API shows the moved figure, on the people's scale with its uncertainty.
    listed = {b["slug"]: b for b in APIClient().get("/api/bots/?game=tictactoe").json()}["tictactoe-shallow"]
    assert listed["rating"] == pytest.approx(bot.rating) and listed["deviation"] == pytest.approx(bot.deviation)
    # Seeding again keeps what the games against people did.
    seed_profiles(BotProfile)
    assert BotProfile.objects.get(pk=bot.pk).rating == pytest.approx(bot.rating)


@pytest.mark.django_db
def test_adaptive_bots_and_unrated_bot_games_leave_the_bot_where_it_was(alice, bob, settings, rated_bot_games):
    adaptive = BotProfile.objects.get(slug="tictactoe-adaptive")
    rated_against(alice, "tictactoe-adaptive")
    assert BotProfile.objects.get(pk=adaptive.pk).rating == adaptive.rating
    assert not BotRatingChange.objects.exists()
    assert PlayerRating.objects.filter(player=alice).exists()  # the person is rated against it all the same
    settings.BOT_GAMES_RATED_FOR_HUMANS = False
    shallow = BotProfile.objects.get(slug="tictactoe-shallow")
    match = services.match_create("tictactoe", [HUMAN, services.SeatRequest("bot", shallow)], bob)
    services.match_resign(match.pk, 1)
    assert BotProfile.objects.get(pk=shallow.pk).rating == shallow.rating and not BotRatingChange.objects.exists()


@pytest.mark.django_db
def test_every_measured_bot_is_listed_in_ladder_order_with_one_rating_and_its_uncertainty():
    for game in ("chess", "tictactoe", "chinese-checkers"):
        bots = APIClient().get(f"/api/bots/?game={game}").json()
        assert [b["level"] for b in bots] == sorted(b["level"] for b in bots)
        for bot in bots:
            assert bot["rating"] > 0 and bot["deviation"] >= placement.MIN_DEVIATION, bot["slug"]
            assert bot["provisional"] == (bot["deviation"] > 110)
            assert bot["rating_low"] <= bot["rating"] <= bot["rating_high"]
    # People start at 1500; the random mover sits at its placement, the Masters above it.
    random_mover = APIClient().get("/api/bots/chess-random/").json()
    assert random_mover["rating"] == placement.RANDOM_MOVER_RATING


def test_placement_keeps_calibration_differences_and_turns_the_interval_into_a_deviation():
    a, b = placement.place(300, 100, 500), placement.place(500, 300, 700)
    assert b.rating - a.rating == 200 and a.rating == 300 + placement.RANDOM_MOVER_RATING
    assert a.deviation == pytest.approx(200 / 1.959964)
    assert placement.place(0, 0, 0).deviation == placement.MIN_DEVIATION  # the anchor is exact only among bots
    assert placement.calibration_elo(a.rating) == 300


@pytest.mark.django_db
def test_the_data_migration_moves_existing_bot_ratings_onto_the_people_scale():
    migration = importlib.import_module("server.bots.migrations.0011_bots_on_the_people_scale")
    BotProfile.objects.filter(slug="connect4-deep").update(
        rating=488.0, rating_low=250.0, rating_high=726.0, deviation=None, volatility=None
    )
    BotProfile.objects.filter(slug="connect4-random").update(
        rating=0.0, rating_low=None, rating_high=None, deviation=None, volatility=None
    )
    BotProfile.objects.filter(slug="connect4-master").update(**measured.RATING_FIELDS)
    migration.to_people_scale(apps, None)
    deep = BotProfile.objects.get(slug="connect4-deep")
    assert (deep.rating, deep.rating_low, deep.rating_high) == (1088.0, 850.0, 1326.0)
    assert deep.deviation == pytest.approx(238 / 1.959964) and deep.volatility == 0.06
    anchor = BotProfile.objects.get(slug="connect4-random")
    assert (anchor.rating, anchor.deviation) == (600.0, 60.0)
    assert BotProfile.objects.get(slug="connect4-master").rating is None  # unmeasured stays unmeasured
    migration.to_bots_scale(apps, None)
    assert BotProfile.objects.get(slug="connect4-deep").rating == 488.0


@pytest.mark.django_db
def test_a_bot_whose_settings_changed_says_its_rating_is_no_longer_measured():
    bot = BotProfile.objects.get(slug="connect4-deep")
    assert bot.rating is not None
    bot.max_depth = (bot.max_depth or 4) + 2
    bot.save()
    body = APIClient().get("/api/bots/connect4-deep/").json()
    assert body["rating"] is None and body["deviation"] is None
    assert body["unmeasured_since"] == date.today().isoformat()
    assert any("no longer measured" in line for line in body["how_it_plays"])
    bot.refresh_from_db()
    bot.max_depth += 1  # cleared again: still the day its measured rating went
    bot.save()
    assert BotProfile.objects.get(pk=bot.pk).unmeasured_since == date.today()
    # Measured again (here: its seeded settings back, and seeded): no longer "no longer measured".
    seed_profiles(BotProfile)
    again = APIClient().get("/api/bots/connect4-deep/").json()
    assert again["rating"] is not None and again["unmeasured_since"] is None


@pytest.mark.django_db
def test_the_match_ratings_give_the_bot_seat_its_rating_on_the_same_scale(alice, rated_bot_games):
    match = rated_against(alice, "tictactoe-shallow")
    bot = BotProfile.objects.get(slug="tictactoe-shallow")
    seats = APIClient().get(f"/api/matches/{match.pk}/ratings/").json()["seats"]
    assert [(s["seat"], s["kind"]) for s in seats] == [(0, "human"), (1, "bot")]
    assert seats[1]["rating"] == pytest.approx(bot.rating) and seats[1]["deviation"] == pytest.approx(bot.deviation)
    assert seats[1]["change"]["after"] == pytest.approx(bot.rating)
    assert seats[1]["change"]["after"] < seats[1]["change"]["before"]
    assert seats[0]["change"]["after"] > seats[0]["change"]["before"]
