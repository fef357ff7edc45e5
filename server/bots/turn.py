"""A bot turn's search: plain data in, plain data out, no Django.

Kept free of Django so that the embedded mode can run it in the search pool
(`server.search.pool`) while Celery workers and tests run the very same function; the
search itself and its budget rules are `server.search.job.run_search`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from server.matches import frames
from server.search.job import SearchRequest, progress_queue, run_search


@dataclass(frozen=True)
class BotTurn:
    """Everything a search needs, read from the match when the task starts."""

    match_id: int
    ply: int
    seat: int
    game: str
    state: dict[str, Any]
    config: dict[str, Any]  # ai.SearchConfig fields
    deadline: float  # epoch seconds: the search's start plus the budget
    queued_at: float  # epoch seconds: when the turn was queued (waiting for a worker is not thinking)
    min_think_ms: int = 0  # a human-like pause: the move is not shown sooner than this
    notes: dict[str, Any] = field(default_factory=dict)  # recorded with the move's stats
    started_at: float = 0.0  # epoch seconds: when a worker took the turn (0: when it was queued)
    options: dict[str, Any] = field(default_factory=dict)  # the match's game options (`Game.with_options`)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def request(self) -> SearchRequest:
        """The search this turn runs, with its budget rules."""
        return SearchRequest(
            self.game,
            self.state,
            self.config,
            self.deadline,
            self.queued_at,
            self.started_at,
            self.min_think_ms,
            self.options,
        )


def compute_move(turn: BotTurn, on_progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Search the position and return the move with its figures (JSON-safe).

    `on_progress` hears the search's figures while it runs (`ai.progress`), never its move.
    """
    _, stats = run_search(turn.request(), on_progress)
    stats.update(turn.notes)
    return stats


THINKING_REPORT_EVERY_S = 0.25


class ThinkingReporter:
    """While a bot searches: `bot_thinking` frames with its depth and nodes, at most every 250 ms.

    Figures only, never the move.  `send(frame)` broadcasts a frame where the search
    runs in the process that broadcasts (a Celery worker, inline) and queues it for the
    server process from the search pool (`server.search.pool`).
    """

    def __init__(self, turn: BotTurn, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send
        self.seat, self.ply, self.budget_ms = turn.seat, turn.ply, turn.config.get("time_budget_ms")
        self.last = time.monotonic()

    def __call__(self, figures: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - self.last < THINKING_REPORT_EVERY_S:
            return
        self.last = now
        stats = {"depth": figures["depth"], "nodes": figures["nodes"]}
        if "iterations" in figures:
            stats["iterations"] = figures["iterations"]
        self.send(frames.bot_thinking(self.seat, self.ply, self.budget_ms, stats))


def turn_key(turn: BotTurn) -> tuple[int, int, float]:
    """One bot turn: after a takeback the same ply comes back as another turn, queued later."""
    return (turn.match_id, turn.ply, turn.queued_at)


def compute_move_in_pool(turn: BotTurn) -> dict[str, Any]:
    """`compute_move` in a pool process, its thinking frames sent to the server process to broadcast."""
    queue = progress_queue()
    if queue is None:
        return compute_move(turn)
    key = turn_key(turn)
    return compute_move(turn, on_progress=ThinkingReporter(turn, lambda frame: queue.put((key, frame))))
