"""Abuse and exhaustion (docs/security.md): forged client addresses, guests on every page view,
hints and analyses in the request, password guessing at the admin login, names that
claim to be a bot."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from server.analysis.models import Analysis
from server.matches import services
from server.matches.models import MatchEvent
from server.players import throttles
from server.players.models import Player
from server.players.names import claims_to_be_ai
from server.players.services import player_create_guest
from tests.server import staff
from tests.server.conftest import human_match
from tests.server.staff import second_factor as a_code

BOT = {"kind": "bot", "profile": "tictactoe-random"}
HUMAN = {"kind": "human"}
PAGE_DATA = re.compile(r'<script id="page-data" type="application/json">(.*?)</script>', re.S)


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Throttles count in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def page_player(response):
    return json.loads(PAGE_DATA.search(response.content.decode()).group(1))["player"]


def rates(monkeypatch, **changed):
    """Throttle rates for this test (DRF reads them into the classes at import)."""
    for cls in (throttles.HintThrottle, throttles.AnalysisThrottle, throttles.SessionGuestThrottle):
        monkeypatch.setattr(cls, "THROTTLE_RATES", {**cls.THROTTLE_RATES, **changed})


# --- X-Forwarded-For is trusted only behind a configured proxy ------------------------


@pytest.mark.django_db
def test_guest_creation_is_throttled_whatever_x_forwarded_for_says():
    client = APIClient()
    codes = [
        client.post("/api/players/guest/", {}, format="json", HTTP_X_FORWARDED_FOR=f"10.0.{i}.1").status_code
        for i in range(40)
    ]
    assert codes.count(201) == 30  # "guest": 30/minute from one address, forged headers or not
    assert codes[30:] == [429] * 10


@pytest.mark.django_db
def test_behind_a_configured_proxy_the_forwarded_address_is_the_client(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = APIClient()
    codes = [
        client.post("/api/players/guest/", {}, format="json", HTTP_X_FORWARDED_FOR=f"spoofed, 10.0.{i}.1").status_code
        for i in range(40)
    ]
    assert codes == [201] * 40  # 40 clients, each seen by the proxy with its own address
    # The address the proxy saw is the one counted, not what the client wrote before it.
    same = [
        client.post("/api/players/guest/", {}, format="json", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 10.9.9.9").status_code
        for i in range(31)
    ]
    assert same[-1] == 429


# --- guests are made on the first action, not on a page view -------------------------


@pytest.mark.django_db
def test_pages_make_no_guests():
    before = Player.objects.count()
    for _ in range(200):
        response = Client().get("/")
        assert response.status_code == 200 and page_player(response) is None
    assert Player.objects.count() == before
    assert Client().get("/matches/1/").status_code == 200 and Player.objects.count() == before


@pytest.mark.django_db
def test_a_visitor_becomes_a_guest_on_their_first_action_and_stays_one():
    browser = Client(enforce_csrf_checks=True)
    browser.get("/")
    csrf = browser.cookies["csrftoken"].value
    body = {"game": "tictactoe", "seats": [HUMAN, BOT]}
    created = browser.post("/api/matches/", body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert created.status_code == 201, created.content
    guest = Player.objects.get()
    assert guest.is_guest and created.json()["seats"][0]["player"]["id"] == guest.pk
    assert page_player(browser.get("/"))["id"] == str(guest.pk)  # the next page knows them
    again = browser.post("/api/matches/", body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert again.status_code == 201 and Player.objects.count() == 1
    assert browser.get("/api/players/me/").json()["id"] == guest.pk


@pytest.mark.django_db
def test_no_guest_without_the_pages_csrf_cookie_or_with_a_forged_token():
    body = {"game": "tictactoe", "seats": [HUMAN, BOT]}
    cookieless = Client(enforce_csrf_checks=True).post("/api/matches/", body, content_type="application/json")
    assert cookieless.status_code == 401
    forged = Client(enforce_csrf_checks=True)
    forged.get("/")
    refused = forged.post("/api/matches/", body, content_type="application/json", HTTP_X_CSRFTOKEN="x" * 32)
    assert refused.status_code == 403
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_guests_made_for_browsers_are_throttled_per_address(monkeypatch):
    rates(monkeypatch, guest_session="3/minute")
    codes = []
    for _ in range(5):
        browser = Client()
        browser.get("/")
        response = browser.post(
            "/api/matches/", {"game": "tictactoe", "seats": [HUMAN, BOT]}, content_type="application/json"
        )
        codes.append(response.status_code)
    assert codes == [201, 201, 201, 429, 429]
    assert Player.objects.count() == 3


# --- hints run on workers, throttled ---------------------------------------------------


def hint_match(client):
    return client.post("/api/matches/", {"game": "tictactoe", "seats": [HUMAN, BOT], "hints": True}, format="json")


@pytest.mark.django_db(transaction=True)
def test_a_hint_is_searched_on_a_worker_not_in_the_request(token_client, settings, monkeypatch):
    from server.analysis import positions, tasks

    match = hint_match(token_client).json()
    settings.BOT_RUNNER = "celery"
    sent = []
    monkeypatch.setattr(tasks.hint, "apply_async", lambda args, **options: sent.append((args, options)))
    searched = []
    real_search = positions.search_position
    monkeypatch.setattr(positions, "search_position", lambda *a: searched.append(a) or real_search(*a))

    queued = token_client.post(f"/api/matches/{match['id']}/hint/")
    assert queued.status_code == 202 and queued.json() == {"status": "queued", "seat": 0, "ply": 0}
    assert not searched  # nothing searched in the request
    ((args, options),) = sent
    assert args == (match["id"], 0, 0) and options["queue"] == f"{settings.CELERY_TASK_DEFAULT_QUEUE}.hints"
    assert options["expires"] == settings.HINT_PENDING_S
    assert token_client.post(f"/api/matches/{match['id']}/hint/").status_code == 202 and len(sent) == 1
    assert token_client.get(f"/api/matches/{match['id']}/hint/").json()["status"] == "queued"

    assert tasks.hint(*args) is True  # the worker's side
    assert len(searched) == 1
    done = token_client.get(f"/api/matches/{match['id']}/hint/")
    assert done.status_code == 200 and done.json()["status"] == "done" and done.json()["is_ai"] is True
    asked_again = token_client.post(f"/api/matches/{match['id']}/hint/")
    assert asked_again.status_code == 200 and asked_again.json()["move"] == done.json()["move"]
    assert tasks.hint(*args) is False  # a redelivered task does nothing
    assert len(searched) == 1 and MatchEvent.objects.filter(frame__type="hint").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_hint_for_a_ply_already_played_is_dropped(token_client, settings, monkeypatch):
    from server.analysis import tasks

    match = hint_match(token_client).json()
    settings.BOT_RUNNER = "celery"
    monkeypatch.setattr(tasks.hint, "apply_async", lambda args, **options: None)
    assert token_client.post(f"/api/matches/{match['id']}/hint/").status_code == 202
    settings.BOT_RUNNER = "inline"
    services.submit_move(match["id"], 0, match["legal_moves"][0], 0)
    assert tasks.hint(match["id"], 0, 0) is False
    assert not MatchEvent.objects.filter(frame__type="hint").exists()


@pytest.mark.django_db(transaction=True)
def test_hints_are_throttled_per_player(token_client, settings, monkeypatch):
    settings.HINT_TIME_BUDGET_MS = 50
    rates(monkeypatch, hint="3/minute")
    match = hint_match(token_client).json()
    codes = [token_client.post(f"/api/matches/{match['id']}/hint/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


# --- analyses: who may start one, and how many ---------------------------------------


def finished(alice, bob):
    match = human_match("tictactoe", alice, bob)
    for ply, move in enumerate(["5", "1", "9", "2", "3", "7", "6"]):
        services.submit_move(match.pk, ply % 2, move, ply)
    return match


@pytest.mark.django_db(transaction=True)
def test_starting_analyses_is_throttled_per_player_and_reading_one_is_free(alice, bob, token_client, monkeypatch):
    rates(monkeypatch, analysis="2/hour")
    matches = [finished(alice, bob) for _ in range(3)]
    # Anyone with a player may start one: this caller watched, they did not play.
    first = token_client.post(f"/api/matches/{matches[0].pk}/analysis/")
    assert first.status_code == 202 and first.json()["status"] == "done"
    assert token_client.post(f"/api/matches/{matches[1].pk}/analysis/").status_code == 202
    refused = token_client.post(f"/api/matches/{matches[2].pk}/analysis/")
    assert refused.status_code == 429
    assert not Analysis.objects.filter(match=matches[2]).exists()
    for _ in range(5):  # the analyses there are: asked again, returned, nothing searched
        assert token_client.post(f"/api/matches/{matches[0].pk}/analysis/").status_code == 200
    assert APIClient().get(f"/api/matches/{matches[0].pk}/analysis/").status_code == 200  # anyone reads it


@pytest.mark.django_db(transaction=True)
def test_analyses_waiting_at_once_are_capped(alice, bob, token_client, settings, monkeypatch):
    from server.analysis import tasks

    settings.BOT_RUNNER = "celery"
    settings.ANALYSIS_MAX_PENDING = 2
    settings.FAIR_SHARE_ANALYSES = (10, 10)  # the installation's cap, not the visitor's
    monkeypatch.setattr(tasks.analyse_position, "delay", lambda *args: None)  # no worker takes them
    matches = [finished(alice, bob) for _ in range(3)]
    assert [token_client.post(f"/api/matches/{m.pk}/analysis/").status_code for m in matches[:2]] == [202, 202]
    busy = token_client.post(f"/api/matches/{matches[2].pk}/analysis/")
    assert busy.status_code == 503 and busy.json()["code"] == "analysis_busy" and busy["Retry-After"]
    assert token_client.post(f"/api/matches/{matches[0].pk}/analysis/").status_code == 200  # the same one, again
    Analysis.objects.filter(match=matches[0]).update(status=Analysis.Status.DONE)
    assert token_client.post(f"/api/matches/{matches[2].pk}/analysis/").status_code == 202


@pytest.mark.django_db
def test_an_analysis_needs_a_player():
    assert APIClient().post("/api/matches/1/analysis/").status_code == 401


# --- the admin login ------------------------------------------------------------------


def admin_login(client, password, otp=None, **extra):
    form = {"username": "root", "password": password, **(otp or {}), "next": "/admin/"}
    return client.post("/admin/login/?next=/admin/", form, **extra)


@pytest.mark.django_db
def test_the_admin_login_locks_out_after_repeated_wrong_passwords():
    root = get_user_model().objects.create_superuser("root", password="a long and right passphrase")
    own = Client(REMOTE_ADDR="192.0.2.1")  # the admin's own browser, which logged in before
    assert admin_login(own, "a long and right passphrase", a_code(root)).status_code == 302
    own.post("/admin/logout/")
    guesser = Client()
    for i in range(20):
        admin_login(guesser, f"wrong {i}", HTTP_X_FORWARDED_FOR=f"10.1.{i}.1")  # forged addresses do not help
    locked = admin_login(guesser, "a long and right passphrase", a_code(root))
    assert locked.status_code == 429
    assert "_auth_user_id" not in guesser.session
    assert guesser.get("/admin/").status_code == 302  # still not in
    # From elsewhere a new browser is paused too, but the admin's own browser gets in.
    assert admin_login(Client(REMOTE_ADDR="192.0.2.7"), "a long and right passphrase", a_code(root)).status_code == 429
    own.defaults["REMOTE_ADDR"] = "192.0.2.7"
    elsewhere = admin_login(own, "a long and right passphrase", a_code(root))
    assert elsewhere.status_code == 302 and elsewhere["Location"] == "/admin/"


@pytest.mark.django_db
def test_a_few_typos_do_not_lock_the_admin_out(settings):
    root = get_user_model().objects.create_superuser("root", password="a long and right passphrase")
    client = Client()
    for i in range(settings.STAFF_LOGIN_FAILURE_LIMIT - 1):
        assert admin_login(client, f"typo {i}", a_code(root)).status_code == 200  # the form again, with an error
    assert admin_login(client, "a long and right passphrase", a_code(root)).status_code == 302


@pytest.mark.parametrize("password", ["a", "password", "12345678901234", "short2"])
def test_weak_passwords_are_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password)


def test_a_long_uncommon_password_is_accepted():
    validate_password("tangerine otter plays connect four")


@pytest.mark.django_db
def test_the_admin_refuses_to_set_a_weak_password(client):
    user = get_user_model().objects.create_superuser("root", password="a long and right passphrase")
    staff.admin_login(client, user, "a long and right passphrase")
    url = f"/admin/auth/user/{user.pk}/password/"
    response = client.post(url, {"password1": "a", "password2": "a"})
    assert response.status_code == 200  # the form again
    user.refresh_from_db()
    assert user.check_password("a long and right passphrase")


# --- names that claim to be an AI are the bots' ----------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Rook AI", "RookAI", "rook_ai", "A.I. Rook", "Rook Bot", "B0T", "r0b0t", "Chess Engine", "Computer",
     "Rook АІ", "ＲｏｏｋＡＩ", "Rook 𝐀𝐈", "Rook A\u200bI", "npc", "ai"],
)  # fmt: skip
def test_names_that_claim_to_be_an_ai_are_reserved(name):
    assert claims_to_be_ai(name)


@pytest.mark.parametrize("name", ["Al", "Big Al", "Aidan", "Aisha", "Abbott", "Robotnik", "Bottas", "Kai", "Bob 41"])
def test_ordinary_names_are_not(name):
    assert not claims_to_be_ai(name)


@pytest.mark.django_db
def test_a_guest_cannot_name_itself_as_a_bot():
    client = APIClient()
    refused = client.post("/api/players/guest/", {"name": "Rook AI"}, format="json")
    assert refused.status_code == 400 and "name" in refused.json()
    assert client.post("/api/players/guest/", {"name": "Rook Bot"}, format="json").status_code == 400
    assert client.post("/api/players/guest/", {"name": "Rookie"}, format="json").status_code == 201
    with pytest.raises(ValidationError):
        player_create_guest("Chess Engine")
    assert not Player.objects.filter(name__in=["Rook AI", "Rook Bot", "Chess Engine"]).exists()


@pytest.mark.django_db
def test_the_admin_cannot_name_a_person_as_a_bot(client):
    root = get_user_model().objects.create_superuser("root", password="a long and right passphrase")
    staff.admin_login(client, root, "a long and right passphrase")
    refused = client.post("/admin/players/player/add/", {"name": "Rook AI", "is_guest": "on"})
    assert refused.status_code == 200 and not Player.objects.filter(name="Rook AI").exists()
    person = player_create_guest("Rookie")
    for name in ("Rookie Engine", "Rook"):  # an AI word; a bot's name
        client.post(f"/admin/players/player/{person.pk}/change/", {"name": name, "is_guest": "on"})
    person.refresh_from_db()
    assert person.name == "Rookie"


@pytest.mark.django_db(transaction=True)
def test_hint_and_analysis_answers_are_what_the_schema_declares(token_client, alice, bob, settings, monkeypatch):
    from server.analysis import tasks
    from tests.server.test_schema import Contract

    contract = Contract(APIClient().get("/api/schema/", {"format": "json"}).json())
    hint, analysis = "/api/matches/{match_id}/hint/", "/api/matches/{match_id}/analysis/"
    match = hint_match(token_client).json()
    url = f"/api/matches/{match['id']}/hint/"
    contract.check(token_client.get(url), hint, "get")  # 404: none asked
    settings.BOT_RUNNER = "celery"
    monkeypatch.setattr(tasks.hint, "apply_async", lambda args, **options: None)
    monkeypatch.setattr(tasks.analyse_position, "delay", lambda *args: None)
    contract.check(token_client.post(url), hint, "post")  # 202
    contract.check(token_client.get(url), hint, "get")  # 202
    tasks.hint(match["id"], 0, 0)
    contract.check(token_client.get(url), hint, "get")  # 200
    contract.check(token_client.post(url), hint, "post")  # 200
    rates(monkeypatch, hint="0/minute")
    contract.check(token_client.post(url), hint, "post")  # 429

    settings.ANALYSIS_MAX_PENDING = 1
    first, second = finished(alice, bob), finished(alice, bob)
    contract.check(token_client.post(f"/api/matches/{first.pk}/analysis/"), analysis, "post")  # 202
    contract.check(token_client.post(f"/api/matches/{second.pk}/analysis/"), analysis, "post")  # 503
    rates(monkeypatch, analysis="0/hour")
    contract.check(token_client.post(f"/api/matches/{second.pk}/analysis/"), analysis, "post")  # 429
