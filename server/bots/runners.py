"""Where bot searches run: Celery workers, the search pool (`server.search.pool`, embedded mode), or inline.

`settings.BOT_RUNNER` chooses: "celery" when Redis is configured, "embedded" without it,
"inline" in unit tests (the search runs in the committing thread).
"""

from __future__ import annotations

import logging
import threading
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings

from server.bots.queues import queue_name
from server.bots.services import bot_turn_begin, bot_turn_finish, bot_turn_run, thinking_sender
from server.bots.turn import BotTurn, compute_move_in_pool, turn_key
from server.search.pool import SearchPool

log = logging.getLogger("plyground.bots")


def queue_bot_turn(match_id: int, ply: int, queue: str | None = None) -> None:
    """Hand the turn to the runner; its budget starts when a worker starts the search.

    `queue` is the Celery queue (`server.bots.queues.bot_queue_for` the match's source);
    each queueing carries its own token, so a copy stands aside while another search runs.
    """
    runner = settings.BOT_RUNNER
    token = uuid.uuid4().hex
    if runner == "celery":
        from server.bots.tasks import bot_move

        # Waiting for a worker is not overdue; a task older than this is not run (the
        # watchdog has queued the turn again, or played it, long before).
        expires = datetime.now(tz=UTC) + timedelta(milliseconds=settings.BOT_TASK_EXPIRES_MS)
        bot_move.apply_async(args=[match_id, ply, token], expires=expires, queue=queue or queue_name("bots"))  # type: ignore[arg-type]  # Celery takes a list too (and sends one: JSON)
    elif runner == "embedded":
        EmbeddedRunner.instance().queue(match_id, ply, token)
    elif runner == "inline":
        bot_turn_run(match_id, ply, token)
    else:
        raise ValueError(f"unknown BOT_RUNNER {runner!r}")


class EmbeddedRunner:
    """Searches in the search pool (never on the event loop), moves submitted in this process.

    The in-memory channel layer lives in the server process, so only the search is
    sent to the pool; the move goes through `submit_move` here, and the search's
    thinking frames come back on the pool's progress queue, which a thread of this
    process broadcasts.
    """

    _instance: EmbeddedRunner | None = None

    def __init__(self, pool: SearchPool) -> None:
        self.pool = pool
        self.submits = ThreadPoolExecutor(2, thread_name_prefix="bot-submit")
        self.searched: dict[int, tuple[Any, ...]] = {}  # match id -> the key of its last finished search
        threading.Thread(target=self._relay_thinking, name="bot-thinking", daemon=True).start()

    @classmethod
    def instance(cls) -> EmbeddedRunner:
        """The runner, the pool's processes started and their imports done."""
        if cls._instance is None:
            cls._instance = cls(SearchPool.instance())
        return cls._instance

    def queue(self, match_id: int, ply: int, token: str) -> None:
        # Started here (its budget runs from now; a wait for a pool process moves its deadline).
        turn = bot_turn_begin(match_id, ply, token, thinking_sender(match_id))
        if turn is None:
            return
        search = self.pool.submit(compute_move_in_pool, turn)

        def done(future: Future[dict[str, Any]]) -> None:
            # Its frames still in the queue are dropped: a thinking bar must not come back after the move.
            self.searched[match_id] = turn_key(turn)
            if future.exception() is not None:
                log.error("bot search failed for match %s: %r", match_id, future.exception())
                return
            self.submits.submit(_finish_and_close, turn, future.result())

        search.add_done_callback(done)

    def _relay_thinking(self) -> None:
        """Broadcast the pool's thinking frames, as a Celery worker does from its own process."""
        while True:
            key, frame = self.pool.progress.get()
            if self.searched.get(key[0]) != key:
                thinking_sender(key[0])(frame)


def _finish_and_close(turn: BotTurn, stats: dict[str, Any]) -> None:
    from django.db import close_old_connections

    try:
        bot_turn_finish(turn, stats)
    finally:
        close_old_connections()
