"""A bot account plays house bots directly: `POST /api/agents/games/` with its token."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from server.agents import services
from server.agents.api import HouseGameThrottle
from server.bots.models import BotProfile
from server.bots.queues import bot_queue_of, queue_name
from server.bots.seed import seed_profiles
from server.matches.models import Match
from server.matches.services import SeatRequest, match_create
from server.players.services import player_create_guest
from tests.server.agents.conftest import api_as

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def house_bots(db):
    seed_profiles(BotProfile)


def ask(client, **body):
    body = {"game": "connect4", "house_bots": ["connect4-random"], **body}
    return client.post("/api/agents/games/", body, format="json")


def test_a_bot_plays_a_listed_house_bot_in_the_seat_it_asks_casual_in_the_bot_matches_lane(bot, monkeypatch):
    told = []
    monkeypatch.setattr(services, "tell_after_commit", lambda player_id, frame: told.append((player_id, frame)))
    made = ask(api_as(bot), seat=1, clock={"minutes": 1, "increment": 1})
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["seat"] == 1 and body["house_bots"] == ["connect4-random"] and body["rated"] is False
    assert body["clock"] == {"initial_ms": 60_000, "increment_ms": 1000}
    match = Match.objects.get(pk=body["match"])
    assert match.seats.get(index=1).player == bot and match.seats.get(index=0).bot_profile.slug == "connect4-random"
    assert match.source == "play" and not match.rated and match.status == Match.Status.ACTIVE
    # No person waits on it: the house bot's turns go below people's games and hints.
    assert bot_queue_of(match.pk, match.source) == queue_name("botmatches")
    assert told == [(bot.pk, {"type": "game_start", "match": match.pk, "game": "connect4", "seat": 1})]


def test_a_person_seated_with_house_bots_keeps_the_peoples_lane(bot, owner):
    slugs = ["chinese-checkers-random", "chinese-checkers-random"]
    made = api_as(bot).post(
        "/api/agents/games/", {"game": "chinese-checkers", "house_bots": slugs, "seat": 2}, format="json"
    )
    assert made.status_code == 201, made.content
    match = Match.objects.get(pk=made.json()["match"])
    assert [s.kind for s in match.seats.order_by("index")] == ["bot", "bot", "human"]
    assert bot_queue_of(match.pk, "play") == queue_name("botmatches")
    profile = BotProfile.objects.get(slug="connect4-random")
    people = match_create("connect4", [SeatRequest("human"), SeatRequest("bot", profile)], owner)
    assert bot_queue_of(people.pk, "play") == queue_name("bots")


def test_a_random_seat_is_drawn_among_the_games_seats(bot):
    seats = {ask(api_as(bot)).json()["seat"] for _ in range(8)}
    assert seats <= {0, 1} and seats  # 8 games: within BOT_GAMES_PER_BOT


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"house_bots": ["chess-random"]}, 400, "not_a_house_bot"),  # another game's
        ({"house_bots": ["connect4-nobody"]}, 400, "not_a_house_bot"),
        ({"house_bots": ["connect4-random", "connect4-random"]}, 400, "bad_message"),
        ({"seat": 2}, 400, "bad_message"),
        ({"rated": True}, 400, "not_ratable"),
        ({"options": {"cube": True}}, 400, "bad_message"),
    ],
)
def test_what_is_refused_says_why(bot, body, status, code):
    made = ask(api_as(bot), **body)
    assert made.status_code == status and made.json()["code"] == code, made.content
    assert "message" in made.json() or "detail" in made.json()


def test_an_unlisted_house_bot_is_refused(bot):
    BotProfile.objects.filter(slug="connect4-random").update(listed=False)
    assert ask(api_as(bot)).json()["code"] == "not_a_house_bot"


def test_only_a_bots_token_asks_and_the_serializer_checks_the_shape(bot, owner):
    made = ask(api_as(owner))
    assert made.status_code == 403 and made.json()["code"] == "not_a_bot"
    guest = ask(api_as(player_create_guest("Gus")))
    assert guest.status_code == 403 and guest.json()["code"] == "not_a_bot"
    assert ask(api_as(bot), seat="left").status_code == 400
    assert ask(api_as(bot), game="go").status_code == 400
    assert api_as(bot).post("/api/agents/games/", {"game": "connect4"}, format="json").status_code == 400


def test_the_caps_on_games_at_once_hold(bot, owner, settings):
    settings.BOT_GAMES_PER_BOT = 1
    assert ask(api_as(bot)).status_code == 201
    refused = ask(api_as(bot))
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_games"
    settings.BOT_GAMES_PER_BOT, settings.BOT_GAMES_PER_OWNER = 8, 1
    assert ask(api_as(bot)).json()["code"] == "too_many_games"


def test_games_asked_are_throttled_per_bot(bot, monkeypatch):
    cache.clear()  # the throttle's history of earlier tests' bots
    monkeypatch.setattr(HouseGameThrottle, "THROTTLE_RATES", {"bot_games": "2/minute"})
    client = api_as(bot)
    codes = [ask(client).status_code for _ in range(3)]
    assert codes == [201, 201, 429]
