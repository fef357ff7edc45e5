"""Backgammon resignations for points: offered at a level, accepted or declined, cancelled by a move,
answered by a bot from its evaluation; refused where they make no sense (docs/wire.md, "resign_offer")."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from server.agents.services import bot_account_create
from server.bots.models import BotProfile
from server.bots.services import bot_resigns_if_lost
from server.matches import presence, services
from server.matches.errors import BadMessage, NoOffer, NotSeated, OfferPending
from server.matches.models import Match, MatchEvent, Move
from server.players.models import Player
from server.players.services import player_create_guest_with_token
from server.research.filters import ExportFilters
from server.research.formats import game_records
from tests.server.conftest import with_account
from tests.server.test_consumers import connect, receive_type

pytestmark = pytest.mark.django_db(transaction=True)
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def backgammon(client: APIClient, options: dict[str, object] | None = None) -> int:
    body = {"game": "backgammon", "seats": HUMANS, "options": options or {}}
    return client.post("/api/matches/", body, format="json").json()["id"]


def joined(client: APIClient, options: dict[str, object] | None = None) -> tuple[int, APIClient]:
    """A backgammon match between the client's player (seat 0) and Bob's client (seat 1)."""
    match_id = backgammon(client, options)
    bob, token = player_create_guest_with_token("Bob")
    services.match_join(match_id, bob)
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    other.token = token  # type: ignore[attr-defined]  # the socket's credential, as token_client has
    return match_id, other


def frames_of(match_id: int, kind: str) -> list[dict]:
    return [e.frame for e in MatchEvent.objects.filter(match_id=match_id, frame__type=kind).order_by("v")]


def offer(client: APIClient, match_id: int, level: object):
    return client.post(f"/api/matches/{match_id}/resign-offer/", {"level": level}, format="json")


def test_a_gammon_resigned_at_cube_two_pays_four_and_the_record_says_so(token_client):
    match_id, bob = joined(token_client, {"cube": True})
    match = Match.objects.get(pk=match_id)
    game = match.rules()
    # The cube at 2, owned by seat 1, as after a double taken (set directly: the dice are the server's).
    match.state = {**match.state, "cube": {"value": 2, "owner": 1, "action": None}}
    match.save()
    shown = offer(token_client, match_id, "gammon")
    assert shown.status_code == 200, shown.json()
    pending = shown.json()["offer"]
    assert pending == {
        "kind": "resign", "seat": 0, "ply": match.ply, "awaiting": [1], "level": "gammon", "points": 4,
        "says": "resigned a gammon: 2 points x cube 2 = 4",
    }  # fmt: skip
    assert frames_of(match_id, "offer")[-1]["offer"] == pending
    # Seat 0 may not accept its own offer; seat 1 does.
    with pytest.raises(NoOffer):
        services.match_answer(match_id, 0, True)
    services.match_answer(match_id, 1, True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winner"] == 1 and match.result["points"] == [-4, 4]
    assert match.result["reason"] == "resigned a gammon: 2 points x cube 2 = 4"
    last = Move.objects.filter(match=match).order_by("-ply").first()
    assert last.seat == 0 and last.move == "seat 0 resigns a gammon"
    # The record replays to the stored state (the cube set by hand above left aside).
    state = game.initial_state()
    for move in Move.objects.filter(match=match).order_by("ply").values_list("move", flat=True):
        state = game.apply(state, move)
    assert game.to_json(state)["resigned"] == {"seat": 0, "level": "gammon"} == match.state["resigned"]
    Player.objects.update(consent_research=True)
    exported = next(game_records(ExportFilters()))
    assert exported["result"]["points"] == [-4, 4] and exported["moves"][-1]["move"] == "seat 0 resigns a gammon"
    assert exported["result"]["reason"] == "resigned a gammon: 2 points x cube 2 = 4"


def test_a_plain_resign_over_the_api_concedes_a_backgammon_at_the_cube_and_the_export_has_the_points(token_client):
    match_id, bob = joined(token_client, {"cube": True})
    match = Match.objects.get(pk=match_id)
    match.state = {**match.state, "cube": {"value": 2, "owner": 0, "action": None}}
    match.save()
    assert offer(bob, match_id, "single").status_code == 200  # waiting: the resignation ends it unanswered
    resigned = bob.post(f"/api/matches/{match_id}/resign/", format="json")
    assert resigned.status_code == 200, resigned.json()
    says = "resigned a backgammon: 3 points x cube 2 = 6"
    body = resigned.json()
    assert body["status"] == "finished" and body["offer"] is None
    assert body["result"]["winner"] == 0 and body["result"]["points"] == [6, -6] and body["result"]["reason"] == says
    last = Move.objects.filter(match_id=match_id).order_by("-ply").first()
    assert last.seat == 1 and last.move == "seat 1 resigns a backgammon" and last.notation == "resigns a backgammon"
    over = frames_of(match_id, "game_over")[-1]
    assert over["result"]["points"] == [6, -6] and over["result"]["reason"] == says
    Player.objects.update(consent_research=True)
    exported = next(game_records(ExportFilters()))
    assert exported["result"]["points"] == [6, -6] and exported["result"]["reason"] == says
    assert exported["moves"][-1]["move"] == "seat 1 resigns a backgammon"


def test_a_plain_resign_in_a_match_resigns_it_for_the_points_the_winner_needed(token_client):
    match_id, bob = joined(token_client, {"match_to": 5})
    services.match_resign_offer(match_id, 1, "single")
    services.match_answer(match_id, 0, True)  # 1-0, the next game under way
    services.match_resign(match_id, 0)
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED and match.result["winner"] == 1
    assert match.result["points"] == [-5, 5]
    assert match.result["reason"] == "resigned the match: the 5 points the winner needed: match won 5-1"
    assert match.state["resigned"] == {"seat": 0, "level": "match"}


def test_a_plain_resign_elsewhere_is_a_forfeit_without_points(token_client):
    connect4 = token_client.post("/api/matches/", {"game": "connect4", "seats": HUMANS}, format="json").json()["id"]
    bob, _ = player_create_guest_with_token("Bob")
    services.match_join(connect4, bob)
    result = token_client.post(f"/api/matches/{connect4}/resign/", format="json").json()["result"]
    assert result["winner"] == 1 and result["reason"] == "resigned" and "points" not in result
    assert not Move.objects.filter(match_id=connect4, seat=0).exists()


def test_a_declined_offer_lets_play_go_on_and_a_move_cancels_the_next(token_client):
    match_id, bob = joined(token_client)
    assert offer(bob, match_id, "single").status_code == 200
    services.match_answer(match_id, 0, False)
    match = Match.objects.get(pk=match_id)
    assert match.offer is None and match.status == Match.Status.ACTIVE
    answered = frames_of(match_id, "offer_answered")[-1]
    assert answered["kind"] == "resign" and answered["accepted"] is False and answered["by"] == 0
    # An offer by the seat not to move; the seat to move plays on: the offer is gone with it.
    waiting = 1 - match.to_move
    services.match_resign_offer(match_id, waiting, "backgammon")
    match.refresh_from_db()
    legal = match.rules().legal_moves(match.rules().from_json(match.state))
    services.submit_move(match_id, match.to_move, legal[0], match.ply)
    match.refresh_from_db()
    assert match.offer is None and match.status == Match.Status.ACTIVE
    cancelled = frames_of(match_id, "offer_answered")[-1]
    assert cancelled["kind"] == "resign" and cancelled["cancelled"] == "a move was played"
    with pytest.raises(NoOffer):
        services.match_answer(match_id, 1 - waiting, True)


def test_refusals_levels_pending_offers_watchers_and_other_games(token_client):
    match_id, bob = joined(token_client)
    refused = offer(token_client, match_id, "everything")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_message"
    assert "single, gammon, backgammon" in refused.json()["detail"]
    assert offer(token_client, match_id, 2).status_code == 400
    extra = token_client.post(f"/api/matches/{match_id}/resign-offer/", {"level": "single", "seat": 1}, format="json")
    assert extra.status_code == 400
    watcher, watcher_token = player_create_guest_with_token("Watcher")
    spectator = APIClient()
    spectator.credentials(HTTP_AUTHORIZATION=f"Bearer {watcher_token}")
    assert offer(spectator, match_id, "single").json()["code"] == "not_seated"
    assert offer(token_client, match_id, "single").status_code == 200
    # A second offer, by either seat, waits for the first to be answered.
    for seat in (0, 1):
        with pytest.raises(OfferPending):
            services.match_resign_offer(match_id, seat, "gammon")
    with pytest.raises(BadMessage):
        services.match_resign_offer(match_id, 0, None)
    # Connect Four has no resignation for points: its players resign the match.
    connect4 = token_client.post("/api/matches/", {"game": "connect4", "seats": HUMANS}, format="json").json()["id"]
    services.match_join(connect4, watcher)
    refused = offer(token_client, connect4, "single")
    assert refused.status_code == 409 and refused.json()["code"] == "offer_not_allowed"
    with pytest.raises(NotSeated):
        services.require_seat(Match.objects.get(pk=match_id), watcher.pk)


def test_a_resignation_in_a_match_gives_the_points_and_the_next_game_starts(token_client):
    match_id, bob = joined(token_client, {"match_to": 3})
    services.match_resign_offer(match_id, 1, "gammon")
    services.match_answer(match_id, 0, True)
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.ACTIVE and match.state["score"] == [2, 0]
    assert match.state["crawford"] == "game" and match.state.get("resigned") is None  # the next game
    # In the Crawford game seat 0 needs 1 point: a backgammon resigned pays 1.
    services.match_resign_offer(match_id, 1, "backgammon")
    match.refresh_from_db()
    assert match.offer["points"] == 1 and match.offer["says"].endswith("= 3, 1 of them to win the match")
    services.match_answer(match_id, 0, True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["points"] == [1, -1]
    assert match.result["reason"].endswith("match won 3-0")


@pytest.mark.parametrize(("level", "accepts"), [("single", False), ("backgammon", True)])
def test_a_bot_answers_at_once_from_its_evaluation(alice, level, accepts):
    master = BotProfile.objects.get(game="backgammon", level=5, adaptive=False)
    match = services.match_create(
        "backgammon", [services.SeatRequest("human"), services.SeatRequest("bot", master)], alice
    )
    match.refresh_from_db()
    # A race seat 0 has lost: its fifteen checkers on its 20-point (the bot's 5-point), none off;
    # the bot's last two checkers on its 1-point.  The bot wins a backgammon whatever the dice.
    points = [0] * 24
    points[19], points[23] = 15, -2
    match.state = {**match.state, "points": points, "off": [0, 13], "bar": [0, 0]}
    match.save()
    services.match_resign_offer(match.pk, 0, level)
    match.refresh_from_db()
    answered = frames_of(match.pk, "offer_answered")[-1]
    assert answered["accepted"] is accepts and answered["by"] == 1 and match.offer is None
    assert (match.status == Match.Status.FINISHED) is accepts


@pytest.mark.usefixtures("channel_layer")
async def test_over_the_socket_an_offer_is_the_offerers_own_and_a_watcher_cannot_answer(token_client):
    match_id, bob = await database_sync_to_async(joined)(token_client)
    watcher, watcher_token = await database_sync_to_async(player_create_guest_with_token)("Watcher")
    tokens = (token_client.token, bob.token, watcher_token)
    sockets = [await connect(f"/ws/matches/{match_id}/", token) for token in tokens]
    alice_socket, bob_socket, watching = sockets
    for comm in sockets:
        await receive_type(comm, "state")
    for frame, code in (
        ({"type": "resign_offer"}, "bad_message"),
        ({"type": "resign_offer", "level": "gammon", "seat": 1}, "bad_message"),
        ({"type": "resign_offer", "level": "triple"}, "bad_message"),
    ):
        await alice_socket.send_json_to(frame)
        assert (await receive_type(alice_socket, "error"))["code"] == code
    await watching.send_json_to({"type": "resign_offer", "level": "single"})
    assert (await receive_type(watching, "error"))["code"] == "not_seated"
    await bob_socket.send_json_to({"type": "resign_offer", "level": "gammon"})
    for comm in sockets:
        assert (await receive_type(comm, "offer"))["offer"]["seat"] == 1
    # Neither the offerer nor a watcher can accept it: only the seat it waits for.
    await bob_socket.send_json_to({"type": "accept"})
    assert (await receive_type(bob_socket, "error"))["code"] == "no_offer"
    await watching.send_json_to({"type": "accept"})
    assert (await receive_type(watching, "error"))["code"] == "not_seated"
    await alice_socket.send_json_to({"type": "accept"})
    played = await receive_type(watching, "move")
    assert played["seat"] == 1 and played["move"] == "seat 1 resigns a gammon"
    assert played["notation"] == "resigns a gammon"
    over = await receive_type(watching, "game_over")
    assert over["result"]["winner"] == 0 and over["result"]["reason"] == "resigned a gammon"
    for comm in sockets:
        await comm.disconnect()
    await presence.settled()  # the seats' offline writes finish on this test's loop, not after it


def lost_by_the_bot(player) -> Match:
    """`player` against the Master; the Master's game is lost: `player` bears off its last checker
    next roll and the Master has one checker off (a single game)."""
    master = BotProfile.objects.get(game="backgammon", level=5, adaptive=False)
    match = services.match_create(
        "backgammon", [services.SeatRequest("human"), services.SeatRequest("bot", master)], player
    )
    match.refresh_from_db()
    bot_resigns_if_lost(match.pk, 1)  # the opening: nothing lost
    match.refresh_from_db()
    assert match.offer is None
    points = [0] * 24
    points[0], points[18] = 1, -14
    match.state = {**match.state, "points": points, "off": [14, 1], "bar": [0, 0]}
    match.save()
    return match


def test_a_bot_whose_game_is_lost_offers_a_single_game_once(alice):
    match = lost_by_the_bot(alice)
    bot_resigns_if_lost(match.pk, 1)
    match.refresh_from_db()
    assert match.offer["seat"] == 1 and match.offer["level"] == "single" and match.offer["awaiting"] == [0]
    services.match_answer(match.pk, 0, False)  # Alice wants to play it out
    bot_resigns_if_lost(match.pk, 1)
    match.refresh_from_db()
    assert match.offer is None and match.status == Match.Status.ACTIVE


def test_a_bot_offers_no_resignation_to_a_bot_account(alice):
    """Bot accounts' games against house bots measure their strength: played out to the end."""
    account = bot_account_create(with_account(alice), "Quokka")
    match = lost_by_the_bot(account)
    bot_resigns_if_lost(match.pk, 1)
    match.refresh_from_db()
    assert match.offer is None
