"""The search a bot turn runs: plain data in, plain data out, no Django.

Kept free of Django so that the embedded mode can run it in a process pool and
Celery workers and tests can run the very same function.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import ai  # every searcher loaded now, not inside the first bot's budget
from games import registry

ENGINE_VERSION = "plyground-ai 0.1"


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

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def compute_move(turn: BotTurn, on_progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Search the position and return the move with its figures (JSON-safe).

    `on_progress` hears the search's figures while it runs (`ai.progress`), never its move.
    """
    started = time.time()
    # The budget runs from the search's start: a wait for a process of a local pool after
    # the worker took the turn moves the deadline too.
    deadline = turn.deadline + max(0.0, started - (turn.started_at or turn.queued_at))
    game = registry.get(turn.game)
    state = game.from_json(turn.state)
    config = ai.SearchConfig(**turn.config)
    result = ai.choose_move(game, state, config, deadline=deadline, on_progress=on_progress)
    pause_until = min(started + turn.min_think_ms / 1000, deadline)
    if time.time() < pause_until:
        time.sleep(pause_until - time.time())
    finished = time.time()
    stats = result.to_json()
    stats.update(
        budget_ms=config.time_budget_ms,
        queued_ms=round((started - turn.queued_at) * 1000, 1),
        deadline_slack_ms=round((deadline - finished) * 1000, 1),
        # The move's think time (taken out of the stats when it is stored): search and pause.
        think_ms=round((finished - started) * 1000, 1),
        seed=config.seed,
        engine=ENGINE_VERSION,
        **turn.notes,
    )
    return stats


THINKING_REPORT_EVERY_S = 0.25


class ThinkingReporter:
    """While a bot searches: `bot_thinking` frames with its depth and nodes, at most every 250 ms.

    Figures only, never the move.  `send(frame)` broadcasts a frame where the search
    runs in the process that broadcasts (a Celery worker, inline) and queues it for the
    server process from the embedded runner's pool (`report_thinking_to`).
    """

    def __init__(self, turn: BotTurn, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send
        self.frame = {"type": "bot_thinking", "seat": turn.seat, "ply": turn.ply}
        self.frame["budget_ms"] = turn.config.get("time_budget_ms")
        self.last = time.monotonic()

    def __call__(self, figures: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - self.last < THINKING_REPORT_EVERY_S:
            return
        self.last = now
        stats = {"depth": figures["depth"], "nodes": figures["nodes"]}
        if "iterations" in figures:
            stats["iterations"] = figures["iterations"]
        self.send({**self.frame, "stats": stats})


# In an embedded runner's pool process: where its searches' thinking frames go.
_thinking_queue: Any = None


def report_thinking_to(queue: Any) -> None:
    """The pool's initializer: this process's searches put ``(turn_key(turn), frame)`` on `queue`."""
    global _thinking_queue
    _thinking_queue = queue


def turn_key(turn: BotTurn) -> tuple[int, int, float]:
    """One bot turn: after a takeback the same ply comes back as another turn, queued later."""
    return (turn.match_id, turn.ply, turn.queued_at)


def compute_move_in_pool(turn: BotTurn) -> dict[str, Any]:
    """`compute_move` in a pool process, its thinking frames sent to the server process to broadcast."""
    queue = _thinking_queue
    if queue is None:
        return compute_move(turn)
    key = turn_key(turn)
    return compute_move(turn, on_progress=ThinkingReporter(turn, lambda frame: queue.put((key, frame))))


def warm() -> None:
    """Nothing: importing this module in a pool process loads the games and the searchers."""
