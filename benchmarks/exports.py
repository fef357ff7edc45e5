"""Research exports at scale: stream 100,000 stored matches from a real server, on SQLite and PostgreSQL.

    .venv/bin/python benchmarks/exports.py [--db sqlite,postgres] [--games 100000] [--plies 40]
                                           [--pg-url postgres://postgres@127.0.0.1:5432/plyground_bench]

For each database it makes a fresh one (a temporary SQLite file; the PostgreSQL database
named in ``--pg-url``, created and dropped again), migrates it, writes ``--games`` finished
matches of about ``--plies`` moves each with ``bulk_create`` (a third human-vs-human, a third
human-vs-bot, a third bot-vs-bot; bot moves carry search figures as the engine stores them),
starts daphne on it as production runs it (``settings.prod``, DEBUG off), and downloads
``/api/exports/games.jsonl`` and ``/api/exports/moves.csv`` with a researcher's token.

It prints, per database and format: matches exported, seconds, matches per second, MB/s,
and the server process's resident memory before the export and at its peak during it
(sampled from /proc every 20 ms).  Targets (issue 7): >= 2,000 matches/s, < 200 MB.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
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
            "engine": "plyground-ai 0.1",
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
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    insert_move = (
        f"INSERT INTO {Move._meta.db_table} (match_id, ply, seat, move, created_at, think_ms, stats)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s)"
    )
    profiles = list(BotProfile.objects.filter(game="connect4"))
    people = Player.objects.bulk_create([Player(name=f"Bench Person {i}") for i in range(2000)])
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
            plans.append((kinds, plies + rng.randint(-2, 2), result))
        with transaction.atomic():
            matches = Match.objects.bulk_create(
                [Match(game="connect4", status="finished", state={}, ply=p[1], result=p[2]) for p in plans]
            )
            seats, moves = [], []
            for match, (kinds, length, _) in zip(matches, plans, strict=True):
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
                    moves.append((match.pk, ply, ply % 2, str(rng.randint(1, 7)), now, rng.randint(50, 20_000), stats))
            Seat.objects.bulk_create(seats)
            # Moves by the million: straight INSERTs, as Move.objects.bulk_create would write them.
            with connection.cursor() as cursor:
                cursor.executemany(insert_move, moves)
        done = first + n
        rate = done / (time.monotonic() - started)
        print(f"\r  generating: {done:,}/{games:,} matches ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def researcher_token() -> str:
    from django.contrib.auth.models import Group, User

    from server.players.models import ApiToken, Player
    from server.research.permissions import RESEARCHER_GROUP

    user = User.objects.create_user("bench-researcher")
    user.groups.add(Group.objects.get_or_create(name=RESEARCHER_GROUP)[0])
    return ApiToken.issue(Player.objects.create(name="Bench Researcher", user=user, is_guest=False))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class PeakRss(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0.0, True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.02)

    def stop(self) -> float:
        self.running = False
        self.join()
        return max(self.peak, rss_mb(self.pid))


def download(port: int, path: str, token: str, server_pid: int) -> dict[str, float]:
    before = rss_mb(server_pid)
    sampler = PeakRss(server_pid)
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
    peak = sampler.stop()
    return {"lines": lines, "seconds": seconds, "mb": size / 2**20, "rss_before": before, "rss_peak": peak}


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


def run_one(database_url: str, games: int, plies: int) -> dict:
    """In a child process whose DATABASE_URL is `database_url` (already created and empty)."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from server.matches.models import Match, Move

    t = time.monotonic()
    generate(games, plies)
    generated_s = time.monotonic() - t
    token = researcher_token()
    stored = {"matches": Match.objects.count(), "moves": Move.objects.count()}
    from django.db import connections

    connections.close_all()

    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "server.config.settings.prod", "PYTHONUNBUFFERED": "1"}
    daphne = os.path.join(os.path.dirname(sys.executable), "daphne")
    proc = subprocess.Popen(
        [daphne, "-b", "127.0.0.1", "-p", str(port), "server.config.asgi:application"],
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
            results[name] = download(port, path, token, proc.pid)
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


def child(database: str, url: str, games: int, plies: int) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "server.config.settings.prod",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "benchmark-secret"),
    }
    env.pop("REDIS_URL", None)  # embedded mode: the web process alone
    argv = [sys.executable, __file__, "--child", url, "--games", str(games), "--plies", str(plies)]
    out = subprocess.run(argv, env=env, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite,postgres", help="sqlite, postgres or both (comma-separated)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432/plyground_bench")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_one(args.child, args.games, args.plies)))
        return 0

    rows = []
    for database in args.db.split(","):
        print(f"{database}: {args.games:,} matches of ~{args.plies} plies", file=sys.stderr)
        if database == "sqlite":
            with tempfile.TemporaryDirectory(prefix="plyground-bench-") as tmp:
                rows.append((database, child(database, f"sqlite:///{tmp}/bench.sqlite3", args.games, args.plies)))
        elif database == "postgres":
            name = urlparse(args.pg_url).path.lstrip("/")
            pg_admin(args.pg_url, f'DROP DATABASE IF EXISTS "{name}"')
            pg_admin(args.pg_url, f'CREATE DATABASE "{name}"')
            try:
                rows.append((database, child(database, args.pg_url, args.games, args.plies)))
            finally:
                pg_admin(args.pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            parser.error(f"unknown database {database!r}")

    print(f"\nResearch exports: {args.games:,} stored matches (~{args.plies} plies), daphne, settings.prod")
    print(f"{'database':<10} {'export':<12} {'matches':>9} {'rows':>10} {'s':>7} {'matches/s':>10} {'MB':>7}"
          f" {'MB/s':>6} {'RSS before':>11} {'RSS peak':>9}")  # fmt: skip
    ok = True
    for database, result in rows:
        for name in ("games.jsonl", "moves.csv"):
            r = result[name]
            matches = result["stored"]["matches"]
            rate = matches / r["seconds"]
            ok &= rate >= TARGET_RATE and r["rss_peak"] < TARGET_MB
            print(
                f"{database:<10} {name:<12} {matches:>9,} {r['lines']:>10,} {r['seconds']:>7.1f} {rate:>10,.0f}"
                f" {r['mb']:>7,.0f} {r['mb'] / r['seconds']:>6.0f} {r['rss_before']:>8.0f} MB {r['rss_peak']:>6.0f} MB"
            )
    print(f"targets: >= {TARGET_RATE:,} matches/s and < {TARGET_MB} MB peak RSS: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
