"""The renames of one word per idea reach stored data: seats' bot snapshots and moves' stats."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("bots", "0009_algorithm_from_catalogue"), ("matches", "0008_move_notation")]
AFTER = [("bots", "0010_slip_rate"), ("matches", "0009_stats_say_search_version")]


def migrate(targets: list[tuple[str, str]]):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_stored_snapshots_and_stats_take_the_new_words_and_give_them_back():
    apps = migrate(BEFORE)
    Match, Seat, Move = (apps.get_model("matches", name) for name in ("Match", "Seat", "Move"))
    profile = apps.get_model("bots", "BotProfile").objects.get(slug="connect4-shallow")
    match = Match.objects.create(game="connect4", state={})
    snapshot = {"slug": "connect4-shallow", "error_rate": 0.5}
    Seat.objects.create(match=match, index=1, kind="bot", bot_profile_id=profile.pk, bot_snapshot=snapshot)
    stats = {"depth": 2, "engine": "plyground-ai 0.1", "hint": {"move": "4", "engine": "connect4-deep"}}
    Move.objects.create(match=match, ply=0, seat=1, move="4", stats=stats)
    assert profile.error_rate == 0.5

    apps = migrate(AFTER)
    seat = apps.get_model("matches", "Seat").objects.get(match_id=match.pk)
    assert seat.bot_snapshot == {"slug": "connect4-shallow", "slip_rate": 0.5}
    move = apps.get_model("matches", "Move").objects.get(match_id=match.pk)
    assert move.stats == {
        "depth": 2,
        "search_version": "plyground-ai 0.1",
        "hint": {"move": "4", "profile": "connect4-deep"},
    }
    assert apps.get_model("bots", "BotProfile").objects.get(slug="connect4-shallow").slip_rate == 0.5

    apps = migrate(BEFORE)
    assert apps.get_model("matches", "Seat").objects.get(match_id=match.pk).bot_snapshot["error_rate"] == 0.5
    assert apps.get_model("matches", "Move").objects.get(match_id=match.pk).stats == stats
    migrate(AFTER)
