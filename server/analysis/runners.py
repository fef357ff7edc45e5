"""Where analysis and hint searches run: the bots' runner choice (`settings.BOT_RUNNER`), reused.

- "celery": an analysis is one task per position (`tasks.analyse_position`, on the analysis
  queue), each queuing the next, so the workers keep taking bot turns between two
  positions; a hint is one task (`tasks.hint`) on the hints queue, right below people's
  bot turns and served by the reserved worker too (`server.bots.queues`), because a person
  is waiting for it; it is short (`HINT_TIME_BUDGET_MS`), once per ply, throttled and capped
  per player and address (`server.bots.fair_share`), so it cannot crowd bot moves out;
- "embedded": a thread of this process searches in the search pool shared with bot
  turns (`server.search.pool`), never on the event loop nor in the request;
- "inline": now, in this thread (unit tests).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from server.analysis import tasks
from server.analysis.jobs import analysis_run, hint_search
from server.analysis.positions import search_position
from server.bots.queues import hint_queue
from server.search.pool import SearchPool

log = logging.getLogger("plyground.analysis")


def queue_analysis(analysis_id: int, index: int = 0) -> None:
    runner = settings.BOT_RUNNER
    if runner == "celery":
        tasks.analyse_position.delay(analysis_id, index)
    elif runner == "embedded":
        threading.Thread(target=_run_embedded, args=(analysis_id,), name=f"analysis-{analysis_id}", daemon=True).start()
    elif runner == "inline":
        analysis_run(analysis_id)
    else:
        raise ValueError(f"unknown BOT_RUNNER {runner!r}")


def queue_hint(match_id: int, ply: int, seat: int) -> None:
    runner = settings.BOT_RUNNER
    if runner == "celery":
        tasks.hint.apply_async((match_id, ply, seat), queue=hint_queue(), expires=settings.HINT_PENDING_S)
    elif runner == "embedded":
        threading.Thread(
            target=_hint_embedded, args=(match_id, ply, seat), name=f"hint-{match_id}-{ply}", daemon=True
        ).start()
    elif runner == "inline":
        hint_search(match_id, ply, seat)
    else:
        raise ValueError(f"unknown BOT_RUNNER {runner!r}")


def search_in_pool(
    game_id: str, state: dict[str, Any], config: dict[str, Any], played: str | None, options: dict[str, Any]
) -> dict[str, Any]:
    """`positions.search_position` in a process of the search pool, this thread waiting for it."""
    pool = SearchPool.instance()
    found: dict[str, Any] = pool.submit(search_position, game_id, state, config, played, options).result()
    return found


def _hint_embedded(match_id: int, ply: int, seat: int) -> None:
    try:
        hint_search(match_id, ply, seat, search_in_pool)
    except Exception:
        log.exception("hint for match %s ply %s failed", match_id, ply)
    finally:
        close_old_connections()


def _run_embedded(analysis_id: int) -> None:
    try:
        analysis_run(analysis_id, search_in_pool)
    except Exception:  # recorded as failed by analysis_run
        pass
    finally:
        close_old_connections()
