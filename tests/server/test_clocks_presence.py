"""Clocks, flags and abandonment (services and the API; docs/design.md §7, docs/lobby.md)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from server.matches import services
from server.matches.errors import GameOver
from server.matches.models import Match, Seat
from server.matches.selectors import match_get, match_json
from server.matches.watch import WatchPass, watch_pass
from server.ratings.models import PlayerRating
from tests.server.conftest import with_account

pytestmark = pytest.mark.django_db

HUMAN = services.SeatRequest("human")


def clocked(alice, bob, minutes=1, increment=2):
    match = services.match_create("connect4", [HUMAN, HUMAN], alice, clock=services.Clock(minutes, increment))
    services.match_join(match.pk, bob)
    match.refresh_from_db()
    return match


def started_ago(match, seconds):
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))


def first_moves(match, moves=("4", "4")):
    """Each seat's first move (free): from here on the clocks run."""
    for ply, move in enumerate(moves):
        services.submit_move(match.pk, ply % 2, move, ply)


def last_clock(match):
    return match.events.order_by("-v").first().frame["clock"]


def test_the_clocks_run_from_each_seats_first_move(alice, bob):
    match = clocked(alice, bob)
    assert match.clock == {"initial_ms": 60000, "increment_ms": 2000} and match.clock_ms == [60000, 60000]
    assert match_json(match_get(match.pk))["clock"]["running"] is None  # nobody has moved: no clock runs
    started_ago(match, 20)
    services.submit_move(match.pk, 0, "4", 0)  # a first move: free, and no increment
    match.refresh_from_db()
    assert match.clock_ms == [60000, 60000] and last_clock(match)["running"] is None
    assert match_json(match_get(match.pk))["clock"]["running"] is None  # seat 1 has not moved yet
    started_ago(match, 20)
    services.submit_move(match.pk, 1, "4", 1)
    match.refresh_from_db()
    assert match.clock_ms == [60000, 60000] and last_clock(match)["running"] == 0
    assert match_json(match_get(match.pk))["clock"]["running"] == 0


def test_a_move_spends_the_time_used_and_adds_the_increment(alice, bob):
    match = clocked(alice, bob)
    first_moves(match)
    started_ago(match, 10)
    services.submit_move(match.pk, 0, "3", 2)
    match.refresh_from_db()
    assert 51500 <= match.clock_ms[0] <= 52000 and match.clock_ms[1] == 60000
    frame = match.events.order_by("-v").first().frame
    assert frame["clock"]["remaining_ms"] == match.clock_ms and frame["clock"]["running"] == 1
    assert match_json(match_get(match.pk))["clock"]["running"] == 1


def test_a_move_after_the_flag_loses_on_time(alice, bob, settings):
    match = clocked(alice, bob)
    first_moves(match)
    started_ago(match, 60 + settings.CLOCK_FLAG_GRACE_MS / 1000 + 1)
    with pytest.raises(GameOver):
        services.submit_move(match.pk, 0, "3", 2)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["reason"] == "out of time"
    assert match.result["winner"] == 1 and match.ply == 2


def test_a_move_inside_the_grace_still_counts(alice, bob, settings):
    match = clocked(alice, bob, increment=0)
    first_moves(match)
    started_ago(match, 60 + settings.CLOCK_FLAG_GRACE_MS / 2000)
    services.submit_move(match.pk, 0, "3", 2)
    match.refresh_from_db()
    assert match.clock_ms[0] == 0 and match.status == Match.Status.ACTIVE


def test_the_watch_flags_a_seat_that_never_moves(alice, bob, settings):
    match = clocked(alice, bob)
    first_moves(match, ("4", "4", "3"))
    assert watch_pass(heartbeat=False) == WatchPass()  # nothing to do yet
    started_ago(match, 61 + settings.CLOCK_FLAG_GRACE_MS / 1000)
    assert services.flag_fallen_clocks() == 1
    match.refresh_from_db()
    assert match.result["reason"] == "out of time" and match.result["winner"] == 0 and match.clock_ms[1] == 0
    assert match.events.order_by("-v").first().frame["type"] == "game_over"


def test_a_first_move_is_never_flagged_however_long_it_took(alice, bob, settings):
    match = clocked(alice, bob, minutes=0.25)
    started_ago(match, 15 + settings.CLOCK_FLAG_GRACE_MS / 1000 + 5)  # past the whole clock
    assert services.flag_fallen_clocks() == 0
    services.submit_move(match.pk, 0, "4", 0)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.clock_ms == [15000, 15000]


@pytest.mark.parametrize("moves", [(), ("4",)], ids=["first seat", "second seat"])
def test_a_match_whose_person_makes_no_first_move_is_aborted_unrated(alice, bob, settings, moves):
    """Real time passes (a short grace): the watch's pass aborts, without a result or a rating."""
    settings.CLOCK_FIRST_MOVE_MS = 300
    for person in (alice, bob):  # accounts: a rated match
        with_account(person)
    match = services.match_create("connect4", [HUMAN, HUMAN], alice, clock=services.Clock(1, 2), rated=True)
    services.match_join(match.pk, bob)
    first_moves(match, moves)
    assert watch_pass(heartbeat=False) == WatchPass()  # inside the grace
    time.sleep(settings.CLOCK_FIRST_MOVE_MS / 1000 + 0.05)
    assert watch_pass(heartbeat=False) == WatchPass(unstarted=1)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result["returns"] == []
    assert match.result["reason"] == "no first move" and match.result["winner"] is None
    assert match.events.order_by("-v").first().frame["type"] == "game_over"
    assert not PlayerRating.objects.filter(player__in=[alice, bob]).exists()
    assert watch_pass(heartbeat=False) == WatchPass()  # once


def test_a_long_think_on_a_second_move_is_not_aborted(alice, bob, settings):
    settings.CLOCK_FIRST_MOVE_MS = 0
    match = clocked(alice, bob)
    first_moves(match)
    started_ago(match, 30)
    assert services.abort_unstarted_matches() == 0
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


def clocked_against(alice, bot, minutes=1, increment=2):
    """Alice (seat 0) against `bot` (seat 1) with a clock; the bot's turns are not played."""
    match = services.match_create(
        "connect4", [HUMAN, services.SeatRequest("bot", bot)], alice, clock=services.Clock(minutes, increment)
    )
    match.refresh_from_db()
    return match


def test_a_bot_is_charged_its_search_time_not_its_wait(alice, fast_bot):
    match = clocked_against(alice, fast_bot)
    assert match.clock_ms == [60000, 60000] and match.status == Match.Status.ACTIVE
    first_moves(match, ("4", "4", "3"))
    started_ago(match, 30)  # 30 s since the bot's turn began, most of it waiting for a computer
    services.submit_move(match.pk, 1, "3", 3, think_ms=1200, queue_wait_ms=28000)
    match.refresh_from_db()
    assert match.clock_ms[1] == 60000 - 1200 + 2000
    assert match.events.order_by("-v").first().frame["clock"]["remaining_ms"][1] == 60800


def test_a_bot_never_flags_but_a_person_against_it_does(alice, fast_bot, settings):
    match = clocked_against(alice, fast_bot)
    first_moves(match, ("4", "4", "3"))
    started_ago(match, 3600)  # the bot's turn: an hour, far past its minute
    assert services.flag_fallen_clocks() == 0
    services.submit_move(match.pk, 1, "3", 3, think_ms=90_000)  # over its whole clock: still played
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.clock_ms[1] == 2000
    started_ago(match, match.clock_ms[0] / 1000 + settings.CLOCK_FLAG_GRACE_MS / 1000 + 1)  # alice's turn
    assert services.flag_fallen_clocks() == 1
    match.refresh_from_db()
    assert match.result["reason"] == "out of time" and match.result["winner"] == 1


def test_a_persons_late_move_against_a_bot_loses_on_time(alice, fast_bot, settings):
    match = clocked_against(alice, fast_bot)
    first_moves(match)
    started_ago(match, 61 + settings.CLOCK_FLAG_GRACE_MS / 1000)
    with pytest.raises(GameOver):
        services.submit_move(match.pk, 0, "3", 2)
    match.refresh_from_db()
    assert match.result["reason"] == "out of time" and match.result["winner"] == 1


def test_a_bot_at_its_first_move_is_never_aborted(alice, fast_bot, settings):
    settings.CLOCK_FIRST_MOVE_MS = 0
    match = services.match_create(
        "connect4", [services.SeatRequest("bot", fast_bot), HUMAN], alice, clock=services.Clock(1, 2)
    )
    started_ago(match, 120)  # the bot waits for a computer
    assert services.abort_unstarted_matches() == 0
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


def test_the_api_takes_a_clock_and_checks_its_fields(token_client, fast_bot):
    seats = [{"kind": "human"}, {"kind": "human"}]
    made = token_client.post(
        "/api/matches/", {"game": "connect4", "seats": seats, "clock": {"minutes": 3, "increment": 2}}, format="json"
    )
    assert made.status_code == 201 and made.json()["clock"]["initial_ms"] == 180000
    bad = token_client.post(
        "/api/matches/", {"game": "connect4", "seats": seats, "clock": {"minutes": 0, "increment": -1}}, format="json"
    )
    assert bad.status_code == 400 and set(bad.json()["clock"]) == {"minutes", "increment"}
    with_bot = [{"kind": "human"}, {"kind": "bot", "profile": fast_bot.slug}]
    against_bot = token_client.post(
        "/api/matches/", {"game": "connect4", "seats": with_bot, "clock": {"minutes": 1, "increment": 0}}, format="json"
    )
    assert against_bot.status_code == 201 and against_bot.json()["clock"]["remaining_ms"] == [60000, 60000]
    too_long = {"minutes": 500, "increment": 0}
    bad_with_bot = token_client.post(
        "/api/matches/", {"game": "connect4", "seats": with_bot, "clock": too_long}, format="json"
    )
    assert bad_with_bot.status_code == 400 and set(bad_with_bot.json()["clock"]) == {"minutes"}
    plain = token_client.post("/api/matches/", {"game": "connect4", "seats": seats}, format="json")
    assert plain.status_code == 201 and plain.json()["clock"] is None


def test_a_seat_gone_past_the_grace_loses_by_abandonment(alice, bob, settings):
    match = clocked(alice, bob)
    services.seat_presence(match.pk, 0, True)
    services.seat_presence(match.pk, 1, True)
    services.seat_presence(match.pk, 1, False)
    assert services.abandon_gone_seats() == 0  # within the grace
    later = timezone.now() + timedelta(milliseconds=settings.ABANDON_GRACE_MS + 1000)
    Seat.objects.filter(match=match, index=0).update(last_seen_at=later)  # alice's heartbeat
    assert services.abandon_gone_seats(later) == 1
    match.refresh_from_db()
    assert match.result["reason"] == "abandoned" and match.result["winner"] == 0


def test_a_dead_process_takes_its_seats_offline_and_everyone_gone_aborts(alice, bob, settings):
    match = clocked(alice, bob, minutes=10)  # the clock must not decide first
    first_moves(match)  # nor the wait for a first move
    services.seat_presence(match.pk, 0, True)
    services.seat_presence(match.pk, 1, True)
    services.presence_heartbeat({(match.pk, 0)})
    assert [p["online"] for p in match_json(match_get(match.pk))["presence"]] == [True, True]
    later = timezone.now() + timedelta(milliseconds=settings.ABANDON_GRACE_MS + settings.PRESENCE_STALE_MS)
    assert watch_pass(heartbeat=False, now=later).abandoned == 0  # both just went offline: the grace starts now
    assert not Seat.objects.filter(match=match, online=True).exists()
    much_later = later + timedelta(milliseconds=settings.ABANDON_GRACE_MS + 1000)
    assert watch_pass(heartbeat=False, now=much_later).abandoned == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result["reason"] == "abandoned"


def test_games_against_bots_are_never_abandoned(alice, fast_bot):
    match = services.match_create("connect4", [HUMAN, services.SeatRequest("bot", fast_bot)], alice)
    assert services.abandon_gone_seats(timezone.now() + timedelta(days=1)) == 0
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
