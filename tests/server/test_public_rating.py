"""Chess bots' ratings on Stockfish's scale: the data file, the API and bot page text, and clearing on change."""

from __future__ import annotations

import pytest
from django.test import Client

from server.bots import measured, public_rating
from server.bots.models import BotProfile
from server.bots.seed import profiles

pytestmark = pytest.mark.django_db


def settings_of(slug: str) -> dict:
    return next(spec for spec in profiles() if spec["slug"] == slug)


def an_entry(slug: str, elo: float = 1450.0, bound: str | None = None, games: int = 40, **settings) -> dict:
    spec = {**settings_of(slug), **settings}
    return {"game": spec["game"], "scale": "Stockfish 15.1's UCI_Elo", "elo": elo, "low": elo - 120,
            "high": elo + 120, "bound": bound, "games": games, "score": 0.5, "wins_draws_losses": [15, 10, 15],
            "cut_at_max_plies": 0,
            "opponent": "Stockfish 15.1 held to UCI_Elo 1350 (UCI_LimitStrength), 200 ms a move, 1 thread, 16 MB hash",
            "budget_cap_ms": 200, "measured_on": "2026-11-27",
            "method": "benchmarks/chess_stockfish.py --pairings 5:1350 --games 40 --budget-cap-ms 200",
            "fingerprint": measured.fingerprint(spec)}  # fmt: skip


@pytest.fixture
def data_file(tmp_path, monkeypatch):
    """A data file of the test's own, so the committed figures may change without breaking these tests."""
    path = tmp_path / "stockfish_ratings.json"
    monkeypatch.setattr(public_rating, "DATA_PATH", path)
    return path


def test_the_label_says_the_scale_the_interval_and_the_games():
    assert public_rating.label(an_entry("chess-master")) == "≈1450 on Stockfish 15.1's UCI_Elo scale (±120, 40 games)"
    assert public_rating.short(an_entry("chess-master")) == "≈1450 Stockfish Elo"


def test_a_one_sided_result_is_shown_as_a_bound_not_a_figure():
    lost_all = {**an_entry("chess-beginner", elo=674, games=60, bound="below"), "low": 674, "high": 1080}
    assert public_rating.label(lost_all) == "below 1080 on Stockfish 15.1's UCI_Elo scale (60 games)"
    won_all = {**an_entry("chess-master", elo=2026, bound="above"), "low": 1620, "high": 2026}
    assert public_rating.short(won_all) == "above 1620 Stockfish Elo"


def test_the_api_and_the_bot_page_show_it_for_the_chess_bots_measured(data_file):
    public_rating.write({"chess-master": an_entry("chess-master")}, data_file)
    bots = {b["slug"]: b for b in Client().get("/api/bots/?game=chess").json()}
    shown = bots["chess-master"]["public_rating"]
    assert shown["label"] == "≈1450 on Stockfish 15.1's UCI_Elo scale (±120, 40 games)"
    assert (shown["elo"], shown["low"], shown["high"], shown["games"]) == (1450, 1330, 1570, 40)
    assert "capped at 200 ms a move instead of 3000 ms" in shown["caveat"]
    assert bots["chess-advanced"]["public_rating"] is None  # not in this file: nothing made up
    how = " ".join(Client().get("/api/bots/chess-master/").json()["how_it_plays"])
    assert "On the scale chess players know: ≈1450 on Stockfish 15.1's UCI_Elo scale (±120, 40 games)." in how
    assert "Stockfish 15.1 held to UCI_Elo 1350" in how
    connect4 = Client().get("/api/bots/?game=connect4").json()
    assert all(b["public_rating"] is None for b in connect4)


def test_changing_how_the_bot_plays_clears_it_and_restoring_the_settings_brings_it_back(data_file):
    public_rating.write({"chess-master": an_entry("chess-master")}, data_file)
    profile = BotProfile.objects.get(slug="chess-master")
    profile.description = "Other words, same play."
    profile.save()
    assert Client().get("/api/bots/chess-master/").json()["public_rating"] is not None
    profile.time_budget_ms = 1000
    profile.save()
    changed = Client().get("/api/bots/chess-master/").json()
    assert changed["public_rating"] is None
    assert "Stockfish" not in " ".join(changed["how_it_plays"])
    profile.time_budget_ms = settings_of("chess-master")["time_budget_ms"]
    profile.save()
    assert Client().get("/api/bots/chess-master/").json()["public_rating"] is not None


def test_the_committed_figures_belong_to_the_seeded_chess_ladder_as_it_plays_now():
    entries = public_rating.load()
    assert entries, "server/bots/stockfish_ratings.json is missing"
    seeds = {spec["slug"]: spec for spec in profiles() if spec["game"] == "chess"}
    for slug, entry in entries.items():
        assert entry["fingerprint"] == measured.fingerprint(seeds[slug]), f"{slug} was measured with other settings"
        assert entry["low"] <= entry["elo"] <= entry["high"] and entry["games"] > 0
        assert entry["scale"].startswith("Stockfish") and "UCI_Elo" in entry["opponent"]
        assert entry["method"].startswith("benchmarks/chess_stockfish.py")
        assert sum(entry["wins_draws_losses"]) == entry["games"]
