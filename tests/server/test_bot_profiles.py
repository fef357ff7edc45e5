"""Bot profiles: the seeded ladder, validation with clear messages, adaptive strength."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError

from games import registry
from server.bots import adaptive
from server.bots.models import AdaptiveStrength, BotProfile
from server.bots.selectors import bot_record
from server.matches import services
from tests.server.staff import staff_client

pytestmark = pytest.mark.django_db


def test_every_game_has_a_random_mover_five_levels_and_an_adaptive_bot():
    for game in registry.all():
        bots = BotProfile.objects.filter(game=game.id, listed=True)
        assert sorted(b.level for b in bots if not b.adaptive) == [0, 1, 2, 3, 4, 5], game.id
        assert bots.filter(adaptive=True).count() == 1
        assert bots.get(level=0).algorithm == "random"
        for bot in bots:
            bot.full_clean()  # every seeded profile passes the admin's validation
        # Levels differ in substance, not only in name.
        settings = {(b.algorithm, b.time_budget_ms, b.max_depth, b.slip_rate) for b in bots if not b.adaptive}
        assert len(settings) == 6


def profile(**overrides) -> BotProfile:
    base = dict(slug="x-bot", game="connect4", name="X", level=2, algorithm="alphabeta", time_budget_ms=300)
    return BotProfile(**{**base, **overrides})


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"time_budget_ms": 20}, "time_budget_ms", "greater than or equal to 50"),
        ({"time_budget_ms": 60_000}, "time_budget_ms", "less than or equal to 30000"),
        ({"max_depth": 99}, "max_depth", "less than or equal to 64"),
        ({"slip_rate": 1.5}, "slip_rate", "less than or equal to 1.0"),
        ({"algorithm": "maxn"}, "algorithm", "three or more players"),
        ({"algorithm": "expectimax"}, "opponent_model", "needs an opponent model"),
        ({"algorithm": "alphabeta", "opponent_model": "uniform"}, "opponent_model", "only expectimax"),
        ({"algorithm": "expectimax", "opponent_model": "epsilon:2"}, "opponent_model", "epsilon:E"),
        ({"max_iterations": 500}, "max_iterations", "only MCTS"),
        ({"min_think_ms": 400}, "min_think_ms", "cannot exceed"),
        ({"game": "chess960"}, "game", "unknown game"),
        ({"game": "chinese-checkers"}, "algorithm", "max^n"),
        ({"game": "backgammon"}, "algorithm", "dice"),
        ({"search_options": {"trap_model": "sometimes"}}, "search_options", "unknown opponent model"),
        ({"algorithm": "mcts", "search_options": {"trap_model": "uniform"}}, "search_options", "alpha-beta"),
    ],
)
def test_the_admin_refuses_bad_settings_with_a_clear_message(overrides, field, words):
    with pytest.raises(ValidationError) as refused:
        profile(**overrides).full_clean()
    assert words in " ".join(refused.value.message_dict[field])


def test_good_settings_pass():
    profile(algorithm="expectimax", opponent_model="epsilon:0.7").full_clean()
    profile(algorithm="mcts", max_iterations=2000).full_clean()
    profile(game="chinese-checkers", algorithm="maxn", search_options={"paranoid": True}).full_clean()
    profile(search_options={"trap_model": "softmax:0.1"}).full_clean()


def test_the_admin_form_shows_the_error_and_the_measured_record(alice):
    client = staff_client()
    bot = BotProfile.objects.get(slug="connect4-shallow")
    page = client.get(f"/admin/bots/botprofile/{bot.pk}/change/")
    assert b"Games played" in page.content and b"no games against people yet" in page.content
    data = {f: getattr(bot, f) for f in ("slug", "game", "name", "level", "algorithm", "slip_rate", "style")}
    data.update(time_budget_ms=10, temperature=0, min_think_ms=0, search_options="{}", description="d", listed="on")
    response = client.post(f"/admin/bots/botprofile/{bot.pk}/change/", data)
    assert response.status_code == 200 and b"greater than or equal to 50" in response.content


def test_record_counts_peoples_score(alice):
    bot = BotProfile.objects.get(slug="connect4-shallow")
    match = services.match_create("connect4", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], alice)
    services.match_resign(match.pk, 1)  # the bot's seat resigns: the person wins
    record = bot_record(bot)
    assert record.games == 1 and record.human_games == 1 and record.human_score == 1.0


def test_adaptive_strength_rises_when_the_player_wins_and_falls_when_they_lose():
    assert adaptive.strength_after(0.5, 1.0) > 0.5 > adaptive.strength_after(0.5, 0.0)
    assert adaptive.strength_after(0.5, 0.5) == 0.5
    assert adaptive.in_match_strength(0.5, 0.9, 1.0) < 0.5 < adaptive.in_match_strength(0.5, -0.9, 1.0)


def test_lower_strength_means_shallower_search_and_more_slips():
    base = {"algorithm": "alphabeta", "max_depth": 8, "slip_rate": 0.0}
    weak, strong = adaptive.config_for(base, 0.2), adaptive.config_for(base, 1.0)
    assert weak["max_depth"] < strong["max_depth"] == 8
    assert weak["slip_rate"] > strong["slip_rate"] == 0.0


def test_adaptive_play_converges_to_an_even_score():
    """A player of fixed skill against the update rule: their long-run score approaches one half."""
    rng = random.Random(5)
    for skill in (0.2, 0.5, 0.8):
        strength, points = 0.5, []
        for _ in range(2000):
            player_wins = rng.random() < 0.5 + (skill - strength)  # stronger bot, fewer player wins
            points.append(1.0 if player_wins else 0.0)
            strength = adaptive.strength_after(strength, points[-1])
        assert abs(sum(points[-1000:]) / 1000 - 0.5) < 0.06, skill


@pytest.mark.django_db(transaction=True)
def test_an_adaptive_bot_adjusts_to_a_player_across_matches(alice):
    coach = BotProfile.objects.get(slug="connect4-adaptive")
    coach.time_budget_ms = 60
    coach.save()
    for _ in range(2):
        match = services.match_create(
            "connect4", [services.SeatRequest("human"), services.SeatRequest("bot", coach)], alice
        )
        services.match_resign(match.pk, 1)  # the player wins twice
    row = AdaptiveStrength.objects.get(profile=coach, player=alice)
    assert row.games == 2 and row.player_score == 2.0 and row.strength == pytest.approx(0.7)
    match = services.match_create(
        "connect4", [services.SeatRequest("human"), services.SeatRequest("bot", coach)], alice
    )
    services.submit_move(match.pk, 0, "4", 0)
    reply = match.moves.get(ply=1)
    assert reply.stats["adaptive_strength"] == pytest.approx(0.7)
