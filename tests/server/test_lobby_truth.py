"""The lobby tells the truth (docs/lobby.md): matches nobody plays leave the live list by a rule,
and the online count counts people with a socket open."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from rest_framework.test import APIClient

from server.config.asgi import application
from server.lobby.selectors import lobby_json
from server.matches import presence, services
from server.matches.consumers import MatchConsumer
from server.matches.models import Match, Seat
from server.matches.watch import watch_pass
from server.players.selectors import players_online
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match

# Bot turns are queued on commit (the inline runner plays them there): real transactions.
pytestmark = pytest.mark.django_db(transaction=True)
HUMAN = services.SeatRequest("human")
ORIGIN = (b"origin", b"http://127.0.0.1")


def later(settings_ms: int, plus_s: float = 1) -> timezone.datetime:
    return timezone.now() + timedelta(milliseconds=settings_ms, seconds=plus_s)


def live_ids() -> set[int]:
    return {m["id"] for m in lobby_json()["active"]}


def bot_match(player, bot, bot_first=False) -> Match:
    seats = [HUMAN, services.SeatRequest("bot", bot)]
    match = services.match_create(bot.game, seats[::-1] if bot_first else seats, player)
    match.refresh_from_db()
    return match


def socket_left(match: Match, seat: int) -> None:
    """The person's match socket opened and closed again."""
    services.seat_presence(match.pk, seat, True)
    services.seat_presence(match.pk, seat, False)


@pytest.fixture
def api():
    """An API client as a fresh guest (`.player`)."""
    player, token = player_create_guest_with_token()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.player, client.token = player, token
    return client


# --- a match against bots whose person left is adjourned -----------------------------------


def test_a_bot_match_whose_person_left_is_adjourned_after_the_grace(api, fast_bot, settings):
    match = bot_match(api.player, fast_bot)
    socket_left(match, 0)
    assert match.pk in live_ids()
    assert watch_pass(heartbeat=False, now=later(settings.ADJOURN_AFTER_MS, -5)).adjourned == 0
    assert watch_pass(heartbeat=False, now=later(settings.ADJOURN_AFTER_MS)).adjourned == 1

    match.refresh_from_db()
    assert match.status == Match.Status.ADJOURNED and match.adjourned_at is not None and match.to_move == 0
    assert match.pk not in live_ids()
    assert match.events.order_by("-v").first().frame["match"]["status"] == "adjourned"  # open pages hear it
    shown = api.get(f"/api/matches/{match.pk}/").json()
    assert shown["status"] == "adjourned" and shown["legal_moves"] == []
    assert [m["id"] for m in api.get("/api/matches/?status=adjourned&player=me").json()] == [match.pk]
    assert api.get("/api/matches/?status=active").json() == []
    bad = api.get("/api/matches/?status=sleeping")
    assert bad.status_code == 400 and "adjourned" in bad.json()["status"][0]


def test_a_bot_match_whose_person_is_still_here_or_just_moved_is_not_adjourned(alice, fast_bot, settings):
    present = bot_match(alice, fast_bot)
    services.seat_presence(present.pk, 0, True)
    services.presence_heartbeat({(present.pk, 0)}, now=later(settings.ADJOURN_AFTER_MS))
    assert watch_pass(heartbeat=False, now=later(settings.ADJOURN_AFTER_MS)).adjourned == 0
    present.refresh_from_db()
    assert present.status == Match.Status.ACTIVE


def test_resuming_makes_it_active_and_queues_the_bot_turn_when_the_bot_is_to_move(api, fast_bot, settings):
    from server.bots import receivers

    queued = []
    original = receivers.queue_bot_turn
    receivers.queue_bot_turn = lambda *args: queued.append(args)  # the bot's first turn is lost
    try:
        match = bot_match(api.player, fast_bot, bot_first=True)
    finally:
        receivers.queue_bot_turn = original
    assert match.ply == 0 and match.to_move == 0 and len(queued) == 1
    socket_left(match, 1)
    assert watch_pass(heartbeat=False, now=later(settings.ADJOURN_AFTER_MS)).adjourned == 1

    resumed = api.post(f"/api/matches/{match.pk}/resume/")
    assert resumed.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.adjourned_at is None
    assert match.ply == 1 and match.to_move == 1  # the bot's turn was queued again, and it moved
    assert match.pk in live_ids()
    assert api.post(f"/api/matches/{match.pk}/resume/").status_code == 200  # running: nothing to do


def test_resuming_with_the_person_to_move_restarts_the_turn_now(alice, fast_bot, settings):
    match = bot_match(alice, fast_bot)
    socket_left(match, 0)
    watch_pass(heartbeat=False, now=later(settings.ADJOURN_AFTER_MS))
    before = timezone.now()
    services.match_resume(match.pk, 0)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.ply == 0 and match.turn_started_at >= before


def test_only_seated_players_resume_with_clear_errors(api, alice, fast_bot, settings):
    match = bot_match(alice, fast_bot)
    socket_left(match, 0)
    watch_pass(heartbeat=False, now=later(settings.ADJOURN_AFTER_MS))
    refused = api.post(f"/api/matches/{match.pk}/resume/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
    assert api.post("/api/matches/999999/resume/").status_code == 404
    assert APIClient().post(f"/api/matches/{match.pk}/resume/").status_code == 401
    mine = bot_match(api.player, fast_bot)
    services.match_resign(mine.pk, 0)
    over = api.post(f"/api/matches/{mine.pk}/resume/")
    assert over.status_code == 409 and over.json()["code"] == "game_over"
    match.refresh_from_db()
    assert match.status == Match.Status.ADJOURNED


def test_the_schema_has_the_resume_action_and_the_adjourned_filter():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert "post" in schema["paths"]["/api/matches/{match_id}/resume/"]
    status = next(p for p in schema["paths"]["/api/matches/"]["get"]["parameters"] if p["name"] == "status")
    assert "adjourned" in status["schema"]["enum"]


# --- games between people, and open matches --------------------------------------------------


def test_a_game_between_people_both_left_is_aborted_after_the_grace(alice, bob, settings):
    match = human_match("connect4", alice, bob)
    socket_left(match, 0)
    socket_left(match, 1)
    assert watch_pass(heartbeat=False, now=later(settings.ABANDON_GRACE_MS)).abandoned == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result["reason"] == "abandoned"
    assert match.pk not in live_ids()


def test_an_open_match_whose_creator_left_is_aborted(alice, settings):
    match = services.match_create("connect4", [HUMAN, HUMAN], alice)
    assert match.pk in {m["id"] for m in lobby_json()["open"]}
    socket_left(match, 0)
    assert watch_pass(heartbeat=False, now=later(settings.OPEN_MATCH_EXPIRE_MS, -5)).expired == 0
    assert watch_pass(heartbeat=False, now=later(settings.OPEN_MATCH_EXPIRE_MS)).expired == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result["reason"] == "nobody joined"
    assert match.pk not in {m["id"] for m in lobby_json()["open"]}


def test_an_open_match_whose_creator_waits_on_its_page_stays_open(alice, settings):
    match = services.match_create("connect4", [HUMAN, HUMAN], alice)
    services.presence_heartbeat({(match.pk, 0)}, now=later(settings.OPEN_MATCH_EXPIRE_MS))
    assert watch_pass(heartbeat=False, now=later(settings.OPEN_MATCH_EXPIRE_MS)).expired == 0


# --- sockets: a crashed consumer, reconnecting, the online count ------------------------------


async def open_socket(path: str, token: str | None = None) -> WebsocketCommunicator:
    url = f"{path}?token={token}" if token else path
    comm = WebsocketCommunicator(application, url, headers=[ORIGIN, (b"host", b"127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_json_from()  # the state or lobby frame
    return comm


async def receive_type(comm: WebsocketCommunicator, wanted: str) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == wanted:
            return frame


def seat_online(match_id: int, seat: int) -> bool:
    return Seat.objects.get(match_id=match_id, index=seat).online


async def crash(comm: WebsocketCommunicator, monkeypatch) -> None:
    """The consumer fails in a handler: Channels ends it without calling disconnect()."""

    async def broken(self, content):
        raise RuntimeError("the channel layer went away")

    monkeypatch.setattr(MatchConsumer, "on_sync", broken)
    await comm.send_json_to({"type": "sync"})
    with pytest.raises(RuntimeError):
        await comm.receive_json_from()


async def eventually(check, timeout: float = 3) -> bool:
    """Whether `check()` (run in a database thread) comes true within `timeout` seconds."""
    for _ in range(int(timeout / 0.05)):
        if await database_sync_to_async(check)():
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_crashed_consumer_does_not_keep_its_seat_online(monkeypatch, settings):
    (alice, alice_token), (bob, _) = [
        await database_sync_to_async(player_create_guest_with_token)(name) for name in ("Alice", "Bob")
    ]
    match = await database_sync_to_async(human_match)("connect4", alice, bob)
    comm = await open_socket(f"/ws/matches/{match.pk}/", alice_token)
    assert await database_sync_to_async(seat_online)(match.pk, 0)
    await crash(comm, monkeypatch)

    assert (match.pk, 0) not in presence.here()
    await database_sync_to_async(watch_pass)(True)  # this process's heartbeat
    assert await eventually(lambda: not seat_online(match.pk, 0))
    await database_sync_to_async(watch_pass)(True, later(settings.ABANDON_GRACE_MS))
    ended = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert ended.status == Match.Status.ABORTED and ended.result["reason"] == "abandoned"


async def test_opening_the_match_socket_resumes_the_adjourned_match(fast_bot, settings):
    alice, alice_token = await database_sync_to_async(player_create_guest_with_token)("Alice")
    match = await database_sync_to_async(bot_match)(alice, fast_bot)
    await database_sync_to_async(socket_left)(match, 0)
    await database_sync_to_async(watch_pass)(False, later(settings.ADJOURN_AFTER_MS))
    spectator = await open_socket(f"/ws/matches/{match.pk}/")
    comm = WebsocketCommunicator(
        application, f"/ws/matches/{match.pk}/?token={alice_token}", headers=[ORIGIN, (b"host", b"127.0.0.1")]
    )
    assert (await comm.connect())[0]
    state = await comm.receive_json_from()
    assert state["match"]["status"] == "active" and state["match"]["legal_moves"]
    heard = await receive_type(spectator, "state")  # a spectator's page hears it too
    assert heard["type"] == "state" and heard["match"]["status"] == "active" and heard["v"] == heard["match"]["v"]
    await comm.send_json_to({"type": "move", "move": "4", "ply": 0})
    assert (await receive_type(comm, "move"))["seat"] == 0
    assert (await receive_type(comm, "move"))["seat"] == 1  # play goes on: the bot replies
    await comm.disconnect()
    await spectator.disconnect()


async def test_the_online_count_counts_people_with_a_socket_open(monkeypatch):
    (alice, alice_token), (bob, bob_token), (carol, _) = [
        await database_sync_to_async(player_create_guest_with_token)(name) for name in ("Alice", "Bob", "Carol")
    ]
    await database_sync_to_async(services.match_create)("tictactoe", [HUMAN, HUMAN], carol)  # Carol used HTTP only
    count = database_sync_to_async(players_online)
    assert await count() == 0
    lobby = await open_socket("/ws/lobby/", alice_token)
    assert await count() == 1
    match = await database_sync_to_async(human_match)("connect4", carol, bob)
    watching = await open_socket(f"/ws/matches/{match.pk}/", bob_token)
    assert await count() == 2
    await lobby.disconnect()
    assert await eventually(lambda: players_online() == 1)
    await crash(watching, monkeypatch)
    assert await eventually(lambda: players_online() == 0)
    await database_sync_to_async(watch_pass)(True)  # this process's heartbeat holds nobody
    assert await count() == 0
