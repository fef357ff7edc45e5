"""The one move path (docs/design.md §4): validation, exactly once, chance, events."""

from __future__ import annotations

import pytest

from server.matches import services
from server.matches.errors import (
    BadMessage,
    GameOver,
    IllegalMoveError,
    NotSeated,
    NotYourTurn,
    SeatTaken,
    StalePly,
)
from server.matches.models import Match, MatchEvent, Move
from server.matches.selectors import events_after, match_get, match_json
from tests.server.conftest import human_match, with_account

pytestmark = pytest.mark.django_db


def test_a_match_waits_for_its_second_player_then_starts(alice, bob):
    match = human_match("tictactoe", alice)
    assert match.status == Match.Status.WAITING
    services.match_join(match.pk, bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.to_move == 0


def test_moves_apply_in_turn_and_are_stored_once(alice, bob):
    match = human_match("tictactoe", alice, bob)
    services.submit_move(match.pk, 0, "5", 0)
    services.submit_move(match.pk, 1, "1", 1)
    match.refresh_from_db()
    assert match.ply == 2 and match.to_move == 0
    assert list(Move.objects.filter(match=match).values_list("ply", "seat", "move")) == [(0, 0, "5"), (1, 1, "1")]
    assert match.state["board"][4] == 0 and match.state["board"][0] == 1


def test_wrong_seat_wrong_turn_stale_ply_and_illegal_moves_change_nothing(alice, bob):
    match = human_match("connect4", alice, bob)
    with pytest.raises(NotYourTurn):
        services.submit_move(match.pk, 1, "4", 0)
    with pytest.raises(StalePly):
        services.submit_move(match.pk, 0, "4", 3)
    with pytest.raises(IllegalMoveError, match="not a column"):
        services.submit_move(match.pk, 0, "8", 0)
    with pytest.raises(BadMessage):
        services.submit_move(match.pk, 0, 4, 0)
    with pytest.raises(BadMessage):
        services.submit_move(match.pk, 0, "4", "0")
    match.refresh_from_db()
    assert match.ply == 0 and match.v == 1 and not Move.objects.filter(match=match).exists()


def test_the_same_ply_twice_is_applied_once(alice, bob):
    match = human_match("connect4", alice, bob)
    services.submit_move(match.pk, 0, "4", 0)
    with pytest.raises(StalePly):
        services.submit_move(match.pk, 0, "3", 0)
    assert Move.objects.filter(match=match).count() == 1


def test_a_full_column_is_refused_with_a_reason(alice, bob):
    match = human_match("connect4", alice, bob)
    for ply in range(6):
        services.submit_move(match.pk, ply % 2, "1", ply)
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        services.submit_move(match.pk, 0, "1", 6)


def test_a_win_finishes_the_match_and_later_moves_are_game_over(alice, bob):
    match = human_match("tictactoe", alice, bob)
    for ply, cell in enumerate(["1", "4", "2", "5", "3"]):
        services.submit_move(match.pk, ply % 2, cell, ply)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winner"] == 0 and match.result["reason"] == "three in a row"
    with pytest.raises(GameOver):
        services.submit_move(match.pk, 1, "6", 5)


def test_resign_gives_the_other_seat_the_win(alice, bob):
    match = human_match("connect4", alice, bob)
    services.match_resign(match.pk, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result == {"returns": [1.0, -1.0], "winner": 0, "reason": "resigned", "ranking": [0, 1]}


def test_joining_twice_or_a_full_match_is_refused(alice, bob, db):
    match = human_match("tictactoe", alice)
    with pytest.raises(SeatTaken, match="already"):
        services.match_join(match.pk, alice)
    services.match_join(match.pk, bob)
    from server.players.services import player_create_guest

    with pytest.raises(SeatTaken, match="no open seat"):
        services.match_join(match.pk, player_create_guest("Carol"))


def test_spectators_have_no_seat(alice, bob):
    from server.players.services import player_create_guest

    match = human_match("tictactoe", alice, bob)
    with pytest.raises(NotSeated):
        services.require_seat(match_get(match.pk), player_create_guest("Eve").pk)


def test_every_change_is_an_event_with_a_growing_version(alice, bob):
    match = human_match("tictactoe", alice, bob)
    for ply, cell in enumerate(["1", "4", "2", "5", "3"]):
        services.submit_move(match.pk, ply % 2, cell, ply)
    versions = list(MatchEvent.objects.filter(match=match).values_list("v", flat=True))
    assert versions == list(range(1, len(versions) + 1))
    frames = events_after(match.pk, 0)
    assert [f["type"] for f in frames] == ["seat", "move", "move", "move", "move", "move", "game_over"]
    assert events_after(match.pk, 3) == frames[3:]


def test_match_json_follows_the_wire_contract(alice, bob):
    match = human_match("connect4", alice, bob)
    services.submit_move(match.pk, 0, "4", 0)
    data = match_json(match_get(match.pk))
    assert set(data) >= {"id", "game", "status", "seats", "ply", "to_move", "state", "legal_moves", "moves", "result"}
    player = {"id": alice.pk, "name": "Alice", "kind": "human", "is_ai": False, "is_guest": True}
    assert data["seats"][0]["player"] == player
    assert data["legal_moves"] == [str(c) for c in range(1, 8)]
    assert data["moves"][0]["move"] == "4" and data["moves"][0]["by"] == {"kind": "human", "is_ai": False}


def test_games_against_bots_are_unrated_for_people_unless_the_policy_says_so(alice, bob, settings):
    from server.bots.models import BotProfile
    from server.matches.errors import NotRatable

    bot = BotProfile.objects.get(slug="connect4-shallow")
    with_bot = [services.SeatRequest("human"), services.SeatRequest("bot", bot)]
    assert human_match("connect4", alice, bob).rated is False  # casual unless asked
    for person in (alice, bob):  # rated games are between accounts
        with_account(person)
    people = [services.SeatRequest("human")] * 2
    assert services.match_create("connect4", people, alice, rated=True).rated is True
    with pytest.raises(NotRatable):
        services.match_create("connect4", with_bot, alice, rated=True)
    settings.BOT_GAMES_RATED_FOR_HUMANS = True
    assert services.match_create("connect4", with_bot, bob, rated=True).rated is True
