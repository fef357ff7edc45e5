"""Names nobody can fake (server/players/names.py): one policy for accounts, guests and bots.

Bots' names are the bots' in any case and look; AI words stay the bots' whatever letters spell
them; a guest takes no account's name; invisible characters are refused; and a guest's
automatic name looks like nobody's.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.players import accounts, names, services
from server.players.models import Player
from server.players.names import name_skeleton
from tests.support import race

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-secret-9"

# The seeded bots' names (games/*/spec.py) in other cases and letters.
BOT_LOOKALIKES = [
    "Comet",
    "POLARIS",
    "nova",
    "ᴘᴏʟᴀʀɪs",  # small capitals
    "Ｃｏｍｅｔ",  # fullwidth
    "Cоmеt",  # Cyrillic о and е
    "ΝΟVΑ",  # Greek capitals
    "P0LARIS",  # a zero for the O
    "Orion ",  # a space at the end
    "Coach_Four",  # separators
]
AI_LOOKALIKES = ["Rook ᴀɪ", "Rookᴀɪ", "Rook АІ", "Rook ＡＩ", "Rook 𝐀𝐈", "ʀᴏʙᴏᴛ Rook"]
# Characters nobody sees, or that reorder text: U+200F right-to-left mark, U+200B zero-width
# space, U+200D zero-width joiner, U+2066 isolate, U+202E override, U+FEFF, a Hangul filler.
INVISIBLE = ["Zoe\u200f", "Z\u200boe", "Zo\u200de", "\u2066Zoe", "Zoe\u202e", "\ufeffZoe", "Zoe\u3164Q"]


def signup(name: str, email: str = "new@example.org"):
    return Client().post("/signup/", {"name": name, "email": email, "password1": PASSWORD, "password2": PASSWORD})


def guest_api(name: str):
    return APIClient().post("/api/players/guest/", {"name": name}, format="json")


def account(name: str) -> Player:
    accounts.account_create(name, f"{abs(hash(name))}@example.org", PASSWORD)
    return Player.objects.get(name=name)


@pytest.mark.parametrize("name", BOT_LOOKALIKES)
def test_a_bots_name_in_any_case_or_look_is_refused_at_sign_up_rename_and_as_a_guest(name):
    answer = signup(name)
    assert answer.status_code == 200 and not get_user_model().objects.exists()
    zoe = account("Zoe")
    with pytest.raises(ValidationError) as refused:
        accounts.account_rename(zoe, name)
    assert refused.value.code in ("reserved_name", "invalid_name")
    assert guest_api(name).status_code == 400
    with pytest.raises(ValidationError):
        services.player_create_guest(name)
    assert set(Player.objects.values_list("name", flat=True)) == {"Zoe"}


def test_a_bot_profiles_name_is_reserved_too_and_the_refusal_says_why():
    BotProfile.objects.create(slug="connect4-zephyr", game="connect4", name="Zephyr", level=2, algorithm="alphabeta")
    answer = signup("ZEPHYR")
    assert "kept for the bots" in answer.content.decode()
    refused = guest_api("Zеphyr")  # Cyrillic е
    assert refused.status_code == 400 and "kept for the bots" in refused.json()["name"][0]


@pytest.mark.parametrize("name", AI_LOOKALIKES)
def test_ai_words_spelt_with_look_alike_letters_are_refused(name):
    assert names.claims_to_be_ai(name)
    assert signup(name).status_code == 200 and not get_user_model().objects.exists()
    assert guest_api(name).status_code == 400


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_and_reordering_characters_are_refused_and_named(name):
    answer = signup(name)
    assert answer.status_code == 200 and "invisible or control characters" in answer.content.decode()
    refused = guest_api(name)
    assert refused.status_code == 400 and "U+" in refused.json()["name"][0]
    with pytest.raises(ValidationError):
        services.player_create_guest(name)
    assert not Player.objects.exists()


@pytest.mark.parametrize("taken", ["Alice", "alice", "Аlice", "AIice", "ＡＬＩＣＥ", "A_lice"])  # Cyrillic А; capital I
def test_a_guest_cannot_take_an_accounts_name_or_its_look(taken):
    account("Alice")
    refused = guest_api(taken)
    assert refused.status_code == 400 and "looks like it" in refused.json()["name"][0]
    with pytest.raises(ValidationError) as error:
        services.player_create_guest(taken)
    assert error.value.code == "name_taken"
    assert Player.objects.filter(is_guest=True).count() == 0


def test_an_automatic_guest_name_never_looks_like_an_accounts_or_a_bots(monkeypatch):
    Player.objects.create(name="BoldOtter001", is_guest=False)  # a guest who signed up keeping its name
    BotProfile.objects.create(slug="connect4-wren", game="connect4", name="CalmWren002", level=2, algorithm="alphabeta")
    draws = iter(["BoldOtter001", "B0ldOtter00l", "CalmWren002", *["CalmVVren002"] * 16, "QuietHare003"])
    monkeypatch.setattr(names, "guest_name", lambda: next(draws))
    monkeypatch.setattr(services, "guest_name", names.guest_name)
    assert services.player_create_guest().name == "QuietHare003"


def test_nobody_signs_up_with_the_look_of_an_automatic_guest_name():
    for name in ("QuickLynx674", "Qu1ckLynx6O4", "QUICKLYNX674"):
        assert signup(name).status_code == 200
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("name", ["Zoë", "Ярослав", "さくら", "Anne-Marie", "Rookie", "Novak", "Polly", "Big Al"])
def test_ordinary_names_of_any_script_stay_free(name):
    assert guest_api(name).status_code == 201
    assert signup(name).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_of_look_alike_names_at_once_make_one_account():
    tried = ["Zephyr Q", "Zеphyr Q", "ZEPHYR Q", "Zephyr_Q"]  # Latin e, Cyrillic е, capitals, a separator
    results = race(lambda i: accounts.account_create(tried[i], f"z{i}@example.org", PASSWORD), len(tried))
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == len(tried) - 1 and all(r.code == "name_taken" for r in refused), results
    assert Player.objects.filter(is_guest=False).count() == 1


def test_a_bot_profile_may_not_hold_invisible_characters_or_an_accounts_look():
    account("Alice")
    for name, problem in (("Zephyr\u200f", "invisible"), ("АLICE", "an account has this name")):
        profile = BotProfile(slug="connect4-x", game="connect4", name=name, level=2, algorithm="alphabeta")
        with pytest.raises(ValidationError) as refused:
            profile.clean()
        assert problem in refused.value.message_dict["name"][0]
    BotProfile(slug="connect4-x", game="connect4", name="Zephyr", level=2, algorithm="alphabeta").clean()


def test_the_migration_recomputes_accounts_keys_and_keeps_look_alikes_apart():
    migration = importlib.import_module("server.players.migrations.0006_name_keys_by_confusables")
    zoe = Player.objects.create(name="Zoe", is_guest=False, name_key="stale")
    twin = Player.objects.create(name="ᴢᴏᴇ", is_guest=False, name_key="zoe")  # its old key: zoe's new one
    guest = Player.objects.create(name="Zoe", is_guest=True)
    migration.recompute_account_keys(apps, None)
    keys = dict(Player.objects.values_list("pk", "name_key"))
    assert keys == {zoe.pk: name_skeleton("Zoe"), twin.pk: f"{name_skeleton('Zoe')}#{twin.pk}", guest.pk: ""}
