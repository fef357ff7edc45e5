"""Bot accounts over HTTP: registered by people with accounts, disclosed as AI, kept out of people's places."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError
from django.utils import timezone
from rest_framework.test import APIClient

from server.agents import services
from server.agents.errors import TooManyGames
from server.chat.selectors import message_json
from server.chat.services import chat_post
from server.matches.errors import HumanOnly
from server.matches.models import Match
from server.matches.services import SeatRequest, match_create, match_join
from server.pairing import services as pairing
from server.players import conduct
from server.players.selectors import players_online
from server.players.services import player_create_guest
from tests.server.agents.conftest import api_as
from tests.server.conftest import with_account

pytestmark = pytest.mark.django_db


def test_a_person_with_an_account_registers_a_bot_shown_as_ai_with_its_owner(owner):
    response = api_as(owner).post("/api/agents/", {"name": "Quokka"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Quokka" and body["kind"] == "agent" and body["is_ai"] is True
    assert body["owner"] == "Margot" and body["is_guest"] is False
    assert [b["name"] for b in api_as(owner).get("/api/agents/").json()] == ["Quokka"]
    profile = api_as(owner).get("/api/players/Quokka/").json()
    assert profile["kind"] == "agent" and profile["is_ai"] is True and profile["owner"] == "Margot"


def test_a_guest_registers_no_bot(db):
    response = api_as(player_create_guest("Gus")).post("/api/agents/", {"name": "Quokka"}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "account_needed"


def test_a_bot_name_follows_everyones_policy(owner):
    client = api_as(owner)
    for refused in ("QuokkaBot", "Deep AI", "Margot", "QuickLynx674"):
        response = client.post("/api/agents/", {"name": refused}, format="json")
        assert response.status_code == 400, refused
        assert "name" in response.json()
    # A name registered for a bot is an account's name: a person cannot sign up with it.
    services.bot_account_create(owner, "Quokka")
    with pytest.raises(ValidationError):
        services.bot_account_create(owner, "PEBBLE")


def test_each_person_registers_a_few_bots(owner, settings):
    settings.BOT_ACCOUNTS_PER_OWNER = 2
    client = api_as(owner)
    assert [
        client.post("/api/agents/", {"name": n}, format="json").status_code for n in ("One1", "Two2", "Three3")
    ] == [
        201,
        201,
        409,
    ]


def test_a_bot_never_registers_bots_nor_logs_in(bot):
    assert api_as(bot).post("/api/agents/", {"name": "Grandchild"}, format="json").status_code == 403
    assert authenticate(username="Quokka", password="anything") is None


def test_the_owner_issues_lists_and_revokes_the_bots_tokens(owner, bot):
    client = api_as(owner)
    issued = client.post("/api/agents/Quokka/tokens/", {"label": "lab"}, format="json")
    assert issued.status_code == 201 and issued.json()["token"]
    listed = client.get("/api/agents/Quokka/tokens/").json()
    assert [t["label"] for t in listed] == ["lab"] and "token" not in listed[0]
    as_bot = APIClient()
    as_bot.credentials(HTTP_AUTHORIZATION=f"Bearer {issued.json()['token']}")
    assert as_bot.get(f"/api/agents/challenges/{999}/").status_code == 404  # the token works: it is the bot
    assert client.delete(f"/api/agents/Quokka/tokens/{issued.json()['id']}/").status_code == 204
    assert as_bot.get(f"/api/agents/challenges/{999}/").status_code == 401
    # Somebody else's bot is nobody's business.
    stranger = api_as(with_account(player_create_guest("Eve")))
    assert stranger.get("/api/agents/Quokka/tokens/").status_code == 404
    assert stranger.post("/api/agents/Quokka/tokens/", {}, format="json").status_code == 404


def test_a_bots_token_takes_no_persons_place(bot, owner):
    client = api_as(bot)
    open_match = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], owner)
    assert client.post(f"/api/matches/{open_match.pk}/join/", {}, format="json").status_code == 403
    with pytest.raises(HumanOnly):
        match_join(open_match.pk, bot)
    assert client.post("/api/matches/", {"game": "connect4", "seats": [{"kind": "human"}] * 2}).status_code == 403
    assert client.get("/api/players/me/tokens/").status_code == 403
    with pytest.raises(HumanOnly):
        pairing.seek_place(bot, "channel", pairing.SeekRequest(game="connect4", clock="", rated=False))


def test_a_challenge_waits_for_the_bot_then_starts_a_casual_match_with_both_disclosed(bot):
    person = player_create_guest("Carol")
    made = api_as(person).post("/api/agents/Quokka/challenges/", {"game": "connect4", "seat": 1}, format="json")
    assert made.status_code == 201
    challenge = made.json()
    assert challenge["status"] == "pending" and challenge["bot"]["is_ai"] and challenge["bot"]["owner"] == "Margot"
    match = services.challenge_accept(bot, challenge["id"])
    assert match.status == Match.Status.ACTIVE and match.rated is False
    seats = api_as(person).get(f"/api/matches/{match.pk}/").json()["seats"]
    assert seats[1]["player"]["name"] == "Carol" and seats[1]["player"]["is_ai"] is False
    assert seats[0]["player"] == {
        "id": bot.pk,
        "name": "Quokka",
        "kind": "agent",
        "is_ai": True,
        "is_guest": False,
        "owner": "Margot",
    }
    seen = api_as(person).get(f"/api/agents/challenges/{challenge['id']}/").json()
    assert seen["status"] == "accepted" and seen["match"] == match.pk
    author = message_json(chat_post(match.pk, bot.pk, "good luck"))["author"]  # chat in its own games
    assert author["is_ai"] is True and author["owner"] == "Margot"


def test_challenges_are_checked_before_the_bot_hears_them(bot, owner):
    client = api_as(player_create_guest("Carol"))
    for body in (
        {"game": "nope"},
        {"game": "connect4", "seat": 2},
        {"game": "chinese-checkers"},  # three seats: the third needs a house bot
        {"game": "chinese-checkers", "house_bots": ["no-such-profile"]},
        {"game": "connect4", "clock": {"minutes": 0, "increment": 0}},
        {"game": "backgammon", "options": {"cube": "yes"}},
        {"game": "backgammon", "options": {"doubling": True}},
        {"game": "connect4", "options": {"cube": True}},
    ):
        assert client.post("/api/agents/Quokka/challenges/", body, format="json").status_code == 400, body
    assert client.post("/api/agents/Nobody/challenges/", {"game": "connect4"}, format="json").status_code == 404
    person = api_as(owner)
    assert person.post("/api/agents/Margot/challenges/", {"game": "connect4"}, format="json").status_code == 404


def test_a_challenge_carries_the_game_s_options_into_its_match(bot):
    """A money game with the cube, as the lobby offers it to people: the bot hears the options before it answers."""
    person = player_create_guest("Carol")
    body = {"game": "backgammon", "options": {"cube": True, "jacoby": True}}
    made = api_as(person).post("/api/agents/Quokka/challenges/", body, format="json")
    assert made.status_code == 201 and made.json()["options"] == {"cube": True, "jacoby": True, "match_to": 0}
    match = services.challenge_accept(bot, made.json()["id"])
    assert match.options == {"cube": True, "jacoby": True, "match_to": 0}
    shown = api_as(person).get(f"/api/matches/{match.pk}/").json()
    assert shown["options"] == match.options


def test_a_bot_plays_only_so_many_games_at_once(bot, settings):
    settings.BOT_GAMES_PER_BOT = 1
    first = services.challenge_create(player_create_guest("Cara1"), bot, services.ChallengeRequest("connect4"))
    second = services.challenge_create(player_create_guest("Cara2"), bot, services.ChallengeRequest("connect4"))
    services.challenge_accept(bot, first.pk)
    with pytest.raises(TooManyGames):
        services.challenge_accept(bot, second.pk)


def test_the_owners_bots_together_play_only_so_many_games(owner, bot, settings):
    settings.BOT_GAMES_PER_OWNER = 1
    other = services.bot_account_create(owner, "Cobble")
    services.challenge_accept(other, services.challenge_create(bot, other, services.ChallengeRequest("tictactoe")).pk)
    late = services.challenge_create(player_create_guest("Cara1"), bot, services.ChallengeRequest("connect4"))
    with pytest.raises(TooManyGames):
        services.challenge_accept(bot, late.pk)


def test_a_declined_or_cancelled_challenge_is_closed(bot):
    person = player_create_guest("Carol")
    client = api_as(person)
    first = services.challenge_create(person, bot, services.ChallengeRequest("connect4"))
    services.challenge_decline(bot, first.pk, "later")
    assert client.get(f"/api/agents/challenges/{first.pk}/").json()["decline_reason"] == "later"
    second = services.challenge_create(person, bot, services.ChallengeRequest("connect4"))
    assert client.delete(f"/api/agents/challenges/{second.pk}/").json()["status"] == "cancelled"
    assert client.delete(f"/api/agents/challenges/{second.pk}/").json()["code"] == "challenge_closed"


def test_a_challenge_not_answered_in_time_expires(bot, settings):
    challenge = services.challenge_create(player_create_guest("Carol"), bot, services.ChallengeRequest("connect4"))
    settings.BOT_CHALLENGE_TTL_S = 0
    with pytest.raises(Exception, match="expired"):
        services.challenge_accept(bot, challenge.pk)


def test_too_many_refused_frames_block_a_bot_for_a_while(bot, settings):
    settings.BOT_STRIKES = 3
    assert [conduct.strike(bot.pk) for _ in range(3)] == [False, False, True]
    assert conduct.blocked_for(bot.pk) > 0
    conduct.unblock(bot.pk)
    assert conduct.blocked_for(bot.pk) == 0


def test_a_bot_account_online_is_not_counted_among_the_people_online(bot):
    person = player_create_guest("Carol")
    soon = timezone.now() + timedelta(minutes=1)
    for player in (person, bot):
        player.online_until = soon
        player.save(update_fields=["online_until"])
    assert players_online() == 1
