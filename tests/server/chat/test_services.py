"""Posting, rooms, mutes, hiding and the rate limit (server/chat/services.py, docs/wire.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.bots.models import BotProfile
from server.chat import selectors, services
from server.chat.models import ChatMessage, ChatMute
from server.matches import selectors as match_selectors
from server.matches import services as match_services
from server.matches.errors import MatchError
from server.players.services import player_create_guest
from tests.server.conftest import human_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob):
    return human_match("connect4", alice, bob)


@pytest.fixture
def carol(db):
    return player_create_guest("Carol")


def refused_code(match_id, player_id, text) -> str:
    with pytest.raises(MatchError) as refused:
        services.chat_post(match_id, player_id, text)
    return refused.value.code


def test_seated_people_post_in_the_players_room_spectators_in_theirs(match, alice, carol):
    said = services.chat_post(match.pk, alice.pk, "  good luck  ")
    watched = services.chat_post(match.pk, carol.pk, "who wins?")
    assert (said.room, said.text, watched.room) == ("players", "good luck", "spectators")
    row = selectors.message_json(said)
    assert row["author"] == {"id": alice.pk, "name": "Alice", "kind": "human", "is_ai": False, "is_guest": True}
    assert row["seat"] == 0
    assert selectors.message_json(watched)["seat"] is None


def test_each_viewer_reads_only_their_room(match, alice, bob, carol):
    services.chat_post(match.pk, alice.pk, "hi Bob")
    services.chat_post(match.pk, carol.pk, "Bob should play 4")
    for player in (alice, bob):
        chat = selectors.chat_of(match.pk, player.pk)
        assert chat["room"] == "players" and [m["text"] for m in chat["messages"]] == ["hi Bob"]
    for viewer in (carol.pk, None):  # a spectator, and a visitor with no player yet
        chat = selectors.chat_of(match.pk, viewer)
        assert chat["room"] == "spectators" and [m["text"] for m in chat["messages"]] == ["Bob should play 4"]


def test_the_history_is_the_last_messages_oldest_first(match, alice, bob, settings):
    settings.CHAT_HISTORY = 3
    settings.CHAT_RATE_LIMIT = (100, 10.0)
    for n in range(5):
        services.chat_post(match.pk, (alice if n % 2 else bob).pk, f"line {n}")
    assert [m["text"] for m in selectors.chat_of(match.pk, alice.pk)["messages"]] == ["line 2", "line 3", "line 4"]


def test_a_visitor_without_a_player_cannot_post(match):
    assert refused_code(match.pk, None, "hello") == "chat_no_player"
    assert selectors.chat_of(match.pk, None)["refused"]["code"] == "chat_no_player"


def test_invalid_text_is_refused_and_nothing_is_stored(match, alice):
    assert refused_code(match.pk, alice.pk, "a" * 281) == "chat_too_long"
    assert refused_code(match.pk, alice.pk, "   ") == "chat_invalid"
    assert refused_code(match.pk, alice.pk, "two\nlines") == "chat_invalid"
    assert refused_code(match.pk + 1000, alice.pk, "hello") == "not_found"
    assert not ChatMessage.objects.exists()


def test_bots_never_chat_the_players_room_against_bots_is_closed(alice, carol):
    bot = BotProfile.objects.get(slug="connect4-shallow")
    match = match_services.match_create(
        "connect4", [match_services.SeatRequest("human"), match_services.SeatRequest("bot", bot)], alice
    )
    assert refused_code(match.pk, alice.pk, "hello bot") == "chat_closed"
    assert selectors.chat_of(match.pk, alice.pk)["refused"]["code"] == "chat_closed"
    # Spectators of a game against a bot still have their room; the author is a person.
    said = services.chat_post(match.pk, carol.pk, "the bot is strong")
    assert selectors.message_json(said)["author"]["is_ai"] is False
    assert all(m["author"]["is_ai"] is False for m in selectors.chat_of(match.pk, carol.pk)["messages"])


def test_a_waiting_match_lets_its_creator_talk_to_whoever_joins(alice, bob):
    match = human_match("connect4", alice)
    services.chat_post(match.pk, alice.pk, "hello whoever joins")
    match_services.match_join(match.pk, bob)
    assert [m["text"] for m in selectors.chat_of(match.pk, bob.pk)["messages"]] == ["hello whoever joins"]


def test_chat_stays_open_after_the_end(match, bob):
    match_services.match_resign(match.pk, 0)
    assert services.chat_post(match.pk, bob.pk, "gg").room == "players"


def test_a_muted_person_is_refused_until_the_mute_ends(match, alice, bob):
    mute = ChatMute.objects.create(player=alice, until=timezone.now() + timedelta(hours=1), reason="spam")
    assert refused_code(match.pk, alice.pk, "let me speak") == "chat_muted"
    assert selectors.chat_of(match.pk, alice.pk)["refused"]["code"] == "chat_muted"
    assert selectors.chat_of(match.pk, bob.pk)["refused"] is None  # others are not affected
    mute.until = timezone.now() - timedelta(seconds=1)
    mute.save()
    assert services.chat_post(match.pk, alice.pk, "thanks").text == "thanks"


def test_a_mute_without_an_end_holds_for_good(match, alice):
    ChatMute.objects.create(player=alice, until=timezone.now() - timedelta(days=1))  # an old one, over
    ChatMute.objects.create(player=alice, until=timezone.now() + timedelta(hours=1))
    ChatMute.objects.create(player=alice)
    ChatMute.objects.create(player=alice)  # twice by two members of staff
    with pytest.raises(MatchError) as refused:
        services.chat_post(match.pk, alice.pk, "hello")
    assert refused.value.code == "chat_muted" and "staff" in refused.value.message


def test_the_rate_limit_counts_a_persons_messages_over_all_matches(alice, bob, carol, settings):
    settings.CHAT_RATE_LIMIT = (5, 10.0)
    first, second = human_match("connect4", alice, bob), human_match("tictactoe", carol, alice)
    for n in range(5):
        services.chat_post((first if n % 2 else second).pk, alice.pk, f"message {n}")
    assert refused_code(first.pk, alice.pk, "one more") == "chat_rate_limited"
    assert services.chat_post(first.pk, bob.pk, "my turn to talk").text  # only Alice is held back
    # Once the window has passed, Alice may post again.
    ChatMessage.objects.filter(author=alice).update(created_at=timezone.now() - timedelta(seconds=11))
    assert services.chat_post(first.pk, alice.pk, "back").text == "back"


def test_refused_messages_do_not_count_against_the_limit(match, alice, settings):
    settings.CHAT_RATE_LIMIT = (2, 10.0)
    for _ in range(5):
        refused_code(match.pk, alice.pk, "\x07")
    services.chat_post(match.pk, alice.pk, "one")
    services.chat_post(match.pk, alice.pk, "two")
    assert refused_code(match.pk, alice.pk, "three") == "chat_rate_limited"


def test_hidden_messages_leave_every_history_once(match, alice, carol):
    said = services.chat_post(match.pk, alice.pk, "something rude")
    kept = services.chat_post(match.pk, alice.pk, "sorry")
    assert services.chat_hide([said.pk]) == 1
    assert services.chat_hide([said.pk]) == 0  # already hidden: nothing sent again
    assert [m["text"] for m in selectors.chat_of(match.pk, alice.pk)["messages"]] == ["sorry"]
    said.refresh_from_db()
    assert said.deleted and ChatMessage.objects.filter(pk=kept.pk, deleted=False).exists()


def test_the_chat_costs_the_state_frame_a_few_queries_however_long_the_history(
    match, alice, bob, carol, settings, django_assert_max_num_queries
):
    settings.CHAT_RATE_LIMIT = (100, 10.0)
    for n in range(30):
        services.chat_post(match.pk, (alice if n % 2 else bob).pk, f"line {n}")
    ChatMute.objects.create(player=carol)
    for viewer in (alice.pk, carol.pk, None):
        with django_assert_max_num_queries(4):  # the match and seats, the lines and authors, the mutes
            selectors.chat_of(match.pk, viewer)


def test_with_two_people_and_a_bot_the_people_talk_and_the_bot_stays_disclosed(alice, bob):
    bot = BotProfile.objects.get(slug="chinese-checkers-random")
    human = match_services.SeatRequest("human")
    match = match_services.match_create(
        "chinese-checkers", [human, match_services.SeatRequest("bot", bot), human], alice
    )
    match_services.match_join(match.pk, bob)
    said = selectors.message_json(services.chat_post(match.pk, bob.pk, "the bot is ahead"))
    assert said["room"] == "players" and said["seat"] == 2 and said["author"]["is_ai"] is False
    chat = selectors.chat_of(match.pk, alice.pk)
    assert {m["author"]["name"] for m in chat["messages"]} == {"Bob"}
    seats = match_selectors.match_json(match_selectors.match_get(match.pk))["seats"]
    assert seats[1]["player"]["is_ai"] is True and seats[1]["player"]["kind"] == "bot"
