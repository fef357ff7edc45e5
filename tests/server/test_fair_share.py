"""Worker time one visitor may hold at once (docs/security.md, "Worker time"): bot-vs-bot
matches for accounts, and caps per player and per client address on bot-vs-bot matches,
a person's matches against bots, analyses and hints, refused with 429, a stable code and a
Retry-After."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from server.analysis import tasks
from server.analysis.models import Analysis
from server.bots import receivers
from server.bots.models import BotProfile
from server.matches import services
from server.matches.models import Match
from server.matches.services import SeatRequest
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match
from tests.support import race

BOT = {"kind": "bot", "profile": "tictactoe-random"}
HUMAN = {"kind": "human"}
BOT_MATCH = {"game": "tictactoe", "seats": [BOT, BOT]}
NUMBERS = itertools.count()

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Leases live in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def held(monkeypatch):
    """Bot turns are queued but no worker takes them: a bot-vs-bot match stays under way."""
    monkeypatch.setattr(receivers, "queue_bot_turn", lambda *args: None)


def client_for(address: str = "203.0.113.7", account: bool = False) -> APIClient:
    player, token = player_create_guest_with_token(f"Visitor{next(NUMBERS)}")
    if account:
        user = User.objects.create_user(f"user{player.pk}")
        player.user, player.is_guest = user, False
        player.save()
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.player = player
    return client


def create(client: APIClient, body: dict = BOT_MATCH):
    return client.post("/api/matches/", body, format="json")


# --- bot-vs-bot matches ------------------------------------------------------------------


def test_a_guest_may_play_a_bot_but_not_set_bots_against_each_other(held):
    guest = client_for()
    refused = create(guest)
    assert refused.status_code == 403 and refused.json()["code"] == "account_needed"
    assert "sign in" in refused.json()["detail"]
    assert create(guest, {"game": "tictactoe", "seats": [HUMAN, BOT]}).status_code == 201
    assert not Match.objects.filter(seats__kind="human", seats__index=0).exclude(created_by=guest.player).exists()


def test_an_account_holds_a_few_bot_vs_bot_matches_at_once_and_another_when_one_ends(held, settings):
    settings.FAIR_SHARE_BOT_MATCHES = (3, 6)
    account = client_for(account=True)
    codes = [create(account).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    refused = create(account)
    assert refused.json()["code"] == "too_many_bot_matches" and refused["Retry-After"] == "60"
    assert "try again" in refused.json()["detail"]
    assert Match.objects.filter(created_by=account.player).count() == 3
    Match.objects.filter(pk=Match.objects.filter(created_by=account.player).first().pk).update(
        status=Match.Status.FINISHED
    )
    assert create(account).status_code == 201  # one ended: its place is free
    assert create(account).status_code == 429


def test_fresh_accounts_from_one_address_share_its_bot_vs_bot_matches(held, settings):
    settings.FAIR_SHARE_BOT_MATCHES = (3, 6)
    accounts = [client_for(account=True) for _ in range(5)]
    codes = [create(account).status_code for account in accounts for _ in range(2)]
    assert codes == [201] * 6 + [429] * 4
    assert create(client_for("198.51.100.9", account=True)).status_code == 201  # another address


def test_requests_at_once_cannot_all_take_the_last_places(held, settings):
    settings.FAIR_SHARE_BOT_MATCHES = (3, 6)
    account = client_for(account=True)
    answers = race(lambda i: create(account).status_code, workers=8)
    assert sorted(answers) == [201] * 3 + [429] * 5, answers
    assert Match.objects.filter(created_by=account.player).count() == 3


def test_with_fair_share_off_anybody_starts_any_number(held, settings):
    """BOT_FAIR_SHARE=0 is the old behaviour, the benchmark's reference."""
    settings.BOT_FAIR_SHARE = False
    guest = client_for()
    assert [create(guest).status_code for _ in range(8)] == [201] * 8


# --- analyses and hints --------------------------------------------------------------------


def finished(alice, bob):
    match = human_match("tictactoe", alice, bob)
    for ply, move in enumerate(["5", "1", "9", "2", "3", "7", "6"]):
        services.submit_move(match.pk, ply % 2, move, ply)
    return match


def test_analyses_under_way_are_capped_per_player_and_per_address(alice, bob, settings, monkeypatch):
    settings.BOT_RUNNER = "celery"
    settings.FAIR_SHARE_ANALYSES = (2, 4)
    monkeypatch.setattr(tasks.analyse_position, "delay", lambda *args: None)  # no worker takes them
    matches = [finished(alice, bob) for _ in range(7)]
    one = client_for()
    codes = [one.post(f"/api/matches/{m.pk}/analysis/").status_code for m in matches[:3]]
    assert codes == [202, 202, 429]
    refused = one.post(f"/api/matches/{matches[2].pk}/analysis/")
    assert refused.json()["code"] == "too_many_analyses" and refused["Retry-After"] == "60"
    assert one.post(f"/api/matches/{matches[0].pk}/analysis/").status_code == 200  # one under way: free to read
    others = [client_for() for _ in range(3)]  # fresh guests, the same address
    codes = [c.post(f"/api/matches/{m.pk}/analysis/").status_code for c, m in zip(others, matches[2:5], strict=True)]
    assert codes == [202, 202, 429]
    Analysis.objects.filter(match=matches[0]).update(status=Analysis.Status.DONE)
    assert one.post(f"/api/matches/{matches[4].pk}/analysis/").status_code == 202  # one ended: its place is free


def test_hints_searching_at_once_are_capped_per_player_until_one_is_found(settings, monkeypatch):
    settings.BOT_RUNNER = "celery"
    settings.FAIR_SHARE_HINTS = (2, 8)
    sent = []
    monkeypatch.setattr(tasks.hint, "apply_async", lambda args, **options: sent.append(args))
    player = client_for()
    matches = [create(player, {"game": "tictactoe", "seats": [HUMAN, BOT], "hints": True}).json() for _ in range(3)]
    codes = [player.post(f"/api/matches/{m['id']}/hint/").status_code for m in matches]
    assert codes == [202, 202, 429] and len(sent) == 2
    refused = player.post(f"/api/matches/{matches[2]['id']}/hint/")
    assert refused.json()["code"] == "too_many_hints" and refused["Retry-After"] == "2"
    assert player.post(f"/api/matches/{matches[0]['id']}/hint/").status_code == 202  # the same hint: free
    from server.analysis.jobs import hint_search

    hint_search(*sent[0])  # a worker finds the first one
    assert player.post(f"/api/matches/{matches[2]['id']}/hint/").status_code == 202


# --- a person's matches against bots -------------------------------------------------------

VS_BOT = {"game": "tictactoe", "seats": [HUMAN, BOT]}


def open_vs_bot() -> int:
    """A match against a bot whose person's seat is still open (made on the server, nobody seated)."""
    profile = BotProfile.objects.get(slug=BOT["profile"])
    match = services.match_create("tictactoe", [SeatRequest("human"), SeatRequest("bot", profile)], None)
    return match.pk


def test_a_person_plays_a_few_matches_against_bots_at_once_and_another_when_one_ends(held, settings):
    settings.FAIR_SHARE_MATCHES_VS_BOTS = (3, 6)
    guest = client_for()
    codes = [create(guest, VS_BOT).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    refused = create(guest, VS_BOT)
    assert refused.json()["code"] == "too_many_matches_vs_bots" and refused["Retry-After"] == "60"
    assert "resign" in refused.json()["detail"]
    assert create(guest, {"game": "tictactoe", "seats": [HUMAN, HUMAN]}).status_code == 201  # people: no cap
    first = Match.objects.filter(created_by=guest.player, seats__kind="bot").order_by("pk").first()
    assert guest.post(f"/api/matches/{first.pk}/resign/").status_code == 200
    assert create(guest, VS_BOT).status_code == 201  # one ended: its place is free
    assert create(guest, VS_BOT).status_code == 429


def test_every_ending_frees_a_place_and_an_adjourned_match_holds_its_own(held, settings):
    settings.FAIR_SHARE_MATCHES_VS_BOTS = (1, 10)
    settings.ADJOURN_AFTER_MS = 0
    guest = client_for()
    ends = {
        "finished": lambda pk: services.match_resign(pk, 0),
        "aborted": lambda pk: services.match_abort(pk, "the server was stopped"),
        "adjourned, then resigned": lambda pk: (services.adjourn_gone_matches(), services.match_resign(pk, 0)),
    }
    for how, end in ends.items():
        match = create(guest, VS_BOT).json()
        assert create(guest, VS_BOT).status_code == 429, how
        end(match["id"])
        assert Match.objects.get(pk=match["id"]).is_over, how
    adjourned = create(guest, VS_BOT).json()
    assert services.adjourn_gone_matches() == 1
    assert Match.objects.get(pk=adjourned["id"]).status == Match.Status.ADJOURNED
    assert create(guest, VS_BOT).status_code == 429  # resumable at any moment: it still counts


def test_fresh_guests_from_one_address_share_its_matches_against_bots(held, settings):
    settings.FAIR_SHARE_MATCHES_VS_BOTS = (3, 6)
    guests = [client_for() for _ in range(4)]
    codes = [create(guest, VS_BOT).status_code for guest in guests for _ in range(2)]
    assert codes == [201] * 6 + [429] * 2
    assert create(guests[0], VS_BOT).json()["detail"].startswith("your address has 6 matches against bots")
    assert create(client_for("198.51.100.9"), VS_BOT).status_code == 201  # another address


def test_a_cap_of_0_turns_that_count_off(held, settings):
    settings.FAIR_SHARE_MATCHES_VS_BOTS = (1, 0)  # the address's count off: players still capped
    guests = [client_for() for _ in range(4)]
    assert [create(guest, VS_BOT).status_code for guest in guests] == [201] * 4
    assert create(guests[0], VS_BOT).status_code == 429


def test_joining_a_seat_against_bots_is_refused_past_the_cap(held, settings):
    settings.FAIR_SHARE_MATCHES_VS_BOTS = (2, 4)
    guest = client_for()
    assert [create(guest, VS_BOT).status_code for _ in range(2)] == [201, 201]
    waiting = open_vs_bot()
    refused = guest.post(f"/api/matches/{waiting}/join/")
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_matches_vs_bots"
    assert refused["Retry-After"] == "60"
    assert Match.objects.get(pk=waiting).status == Match.Status.WAITING  # the seat is still open
    other = client_for()  # the same address: 2 of its 4 places left
    assert other.post(f"/api/matches/{waiting}/join/").status_code == 200
    assert [create(other, VS_BOT).status_code for _ in range(2)] == [201, 429]  # the address is full
    people = human_match_open(guest)
    assert client_for().post(f"/api/matches/{people}/join/").status_code == 200  # between people: no cap


def human_match_open(creator: APIClient) -> int:
    return create(creator, {"game": "tictactoe", "seats": [HUMAN, HUMAN]}).json()["id"]


def test_requests_at_once_cannot_all_take_the_last_places_against_bots(held, settings):
    settings.FAIR_SHARE_MATCHES_VS_BOTS = (3, 20)
    guest = client_for()
    answers = race(lambda i: create(guest, VS_BOT).status_code, workers=8)
    assert sorted(answers) == [201] * 3 + [429] * 5, answers
    assert Match.objects.filter(created_by=guest.player).count() == 3
