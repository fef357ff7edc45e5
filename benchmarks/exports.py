"""Research exports at scale: stream 100,000 stored matches from a real server, on SQLite and PostgreSQL.

    .venv/bin/python benchmarks/exports.py [--db sqlite,postgres] [--games 100000] [--plies 40]
                                           [--pg-url postgres://postgres@127.0.0.1:5432/plyground_bench]

For each database it makes a fresh one (a temporary SQLite file; the PostgreSQL database
named in ``--pg-url``, created and dropped again), migrates it, writes ``--games`` finished
matches of about ``--plies`` moves each with ``bulk_create`` (a third human-vs-human, a third
human-vs-bot, a third bot-vs-bot; bot moves carry search figures as the engine stores them),
runs ``ANALYZE`` (a database in service has planner statistics; a bulk load has none;
``--no-analyze`` measures without them),
starts daphne on it as production runs it (``settings.prod``, DEBUG off), and downloads
``/api/exports/games.jsonl`` and ``/api/exports/moves.csv`` with a researcher's token.

It prints, per database and format: matches exported, seconds, matches per second, MB/s,
the CPU time it cost (the server process's, plus the PostgreSQL backends' serving it; SQLite
runs inside the server), so that a run on a busy machine still says what the export
costs: matches per CPU-second is the rate one idle core would give; and the server's memory
before the export and at its peak during it (sampled from /proc every 20 ms), and the
1-minute load average when the download started (the machine may be shared; the
benchmark's own processes count in it too).
Targets: >= 2,000 matches/s, < 200 MB.

Then a slow client (``--slow-seconds``, 0 to skip): it asks for ``--slow-matches``
matches of games.jsonl and reads 256 KB/s for that many seconds over loopback, with a
small receive buffer, and the server's memory is sampled meanwhile: what a server
holds for a reader slower than the export.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
ASGI_APPLICATION = "server.config.asgi:application"
sys.path.insert(0, str(ROOT))

from tests.support import free_port  # noqa: E402

TARGET_RATE = 2000
TARGET_MB = 200


# --- the child: one database --------------------------------------------------------


def stats_pool(rng: random.Random, size: int = 1000) -> list[str]:
    """Search figures as the engine stores them with a bot move, serialized once and reused."""
    pool = []
    for _ in range(size):
        move, nodes = str(rng.randint(1, 7)), rng.randint(200, 200_000)
        stats = {
            "algorithm": "alphabeta",
            "move": move,
            "value": round(rng.uniform(-1, 1), 6),
            "depth": rng.randint(2, 14),
            "nodes": nodes,
            "nps": nodes * 3,
            "elapsed_ms": round(rng.uniform(5, 1500), 3),
            "pv": [move] + [str(rng.randint(1, 7)) for _ in range(rng.randint(0, 7))],
            "budget_ms": 1500,
            "queued_ms": round(rng.uniform(0, 20), 1),
            "deadline_slack_ms": round(rng.uniform(0, 300), 1),
            "seed": rng.randint(0, 2**31),
            "search_version": "plyground-ai 0.1",
        }
        pool.append(json.dumps(stats))
    return pool


def generate(games: int, plies: int, seed: int = 7) -> None:
    """`games` finished matches written directly, a batch at a time (memory stays flat)."""
    from django.db import connection, transaction
    from django.utils import timezone

    from server.bots.models import BotProfile
    from server.matches.models import Match, Move, Seat
    from server.players.models import Player

    rng = random.Random(seed)
    pool = stats_pool(rng)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")  # a throwaway file: no need to wait for the disk
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    move_columns = "match_id, ply, seat, move, created_at, think_ms, stats, fallback, notation"
    insert_move = f"INSERT INTO {Move._meta.db_table} ({move_columns}) VALUES ({', '.join(['%s'] * 9)})"
    profiles = list(BotProfile.objects.filter(game="connect4"))
    # Everyone agreed to research: an export holds only the matches of people who did.
    people = Player.objects.bulk_create([Player(name=f"Bench Person {i}", consent_research=True) for i in range(2000)])
    batch = 2000
    started = time.monotonic()
    for first in range(0, games, batch):
        n = min(batch, games - first)
        plans = []
        for _ in range(n):
            kinds = rng.choice([("human", "human"), ("human", "bot"), ("bot", "bot")])
            winner = rng.choice([0, 1, None])
            returns = [0.0, 0.0] if winner is None else [1.0 if i == winner else -1.0 for i in (0, 1)]
            reason = "board full" if winner is None else "four in a row"
            result = {"returns": returns, "winner": winner, "reason": reason, "ranking": []}
            clock = rng.choice([None, {"initial_ms": 300_000, "increment_ms": 2000}])  # half replay their clocks
            plans.append((kinds, plies + rng.randint(-2, 2), result, clock))
        with transaction.atomic():
            matches = Match.objects.bulk_create(
                [Match(game="connect4", status="finished", state={}, ply=p[1], result=p[2], clock=p[3]) for p in plans]
            )
            seats, moves = [], []
            for match, (kinds, length, _, _) in zip(matches, plans, strict=True):
                two = rng.sample(people, 2)  # two different people when both seats are human
                for index, kind in enumerate(kinds):
                    if kind == "bot":
                        profile = rng.choice(profiles)
                        seats.append(
                            Seat(
                                match=match,
                                index=index,
                                kind=kind,
                                bot_profile=profile,
                                bot_snapshot=profile.snapshot(),
                            )
                        )
                    else:
                        seats.append(Seat(match=match, index=index, kind=kind, player=two[index]))
                for ply in range(length):
                    by_bot = kinds[ply % 2] == "bot"
                    stats = rng.choice(pool) if by_bot else None
                    think_ms = rng.randint(50, 20_000)
                    moves.append((match.pk, ply, ply % 2, str(rng.randint(1, 7)), now, think_ms, stats, "", ""))
            Seat.objects.bulk_create(seats)
            # Moves by the million: straight INSERTs, as Move.objects.bulk_create would write them.
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":  # COPY: executemany is a round trip a row
                    with cursor.cursor.copy(f"COPY {Move._meta.db_table} ({move_columns}) FROM STDIN") as copy:
                        for row in moves:
                            copy.write_row(row)
                else:
                    cursor.executemany(insert_move, moves)
        done = first + n
        rate = done / (time.monotonic() - started)
        print(f"\r  generating: {done:,}/{games:,} matches ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def analyze() -> None:
    """Planner statistics, as a database in service has them (PostgreSQL's autovacuum, or an
    ``ANALYZE`` on SQLite): without them both planners read a chunk of matches through the
    status index and sort what is left of the table, every chunk."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def researcher_token() -> str:
    from django.contrib.auth.models import Group, User

    from server.players.models import ApiToken, Player
    from server.research.permissions import RESEARCHER_GROUP

    user = User.objects.create_user("bench-researcher")
    user.groups.add(Group.objects.get_or_create(name=RESEARCHER_GROUP)[0])
    return ApiToken.issue(Player.objects.create(name="Bench Researcher", user=user, is_guest=False))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far: what the export cost, whatever else ran."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def database_backends(name: str) -> list[int]:
    """PostgreSQL backend processes serving database `name` (their command line names it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if cmdline.startswith(b"postgres: ") and f" {name} ".encode() in cmdline:
                found.append(int(entry.name))
    return found


class Sampler(threading.Thread):
    """The server's peak RSS (every 20 ms) and, for PostgreSQL, its backends' CPU (every 200 ms)."""

    def __init__(self, pid: int, database: str | None) -> None:
        super().__init__(daemon=True)
        self.pid, self.database, self.peak, self.running = pid, database, 0.0, True
        self.backends_cpu: dict[int, float] = {}

    def run(self) -> None:
        ticks = 0
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            if self.database and ticks % 10 == 0:
                self.sample_backends()
            ticks += 1
            time.sleep(0.02)

    def sample_backends(self) -> None:
        for pid in database_backends(self.database):
            try:
                self.backends_cpu[pid] = cpu_seconds(pid)  # a backend per request (conn_max_age=0)
            except OSError:
                continue

    def stop(self) -> tuple[float, float]:
        self.running = False
        self.join()
        if self.database:
            self.sample_backends()
        return max(self.peak, rss_mb(self.pid)), sum(self.backends_cpu.values())


def download(port: int, path: str, token: str, server_pid: int, database: str | None) -> dict[str, float]:
    before, cpu_before, load = rss_mb(server_pid), cpu_seconds(server_pid), os.getloadavg()[0]
    sampler = Sampler(server_pid, database)
    sampler.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.monotonic()
    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    assert response.status == 200, (response.status, response.read()[:300])
    size = lines = 0
    while chunk := response.read(1 << 20):
        size += len(chunk)
        lines += chunk.count(b"\n")
    seconds = time.monotonic() - started
    conn.close()
    peak, db_cpu = sampler.stop()
    cpu = cpu_seconds(server_pid) - cpu_before
    return {
        "lines": lines,
        "seconds": seconds,
        "cpu": cpu,
        "db_cpu": db_cpu,
        "mb": size / 2**20,
        "rss_before": before,
        "rss_peak": peak,
        "load": load,
    }


def slow_download(port: int, path: str, token: str, server_pid: int, seconds: float) -> dict[str, float]:
    """Reads `path` at 256 KB/s for `seconds`, then hangs up; the server's RSS meanwhile."""
    before = rss_mb(server_pid)
    sampler = Sampler(server_pid, None)
    sampler.start()
    with socket.socket() as client:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)  # before connecting: the window
        client.settimeout(seconds)  # bounded in time, whatever the server does
        client.connect(("127.0.0.1", port))
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
        received, started = 0, time.monotonic()
        while time.monotonic() - started < seconds:
            received += len(client.recv(16 * 1024))
            time.sleep(1 / 16)
    peak, _ = sampler.stop()
    time.sleep(2)  # the server notices the hang-up and drops what it held for the client
    return {"received_mb": received / 2**20, "rss_before": before, "rss_peak": peak, "rss_after": rss_mb(server_pid)}


def wait_for(port: int, proc: subprocess.Popen) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited with {proc.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/games/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("daphne did not answer")


def run_one(database_url: str, args: argparse.Namespace) -> dict:
    """In a child process whose DATABASE_URL is `database_url` (already created and empty)."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from server.matches.models import Match, Move

    t = time.monotonic()
    generate(args.games, args.plies)
    generated_s = time.monotonic() - t
    if args.analyze:
        analyze()
    token = researcher_token()
    stored = {"matches": Match.objects.count(), "moves": Move.objects.count()}
    from django.db import connections

    connections.close_all()

    pg_database = urlparse(database_url).path.lstrip("/") if database_url.startswith("postgres") else None
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "server.config.settings.prod", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.asgi_server",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "server.config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(port, proc)
        results = {"stored": stored, "generate_s": round(generated_s, 1)}
        for name, path in (("games.jsonl", "/api/exports/games.jsonl"), ("moves.csv", "/api/exports/moves.csv")):
            results[name] = download(port, path, token, proc.pid, pg_database)
        if args.slow_seconds > 0:
            path = f"/api/exports/games.jsonl?max={args.slow_matches}"
            results["slow"] = slow_download(port, path, token, proc.pid, args.slow_seconds)
        return results
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)


# --- the parent: one child per database, figures side by side -------------------------


def pg_admin(url: str, sql: str) -> None:
    import psycopg

    parsed = urlparse(url)
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql)


def child(database: str, url: str, args: argparse.Namespace) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "server.config.settings.prod",
        # Production settings refuse a short key and a missing pseudonym secret; served over plain HTTP on loopback.
        "SECRET_KEY": os.environ.get("SECRET_KEY", "benchmark-" + secrets.token_urlsafe(48)),
        "RESEARCH_PSEUDONYM_SECRET": os.environ.get("RESEARCH_PSEUDONYM_SECRET", secrets.token_urlsafe(48)),
        "HTTPS_ONLY": "0",
    }
    env.pop("REDIS_URL", None)  # embedded mode: the web process alone
    argv = [sys.executable, __file__, "--child", url, "--games", str(args.games), "--plies", str(args.plies),
            "--slow-matches", str(args.slow_matches), "--slow-seconds", str(args.slow_seconds),
            *([] if args.analyze else ["--no-analyze"])]  # fmt: skip
    out = subprocess.run(argv, env=env, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite,postgres", help="sqlite, postgres or both (comma-separated)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432/plyground_bench")
    parser.add_argument("--slow-matches", type=int, default=20_000, help="matches the slow client asks for")
    parser.add_argument("--slow-seconds", type=float, default=15, help="how long the slow client reads (0: skip)")
    parser.add_argument("--no-analyze", dest="analyze", action="store_false", help="no planner statistics")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_one(args.child, args)))
        return 0

    rows = []
    for database in args.db.split(","):
        print(f"{database}: {args.games:,} matches of ~{args.plies} plies", file=sys.stderr)
        if database == "sqlite":
            with tempfile.TemporaryDirectory(prefix="plyground-bench-") as tmp:
                rows.append((database, child(database, f"sqlite:///{tmp}/bench.sqlite3", args)))
        elif database == "postgres":
            name = urlparse(args.pg_url).path.lstrip("/")
            pg_admin(args.pg_url, f'DROP DATABASE IF EXISTS "{name}"')
            pg_admin(args.pg_url, f'CREATE DATABASE "{name}"')
            try:
                rows.append((database, child(database, args.pg_url, args)))
            finally:
                pg_admin(args.pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            parser.error(f"unknown database {database!r}")

    stats = "with planner statistics" if args.analyze else "without planner statistics"
    print(f"\nResearch exports: {args.games:,} stored matches (~{args.plies} plies), {stats}, daphne, settings.prod")
    print(f"{'database':<10} {'export':<12} {'matches':>9} {'rows':>10} {'s':>7} {'matches/s':>10} {'MB':>7}"
          f" {'MB/s':>6} {'server CPU s':>12} {'db CPU s':>8} {'matches/CPU s':>13} {'RSS before':>11}"
          f" {'RSS peak':>9} {'load':>5}")  # fmt: skip
    ok = True
    for database, result in rows:
        for name in ("games.jsonl", "moves.csv"):
            r = result[name]
            matches = result["stored"]["matches"]
            rate = matches / r["seconds"]
            ok &= rate >= TARGET_RATE and r["rss_peak"] < TARGET_MB
            print(
                f"{database:<10} {name:<12} {matches:>9,} {r['lines']:>10,} {r['seconds']:>7.1f} {rate:>10,.0f}"
                f" {r['mb']:>7,.0f} {r['mb'] / r['seconds']:>6.0f} {r['cpu']:>12.1f} {r['db_cpu']:>8.1f}"
                f" {matches / (r['cpu'] + r['db_cpu']):>13,.0f}"
                f" {r['rss_before']:>8.0f} MB {r['rss_peak']:>6.0f} MB {r['load']:>5.1f}"
            )
    for database, result in rows:
        if "slow" in result:
            r = result["slow"]
            print(
                f"{database}: a client reading 256 KB/s for {args.slow_seconds:g} s ({args.slow_matches:,} matches of"
                f" games.jsonl asked, {r['received_mb']:.1f} MB read): server RSS {r['rss_before']:.0f} MB before,"
                f" {r['rss_peak']:.0f} MB at peak, {r['rss_after']:.0f} MB after the hang-up"
            )
    print(f"targets: >= {TARGET_RATE:,} matches/s and < {TARGET_MB} MB peak RSS: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
