"""Where analysis searches run: the bots' runner choice (`settings.BOT_RUNNER`), reused.

- "celery": one task per position (`tasks.analyse_position`), each queuing the next, so the
  workers keep taking bot turns between two positions;
- "embedded": a thread of this process walks the positions and searches each one in the
  bots' process pool (`server.bots.runners.EmbeddedRunner`), never on the event loop;
- "inline": every position now, in this thread (unit tests).
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings

from server.analysis.engine import search_position
from server.analysis.services import analysis_run


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
