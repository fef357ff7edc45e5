"""Measured ratings as seeded data: each game's `seed_ratings.json`, `seed_bots`, the admin, `calibrate`."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.contrib.admin.sites import site
from django.core.management import call_command
from django.test import Client

from games import registry
from server.bots import calibration, measured
from server.bots.models import BotProfile
from server.bots.placement import RANDOM_MOVER_RATING
from server.bots.rating import comparisons
from server.bots.seed import profiles, seed_profiles
from server.matches.models import Match

pytestmark = pytest.mark.django_db

# Every registered game comes with its ladder's figures, in its package (`games/<id>/seed_ratings.json`).
MEASURED_GAMES = set(registry.ids())


def test_the_data_covers_every_seeded_profile_of_the_measured_games_with_its_current_settings():
    entries = measured.load()
    assert measured.games_with_data(entries.values()) >= MEASURED_GAMES
    for spec in profiles():
        if spec["game"] in MEASURED_GAMES:
            entry = entries[spec["slug"]]
            assert entry["fingerprint"] == measured.fingerprint(spec), (
                f"{spec['slug']} was measured with other settings"
            )
            assert entry["low"] <= entry["elo"] <= entry["high"] and entry["games"] > 0
            assert entry["method"].startswith(("manage.py calibrate", "benchmarks/rate_direct.py"))
            date.fromisoformat(entry["measured_on"])


def test_every_seeded_profile_has_its_measured_rating_after_seed_bots():
    """What `make run`'s set-up does: migrate, then seed_bots."""
    BotProfile.objects.update(**measured.RATING_FIELDS)
    call_command("seed_bots", stdout=io.StringIO())
    games = measured.games_with_data(measured.load().values())
    seeded = [spec["slug"] for spec in profiles() if spec["game"] in games]
    assert seeded
    for profile in BotProfile.objects.filter(slug__in=seeded):
        assert profile.rating is not None, f"{profile.slug} has no rating"
        assert profile.rated_games > 0 and profile.measured_on is not None and profile.rating_method
    for anchor in BotProfile.objects.filter(slug__in=seeded, algorithm="random"):  # placed on the people's scale
        assert anchor.rating == RANDOM_MOVER_RATING and anchor.deviation == 60 and anchor.volatility == 0.06


def test_a_capped_measurement_says_so():
    entries = measured.load()
    capped = {slug: e for slug, e in entries.items() if e["budget_cap_ms"] is not None}
    seeds = {spec["slug"]: spec for spec in profiles()}
    for slug, entry in capped.items():
        assert entry["budget_cap_ms"] < seeds[slug]["time_budget_ms"]
        assert f"--budget-cap-ms {entry['budget_cap_ms']}" in entry["method"]


def settings_of(slug: str) -> dict:
    return next(spec for spec in profiles() if spec["slug"] == slug)


def an_entry(slug: str, elo: float = 500.0, measured_on: str = "2026-11-20", **settings) -> dict:
    spec = {**settings_of(slug), **settings}
    return {"game": spec["game"], "elo": elo, "low": elo - 100, "high": elo + 100, "games": 40,
            "measured_on": measured_on, "method": "manage.py calibrate --game x --games 2 (celery runner)",
            "budget_cap_ms": None, "fingerprint": measured.fingerprint(spec)}  # fmt: skip


def test_the_fingerprint_follows_the_playing_settings_only():
    spec = settings_of("connect4-deep")
    same = {**spec, "name": "Renamed", "description": "other words", "min_think_ms": 0, "slip_rate": 0.05}
    assert measured.fingerprint(same) == measured.fingerprint(spec)
    for change in ({"max_depth": 6}, {"time_budget_ms": 999}, {"slip_rate": 0.1}, {"search_options": {"x": 1}}):
        assert measured.fingerprint({**spec, **change}) != measured.fingerprint(spec), change
    # A profile and its seed agree, whatever the spelling of the defaults.
    assert measured.profile_fingerprint(BotProfile.objects.get(slug="connect4-deep")) == measured.fingerprint(spec)


def test_seed_bots_skips_an_entry_measured_with_other_settings():
    BotProfile.objects.filter(slug="connect4-deep").update(**measured.RATING_FIELDS)
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep", max_depth=6)})
    assert BotProfile.objects.get(slug="connect4-deep").rating is None


def test_a_newer_calibration_of_the_same_settings_is_kept_over_the_data():
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep", elo=500, measured_on="2026-11-20")})
    profile = BotProfile.objects.get(slug="connect4-deep")
    profile.rating, profile.measured_on = 650, date(2026, 11, 25)
    profile.save()
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep", elo=500, measured_on="2026-11-20")})
    assert BotProfile.objects.get(slug="connect4-deep").rating == 650
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep", elo=700, measured_on="2026-11-26")})
    assert BotProfile.objects.get(slug="connect4-deep").rating == 700 + RANDOM_MOVER_RATING


def test_changing_how_a_bot_plays_clears_its_rating_and_reseeding_brings_it_back():
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep")})
    profile = BotProfile.objects.get(slug="connect4-deep")
    profile.description = "New words; same play."
    profile.save()
    assert BotProfile.objects.get(slug="connect4-deep").rating == 500 + RANDOM_MOVER_RATING
    profile.max_depth = 5
    profile.save(update_fields=["max_depth"])
    profile = BotProfile.objects.get(slug="connect4-deep")
    assert profile.rating is None and profile.rated_games == 0 and profile.measured_on is None
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep")})
    profile = BotProfile.objects.get(slug="connect4-deep")
    assert profile.max_depth == 7 and profile.rating == 500 + RANDOM_MOVER_RATING


def admin_client() -> Client:
    from tests.server.staff import staff_client

    return staff_client()


def change_form(profile: BotProfile, **changes) -> dict:
    form = site._registry[BotProfile].get_form(None, profile)(instance=profile)
    data = {name: field.prepare_value(form.initial.get(name)) for name, field in form.fields.items()}
    data = {k: ("" if v is None else v) for k, v in data.items()}
    data["search_options"] = form.fields["search_options"].prepare_value(profile.search_options)
    data["initial-search_options"] = data["search_options"]  # the admin's hidden initial, as the page posts it
    data = {k: v for k, v in data.items() if v is not False}  # an unchecked box is not posted
    return {**data, **changes}


def test_the_admin_changing_a_playing_setting_clears_the_rating_other_edits_keep_it():
    seed_profiles(BotProfile, {"connect4-deep": an_entry("connect4-deep")})
    profile = BotProfile.objects.get(slug="connect4-deep")
    profile.rating_fingerprint = ""  # a rating from before fingerprints: the admin still clears it
    profile.save()
    client = admin_client()
    url = f"/admin/bots/botprofile/{profile.pk}/change/"
    response = client.post(url, change_form(profile, description="Kinder words."))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert BotProfile.objects.get(pk=profile.pk).rating == 500 + RANDOM_MOVER_RATING
    profile.refresh_from_db()
    refused = client.post(url, change_form(profile, slip_rate="0.2"))  # the description left as it was
    assert refused.status_code == 200 and "its description and level were written for the old settings" in (
        refused.content.decode()
    )
    assert BotProfile.objects.get(pk=profile.pk).rating == 500 + RANDOM_MOVER_RATING
    kept = change_form(profile, slip_rate="0.2", description_still_true="on")
    assert client.post(url, kept).status_code == 302
    changed = BotProfile.objects.get(pk=profile.pk)
    assert changed.slip_rate == 0.2 and changed.rating is None and changed.rating_method == ""
    assert changed.unmeasured_since is not None


def test_the_api_says_when_and_how_a_bot_was_rated():
    entry = {**an_entry("connect4-master", elo=905), "budget_cap_ms": 300}
    entry["fingerprint"] = measured.fingerprint(settings_of("connect4-master"))
    seed_profiles(BotProfile, {"connect4-master": entry})
    bots = {b["slug"]: b for b in Client().get("/api/bots/?game=connect4").json()}
    master = bots["connect4-master"]
    assert (master["rating"], master["rating_low"], master["rating_high"]) == (1505, 1405, 1605)
    assert master["deviation"] == 60 and master["provisional"] is False  # 100 / 1.96 is below the floor
    assert master["rated_games"] == 40 and master["measured_on"] == "2026-11-20"
    assert master["rating_budget_cap_ms"] == 300 and master["rating_method"].startswith("manage.py calibrate")
    how = " ".join(Client().get("/api/bots/connect4-master/").json()["how_it_plays"])
    assert (
        "Rating: 1505 ±60, on the scale people are rated on: "
        "placed by 40 calibration games against other bots on 2026-11-20" in how
    )
    assert "capped at 300 ms a move instead of 4000 ms" in how
    BotProfile.objects.filter(slug="connect4-deep").update(**measured.RATING_FIELDS)
    unrated = Client().get("/api/bots/connect4-deep/").json()
    assert unrated["rating"] is None and unrated["measured_on"] is None and unrated["rated_games"] == 0


def test_three_seats_are_compared_two_by_two():
    results = comparisons(["a", "b", "b"], [1, 0, -1])
    assert [(r.a, r.b, r.score_a) for r in results] == [("a", "b", 1.0), ("a", "b", 1.0)]
    results = comparisons(["b", "a", "b"], [0, 0, 1])
    assert [(r.a, r.b, r.score_a) for r in results] == [("b", "a", 0.5), ("a", "b", 0.0)]
    seatings = calibration.pairings(list(BotProfile.objects.filter(game="chinese-checkers")[:3]), 3)
    assert len(seatings) == 3 * 6 and all(len(set(p.slugs)) == 2 for p in seatings)


@pytest.mark.django_db(transaction=True)
def test_calibrate_writes_the_data_file_with_the_cap_it_played_with(tmp_path, monkeypatch):
    monkeypatch.setattr(measured, "DATA_PATH", tmp_path / "seed_ratings.json")
    slugs = "tictactoe-random,tictactoe-shallow,tictactoe-advanced"
    out = io.StringIO()
    call_command("calibrate", "--game", "tictactoe", "--games", "2", "--profiles", slugs, "--budget-cap-ms", "250",
                 "--write-ratings", stdout=out, stderr=io.StringIO())  # fmt: skip
    assert "3 ratings written" in out.getvalue()
    budgets = {s.bot_snapshot["slug"]: s.bot_snapshot["time_budget_ms"]
               for m in Match.objects.filter(source=calibration.SOURCE) for s in m.seats.all()}  # fmt: skip
    assert budgets == {"tictactoe-random": 100, "tictactoe-shallow": 200, "tictactoe-advanced": 250}
    entries = measured.load()
    assert set(entries) == set(slugs.split(","))
    # Only the profile whose budget the cap cut (Ada, 300 ms) was measured capped.
    assert entries["tictactoe-advanced"]["budget_cap_ms"] == 250
    assert entries["tictactoe-shallow"]["budget_cap_ms"] is None
    assert entries["tictactoe-random"]["elo"] == 0 and entries["tictactoe-advanced"]["games"] == 8
    assert entries["tictactoe-advanced"]["method"].startswith(
        "manage.py calibrate --game tictactoe --games 2 --budget-cap-ms 250"
    )
    # The file seeds a fresh install: the ratings land on profiles with those settings.
    BotProfile.objects.update(**measured.RATING_FIELDS)
    seed_profiles(BotProfile)
    advanced = BotProfile.objects.get(slug="tictactoe-advanced")
    assert advanced.rating == entries["tictactoe-advanced"]["elo"] + RANDOM_MOVER_RATING
    assert advanced.rating_budget_cap_ms == 250


def test_every_registered_game_has_measured_ratings():
    """A fresh install shows a rating for every seeded bot: a new game comes with its measurement."""
    assert measured.games_with_data(measured.load().values()) == set(registry.ids())
    for game_id in registry.ids():  # each in its own package, beside the spec that declares the ladder
        assert game_id in measured.games_with_data(measured.load(measured.data_path(game_id)).values())
