"""Bot turns: queued when a bot is to move, idempotent, disclosed, never hanging."""

from __future__ import annotations

import time

import pytest

from server.bots.models import BotProfile
from server.bots.services import bot_turn_run
from server.matches import services
from server.matches.models import Match, Move

# Bot turns are queued on commit: these tests need real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def bot_match(player, profile, bot_first=False):
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", profile)]
    if bot_first:
        seats.reverse()
    return services.match_create(profile.game, seats, player)


def test_the_bot_replies_through_the_move_path_with_its_search_figures(alice, fast_bot):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    match.refresh_from_db()
    assert match.ply == 2 and match.to_move == 0
    reply = Move.objects.get(match=match, ply=1)
    assert reply.seat == 1 and reply.move in "1234567"
    assert reply.stats["algorithm"] == "alphabeta" and reply.stats["depth"] >= 1
    assert reply.stats["budget_ms"] == 60 and "seed" in reply.stats and "nodes" in reply.stats


def test_a_bot_seated_first_moves_as_soon_as_the_match_starts(alice, fast_bot):
    match = bot_match(alice, fast_bot, bot_first=True)
    match.refresh_from_db()
    assert match.ply == 1 and match.to_move == 1


def test_a_duplicate_or_late_task_does_nothing(alice, fast_bot):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    assert bot_turn_run(match.pk, 1) is False  # ply 1 was already played
    assert Move.objects.filter(match=match).count() == 2


def test_a_result_for_a_position_that_is_no_longer_current_is_dropped(alice, fast_bot, settings):
    settings.BOT_RUNNER = "none-yet"
    match = Match.objects.get(pk=_match_without_reply(alice, fast_bot, settings))
    services.match_resign(match.pk, 0)
    assert bot_turn_run(match.pk, 1) is False
    assert Move.objects.filter(match=match).count() == 1


def _match_without_reply(alice, profile, settings) -> int:
    settings.BOT_RUNNER = "inline"
    match = bot_match(alice, profile)
    # Queue nothing for the bot: a runner that never answers.
    from server.bots import receivers

    orig = receivers.queue_bot_turn
    receivers.queue_bot_turn = lambda *args: None
    try:
        services.submit_move(match.pk, 0, "4", 0)
    finally:
        receivers.queue_bot_turn = orig
    return match.pk


def test_bot_versus_bot_plays_to_the_end(alice, db):
    weak, strong = BotProfile.objects.get(slug="tictactoe-random"), BotProfile.objects.get(slug="tictactoe-perfect")
    strong.time_budget_ms = 100
    strong.save()
    match = services.match_create(
        "tictactoe", [services.SeatRequest("bot", weak), services.SeatRequest("bot", strong)], alice
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winner"] in (1, None)  # the perfect player never loses
    assert Move.objects.filter(match=match).count() == match.ply


def test_seeded_profiles_cover_each_game_with_three_levels_and_are_ai(db):
    for game in ("tictactoe", "connect4"):
        bots = BotProfile.objects.filter(game=game, listed=True)
        algorithms = {b.algorithm for b in bots}
        assert bots.count() >= 3 and {"random", "alphabeta"} <= algorithms
        assert all(b.is_ai for b in bots)


def test_an_adaptive_opponent_model_sees_the_players_moves_so_far(alice):
    from server.bots.services import opponent_moves

    bot = BotProfile.objects.get(slug="connect4-shallow")
    match = bot_match(alice, bot)
    services.submit_move(match.pk, 0, "4", 0)
    services.submit_move(match.pk, 0, "3", 2)
    seen = opponent_moves(Match.objects.get(pk=match.pk), bot_seat=1)
    assert [m["move"] for m in seen] == ["4", "3"]
    assert seen[0]["state"]["board"][5] == [None] * 7  # the position before the player's first move


def test_a_bot_with_an_exploiting_model_plays_through_the_server(alice):
    bot = BotProfile.objects.get(slug="tictactoe-perfect")
    bot.algorithm, bot.opponent_model, bot.time_budget_ms, bot.search_options = "expectimax", "adaptive", 150, {}
    bot.full_clean()
    bot.save()
    match = bot_match(alice, bot)
    services.submit_move(match.pk, 0, "1", 0)
    reply = Move.objects.get(match=match, ply=1)
    assert reply.stats["algorithm"] == "expectimax" and reply.move in "23456789"


def test_each_bot_seat_keeps_its_own_search_tree(alice, fast_bot, settings):
    """MCTS reuses its tree by the options it is given: the seat keeps two bots of a match apart."""
    from server.bots.services import bot_turn_prepare

    match_id = _match_without_reply(alice, fast_bot, settings)
    now = time.time()
    options = bot_turn_prepare(match_id, 1, now + 1, now).config["options"]
    assert options["match_id"] == match_id and options["seat"] == 1
