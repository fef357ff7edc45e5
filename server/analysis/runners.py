"""Where analysis and hint searches run: the bots' runner choice (`settings.BOT_RUNNER`), reused.

- "celery": an analysis is one task per position (`tasks.analyse_position`, on the analysis
  queue), each queuing the next, so the workers keep taking bot turns between two
  positions; a hint is one task (`tasks.hint`) on the bots queue, because a person is
  waiting for it as for a bot's move, and it is short (`HINT_TIME_BUDGET_MS`), once per ply,
  and throttled per player, so it cannot crowd bot moves out;
- "embedded": a thread of this process searches in the bots' process pool
  (`server.bots.runners.EmbeddedRunner`), never on the event loop nor in the request;
- "inline": now, in this thread (unit tests).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings

from server.analysis.engine import search_position
from server.analysis.services import analysis_run, hint_search

log = logging.getLogger("plyground.analysis")


def queue_analysis(analysis_id: int, index: int = 0) -> None:
    runner = settings.BOT_RUNNER
    if runner == "celery":
        from server.analysis.tasks import analyse_position

        analyse_position.delay(analysis_id, index)
    elif runner == "embedded":
        threading.Thread(target=_run_embedded, args=(analysis_id,), name=f"analysis-{analysis_id}", daemon=True).start()
    elif runner == "inline":
        analysis_run(analysis_id)
    else:
        raise ValueError(f"unknown BOT_RUNNER {runner!r}")


def queue_hint(match_id: int, ply: int, seat: int) -> None:
    runner = settings.BOT_RUNNER
    if runner == "celery":
        from server.analysis.tasks import hint
        from server.bots.queues import queue_name

        hint.apply_async((match_id, ply, seat), queue=queue_name("bots"), expires=settings.HINT_PENDING_S)
    elif runner == "embedded":
        threading.Thread(
            target=_hint_embedded, args=(match_id, ply, seat), name=f"hint-{match_id}-{ply}", daemon=True
        ).start()
    elif runner == "inline":
        hint_search(match_id, ply, seat)
    else:
        raise ValueError(f"unknown BOT_RUNNER {runner!r}")


def _hint_embedded(match_id: int, ply: int, seat: int) -> None:
    from django.db import close_old_connections

    from server.bots.runners import EmbeddedRunner

    pool = EmbeddedRunner.instance().searches
    try:
        hint_search(match_id, ply, seat, lambda *args: pool.submit(search_position, *args).result())
    except Exception:
        log.exception("hint for match %s ply %s failed", match_id, ply)
    finally:
        close_old_connections()


def _run_embedded(analysis_id: int) -> None:
    from django.db import close_old_connections

    from server.bots.runners import EmbeddedRunner

    pool = EmbeddedRunner.instance().searches

    def search_in_pool(
        game_id: str, state: dict[str, Any], config: dict[str, Any], played: str | None
    ) -> dict[str, Any]:
        return pool.submit(search_position, game_id, state, config, played).result()

    try:
        analysis_run(analysis_id, search_in_pool)
    except Exception:  # recorded as failed by analysis_run
        pass
    finally:
        close_old_connections()
