"""What the socket caps cost a web process: a lease taken and given back per socket, and the renewal.

    .venv/bin/python benchmarks/socket_caps.py [--sockets 1000] [--rounds 3]

Against the Redis of REDIS_TEST_URL (db 9 by default), under a private prefix deleted after.
`--sockets` leases are taken at once (a reconnect storm: every socket opening together, each
under its visitor and one of 20 addresses), renewed together once (what the process does every
SOCKET_LEASE_MS / 3), and given back at once.  Prints, per socket, the process's CPU time and
the wall time of each phase (the median of `--rounds`).  CPU time is the figure to compare on
a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.test")

import django  # noqa: E402

django.setup()

from server.realtime.socket_caps import Cap, RedisLeases, leases_client  # noqa: E402

REDIS_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/9")
TTL_MS = 30_000


async def one_round(sockets: int) -> dict[str, tuple[float, float]]:
    client = leases_client(REDIS_URL)  # as a web process has it: a bounded pool
    prefix = f"plyground-bench-caps-{uuid.uuid4().hex[:10]}"
    store = RedisLeases(client, prefix)
    leases = {
        f"lease-{i}": [Cap(f"visitor:p{i}", 50, ""), Cap(f"address:198.51.100.{i % 20}", sockets, "")]
        for i in range(sockets)
    }
    figures = {}
    try:
        now = time.time() * 1000

        async def timed(name: str, work) -> None:
            cpu, wall = time.process_time(), time.perf_counter()
            await work
            figures[name] = ((time.process_time() - cpu) / sockets, (time.perf_counter() - wall) / sockets)

        await timed("take", asyncio.gather(*(store.take(caps, lease, now, TTL_MS) for lease, caps in leases.items())))
        held = {lease: [cap.key for cap in caps] for lease, caps in leases.items()}
        await timed("renew", store.renew(held, now + 1, TTL_MS))
        await timed("give back", asyncio.gather(*(store.give_back(lease, keys) for lease, keys in held.items())))
    finally:
        async for key in client.scan_iter(f"{prefix}*"):
            await client.delete(key)
        await client.aclose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds = [asyncio.run(one_round(args.sockets)) for _ in range(args.rounds)]
    print(f"{args.sockets} sockets, {args.rounds} rounds (median); per socket:")
    for phase in rounds[0]:
        cpu = statistics.median(r[phase][0] for r in rounds) * 1e6
        wall = statistics.median(r[phase][1] for r in rounds) * 1e6
        print(f"  {phase:<9}  CPU {cpu:6.1f} µs   wall {wall:6.1f} µs")


if __name__ == "__main__":
    main()
