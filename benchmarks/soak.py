"""Soak: human-vs-bot matches played for minutes on the full stack; is anything lost, faked or leaking?

    .venv/bin/python benchmarks/soak.py --matches 20 --minutes 10 [--database postgres]

Starts `python -m server.run` (daphne + one Celery worker + Redis, what `make run` runs) on
a free loopback port with a fresh database, then keeps `--matches` games going at once:
each scripted person plays a random legal move 0.3-1.5 s after the bot's reply and starts a
new game (a random seeded bot of the listed games, levels 1-4) when one ends.  Prints games
finished, bot moves, fallback moves, moves sent but never seen played (lost), queue wait and
think time percentiles, and the RSS of the web and worker processes at the start, every
`--every` seconds (each of the worker's pool processes too, by pid: a replaced one shows
as a new pid) and at the end, with the load average.  Every request goes to 127.0.0.1;
the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import LiveStack  # noqa: E402

GAMES = {
    "tictactoe": ["tictactoe-beginner", "tictactoe-shallow", "tictactoe-intermediate", "tictactoe-advanced"],
    "connect4": ["connect4-shallow", "connect4-casual", "connect4-medium", "connect4-deep"],
    "othello": ["othello-beginner", "othello-casual", "othello-intermediate", "othello-advanced"],
}
MOVE_TIMEOUT_S = 60  # no reply this long: the move or the reply is counted as lost


class Tally:
    def __init__(self) -> None:
        self.games = 0
        self.sent = 0
        self.lost = 0
        self.errors: list[str] = []


async def play_one(stack: LiveStack, rng: random.Random, deadline: float, tally: Tally) -> None:
    """Games against random bots, back to back, until the deadline."""
    _, token = await asyncio.to_thread(stack.guest)
    while time.monotonic() < deadline:
        game = rng.choice(list(GAMES))
        bot = rng.choice(GAMES[game])
        seats = [{"kind": "human"}, {"kind": "bot", "profile": bot}]
        if rng.random() < 0.5:
            seats.reverse()
        match = await asyncio.to_thread(stack.api, "POST", "/api/matches/", {"game": game, "seats": seats}, token)
        if await play_match(stack, match["id"], token, rng, deadline, tally):
            tally.games += 1


async def play_match(stack, match_id: int, token: str, rng: random.Random, deadline: float, tally: Tally) -> bool:
    url = f"{stack.ws_url}/ws/matches/{match_id}/?token={token}"
    async with websockets.connect(url, open_timeout=30) as ws:
        state = json.loads(await ws.recv())
        me, match = state["you"]["seat"], state["match"]
        ply, to_move, legal, v = match["ply"], match["to_move"], match["legal_moves"], state["v"]
        while time.monotonic() < deadline:
            if to_move == me:
                await asyncio.sleep(rng.uniform(0.3, 1.5))
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
                tally.sent += 1
            try:
                frame = await wait_for_change(ws, v)
            except TimeoutError:
                tally.lost += 1
                tally.errors.append(f"match {match_id}: nothing for {MOVE_TIMEOUT_S} s at ply {ply}")
                return False
            if frame["type"] == "game_over":
                return True
            if frame["type"] == "error":
                tally.errors.append(f"match {match_id}: {frame}")
                return False
            ply, to_move, legal, v = frame["ply"] + 1, frame["to_move"], frame["legal_moves"], frame["v"]
    return False


async def wait_for_change(ws, v: int) -> dict:
    """The next move, end or error; a frame the state already contained (v <= v) is skipped, as the page does."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=MOVE_TIMEOUT_S))
        if frame["type"] in ("move", "game_over") and frame.get("v", v + 1) <= v:
            continue
        if frame["type"] in ("move", "game_over", "error"):
            return frame


def rss_mb(root_pid: int) -> dict[str, object]:
    """RSS in MB of the stack's web process and of its Celery worker (with its pool children),
    and of each pool process by pid (``pool``)."""
    children: dict[int, list[int]] = {}
    cmd: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    totals = {"web": 0.0, "worker": 0.0}
    pool: dict[int, float] = {}

    def walk(pid: int, kind: str | None, in_worker: bool) -> None:
        line = cmd.get(pid, "")
        if kind is None:
            kind = "worker" if "server.worker" in line or "celery" in line else "web" if "asgi_server" in line else None
        if kind:
            try:
                rss = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS"))
                totals[kind] += int(rss.split()[1]) / 1024
                if in_worker:
                    pool[pid] = round(int(rss.split()[1]) / 1024, 1)
            except (OSError, StopIteration):
                pass
        for child in children.get(pid, []):
            walk(child, kind, kind == "worker")

    walk(root_pid, None, False)
    return {**{k: round(v, 1) for k, v in totals.items()}, "pool": pool}


def bot_move_figures(stack: LiveStack) -> dict[str, object]:
    db = sqlite3.connect(stack.env["DATABASE_URL"].removeprefix("sqlite:///"))
    rows = db.execute(
        "select m.think_ms, m.queue_wait_ms, m.fallback from matches_move m join matches_seat s "
        "on s.match_id = m.match_id and s.\"index\" = m.seat where s.kind = 'bot'"
    ).fetchall()
    think = sorted(r[0] for r in rows)
    wait = sorted(r[1] or 0 for r in rows)

    def pct(values: list[int], q: float) -> int:
        return values[min(len(values) - 1, int(q * len(values)))] if values else 0

    return {
        "bot moves": len(rows),
        "fallback moves": sum(1 for r in rows if r[2]),
        "think ms p50/p99": f"{pct(think, 0.5)}/{pct(think, 0.99)}",
        "queue wait ms p50/p99": f"{pct(wait, 0.5)}/{pct(wait, 0.99)}",
        "queue wait ms mean": round(statistics.fmean(wait), 1) if wait else 0,
    }


async def soak(stack: LiveStack, matches: int, seconds: float, seed: int, every_s: float) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds
    sampler = asyncio.create_task(sample_rss(stack, every_s))
    await asyncio.gather(*(play_one(stack, random.Random(seed + i), deadline, tally) for i in range(matches)))
    sampler.cancel()
    return tally


async def sample_rss(stack: LiveStack, every_s: float) -> None:
    """RSS every `every_s`, so growth that levels off (caches filling) tells itself from a leak."""
    started = time.monotonic()
    while True:
        await asyncio.sleep(every_s)
        rss = await asyncio.to_thread(rss_mb, stack.proc.pid)
        minutes = (time.monotonic() - started) / 60
        print(f"  {minutes:.1f} min: RSS {rss} MB, load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=float, default=60, help="seconds between two RSS samples")
    args = parser.parse_args()
    with LiveStack() as stack:
        stack.manage("seed_bots")
        start = rss_mb(stack.proc.pid)
        print(f"start: RSS {start} MB, load {os.getloadavg()[0]:.1f}", flush=True)
        tally = asyncio.run(soak(stack, args.matches, args.minutes * 60, args.seed, args.every))
        end = rss_mb(stack.proc.pid)
        figures = bot_move_figures(stack)
    print(f"end:   RSS {end} MB, load {os.getloadavg()[0]:.1f}")
    print(f"{args.matches} matches at once for {args.minutes} min: {tally.games} games finished, "
          f"{tally.sent} moves sent, {tally.lost} lost")  # fmt: skip
    for key, value in figures.items():
        print(f"  {key}: {value}")
    for error in tally.errors[:20]:
        print("  !", error)


if __name__ == "__main__":
    main()
