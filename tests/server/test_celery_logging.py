"""The worker's log: the tournament tick's per-run lines are dropped, everything else kept."""

from __future__ import annotations

import logging

from celery.app import trace

from server.config.celery import QuietPeriodicTasks
from server.run import beat_argv


def record(level: int, fmt: str, args: object) -> logging.LogRecord:
    return logging.LogRecord("celery.app.trace", level, __file__, 1, fmt, (args,), None)


def test_the_ticks_received_and_succeeded_lines_are_dropped():
    quiet = QuietPeriodicTasks()
    for fmt in (trace.LOG_RECEIVED, trace.LOG_SUCCESS):
        assert not quiet.filter(
            record(logging.INFO, fmt, {"name": "tournaments.tick", "id": "1", "runtime": 0.01, "return_value": None})
        )


def test_other_tasks_and_the_ticks_failures_are_kept():
    quiet = QuietPeriodicTasks()
    assert quiet.filter(
        record(
            logging.INFO, trace.LOG_SUCCESS, {"name": "bots.take_turn", "id": "1", "runtime": 0.2, "return_value": None}
        )
    )
    assert quiet.filter(
        record(
            logging.ERROR,
            trace.LOG_FAILURE,
            {"name": "tournaments.tick", "id": "1", "exc": "boom", "description": "raised"},
        )
    )
    assert quiet.filter(
        logging.LogRecord("celery.worker.strategy", logging.INFO, __file__, 1, "plain %s", ("x",), None)
    )


def test_the_filter_is_on_the_loggers_celery_writes_those_lines_to():
    for name in ("celery.app.trace", "celery.worker.strategy"):
        assert any(isinstance(f, QuietPeriodicTasks) for f in logging.getLogger(name).filters)


def test_beat_writes_warnings_only():
    argv = beat_argv()
    assert argv[argv.index("--loglevel") + 1] == "WARNING"
