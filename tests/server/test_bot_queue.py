"""Bots never pretend: own queues served first, the budget from the search's start, an honest watchdog.

A bot turn is queued (`bot_queued`), a worker starts its search (`bot_thinking`, the
budget runs from then), and the move records its search time as `think_ms` and the
wait before it as `queue_wait_ms`.  A turn waiting for a worker is never overdue; a
started search that never answers is queued once more; a fallback move is the last
resort and is marked as one in the database, the API, the socket frame and exports.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from datetime import timedelta

import kombu
import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from server.bots import queues, receivers, watchdog
from server.bots import services as bot_services
from server.bots.models import BotTurnRecord
from server.bots.services import bot_turn_claim, bot_turn_run
from server.bots.watchdog import rescue_overdue_bots
from server.config.celery import app
from server.matches import services
from server.matches.models import Match, Move
from server.matches.selectors import match_json
from server.players.models import Player
from server.research.filters import ExportFilters
from server.research.formats import CSV_COLUMNS, csv_chunks, game_records
from server.research.selectors import MOVE_ROW_COLUMNS, match_rows
from tests.server.conftest import REDIS_TEST_URL
from tests.server.test_bot_thinking import drain, listen

pytestmark = pytest.mark.django_db(transaction=True)

ORDER = ["bots", "hints", "botmatches", "analysis", "calibration", "selfplay"]


# --- queues ---------------------------------------------------------------------------


def test_each_kind_of_work_has_its_queue_bot_moves_first(settings):
    base = django_settings.CELERY_TASK_DEFAULT_QUEUE
    names = [q.name for q in app.conf.task_queues]
    assert names == [f"{base}.{kind}" for kind in ORDER] + [base]
    # Each queue its own routing key: a shared one would copy every message to all of them.
    assert len({q.routing_key for q in app.conf.task_queues}) == len(names)
    assert app.conf.broker_transport_options["queue_order_strategy"] == "priority"
    assert app.amqp.router.route({}, "bots.bot_move")["queue"].name == f"{base}.bots"
    assert app.amqp.router.route({}, "analysis.analyse_position")["queue"].name == f"{base}.analysis"


def test_a_bot_turn_goes_to_the_queue_of_its_matchs_source(alice, fast_bot, settings, monkeypatch):
    from server.bots.tasks import bot_move

    sent = []
    monkeypatch.setattr(bot_move, "apply_async", lambda **kw: sent.append(kw))
    settings.BOT_RUNNER = "celery"
    base = django_settings.CELERY_TASK_DEFAULT_QUEUE
    for source, kind in (
        ("play", "botmatches"),  # nobody plays in it: below people's matches and hints
        ("calibration", "calibration"),
        ("selfplay", "selfplay"),
        ("ds-1", "selfplay"),
    ):
        seats = [services.SeatRequest("bot", fast_bot), services.SeatRequest("bot", fast_bot)]
        match = services.match_create(fast_bot.game, seats, None, source=source)
        assert sent[-1]["queue"] == f"{base}.{kind}" and sent[-1]["args"][:2] == [match.pk, 0]
    seats = [services.SeatRequest("bot", fast_bot), services.SeatRequest("human")]
    match = services.match_create(fast_bot.game, seats, alice)
    assert sent[-1]["queue"] == f"{base}.bots" and sent[-1]["args"][:2] == [match.pk, 0]  # a person waits
    assert queues.bot_queue_for("play") == f"{base}.bots"
    settings.BOT_FAIR_SHARE = False  # the old way: every bot turn on the site first come, first served
    assert queues.bot_queue_for("play", person_seated=False) == f"{base}.bots"


def test_a_free_worker_takes_the_bot_move_before_analysis_calibration_and_selfplay():
    """On the real Redis, with the transport options of the settings: the queues are popped in their order."""
    prefix = f"plyground-queue-test-{uuid.uuid4().hex[:8]}"
    declared = [kombu.Queue(f"{prefix}.{q.name}", routing_key=f"{prefix}.{q.name}") for q in app.conf.task_queues]
    options = dict(app.conf.broker_transport_options)
    with kombu.Connection(REDIS_TEST_URL, transport_options=options) as conn:
        try:
            producer = conn.Producer()
            for queue in reversed(declared):  # the least urgent work is queued first
                producer.publish({"queue": queue.name}, routing_key=queue.routing_key, declare=[queue])
            taken = []
            with conn.Consumer(declared, callbacks=[lambda body, msg: (taken.append(body["queue"]), msg.ack())]):
                while len(taken) < len(declared):
                    conn.drain_events(timeout=5)
            assert taken == [q.name for q in declared]
        finally:
            for queue in declared:
                queue(conn.default_channel).delete()


# --- the budget starts when the search starts -----------------------------------------


def bot_match(player, profile):
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", profile)]
    return services.match_create(profile.game, seats, player)


@pytest.fixture
def held(monkeypatch):
    """Bot turns are queued (recorded, announced) but no worker takes them: [(match_id, ply, queue)]."""
    calls = []
    monkeypatch.setattr(receivers, "queue_bot_turn", lambda *args: calls.append(args))
    monkeypatch.setattr(watchdog, "queue_bot_turn", lambda *args: calls.append(args))
    return calls


def test_a_turn_that_waited_gets_its_whole_budget_and_its_wait_is_not_thinking(alice, fast_bot, held, monkeypatch):
    match = bot_match(alice, fast_bot)
    channel = listen(match.pk)
    services.submit_move(match.pk, 0, "4", 0)
    assert held == [(match.pk, 1, queues.bot_queue_for("play"))]
    # Workers were busy (or Redis was down) for 5 s before one took the turn.
    BotTurnRecord.objects.filter(match=match, ply=1).update(queued_at=timezone.now() - timedelta(seconds=5))
    searched = []
    compute = bot_services.compute_move
    monkeypatch.setattr(bot_services, "compute_move", lambda turn, **kw: searched.append(turn) or compute(turn, **kw))
    assert bot_turn_run(match.pk, 1, "t1") is True
    (turn,) = searched
    assert turn.deadline - turn.started_at == pytest.approx(0.060)  # the whole budget, from the search's start
    reply = Move.objects.get(match=match, ply=1)
    assert 4900 <= reply.queue_wait_ms <= 7000
    assert reply.think_ms < 1000 and reply.fallback == ""  # the search only: the wait is not thinking
    # Had the 5 s wait eaten the budget, the search would end ~5,000 ms past its deadline; how close
    # a search stops to it under load is measured in benchmarks/budget_overshoot.py, not here.
    assert reply.stats["deadline_slack_ms"] > -1000 and "think_ms" not in reply.stats
    frames = [f for f in drain(channel) if f["type"] in ("bot_queued", "bot_thinking", "move")]
    assert [f["type"] for f in frames][:4] == ["move", "bot_queued", "bot_thinking", "move"]
    assert frames[1] == {"type": "bot_queued", "seat": 1, "ply": 1}  # waiting for a worker: no budget yet
    assert frames[2] == {"type": "bot_thinking", "seat": 1, "ply": 1, "budget_ms": 60}  # the search started
    bot_move = next(f for f in frames if f["type"] == "move" and f["ply"] == 1)
    human_move = next(f for f in frames if f["type"] == "move" and f["ply"] == 0)
    assert bot_move["fallback"] is None and bot_move["queue_wait_ms"] == reply.queue_wait_ms
    assert bot_move["think_ms"] == reply.think_ms
    assert human_move["fallback"] is None and "queue_wait_ms" not in human_move


def test_a_second_queueing_stands_aside_while_the_first_search_runs_and_a_redelivery_takes_over(alice, fast_bot, held):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    assert bot_turn_claim(match.pk, 1, "first", 60) is not None
    assert bot_turn_claim(match.pk, 1, "copy", 60) is None  # the first search is within budget + grace
    again = bot_turn_claim(match.pk, 1, "first", 60)  # the same task, delivered again: its worker died
    assert again is not None and again.searches == 2


# --- the watchdog: a last resort, and honest --------------------------------------------


def age(match_id, ply, **seconds_ago):
    """Move a turn's record (and the turn's start, with `queued_at`) into the past."""
    now = timezone.now()
    fields = {k: now - timedelta(seconds=v) for k, v in seconds_ago.items()}
    BotTurnRecord.objects.filter(match_id=match_id, ply=ply).update(**fields)
    if "queued_at" in fields:
        Match.objects.filter(pk=match_id).update(turn_started_at=fields["queued_at"])


def test_a_turn_waiting_for_a_busy_worker_is_not_overdue(alice, fast_bot, held, settings):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    held.clear()
    age(match.pk, 1, queued_at=10)
    assert rescue_overdue_bots() == 0 and held == []  # waiting, nothing to do
    # Long past budget + grace, and a worker is alive (it started another search just now):
    # still waiting, queued once more in case its message was lost, never a random move.
    age(match.pk, 1, queued_at=50)
    other = bot_match(alice, fast_bot)
    BotTurnRecord.objects.create(match=other, ply=9, budget_ms=60, queued_at=timezone.now(), started_at=timezone.now())
    assert rescue_overdue_bots() == 0
    assert held == [(match.pk, 1, queues.bot_queue_for("play"))]
    assert not Move.objects.filter(match=match, ply=1).exists()


def test_a_reloading_page_sees_a_queued_turn_as_queued_and_a_search_from_its_start(alice, fast_bot, held):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    thinking = match_json(Match.objects.get(pk=match.pk))["thinking"]
    assert thinking["status"] == "queued" and thinking["since"] is None and thinking["seat"] == 1
    age(match.pk, 1, queued_at=5)
    assert bot_turn_claim(match.pk, 1, "worker", 60) is not None
    thinking = match_json(Match.objects.get(pk=match.pk))["thinking"]
    started = BotTurnRecord.objects.get(match=match, ply=1).started_at
    assert thinking["status"] == "thinking" and thinking["since"] == started.isoformat()


def test_a_started_search_that_never_answered_is_searched_again(alice, fast_bot, held, settings):
    match = bot_match(alice, fast_bot)
    channel = listen(match.pk)
    services.submit_move(match.pk, 0, "4", 0)
    assert bot_turn_claim(match.pk, 1, "lost", 60) is not None  # a worker took it, then died
    drain(channel)
    held.clear()
    age(match.pk, 1, started_at=0.5)
    assert rescue_overdue_bots() == 0 and held == []  # within budget + grace
    age(match.pk, 1, started_at=5)
    assert rescue_overdue_bots() == 0
    assert held == [(match.pk, 1, queues.bot_queue_for("play"))]  # queued once more: a real search
    assert {"type": "bot_queued", "seat": 1, "ply": 1} in drain(channel)  # waiting again, not thinking
    assert rescue_overdue_bots() == 0 and len(held) == 1  # queued, waiting: not overdue
    assert bot_turn_run(match.pk, 1, "second") is True
    reply = Move.objects.get(match=match, ply=1)
    assert reply.fallback == "" and reply.stats["algorithm"] == "alphabeta"


def test_a_fallback_only_after_the_second_search_is_lost_and_it_says_so_everywhere(alice, fast_bot, held, token_client):
    match = bot_match(alice, fast_bot)
    channel = listen(match.pk)
    services.submit_move(match.pk, 0, "4", 0)
    bot_turn_claim(match.pk, 1, "lost", 60)
    age(match.pk, 1, queued_at=20, started_at=10, requeued_at=15)  # requeued, then started again: searches 2
    BotTurnRecord.objects.filter(match=match, ply=1).update(searches=2)
    assert rescue_overdue_bots() == 1
    reply = Move.objects.get(match=match, ply=1)
    assert reply.fallback == bot_services.FALLBACK_LOST_TWICE
    assert reply.stats is None and reply.think_ms == 0 and 9000 <= reply.queue_wait_ms <= 11000
    assert bot_services.bot_turn_fallback(match.pk, 1) is False  # exactly once
    frame = next(f for f in drain(channel) if f["type"] == "move" and f["ply"] == 1)
    assert (
        frame["fallback"] == reply.fallback and "stats" not in frame and frame["queue_wait_ms"] == reply.queue_wait_ms
    )
    api = token_client.get(f"/api/matches/{match.pk}/").json()
    moves = {m["ply"]: m for m in api["moves"]}
    assert moves[1]["fallback"] == reply.fallback and moves[1]["queue_wait_ms"] == reply.queue_wait_ms
    assert moves[0]["fallback"] is None and "queue_wait_ms" not in moves[0]
    everything = ExportFilters(statuses=())  # any status: this match is still active
    Player.objects.filter(pk=alice.pk).update(consent_research=True)  # exports hold only people who agreed
    (record,) = game_records(everything)
    assert record["moves"][1]["fallback"] == reply.fallback and record["moves"][0]["fallback"] is None
    assert record["moves"][1]["queue_wait_ms"] == reply.queue_wait_ms and record["moves"][0]["queue_wait_ms"] is None
    rows = list(csv.DictReader(io.StringIO(b"".join(csv_chunks(match_rows(everything, MOVE_ROW_COLUMNS))).decode())))
    assert list(rows[0]) == list(CSV_COLUMNS)
    row = next(r for r in rows if r["ply"] == "1" and r["by"] == "bot")
    assert row["fallback"] == "true" and row["fallback_reason"] == reply.fallback and row["algorithm"] == ""


def test_with_no_worker_alive_a_waiting_turn_gets_a_fallback_after_the_cap(alice, fast_bot, held, settings):
    settings.BOT_QUEUE_CAP_MS = 60_000
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    age(match.pk, 1, queued_at=59)
    assert rescue_overdue_bots() == 0
    age(match.pk, 1, queued_at=61)  # and no bot search started anywhere in that minute
    assert rescue_overdue_bots() == 1
    reply = Move.objects.get(match=match, ply=1)
    assert reply.fallback == bot_services.FALLBACK_NO_WORKER.format(s=60)
    assert json.dumps(reply.fallback).startswith('"no worker')


def test_a_turn_never_queued_is_queued_by_the_watchdog(alice, fast_bot, held, settings):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    held.clear()
    BotTurnRecord.objects.filter(match=match).delete()  # the web process stopped before queueing it
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=5))
    assert rescue_overdue_bots() == 0
    assert held == [(match.pk, 1, queues.bot_queue_for("play"))]
    assert BotTurnRecord.objects.get(match=match, ply=1).started_at is None


# --- trimming the records -----------------------------------------------------------


def test_records_of_ended_matches_are_trimmed_once_old_and_live_ones_kept(alice, fast_bot, held):
    live, ended = bot_match(alice, fast_bot), bot_match(alice, fast_bot)
    for match in (live, ended):
        services.submit_move(match.pk, 0, "4", 0)
    services.match_resign(ended.pk, 0)
    assert BotTurnRecord.objects.count() == 2
    later = timezone.now() + timedelta(hours=2)

    assert bot_services.trim_bot_turn_records(timezone.now()) == 0  # ended, but too recent
    assert bot_services.trim_bot_turn_records(later) == 1
    assert list(BotTurnRecord.objects.values_list("match_id", flat=True)) == [live.pk]
