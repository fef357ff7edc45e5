"""A task that tells when it starts and runs until the test lets it end, for queue-order tests.

A worker started with ``--include tests.server.queue_probe`` runs it; the test reads the
start order from Redis and releases the running probes one by one, so the order a worker
takes work in is asserted without any timing.
"""

from __future__ import annotations

import os

import redis
from celery import shared_task

HOLD_S = 60  # a probe the test forgot ends on its own


@shared_task(name="tests.queue_probe", bind=True, ignore_result=True)
def probe(self, label: str, key: str) -> None:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.rpush(f"{key}:started", f"{label}@{self.request.hostname.split('@')[0]}")
    client.blpop([f"{key}:release:{label}"], timeout=HOLD_S)
