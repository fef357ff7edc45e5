"""The order real Celery workers take work in, on the real Redis broker (docs/security.md, "Worker time").

Each test starts ``python -m server.worker`` processes with the installation's settings
(the "priority" queue order, prefetch multiplier 1, late acknowledgement) and a probe task
(`tests.server.queue_probe`) that records when it starts and runs until released.  The
test queues work while the worker is busy, releases the running probes one at a time and
reads the start order: no timing anywhere.

The last test does the same on the whole stack (`LiveStack`) with real bot turns, reading
the order from the turns' records.

K, the tasks that run ahead of a person's bot turn once it is queued, is the number of
processes busy at that moment that may take it: nothing queued after or before it of a
lower kind starts first.  With the reserved worker, K is the reserved worker's processes
(1), each running a hint or another person's bot turn, never a bot-vs-bot search.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import kombu
import pytest
import redis
import websockets
from celery import Celery

from tests.support import REDIS_TEST_URL, ROOT, LiveStack

pytestmark = pytest.mark.fullstack

WAIT_S = 60


class Probes:
    """Probe tasks on an installation's queues, and the order workers start them in."""

    def __init__(self) -> None:
        self.base = f"plyground-probe-{uuid.uuid4().hex[:8]}"
        self.key = f"{self.base}:probe"
        self.redis = redis.Redis.from_url(REDIS_TEST_URL)
        self.sender = Celery(broker=REDIS_TEST_URL)
        self.tmp = tempfile.TemporaryDirectory(prefix="plyground-probe-")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
            "DATABASE_URL": f"sqlite:///{self.tmp.name}/db.sqlite3",
            "REDIS_URL": REDIS_TEST_URL,
            "CELERY_QUEUE": self.base,
            "PYTHONUNBUFFERED": "1",
        }
        self.workers: list[tuple[subprocess.Popen, str]] = []

    def start_worker(self, *options: str, concurrency: int = 1) -> None:
        log = f"{self.tmp.name}/worker{len(self.workers)}.log"
        argv = [sys.executable, "-m", "server.worker", "--loglevel", "INFO", "--concurrency", str(concurrency)]
        argv += ["--include", "tests.server.queue_probe", "--without-gossip", "--without-mingle", *options]
        with open(log, "w") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        self.workers.append((proc, log))
        self.until(lambda: " ready." in Path(log).read_text(), f"worker {argv}")

    def queue(self, kind: str, label: str) -> None:
        name = f"{self.base}.{kind}"
        self.sender.send_task(
            "tests.queue_probe", args=[label, self.key], queue=kombu.Queue(name, routing_key=name), routing_key=name
        )

    def started(self) -> list[str]:
        return [item.decode() for item in self.redis.lrange(f"{self.key}:started", 0, -1)]

    def labels(self) -> list[str]:
        return [item.split("@")[0] for item in self.started()]

    def wait_started(self, count: int) -> list[str]:
        self.until(lambda: len(self.started()) >= count, f"{count} probes started")
        return self.labels()

    def release(self, label: str) -> None:
        self.redis.rpush(f"{self.key}:release:{label}", 1)

    def until(self, done, what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if done():
                return
            time.sleep(0.05)
        logs = "\n".join(Path(log).read_text()[-3000:] for _, log in self.workers)
        raise AssertionError(f"not after {WAIT_S}s: {what}; started {self.started()}\n{logs}")

    def drain(self, total: int, one_at_a_time: bool = False) -> list[str]:
        """Release the probes as they run until `total` have started; the start order.

        `one_at_a_time`: only the oldest running one, then wait for the next start, so two
        processes freed together never race to record their starts.
        """
        released: list[str] = []
        while True:
            labels = self.labels()
            if len(labels) >= total:
                return labels
            for label in [label for label in labels if label not in released][: 1 if one_at_a_time else None]:
                self.release(label)
                released.append(label)
            seen = len(labels)
            self.until(lambda: len(self.started()) > seen, f"probe {seen + 1} of {total}")  # noqa: B023

    def close(self) -> None:
        for proc, _ in self.workers:
            proc.terminate()
        for label in self.labels():
            self.release(label)
        for proc, _ in self.workers:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for key in self.redis.scan_iter(f"{self.base}*"):
            self.redis.delete(key)
        self.tmp.cleanup()


@contextmanager
def probes() -> Iterator[Probes]:
    stack = Probes()
    try:
        yield stack
    finally:
        stack.close()


LOWER = [  # queued while the workers are busy, the least urgent first
    ("selfplay", "selfplay-1"),
    ("botmatches", "botmatch-1"),
    ("analysis", "analysis-1"),
    ("hints", "hint-1"),
    ("botmatches", "botmatch-2"),
    ("calibration", "calibration-1"),
    ("hints", "hint-2"),
    ("botmatches", "botmatch-3"),
]


def test_a_worker_takes_a_persons_bot_turn_before_any_queued_hint_or_bot_vs_bot_turn():
    """One worker on every queue, both its processes in bot-vs-bot searches: K = 2, the two searches."""
    with probes() as stack:
        stack.start_worker(concurrency=2)
        stack.queue("botmatches", "running-1")
        stack.queue("botmatches", "running-2")
        assert sorted(stack.wait_started(2)) == ["running-1", "running-2"]
        for kind, label in LOWER:
            stack.queue(kind, label)
        stack.queue("bots", "person")
        # A worker that had prefetched a message while busy would start it first: none did.
        order = stack.drain(2 + len(LOWER) + 1, one_at_a_time=True)
        assert order[2] == "person", order  # the first task started after it was queued
        # Then each kind in the settings' order, first come first served within a kind.
        assert order[3:] == [
            "hint-1",
            "hint-2",
            "botmatch-1",
            "botmatch-2",
            "botmatch-3",
            "analysis-1",
            "calibration-1",
            "selfplay-1",
        ], order


def test_the_reserved_worker_takes_a_persons_bot_turn_while_long_searches_run_elsewhere():
    """The other worker busy with a bot-vs-bot search and more queued: the person's turn waits for a hint at most."""
    with probes() as stack:
        stack.start_worker("--hostname", f"main-{stack.base}@%h", concurrency=1)
        stack.start_worker("--reserved", concurrency=1)
        stack.queue("botmatches", "long-search")
        assert stack.wait_started(1) == ["long-search"]
        for kind, label in LOWER:
            if kind == "botmatches":
                stack.queue(kind, label)
        stack.queue("hints", "hint-1")
        assert stack.wait_started(2) == ["long-search", "hint-1"]  # the reserved worker took the hint
        stack.queue("hints", "hint-2")
        stack.queue("bots", "person")
        stack.release("hint-1")  # K = 1: the hint the reserved worker was running
        labels = stack.wait_started(3)
        assert labels == ["long-search", "hint-1", "person"], labels  # the long search still runs
        stack.drain(7)
        by_worker: dict[str, list[str]] = {}
        for item in stack.started():
            label, worker = item.split("@")
            by_worker.setdefault(worker, []).append(label)
        # The reserved worker never took a bot-vs-bot search (hint-2 went to whichever came free first).
        reserved = by_worker.pop("reserved")
        assert reserved[:2] == ["hint-1", "person"] and set(reserved[2:]) <= {"hint-2"}, reserved
        (main,) = by_worker.values()
        searches = [label for label in main if label != "hint-2"]
        assert searches == ["long-search", "botmatch-1", "botmatch-2", "botmatch-3"], main


# --- the same on the whole stack, with real bots ----------------------------------------


def person_moves(stack: LiveStack, match: dict, token: str) -> None:
    """Play the first legal move for seat 0 over the match socket and wait for the bot's reply."""

    async def move() -> None:
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
            state = json.loads(await ws.recv())["match"]
            await ws.send(json.dumps({"type": "move", "move": state["legal_moves"][0], "ply": state["ply"]}))
            async with asyncio.timeout(WAIT_S):
                while not ((frame := json.loads(await ws.recv()))["type"] == "move" and frame["ply"] == 1):
                    pass

    asyncio.run(move())


def test_on_the_whole_stack_a_persons_bot_turn_starts_before_every_queued_bot_vs_bot_turn():
    """One worker process, no reserved worker, 6 Master-vs-Master matches: K = 1, the search it was running."""
    env = {
        "FAIR_SHARE_BOT_MATCHES": "100,100",  # the caps raised: the queues alone
        "BOT_MATCHES_ACCOUNTS_ONLY": "0",
        "WORKER_CONCURRENCY": "1",
        "WORKER_RESERVED_CONCURRENCY": "0",
    }
    with LiveStack(extra_env=env) as stack:
        _, flood = stack.guest()
        masters = {"game": "connect4", "seats": [{"kind": "bot", "profile": "connect4-master"}] * 2}
        flooded = {stack.api("POST", "/api/matches/", masters, flood)["id"] for _ in range(6)}
        _, token = stack.guest()
        seats = [{"kind": "human"}, {"kind": "bot", "profile": "connect4-casual"}]
        match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
        person_moves(stack, match, token)
        with sqlite3.connect(f"{stack.tmp.name}/db.sqlite3") as db:
            rows = db.execute("SELECT match_id, ply, queued_at, started_at FROM bots_botturnrecord").fetchall()
    ((_, _, queued, started),) = [row for row in rows if row[0] == match["id"]]
    flood_turns = [row for row in rows if row[0] in flooded]
    # Queued before the person's turn, started after it (or not yet): it went first all the same.
    overtaken = [row for row in flood_turns if row[2] < queued and (row[3] is None or row[3] > started)]
    assert len(overtaken) >= 4, flood_turns
    ahead = [row for row in flood_turns if row[3] is not None and queued < row[3] < started]
    # `queued_at` is written with the turn's record, the message reaches the broker on commit a
    # moment later, and `started_at` is written once a task has claimed its turn: a search the
    # one process took from the queue in that moment (it then runs for seconds) may show as
    # started after `queued`.  One at most; a second would be a bot-vs-bot turn taken from the
    # queue while the person's waited in it.
    assert len(ahead) <= 1, f"bot-vs-bot searches started while the person's turn waited: {ahead}"
