"""Socket storms and move load on the real stack: PostgreSQL, a private Redis, one or more daphne processes.

    .venv/bin/python benchmarks/sockets.py storm [--sockets 500] [--close 300] [--webs 1] [--restart]
    .venv/bin/python benchmarks/sockets.py load [--matches 200] [--spectators 3] [--rate 500] [--seconds 15]
        [--ramp 0] [--webs 1] [--clock 5+3]
    .venv/bin/python benchmarks/sockets.py lobby [--sockets 500] [--webs 1]
    .venv/bin/python benchmarks/sockets.py idle [--sockets 1000] [--spread 10] [--seconds 20] [--webs 1]

    load, idle: [--stalls MS] also counts the web processes' event-loop turns busy over MS ms

Everything is on loopback and bounded: a fresh PostgreSQL database on 127.0.0.1:5432 (dropped
at the end), a private redis-server, `--webs` daphne processes (`tests.faults.stack.FaultStack`,
no worker: the matches are between people), and `--clients` client processes.

- **storm**: `--sockets` match sockets (the two seats of `--sockets / 2` matches) open within
  the same second; each socket's time from its first connect attempt to its `state` frame
  (p50, p99, max; how many within 5 s; how many were refused and retried with the page's
  jittered backoff).  With `--restart` the sockets are first opened gently, every web
  process is killed and started again, and the storm is their pages reconnecting as pages
  do (`?v=` the version each had): the time to the `heartbeat` that ends the replay.  Then
  `--close` of them close at once; 3 s later (before the 10 s staleness rule could hide a
  leak) it counts the channel-layer group members left in Redis for those matches (apart
  from a killed process's), the seats still online in the database and the members still
  live in the presence store, and the web log's `MaxConnectionsError`s.
- **lobby**: `--sockets` lobby sockets of as many guests open within the same second; each
  one's time to its `lobby` frame, then, once everyone is in and 3 s have passed, the number
  of `online` frames all of them heard (one per socket per arrival would be N²) and the last
  count each one heard.
- **idle**: `--sockets` match sockets (both seats of half as many matches) opened over
  `--spread` seconds (at least 10);
  then, for `--seconds` while nothing is played, the rows PostgreSQL updated in the seat and
  player tables (presence writes) and the web processes' CPU.
- **load**: `--matches` Connect Four matches between two scripted people, each with
  `--spectators` spectators, split over the web processes (the two players of a match on
  different processes when `--webs` > 1).  The match's players move alternately at
  `--rate` moves/s over all matches (a move's turn waits for the previous move's frame),
  choosing moves that do not end the game.  For every move and every other socket of the
  match: the time from the mover's send to that socket's `move` frame (move-to-peers); every
  socket must hear every move exactly once.  The sockets open within `--ramp` seconds (at
  once by default: a connect storm), a refused handshake retried as the page does.  Prints
  moves/s achieved, p50/p99/max move-to-peers, lost and doubled frames, the web processes'
  CPU time (per move relayed, split between the event loop and the database threads), the
  CPU of the clients and of PostgreSQL, the share of the machine's CPU its host took for
  others (steal: the same code measures slower when it is high), and the load average.  A
  board holds 42 moves: a match that fills it stops, and the report warns, since the rate
  is then the game's cap (at ~300 moves/s, 125 matches fill theirs in about 15 s: use 200).
- Every mode first prints how fast this machine runs a plain Python loop (10 million
  additions, before the stack starts): the machines differ by twice and more, and the CPU a
  move costs scales with it, so figures from different machines compare through it.
- **--stalls MS** (load and idle): the turns of each web process's event loop whose callbacks
  ran over MS ms (the wait for I/O not counted) in the measured window: while one runs, every
  move that arrived waits (`benchmarks/loop_stalls/sitecustomize.py`); and the garbage
  collections in that window, by generation (count, CPU, the longest): each one stops every
  thread of the process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

import psycopg  # noqa: E402
import websockets  # noqa: E402

from games import registry  # noqa: E402
from tests.faults.stack import POSTGRES_URL, FaultStack  # noqa: E402

MAKE_MATCHES = """
import json
from server.matches.services import Clock, SeatRequest, match_create, match_join
from server.players.services import player_create_guest_with_token
out = []
for i in range({n}):
    (a, ta), (b, tb) = player_create_guest_with_token(), player_create_guest_with_token()
    m = match_create("connect4", [SeatRequest("human"), SeatRequest("human")], a, clock={clock})
    match_join(m.pk, b)
    out.append([m.pk, ta, tb])
print(json.dumps(out))
"""
GAME = registry.get("connect4")
STALLS_DIR = Path(__file__).resolve().parent / "loop_stalls"


class Stack(FaultStack):
    """The fault stack without a worker: matches between people need none."""

    def __init__(self, webs: int, env: dict[str, str]) -> None:
        super().__init__("postgres")
        self.n_webs = webs
        self.env.update(env)
        self.env["LOG_LEVEL"] = "WARNING"
        self.env["DEBUG"] = "0"  # as production runs: Django records no SQL of every query

    def __enter__(self) -> Stack:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        self.manage("migrate", "--noinput", "-v0")
        self.start_redis()
        for i in range(self.n_webs):
            self.start_web("web" if i == 0 else f"web{i + 1}")
        return self

    def web_names(self) -> list[str]:
        return ["web" if i == 0 else f"web{i + 1}" for i in range(self.n_webs)]

    def make_matches(self, n: int, clock: str | None = None) -> list[list]:
        """`n` matches between two people, each with a token; `clock` "minutes+increment" or none."""
        minutes, increment = clock.split("+") if clock else (None, None)
        control = f"Clock({float(minutes)}, {int(increment)})" if clock else "None"
        out = self.manage("shell", "-c", MAKE_MATCHES.format(n=n, clock=control))
        return json.loads(out.strip().splitlines()[-1])

    def _web_pids(self) -> dict[str, int]:
        return {name: self.procs[name].pid for name in self.web_names()}

    def cpu_s(self) -> dict[str, float]:
        """User + system CPU seconds of each web process so far."""
        return {name: _stat_cpu_s(f"/proc/{pid}/stat") for name, pid in self._web_pids().items()}

    def loop_cpu_s(self) -> dict[str, float]:
        """User + system CPU seconds of each web process's main thread so far: its event loop
        (the rest of the process's CPU is its database threads')."""
        return {name: _stat_cpu_s(f"/proc/{pid}/task/{pid}/stat") for name, pid in self._web_pids().items()}


def each_cpu_s(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each of these processes still running."""
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            found[pid] = _stat_cpu_s(f"/proc/{pid}/stat")
    return found


def _stat_cpu_s(stat_path: str) -> float:
    """User + system CPU seconds in a /proc stat file (a process's or one thread's)."""
    fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_pids() -> list[int]:
    """PostgreSQL's processes (the server and its backends): where the database's CPU goes."""
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _comm(p) == "postgres"]


def _comm(proc: Path) -> str:
    try:
        return (proc / "comm").read_text().strip()
    except OSError:
        return ""


# At a module's level, as `python -c` runs it (names looked up in a dict): the form of the
# figures recorded in benchmarks/README.md since 2026-11-29 (0.64 s on that evening's machine).
_ADDITIONS = "total = 0\nfor i in range(10_000_000):\n    total += i\n"


def core_speed_s() -> float:
    """The CPU seconds a pure-Python loop of 10 million additions takes here (the better of two),
    before the stack starts: the machines differ by twice and more, and a web process's CPU a
    move scales with this, so figures taken on different machines compare through it."""
    best = float("inf")
    for _ in range(2):
        started = time.process_time()
        exec(_ADDITIONS, {})  # noqa: S102 - a constant loop, timed
        best = min(best, time.process_time() - started)
    return best


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_ticks() -> tuple[int, int]:
    """The machine's CPU time so far, in ticks: (all of it, stolen by the host)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields[:8]), fields[7]  # user nice system idle iowait irq softirq steal


def steal_pct(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share of the machine's CPU time its host took for others between two `cpu_ticks()`:
    the same code measures slower when it is high."""
    return (after[1] - before[1]) / max(1, after[0] - before[0]) * 100


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- storm ------------------------------------------------------------------------


async def open_until_state(
    url: str, spread_s: float, timeout_s: float, first: str = "state"
) -> tuple[float | None, int, object]:
    """Connect (after a random delay within `spread_s`), retrying as the page does; seconds to the
    `first` frame that says the page is up to date (`state`, or `heartbeat` after a replay)."""
    await asyncio.sleep(random.uniform(0, spread_s))
    start, refused, delay = time.monotonic(), 0, 0.25
    while time.monotonic() - start < timeout_s:
        try:
            ws = await websockets.connect(url, open_timeout=timeout_s, max_queue=None)
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=timeout_s))
            while frame["type"] == "presence":  # the opponent's arrival may come first
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=timeout_s))
            assert frame["type"] == first, frame
            ws.state_v = frame["v"]
            return time.monotonic() - start, refused, ws
        except (OSError, TimeoutError, websockets.WebSocketException):
            refused += 1
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))  # the page's jittered backoff
            delay = min(delay * 2, 4)
    return None, refused, None


async def storm(stack: Stack, sockets: int, close: int, spread_s: float, restart: bool = False) -> None:
    matches = stack.make_matches(sockets // 2)
    webs = [stack.ws_url_of(n) for n in stack.web_names()]
    urls = []
    for i, (match_id, ta, tb) in enumerate(matches):
        urls.append(f"{webs[i % len(webs)]}/ws/matches/{match_id}/?token={ta}")
        urls.append(f"{webs[(i + 1) % len(webs)]}/ws/matches/{match_id}/?token={tb}")
    first, dead, killed_at = "state", set(), 0.0
    closed_matches = sorted({m[0] for m in matches[: (close + 1) // 2]})
    if restart:
        urls = await restarted(stack, urls)
        killed_at, first = time.monotonic(), "heartbeat"
        # The killed process's memberships, in every group: nobody renews them any more.
        dead = set(layer_memberships(stack))
    kind = "reconnecting up to date (?v=) after a restart" if restart else "new"
    print(f"storm: {len(urls)} {kind} sockets within {spread_s:.0f} s on {len(webs)} web process(es)  load {loadavg()}")
    cpu_before = stack.cpu_s()
    results = await asyncio.gather(*(open_until_state(u, spread_s, 30, first) for u in urls))
    cpu = {name: s - cpu_before[name] for name, s in stack.cpu_s().items()}
    times = [t for t, _, _ in results if t is not None]
    retried = sum(1 for _, r, _ in results if r)
    print(
        f"  {first} received: {len(times)}/{len(urls)}; within 5 s: {sum(t <= 5 for t in times)}; "
        f"p50 {pct(times, 0.5):.2f} s  p99 {pct(times, 0.99):.2f} s  max {max(times, default=float('nan')):.2f} s; "
        f"sockets that retried: {retried}  load {loadavg()}"
    )
    per_socket = (f"{name} {s:.2f} s ({1000 * s / len(urls):.1f} ms a socket)" for name, s in cpu.items())
    print("  web CPU: " + ", ".join(per_socket))
    await asyncio.sleep(3)  # presence writes of the connects settle
    online_before = stack.sql("select count(*) from matches_seat where online")[0][0]
    closing = [ws for _, _, ws in results[:close] if ws is not None]
    t0 = time.monotonic()
    await asyncio.gather(*(ws.close() for ws in closing), return_exceptions=True)
    print(f"  closed {len(closing)} at once in {time.monotonic() - t0:.2f} s; seats online before: {online_before}")
    await asyncio.sleep(3)
    still_open = len(urls) - len(closing)
    report_leftovers(stack, closed_matches, dead, still_open, 3)
    if restart:
        # The killed process's presence holds stay live until they go stale: its seats go
        # offline by the staleness rule, a sweep after PRESENCE_STALE_MS.
        stale_s = int(stack.env.get("PRESENCE_STALE_MS", 10000)) / 1000
        await asyncio.sleep(stale_s)
        report_leftovers(stack, closed_matches, dead, still_open, 3 + stale_s)
        await report_dead_memberships(stack, dead, killed_at)
    for _, _, ws in results[close:]:
        if ws is not None:
            await ws.close()


def report_leftovers(
    stack: Stack, closed_matches: list[int], dead: set[bytes], still_open: int, after_s: float
) -> None:
    """What the closed sockets left behind: group members (apart from a killed process's), seats
    online, members live in the presence store."""
    import redis

    r, prefix = redis.Redis(port=stack.redis_port), stack.env["CHANNEL_PREFIX"]
    members = len(group_members(stack, closed_matches) - {member for _, member in dead})
    online = stack.sql("select count(*) from matches_seat where online and match_id = any(?)", closed_matches)[0][0]
    live = sum(1 for m in r.zrange(f"{prefix}:presence:live", 0, -1) if m.decode().startswith("s:"))
    errors = sum(len(re.findall("MaxConnectionsError", stack.log(n))) for n in stack.web_names())
    print(
        f"  {after_s:.0f} s later: group members left {members} (and {len(dead)} of the killed process), "
        f"seats still online {online} (of the closed matches), "
        f"seats live in the presence store {live} (of {still_open} still open); "
        f"MaxConnectionsError in the web log: {errors}  load {loadavg()}"
    )


async def report_dead_memberships(stack: Stack, dead: set[tuple[bytes, bytes]], killed_at: float) -> None:
    """Once the group expiry has passed since the kill: how many of the killed process's
    memberships a group send would still reach (stamped within the expiry; channels_redis
    drops older ones at the group's next send), and how many are still stored at all."""
    # server/realtime/channel_layer.py's default; run code without it with 86400 (channels_redis's).
    expiry_s = int(stack.env.get("CHANNEL_GROUP_EXPIRY_S", "120"))
    await asyncio.sleep(max(0.0, killed_at + min(expiry_s, 120) + 10 - time.monotonic()))
    now, held = time.time(), layer_memberships(stack)
    reached = sum(1 for key in dead if key in held and held[key] >= int(now) - expiry_s)
    stored = sum(1 for key in dead if key in held)
    print(
        f"  {time.monotonic() - killed_at:.0f} s after the kill (group expiry {expiry_s} s): of the killed "
        f"process's {len(dead)} memberships, {reached} still reached by a group send, {stored} still stored"
    )


def layer_memberships(stack: Stack) -> dict[tuple[bytes, bytes], float]:
    """Every (group key, member) of the channel layer in Redis, with its stamp."""
    import redis

    r, prefix = redis.Redis(port=stack.redis_port), stack.env["CHANNEL_PREFIX"]
    return {
        (key, member): stamp
        for key in r.scan_iter(f"{prefix}:group:*", count=1000)
        for member, stamp in r.zrange(key, 0, -1, withscores=True)
    }


def group_members(stack: Stack, match_ids: list[int]) -> set[bytes]:
    """The channel-layer members of these matches' groups in Redis."""
    import redis

    r, prefix = redis.Redis(port=stack.redis_port), stack.env["CHANNEL_PREFIX"]
    return {member for m in match_ids for member in r.zrange(f"{prefix}:group:match.{m}", 0, -1)}


async def restarted(stack: Stack, urls: list[str]) -> list[str]:
    """Open every socket gently, then kill and start again every web process, as a crash or a
    deploy does: the URLs the pages reconnect with (`?v=` the version each one had)."""
    spread = max(10.0, len(urls) / 50)
    opened = await asyncio.gather(*(open_until_state(u, spread, 60) for u in urls))
    again = []
    for url, (_, _, ws) in zip(urls, opened, strict=True):
        assert ws is not None, f"{url} never got its state"
        again.append(url.replace("/?", f"/?v={ws.state_v}&"))
    await asyncio.sleep(3)  # the arrivals' presence writes settle
    t0 = time.monotonic()
    for name in stack.web_names():
        stack.kill(name)
        stack.start_web(name)
    print(f"  {len(urls)} sockets opened over {spread:.0f} s; web restarted in {time.monotonic() - t0:.1f} s")
    for _, _, ws in opened:
        ws.transport.abort()  # its server is gone: no closing handshake to wait for
    return again


# --- lobby storm ------------------------------------------------------------------

MAKE_GUESTS = """
import json
from server.players.services import player_create_guest_with_token
print(json.dumps([player_create_guest_with_token()[1] for _ in range({n})]))
"""


async def lobby_socket(url: str, spread_s: float, heard: list[int], everyone_in: asyncio.Event, came: list[int]):
    """Open (retrying as the page does), then count the `online` frames until told to stop."""
    await asyncio.sleep(random.uniform(0, spread_s))
    start, delay = time.monotonic(), 0.25
    while True:
        try:
            ws = await websockets.connect(url, open_timeout=30, max_queue=None)
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            assert frame["type"] == "lobby", frame
            break
        except (OSError, TimeoutError, websockets.WebSocketException):
            if time.monotonic() - start > 60:
                came.append(0)
                return None, None
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 4)
    took = time.monotonic() - start
    came.append(1)

    async def count() -> None:
        async for raw in ws:
            frame = json.loads(raw)
            if frame.get("type") == "online":
                heard.append(frame["count"])

    reader = asyncio.create_task(count())
    await everyone_in.wait()
    reader.cancel()
    return took, ws


async def lobby_storm(stack: Stack, sockets: int, spread_s: float) -> None:
    tokens = json.loads(stack.manage("shell", "-c", MAKE_GUESTS.format(n=sockets)).strip().splitlines()[-1])
    webs = [stack.ws_url_of(n) for n in stack.web_names()]
    urls = [f"{webs[i % len(webs)]}/ws/lobby/?token={t}" for i, t in enumerate(tokens)]
    print(f"lobby: {len(urls)} lobby sockets within {spread_s:.0f} s on {len(webs)} web process(es)  load {loadavg()}")
    heard: list[list[int]] = [[] for _ in urls]
    everyone_in = asyncio.Event()
    came: list[int] = []  # 1 for each socket in, 0 for each that gave up
    tasks = [asyncio.create_task(lobby_socket(u, spread_s, heard[i], everyone_in, came)) for i, u in enumerate(urls)]
    while len(came) < len(urls):
        await asyncio.sleep(0.5)
    await asyncio.sleep(3)  # the last count, and any frames still on their way
    everyone_in.set()
    results = await asyncio.gather(*tasks)
    times = [t for t, _ in results if t is not None]
    frames = sum(len(h) for h in heard)
    last = [h[-1] for h in heard if h]
    print(
        f"  lobby frame received: {len(times)}/{len(urls)}; p50 {pct(times, 0.5):.2f} s  p99 {pct(times, 0.99):.2f} s; "
        f"online frames heard: {frames} in all, {max(map(len, heard))} at most by one socket; "
        f"last count heard = {len(urls)} by {sum(c == len(urls) for c in last)} sockets  load {loadavg()}"
    )
    for _, ws in results:
        if ws is not None:
            await ws.close()


# --- idle -------------------------------------------------------------------------


def rows_updated(stack: Stack) -> dict[str, int]:
    """Rows updated so far in the seat and player tables (PostgreSQL's statistics)."""
    rows = stack.sql(
        "select relname, n_tup_upd from pg_stat_user_tables where relname in ('matches_seat', 'players_player')"
    )
    return dict(rows)


async def idle(stack: Stack, sockets: int, seconds: float, spread_s: float) -> None:
    matches = stack.make_matches(sockets // 2)
    webs = [stack.ws_url_of(n) for n in stack.web_names()]
    urls = [
        f"{webs[i % len(webs)]}/ws/matches/{m}/?token={t}" for i, (m, ta, tb) in enumerate(matches) for t in (ta, tb)
    ]
    print(f"idle: {len(urls)} sockets opened over {spread_s:.0f} s on {len(webs)} web process(es)  load {loadavg()}")
    results = await asyncio.gather(*(open_until_state(u, spread_s, 60) for u in urls))
    print(f"  state received: {sum(t is not None for t, _, _ in results)}/{len(urls)}")
    await asyncio.sleep(5)  # the arrivals' writes settle
    rows0, cpu0, t0, window = rows_updated(stack), stack.cpu_s(), time.monotonic(), time.time()
    await asyncio.sleep(seconds)
    await asyncio.sleep(1)  # statistics are flushed by the backends within a second
    rows1, cpu1, elapsed = rows_updated(stack), stack.cpu_s(), time.monotonic() - t0 - 1
    cpu = ", ".join(f"{n} {(cpu1[n] - cpu0[n]) / elapsed * 100:.1f}%" for n in cpu0)
    per_min = {k: (rows1.get(k, 0) - rows0.get(k, 0)) * 60 / elapsed for k in rows1}
    print(
        f"  over {elapsed:.0f} s idle: rows updated a minute: seats {per_min.get('matches_seat', 0):.0f}, "
        f"players {per_min.get('players_player', 0):.0f}; web CPU {cpu}  load {loadavg()}"
    )
    report_stalls(stack, window, window + seconds)
    for _, _, ws in results:
        if ws is not None:
            await ws.close()


# --- load -------------------------------------------------------------------------


async def play_match(
    match: list, webs: list[str], spectators: int, interval_s: float, seconds: float, out: dict
) -> None:
    match_id, ta, tb = match
    i = match_id
    urls = [f"{webs[i % len(webs)]}/ws/matches/{match_id}/?token={ta}"]
    urls.append(f"{webs[(i + 1) % len(webs)]}/ws/matches/{match_id}/?token={tb}")
    urls += [f"{webs[(i + k) % len(webs)]}/ws/matches/{match_id}/" for k in range(spectators)]
    await asyncio.sleep(random.uniform(0, out["ramp"]))
    socks = []
    for url in urls:
        socks.append(await connect_retrying(url, out))
    states = [json.loads(await asyncio.wait_for(s.recv(), timeout=30)) for s in socks]
    state = GAME.from_json(states[0]["match"]["state"])
    sent: dict[int, float] = {}
    seen: list[dict[int, int]] = [{} for _ in socks]
    arrived: list[asyncio.Event] = [asyncio.Event() for _ in socks]
    last_ply = [-1 for _ in socks]
    lat = out["lat"]

    async def read(k: int) -> None:
        async for raw in socks[k]:
            frame = json.loads(raw)
            if frame.get("type") != "move":
                continue
            ply = frame["ply"]
            seen[k][ply] = seen[k].get(ply, 0) + 1
            if ply in sent and ply % 2 != k:  # not the mover itself
                lat.append(time.monotonic() - sent[ply])
            last_ply[k] = max(last_ply[k], ply)
            arrived[k].set()

    readers = [asyncio.create_task(read(k)) for k in range(len(socks))]
    start = out["start"]
    await asyncio.sleep(max(0.0, start - time.monotonic()) + random.uniform(0, interval_s))
    ply = 0
    rng = random.Random(match_id)
    while time.monotonic() < start + seconds and not GAME.is_terminal(state):
        mover = ply % 2
        legal = GAME.legal_moves(state)
        safe = [m for m in legal if not GAME.is_terminal(GAME.play(state, m))] or legal
        move = rng.choice(safe)
        due = time.monotonic() + interval_s
        sent[ply] = time.monotonic()
        await socks[mover].send(json.dumps({"type": "move", "move": move, "ply": ply}))
        deadline = time.monotonic() + 10
        while last_ply[1 - mover] < ply and time.monotonic() < deadline:
            arrived[1 - mover].clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(arrived[1 - mover].wait(), timeout=1)
        if last_ply[1 - mover] < ply:
            out["stuck"] += 1
            break
        out["moves"] += 1
        state = GAME.play(state, move)
        ply += 1
        await asyncio.sleep(max(0.0, due - time.monotonic()))
    if GAME.is_terminal(state) and time.monotonic() < start + seconds:
        out["finished_early"] += 1  # the board was full: this match played no more in the window
    await asyncio.sleep(2)  # late frames, and duplicates if any
    for k in range(len(socks)):
        out["lost"] += sum(1 for p in range(ply) if seen[k].get(p, 0) == 0)
        out["doubled"] += sum(1 for c in seen[k].values() if c > 1)
    for r in readers:
        r.cancel()
    for s in socks:
        await s.close()


async def connect_retrying(url: str, out: dict) -> websockets.ClientConnection:
    """Connect as the page does: a refused or dropped handshake is retried with jittered backoff
    (until the moves start; a socket still out then fails its match)."""
    delay = 0.25
    while True:
        try:
            return await websockets.connect(url, open_timeout=30, max_queue=None)
        except (OSError, TimeoutError, websockets.WebSocketException):
            if time.monotonic() > out["start"]:
                raise
            out["retried"] += 1
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 4)


def client_process(
    matches: list, webs: list[str], spectators: int, interval_s: float, seconds: float, start: float, ramp: float, q
):
    out = {"lat": [], "moves": 0, "lost": 0, "doubled": 0, "stuck": 0, "retried": 0, "finished_early": 0, "errors": []}
    out.update(start=start, ramp=ramp)

    async def run() -> None:
        done = await asyncio.gather(
            *(play_match(m, webs, spectators, interval_s, seconds, out) for m in matches), return_exceptions=True
        )
        out["errors"] = [repr(e)[:120] for e in done if isinstance(e, BaseException)]

    try:
        asyncio.run(asyncio.wait_for(run(), timeout=start - time.monotonic() + seconds + 60))
    except TimeoutError:
        out["errors"].append("client timed out")
    del out["start"], out["ramp"]
    q.put(out)


def load(
    stack: Stack,
    n_matches: int,
    spectators: int,
    rate: float,
    seconds: float,
    clients: int,
    ramp: float,
    clock: str | None = None,
) -> None:
    matches = stack.make_matches(n_matches, clock)
    webs = [stack.ws_url_of(n) for n in stack.web_names()]
    sockets = n_matches * (2 + spectators)
    interval = n_matches / rate  # seconds between two moves of one match
    print(
        f"load: {n_matches} matches x (2 players + {spectators} spectators) = {sockets} sockets on "
        f"{len(webs)} web process(es){', clocks ' + clock if clock else ''}; target {rate:.0f} moves/s "
        f"({interval * 1000:.0f} ms a move per match), "
        f"{seconds:.0f} s, {clients} client processes, sockets opened over {ramp:.0f} s  load {loadavg()}"
    )
    start = time.monotonic() + 8 + ramp + sockets / 150  # everyone connected first
    q = mp.get_context("fork").Queue()
    procs = [
        mp.get_context("fork").Process(
            target=client_process, args=(matches[k::clients], webs, spectators, interval, seconds, start, ramp, q)
        )
        for k in range(clients)
    ]
    for p in procs:
        p.start()
    time.sleep(max(0.0, start - time.monotonic()))
    others = {"clients": lambda: [p.pid for p in procs], "postgres": postgres_pids}
    cpu0, loop0, others0 = stack.cpu_s(), stack.loop_cpu_s(), {k: each_cpu_s(f()) for k, f in others.items()}
    t0, window, ticks0 = time.monotonic(), time.time(), cpu_ticks()
    time.sleep(seconds)
    cpu1, loop1, elapsed, ticks1 = stack.cpu_s(), stack.loop_cpu_s(), time.monotonic() - t0, cpu_ticks()
    # Processes that started in the window (a connection opened when first used) count whole.
    others_pct = {
        k: sum(cpu - others0[k].get(pid, 0.0) for pid, cpu in each_cpu_s(f()).items()) / elapsed * 100
        for k, f in others.items()
    }
    load_during = loadavg()
    outs = [q.get(timeout=180) for _ in procs]
    for p in procs:
        p.join(30)
    lat = [x for o in outs for x in o["lat"]]
    moves = sum(o["moves"] for o in outs)
    cpu = ", ".join(f"{n} {(cpu1[n] - cpu0[n]) / elapsed * 100:.0f}%" for n in cpu0)
    print(
        f"  moves {moves} = {moves / seconds:.0f} moves/s; move-to-peers p50 {pct(lat, 0.5) * 1000:.0f} ms  "
        f"p99 {pct(lat, 0.99) * 1000:.0f} ms  max {max(lat, default=0) * 1000:.0f} ms ({len(lat)} deliveries); "
        f"lost {sum(o['lost'] for o in outs)}  doubled {sum(o['doubled'] for o in outs)}  "
        f"stuck {sum(o['stuck'] for o in outs)}; web CPU {cpu}; load {load_during}"
    )
    cpu_ms = sum(cpu1[n] - cpu0[n] for n in cpu0) / max(1, moves) * 1000
    loop_ms = sum(loop1[n] - loop0[n] for n in loop0) / max(1, moves) * 1000
    print(
        f"  web CPU {cpu_ms:.2f} ms a move relayed (event loop {loop_ms:.2f}, database threads "
        f"{cpu_ms - loop_ms:.2f}); connects retried {sum(o['retried'] for o in outs)}"
    )
    print(
        "  CPU of the rest (of one core): "
        + ", ".join(f"{k} {v:.0f}%" for k, v in others_pct.items())
        + f"; the machine's CPU stolen by its host: {steal_pct(ticks0, ticks1):.0f}%"
    )
    finished_early = sum(o["finished_early"] for o in outs)
    if finished_early:
        # A Connect Four match has at most 42 moves: the rate measured is then the game's cap, not the server's.
        print(f"  WARNING: {finished_early} of {n_matches} matches filled their board before the end: more --matches")
    if lat:
        print(f"  mean {statistics.mean(lat) * 1000:.0f} ms")
    report_stalls(stack, window, window + seconds)
    errors = [e for o in outs for e in o["errors"]]
    if errors:
        print(f"  {len(errors)} matches failed, e.g. {errors[:3]}")


def report_stalls(stack: Stack, since: float, until: float) -> None:
    """With --stalls: the web processes' busy turns of the event loop between two wall times."""
    threshold = stack.env.get("PLYGROUND_STALL_MS")
    if threshold is None:
        return
    turns = [
        float(ms)
        for path in stack.dir.glob("stalls.*")
        for at, ms in (line.split() for line in path.read_text().splitlines())
        if since <= float(at) <= until
    ]
    listed = ", ".join(f"{ms:.0f}" for ms in sorted(turns, reverse=True)[:20])
    print(
        f"  event-loop turns over {threshold} ms in the {until - since:.0f} s window (all web processes): "
        f"{len(turns)}{f' ({listed} ms)' if turns else ''}"
    )
    collections: dict[int, list[float]] = {}
    for path in stack.dir.glob("stalls-gc.*"):
        for at, generation, _, cpu_ms in (line.split() for line in path.read_text().splitlines()):
            if since <= float(at) <= until:
                collections.setdefault(int(generation), []).append(float(cpu_ms))
    each = "; ".join(
        f"generation {g}: {len(ms)}, {sum(ms):.0f} ms, longest {max(ms):.1f} ms"
        for g, ms in sorted(collections.items())
    )
    print(f"  garbage collections in that window (CPU, every thread waiting for each): {each or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["storm", "load", "lobby", "idle"])
    parser.add_argument("--webs", type=int, default=1)
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--close", type=int, default=300)
    parser.add_argument("--spread", type=float, default=1.0)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=3)
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=0.0, help="load: open the sockets over this many seconds")
    parser.add_argument("--clock", help='load: matches with this clock, "minutes+increment" (e.g. 5+3)')
    parser.add_argument("--env", action="append", default=[], help="NAME=value for the web processes")
    parser.add_argument("--restart", action="store_true", help="storm: the web restarts under open sockets")
    parser.add_argument("--stalls", type=float, help="load, idle: count the web's event-loop turns over this many ms")
    args = parser.parse_args()
    env = dict(e.split("=", 1) for e in args.env)
    print(f"this machine: 10 million additions in a Python loop take {core_speed_s():.2f} s  load {loadavg()}")
    stack = Stack(args.webs, env)
    if args.stalls is not None:
        stack.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(STALLS_DIR), stack.env.get("PYTHONPATH")]))
        stack.env.update(PLYGROUND_STALL_LOG=str(stack.dir / "stalls"), PLYGROUND_STALL_MS=f"{args.stalls:g}")
    with stack:
        try:
            if args.mode == "storm":
                asyncio.run(storm(stack, args.sockets, args.close, args.spread, args.restart))
            elif args.mode == "idle":
                asyncio.run(idle(stack, args.sockets, args.seconds, max(args.spread, 10)))
            elif args.mode == "lobby":
                asyncio.run(lobby_storm(stack, args.sockets, args.spread))
            else:
                load(stack, args.matches, args.spectators, args.rate, args.seconds, args.clients, args.ramp, args.clock)
        finally:
            errors = [line for n in stack.web_names() for line in stack.log(n).splitlines() if "Error" in line]
            if errors:
                print(f"  web log: {len(errors)} error lines, e.g. {errors[:3]}")


if __name__ == "__main__":
    main()
