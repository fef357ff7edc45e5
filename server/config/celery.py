"""The Celery app: bot searches run in its workers, with Redis as the broker."""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")

app = Celery("plyground")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["server.bots", "server.analysis", "server.tournaments"])

# Tasks that run every few seconds whatever happens: a worker's "received" and "succeeded" lines
# for them would bury the lines that say something (their failures are still logged).
QUIET_TASKS = frozenset({"tournaments.tick"})


class QuietPeriodicTasks(logging.Filter):
    """Drops the INFO lines Celery writes for each run of a task in ``QUIET_TASKS``."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        return not (record.levelno <= logging.INFO and isinstance(args, dict) and args.get("name") in QUIET_TASKS)


for _logger in ("celery.app.trace", "celery.worker.strategy"):
    logging.getLogger(_logger).addFilter(QuietPeriodicTasks())
