"""Accounts: sign-up keeps the guest's player, names by their look, login, logout, passwords."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client

from server.matches import services
from server.matches.models import Match
from server.players import accounts
from server.players.models import Player
from server.players.names import name_skeleton, validate_account_name
from server.players.selectors import SESSION_KEY
from tests.server.conftest import human_match
from tests.server.staff import admin_login

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-secret-9"


def signup(client: Client, name: str, email: str | None = None, password: str = PASSWORD, **extra):
    body = {"name": name, "email": email or f"{name.lower().replace(' ', '')}@example.org"}
    return client.post("/signup/", {**body, "password1": password, "password2": password, **extra})


def guest_browser(client: Client) -> Player:
    """A browser that became a guest the way the site makes one: its first match."""
    client.get("/")
    seats = [{"kind": "human"}, {"kind": "human"}]
    made = client.post(
        "/api/matches/",
        {"game": "tictactoe", "seats": seats},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )
    assert made.status_code == 201
    return Player.objects.get(pk=client.session[SESSION_KEY])


def test_a_guest_who_signs_up_keeps_its_player_matches_and_seat(client, bob):
    guest = guest_browser(client)
    running = Match.objects.get(seats__player=guest)
    services.match_join(running.pk, bob)
    answer = signup(client, "Zoe Q")
    assert answer.status_code == 302, answer.content.decode()[:2000]
    player = Player.objects.get(pk=guest.pk)
    assert (player.name, player.is_guest, player.user.username) == ("Zoe Q", False, "Zoe Q")
    assert Player.objects.count() == 2  # the guest became the account, and Bob
    assert client.session[SESSION_KEY] == guest.pk
    assert services.require_seat(Match.objects.get(pk=running.pk), player.pk) == 0
    services.submit_move(running.pk, 0, "5", 0)  # still theirs to play
    me = client.get("/api/players/me/").json()
    assert me["name"] == "Zoe Q" and me["is_guest"] is False


def test_a_guest_may_keep_its_automatic_name_and_nobody_else_may_take_one(client):
    guest = guest_browser(client)
    assert signup(client, guest.name).status_code == 302
    assert Player.objects.get(pk=guest.pk).name == guest.name
    with pytest.raises(ValidationError):
        validate_account_name("QuickLynx674")


def test_signing_up_without_a_guest_makes_an_account_player(client):
    assert signup(client, "Newcomer").status_code == 302
    player = Player.objects.get(name="Newcomer")
    assert not player.is_guest and client.session[SESSION_KEY] == player.pk


@pytest.mark.parametrize("taken", ["zoe", "ZOE", "Z0E", "Zое", "Z_oe", "Ｚｏｅ"])  # Cyrillic о and е; full width
def test_names_are_unique_among_accounts_by_case_and_look(client, taken):
    assert signup(Client(), "Zoe").status_code == 302
    answer = signup(client, taken, email="other@example.org")
    assert answer.status_code == 200
    assert "looks like it" in answer.content.decode()
    assert get_user_model().objects.count() == 1


def test_the_look_of_a_name_folds_confusables():
    assert name_skeleton("Alice") == name_skeleton("AIice") == name_skeleton("ALICE") == name_skeleton("a-lice")
    assert name_skeleton("Marnie") == name_skeleton("Mamie")  # rn reads m
    assert name_skeleton("Alice") != name_skeleton("Alicia")


def test_a_guest_name_does_not_hold_a_name_against_an_account(client, alice):
    assert signup(client, "Alice").status_code == 302  # a guest named Alice does not own the name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Rook AI", "AI or a bot"),
        ("DeepBot", "AI or a bot"),
        ("R0B0T", "AI or a bot"),
        ("ab", "3 to 24"),
        ("x" * 25, "3 to 24"),
        ("<b>Zoe</b>", "letters, digits"),
        ("Zoe!", "letters, digits"),
        ("Zoe-", "starts and ends"),
        ("Zoe  Q", "single spaces"),
        ("1234", "at least one letter"),
        ("Guest", "kept for the site"),
        ("admin", "kept for the site"),
    ],
)
def test_bad_names_are_refused_with_a_reason(client, name, why):
    answer = signup(client, name)
    assert answer.status_code == 200
    assert why in answer.content.decode()
    assert not get_user_model().objects.exists()


def test_letters_of_any_script_make_a_name():
    for name in ("Zoë", "Łukasz", "Ярослав", "さくら", "Anne-Marie", "j_doe"):
        validate_account_name(name)


def test_weak_passwords_are_refused_by_the_sites_validators(client):
    for password in ("short1", "password1234", "123456789012", "ZoeQuinn2024x"[:12]):
        answer = signup(client, "Zoe Quinn", password=password)
        assert answer.status_code == 200
    assert signup(client, "Zoe Quinn", password="zoequinn@example.org").status_code == 200  # the address
    assert not get_user_model().objects.exists()


def test_the_signup_page_is_labelled_with_an_error_summary_and_autocomplete(client):
    page = client.get("/signup/").content.decode()
    for field, autocomplete in (("name", "username"), ("email", "email"), ("password1", "new-password")):
        assert f'for="id_{field}"' in page
        assert re.search(rf'<input[^>]*autocomplete="{autocomplete}"[^>]*id="id_{field}"', page)
    bad = signup(client, "Rook AI").content.decode()
    assert 'role="alert"' in bad and 'href="#id_name"' in bad


def test_one_email_is_one_account(client):
    accounts.account_create("Zoe", "z@example.org", PASSWORD)
    assert signup(client, "Yann", email="Z@Example.org").status_code == 302  # no word on whose address it is
    assert get_user_model().objects.get(username="Yann").email == ""
    assert mail.outbox[-1].to == ["Z@Example.org"] and "already belongs to your account Zoe" in mail.outbox[-1].body


def test_two_accounts_of_one_look_are_refused_by_the_database_too(db):
    accounts.account_create("Zoe", "a@example.org", PASSWORD)
    Player.objects.create(name="Zoé", is_guest=True)
    with pytest.raises(ValidationError):
        accounts.account_create("ZOE", "b@example.org", PASSWORD)
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="Zoe2", is_guest=False, name_key=name_skeleton("Zoe"))


# --- log in, log out -------------------------------------------------------------------


def test_log_in_by_name_in_any_case_or_by_email_and_log_out(client):
    accounts.account_create("Zoe Q", "zoe@example.org", PASSWORD)
    player = Player.objects.get(name="Zoe Q")
    for identifier in ("zoe q", "ZOE@example.org"):
        answer = client.post("/login/", {"username": identifier, "password": PASSWORD})
        assert answer.status_code == 302, identifier
        assert client.session[SESSION_KEY] == player.pk
        page = client.get("/").content.decode()
        assert "Log out" in page and 'href="/players/Zoe%20Q/"' in page
        assert client.post("/logout/").status_code == 302
        assert SESSION_KEY not in client.session
        assert "Sign up" in client.get("/").content.decode()


def test_a_wrong_password_is_refused_and_the_lockout_stops_guessing(client, settings):
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    answer = client.post("/login/", {"username": "Zoe", "password": "wrong"})
    assert answer.status_code == 200 and "do not match" in answer.content.decode()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post("/login/", {"username": "Zoe", "password": "wrong"})
    locked = client.post("/login/", {"username": "Zoe", "password": PASSWORD})
    assert locked.status_code == 429 and "Too many attempts" in locked.content.decode()


def test_logging_in_on_a_guests_browser_switches_to_the_account_and_leaves_the_guest_its_matches(client):
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    guest = guest_browser(client)
    warning = client.get("/login/").content.decode()
    assert "1 match not finished" in warning
    assert client.post("/login/", {"username": "Zoe", "password": PASSWORD}).status_code == 302
    assert client.session[SESSION_KEY] == Player.objects.get(name="Zoe").pk
    assert Match.objects.filter(seats__player=guest).count() == 1  # the guest's, as it was


def test_a_staff_user_made_in_a_shell_gets_a_player_on_login(client):
    get_user_model().objects.create_user("root", "root@example.org", PASSWORD)
    assert client.post("/login/", {"username": "root", "password": PASSWORD}).status_code == 302
    assert Player.objects.get(pk=client.session[SESSION_KEY]).name == "root"


# --- the account page and passwords ----------------------------------------------------


def test_the_account_page_renames_and_keeps_names_unique(client):
    accounts.account_create("Other", "o@example.org", PASSWORD)
    assert signup(client, "Zoe").status_code == 302
    assert client.post("/account/", {"name": "0ther", "email": "zoe@example.org"}).status_code == 200
    assert client.post("/account/", {"name": "Zoe Quinn", "email": "zq@example.org"}).status_code == 302
    player = Player.objects.get(pk=client.session[SESSION_KEY])
    assert (player.name, player.user.username, player.user.email) == ("Zoe Quinn", "Zoe Quinn", "")  # until confirmed
    assert mail.outbox[-1].to == ["zq@example.org"]
    assert client.post("/login/", {"username": "zoe quinn", "password": PASSWORD}).status_code == 302


def test_the_account_page_needs_a_login(client):
    answer = client.get("/account/")
    assert answer.status_code == 302 and answer["Location"].startswith("/login/")


def test_change_password(client):
    assert signup(client, "Zoe").status_code == 302
    new = "another-long-secret-7"
    form = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    assert client.post("/account/password/", form).status_code == 302
    assert client.get("/account/").status_code == 200  # still logged in
    client.post("/logout/")
    assert client.post("/login/", {"username": "Zoe", "password": new}).status_code == 302


def test_reset_password_by_email(client):
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    assert client.post("/password-reset/", {"email": "ZOE@example.org"}).status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["zoe@example.org"]
    link = re.search(r"http://testserver(/password-reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    new = "brand-new-secret-42"
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert client.post("/login/", {"username": "Zoe", "password": new}).status_code == 302
    assert client.post("/password-reset/", {"email": "nobody@example.org"}).status_code == 302
    assert len(mail.outbox) == 1  # no mail, and no word on whether the address exists


def test_the_header_offers_log_in_to_guests(client):
    guest_browser(client)
    page = client.get("/").content.decode()
    assert 'href="/login/"' in page and 'href="/signup/"' in page and "Log out" not in page


def header_who(page: str) -> str:
    """What the site header says of the browser's person (before its account links)."""
    return re.search(r'id="player-name"[^>]*>(.*?)<nav class="account-nav"', page, re.DOTALL).group(1)


def test_a_visitor_without_a_player_reads_not_signed_in_never_a_bare_guest_tag(client):
    for path in ("/", "/leaderboards/"):
        page = client.get(path).content.decode()
        who = header_who(page)
        assert "Not signed in" in who and "guest" not in re.sub(r'title="[^"]*"', "", who), who
        assert 'href="/login/"' in page and 'href="/signup/"' in page
    player = guest_browser(client)
    who = header_who(client.get("/").content.decode())
    assert player.name in who and '<span class="tag">guest</span>' in who and "Not signed in" not in who


def test_human_match_helper_still_works(alice, bob):
    assert human_match("tictactoe", alice, bob).status == Match.Status.ACTIVE


def test_sign_ups_and_reset_mails_are_throttled_per_address(client, monkeypatch):
    from server.players.throttles import AddressRateThrottle

    rates = {**AddressRateThrottle.THROTTLE_RATES, "signup": "2/hour", "password_reset": "1/hour"}
    monkeypatch.setattr(AddressRateThrottle, "THROTTLE_RATES", rates)
    assert signup(Client(), "One").status_code == 302
    assert signup(Client(), "Two").status_code == 302
    refused = signup(Client(), "Three")
    assert refused.status_code == 429 and "Too many requests" in refused.content.decode()
    assert len(mail.outbox) == 2  # the two sign-ups' confirmation links
    get_user_model().objects.filter(username="One").update(email="one@example.org")
    assert client.post("/password-reset/", {"email": "one@example.org"}).status_code == 302
    assert client.post("/password-reset/", {"email": "one@example.org"}).status_code == 429
    assert len(mail.outbox) == 3


def test_a_password_changed_elsewhere_ends_the_accounts_other_sessions(client):
    assert signup(client, "Zoe").status_code == 302
    other = Client()
    assert other.post("/login/", {"username": "Zoe", "password": PASSWORD}).status_code == 302
    assert other.get("/api/players/me/").json()["name"] == "Zoe"
    new = "another-long-secret-7"
    form = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    assert client.post("/account/password/", form).status_code == 302
    assert client.get("/api/players/me/").json()["name"] == "Zoe"  # this session goes on
    assert other.get("/api/players/me/").status_code == 401  # the other one is logged out
    assert "Log in" in other.get("/").content.decode()


def test_staff_renaming_an_account_keeps_its_look_and_login_name(client):
    accounts.account_create("Other", "o@example.org", PASSWORD)
    accounts.account_create("Zoe", "zoe@example.org", PASSWORD)
    zoe = Player.objects.get(name="Zoe")
    admin_login(client, get_user_model().objects.create_superuser("root", password=PASSWORD), PASSWORD)
    page = f"/admin/players/player/{zoe.pk}/change/"
    form = {"name": "0THER", "user": zoe.user_id, "is_guest": ""}
    assert client.post(page, form).status_code == 200  # refused: looks like Other
    assert client.post(page, {**form, "name": "Zoe Renamed"}).status_code == 302
    zoe.refresh_from_db()
    assert (zoe.name_key, zoe.user.username) == (name_skeleton("Zoe Renamed"), "Zoe Renamed")
