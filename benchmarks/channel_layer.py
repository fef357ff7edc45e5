"""The channel layer's own cost of relaying a move, against channels_redis's paths, in one run.

    .venv/bin/python benchmarks/channel_layer.py [--matches 100] [--sockets 5] [--moves 3000] [--rounds 3]

A private redis-server on loopback.  One layer plays a web process: `--matches` groups of
`--sockets` of its sockets each; every match sends a move to its group in turn, as many at
once as there are matches, and each socket receives it (`receive`, as its consumer does).
Prints the process's CPU time and wall time per move relayed (one `group_send`, its
recipients' receives), for:

- **channels_redis**: its `group_send` (four round trips: drop expired members, read them,
  drop each queue's expired messages, one script adding a message per process) and its
  `receive` (four round trips a message: restore the backup, pop, back it up, clear it, run
  by whichever socket's receive holds the lock; each socket's messages in an asyncio.Queue);
- **this layer**: `PooledRedisChannelLayer` as deployed (one round trip a send, which hands
  the message to the sending process's own sockets at once: each socket's inbox, where its
  receive waits on one future; other processes' readers take what is queued for them, a batch
  a round trip).

Runs alternate (`--rounds` of each); CPU time is the figure to compare on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis  # noqa: E402
from channels_redis.core import RedisChannelLayer  # noqa: E402

from server.realtime.channel_layer import PooledRedisChannelLayer, redis_channel_layer  # noqa: E402
from tests.support import free_port  # noqa: E402


class ChannelsRedisPaths(PooledRedisChannelLayer):
    """The layer with channels_redis's own send and receive: the read in whichever socket's
    receive holds its lock, each socket's messages in an asyncio.Queue."""

    group_send = RedisChannelLayer.group_send
    receive = RedisChannelLayer.receive


async def relay(layer: PooledRedisChannelLayer, matches: int, sockets: int, moves: int) -> tuple[float, float]:
    """CPU and wall seconds a move relayed, every match moving in turn, all matches at once."""
    groups = {f"match.{m}": [await layer.new_channel() for _ in range(sockets)] for m in range(matches)}
    for group, channels in groups.items():
        for channel in channels:
            await layer.group_add(group, channel)
    per_match = moves // matches

    async def play(group: str, channels: list[str]) -> None:
        for ply in range(per_match):
            await layer.group_send(group, {"type": "frame.send", "ply": ply, "move": "4"})
            heard = await asyncio.gather(*(layer.receive(c) for c in channels))
            assert all(h["ply"] == ply for h in heard), heard

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(play(g, c) for g, c in groups.items()))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await layer.flush()
    return cpu / (per_match * matches), wall / (per_match * matches)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--sockets", type=int, default=5, help="sockets a match (players and spectators)")
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", tmp],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(100):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            run(args, f"redis://127.0.0.1:{port}/0")
        finally:
            server.terminate()
            server.wait()


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(args: argparse.Namespace, url: str) -> None:
    print(
        f"{args.matches} matches x {args.sockets} sockets of one process, {args.moves} moves a run, "
        f"all matches at once; load {loadavg()}"
    )
    figures: dict[str, list[tuple[float, float]]] = {"channels_redis": [], "this layer": []}
    kinds = {"channels_redis": ChannelsRedisPaths, "this layer": PooledRedisChannelLayer}
    for _ in range(args.rounds):
        for name, kind in kinds.items():
            layer = kind(**redis_channel_layer(url, f"bench-{uuid.uuid4().hex[:8]}")["CONFIG"])
            figures[name].append(asyncio.run(relay(layer, args.matches, args.sockets, args.moves)))
    for name, runs in figures.items():
        cpu = [1000 * c for c, _ in runs]
        wall = [1000 * w for _, w in runs]
        each = ", ".join(f"{c:.3f}" for c in cpu)
        print(
            f"  {name:15} CPU a move relayed {statistics.median(cpu):.3f} ms (runs {each}); "
            f"wall {statistics.median(wall):.3f} ms"
        )
    base = statistics.median(c for c, _ in figures["channels_redis"])
    ours = statistics.median(c for c, _ in figures["this layer"])
    print(f"  this layer / channels_redis, CPU: {ours / base:.2f}; load {loadavg()}")


if __name__ == "__main__":
    main()
