"""Measure my agent: games against the house ladder, one at a time, and a rating on the site's scale."""

from __future__ import annotations

import pytest
from django.test import Client

from server.agents import measuring, services
from server.agents.models import Measurement
from server.bots.models import BotProfile
from server.bots.queues import bot_queue_of, queue_name
from server.bots.rating import fit_against
from server.bots.seed import seed_profiles
from server.matches.models import Match
from server.matches.services import match_abort, match_resign
from server.players.services import player_create_guest
from tests.server.agents.conftest import api_as

STEPS = ["connect4-shallow", "connect4-casual"]


@pytest.fixture(autouse=True)
def rated_ladder(db):
    """The house bots with the ratings their calibration measured (`seed_ratings.json`)."""
    seed_profiles(BotProfile)


def measure(client, body, name="Quokka"):
    return client.post(f"/api/agents/{name}/measurements/", body, format="json")


def playing(measurement_id: int) -> Match:
    """The run's game in play."""
    games = Measurement.objects.get(pk=measurement_id).games.select_related("match")
    (match,) = [g.match for g in games if not g.match.is_over]
    return match


def agent_seat(match: Match, bot) -> int:
    return match.seats.get(player=bot).index


def test_a_run_plays_each_step_in_turn_with_colours_alternating_then_rates_the_bot(
    owner, bot, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        made = measure(api_as(owner), {"game": "connect4", "games_per_step": 2, "steps": STEPS})
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "queued"  # it starts when the request commits
    run = api_as(owner).get(f"/api/agents/measurements/{made.json()['id']}/").json()
    assert run["status"] == "running" and run["progress"] == {
        "finished": 0,
        "total": 4,
        "aborted": 0,
        "playing": run["matches"][0],
    }
    seen = []
    for _ in range(4):
        match = playing(run["id"])
        house = match.seats.exclude(player=bot).get()
        seen.append((house.bot_profile.slug, agent_seat(match, bot)))
        assert match.source == measuring.SOURCE and match.rated is False and match.clock is not None
        assert bot_queue_of(match.pk, match.source) == queue_name("selfplay")  # the lowest lane
        with django_capture_on_commit_callbacks(execute=True):
            match_resign(match.pk, agent_seat(match, bot))  # the bot loses every game
    assert seen == [(STEPS[0], 0), (STEPS[1], 0), (STEPS[0], 1), (STEPS[1], 1)]
    done = api_as(owner).get(f"/api/agents/measurements/{run['id']}/").json()
    assert done["status"] == "done" and done["progress"]["finished"] == 4
    result = done["result"]
    lowest = BotProfile.objects.get(slug=STEPS[0]).rating
    assert result["games"] == 4 and result["high"] > result["rating"] > result["low"]
    assert result["rating"] < lowest  # lost everything: below the lowest step played
    assert [(r["step"], r["games"], r["losses"], r["score"]) for r in result["steps"]] == [
        (STEPS[0], 2, 2, 0.0),
        (STEPS[1], 2, 2, 0.0),
    ]
    assert api_as(bot).get(f"/api/agents/measurements/{run['id']}/").status_code == 200  # the bot reads its own
    profile = Client().get("/players/Quokka/").content.decode()  # the bot's public page shows the figure
    assert (
        f"Connect Four: rated <strong>{result['rating']}</strong> (95 %: {result['low']}–{result['high']})" in profile
    )


def test_a_bot_never_measured_says_so_on_its_profile(bot):
    assert "Not measured against the house bots yet" in Client().get("/players/Quokka/").content.decode()


def test_the_rating_is_the_maximum_likelihood_one_against_the_steps_held_fixed():
    even = fit_against([(1000.0, 1.0), (1000.0, 0.0)] * 20)
    assert abs(even[0] - 1000) < 1e-6
    stronger = fit_against([(900.0, 1.0)] * 15 + [(900.0, 0.0)] * 5)
    # 15 of 20 plus the prior's half a point of one: 15.5 of 21, 74 %, about 180 points above.
    assert 170 < stronger[0] - 900 < 190 and stronger[1] < stronger[0] < stronger[2]
    narrow, wide = fit_against([(1000.0, 1.0), (1000.0, 0.0)] * 50), even
    assert narrow[2] - narrow[1] < wide[2] - wide[1]  # more games, a narrower interval


def test_a_bot_that_never_moves_fails_its_run_after_two_aborted_games(owner, bot, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = measuring.measurement_create(bot, measuring.MeasurementRequest("connect4", 2, tuple(STEPS)))
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            match_abort(playing(run.pk).pk, "no first move")  # what the clock watch does after 30 s
    run.refresh_from_db()
    assert run.status == Measurement.Status.FAILED and "did not move" in run.reason
    assert run.games.count() == 2


def test_an_aborted_game_is_played_again(owner, bot, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = measuring.measurement_create(bot, measuring.MeasurementRequest("connect4", 2, tuple(STEPS)))
    first = playing(run.pk)
    with django_capture_on_commit_callbacks(execute=True):
        match_abort(first.pk, "no first move")
    again = playing(run.pk)
    assert again.pk != first.pk and again.seats.exclude(player=bot).get().bot_profile.slug == STEPS[0]


def test_the_owner_cancels_a_run_and_its_game_in_play_is_aborted(owner, bot, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = measure(api_as(owner), {"game": "connect4", "games_per_step": 2, "steps": STEPS[:1]}).json()
    stranger = api_as(player_create_guest("Mallory"))
    assert stranger.delete(f"/api/agents/measurements/{run['id']}/").status_code in (403, 404)
    assert stranger.get(f"/api/agents/measurements/{run['id']}/").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = api_as(owner).delete(f"/api/agents/measurements/{run['id']}/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    (match_id,) = cancelled.json()["matches"]
    assert Match.objects.get(pk=match_id).status == Match.Status.ABORTED
    assert api_as(owner).delete(f"/api/agents/measurements/{run['id']}/").status_code == 409


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"game": "connect4", "games_per_step": 3}, "even"),
        ({"game": "connect4", "games_per_step": 0}, "games_per_step"),
        ({"game": "chinese-checkers", "games_per_step": 2}, "two"),
        ({"game": "connect4", "games_per_step": 2, "steps": ["connect4-random"]}, "not a step"),
        ({"game": "connect4", "games_per_step": 2, "steps": ["connect4-adaptive"]}, "not a step"),
        ({"game": "nine-men", "games_per_step": 2}, "game"),
        ({"game": "connect4", "games_per_step": 2, "clock": {"minutes": -1, "increment": 0}}, "clock"),
    ],
)
def test_a_request_is_checked_and_refused_with_a_clear_error(owner, bot, body, word):
    answer = measure(api_as(owner), body)
    assert answer.status_code == 400 and word in answer.content.decode()
    assert not Measurement.objects.exists()


def test_one_run_a_bot_a_few_an_owner_and_only_the_owner_asks(owner, bot, settings, django_capture_on_commit_callbacks):
    client = api_as(owner)
    with django_capture_on_commit_callbacks(execute=True):
        assert measure(client, {"game": "connect4", "games_per_step": 2}).status_code == 201
    assert measure(client, {"game": "connect4", "games_per_step": 2}).status_code == 409
    settings.MEASUREMENTS_PER_OWNER = 1
    services.bot_account_create(owner, "Numbat")
    assert measure(client, {"game": "connect4", "games_per_step": 2}, name="Numbat").status_code == 409
    assert measure(api_as(player_create_guest("Mallory")), {"game": "connect4", "games_per_step": 2}).status_code == 404
    assert measure(api_as(bot), {"game": "connect4", "games_per_step": 2}).status_code in (401, 403)
    settings.MEASUREMENT_MAX_GAMES = 4
    assert "at most" in measure(client, {"game": "connect4", "games_per_step": 4}, name="Numbat").content.decode()


def test_a_run_waits_while_its_bot_plays_as_many_games_as_it_may(
    owner, bot, settings, django_capture_on_commit_callbacks
):
    settings.BOT_GAMES_PER_BOT = 1
    person = player_create_guest("Carol")
    challenge = api_as(person).post("/api/agents/Quokka/challenges/", {"game": "connect4"}, format="json").json()
    other = services.challenge_accept(bot, challenge["id"])
    with django_capture_on_commit_callbacks(execute=True):
        run = measuring.measurement_create(bot, measuring.MeasurementRequest("connect4", 2, tuple(STEPS)))
    run.refresh_from_db()
    assert run.status == Measurement.Status.QUEUED and "plays 1 games already" in run.reason
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(other.pk, 0)  # that game ends: the run starts
    run.refresh_from_db()
    assert run.status == Measurement.Status.RUNNING and playing(run.pk)
