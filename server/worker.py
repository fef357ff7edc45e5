"""A Celery worker that never outlives what started it: ``python -m server.worker [worker options]``.

``server.run`` starts the worker this way.  The worker itself gets its parent-death signal
from ``server.run``; its pool processes are forked by billiard, which clears that signal,
so each arms its own here: if the worker's main process dies, SIGKILLed included, its
pool processes die with it instead of searching on as orphans.  Options are those of
``celery -A server.config worker``, and ``--reserved`` for the worker that takes only
people's bot turns and hints (`server.bots.queues`).  Each pool process warms up
(`server.search.job.warm`) before it reports itself up and takes its first task.
"""

from __future__ import annotations

import signal
import sys

from celery.signals import worker_process_init
from django.conf import settings

from server.bots.queues import RESERVED_KINDS, queue_name
from server.config import celery_app
from server.run import die_with_parent
from server.search.job import warm


@worker_process_init.connect
def _pool_process_dies_with_worker(**_: object) -> None:
    die_with_parent(signal.SIGKILL)


@worker_process_init.connect
def _pool_process_warms_up(**_: object) -> None:
    if settings.SEARCH_WARM_UP:
        warm()


def main(argv: list[str]) -> None:
    """``--reserved``: the reserved worker, consuming only `RESERVED_KINDS`' queues under its own name."""
    if "--reserved" in argv:
        argv = [a for a in argv if a != "--reserved"]
        queues = ",".join(queue_name(kind) for kind in RESERVED_KINDS)
        argv = [*argv, "--queues", queues, "--hostname", "reserved@%h"]
    celery_app.worker_main(["worker", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
