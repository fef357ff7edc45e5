"""A tournament of house bots run to its end, unattended, on the full stack; what it took.

    .venv/bin/python benchmarks/tournament.py --kind arena --minutes 60 --game connect4 --bots 8
    .venv/bin/python benchmarks/tournament.py --kind swiss --rounds 7 --game tictactoe --bots 16

Starts `python -m server.run` (daphne, a Celery worker and the reserved one, Celery beat,
Redis, SQLite) on a free loopback port with a fresh database; an admin's command creates the
tournament with `--bots` house bots of the game (the seeded ladder but its adaptive bot, and
copies of its weaker bots where the ladder has too few); then nobody touches it: beat's tick
starts it, the worker's bots play, the ends of matches pair the next games.  The script only
watches the tournament's socket until it has finished, then reads the pairings and prints:

- games played, and every pairing scored, every match over (finished or aborted);
- round robin and Swiss: the pause from a round's last game's end to the next round's pairing
  (the end of a match pairs at once; the tick is the safety net), and the rematches;
- arena: games per entrant, the wait of an entrant between two games, the games under way at
  the end time and how long after it the tournament finished, and that nobody played two
  games at once.

Every request goes to 127.0.0.1; the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import LiveStack  # noqa: E402

COPY_BOTS = """
from server.bots.models import BotProfile
ladder = [p for p in BotProfile.objects.filter(game="{game}", adaptive=False).order_by("level")]
wanted, slugs, copy = {bots}, [p.slug for p in ladder], 0
while len(slugs) < wanted:
    source = ladder[copy % min(3, len(ladder))]  # copies of the weaker (faster) bots
    copy += 1
    clone = BotProfile.objects.get(pk=source.pk)
    clone.pk, clone.slug, clone.name = None, f"{{source.slug}}-copy{{copy}}", f"{{source.name}} {{copy + 1}}"
    clone.save()
    slugs.append(clone.slug)
print("SLUGS", ",".join(slugs[:wanted]))
"""


def parse(at: str | None) -> datetime | None:
    return datetime.fromisoformat(at) if at else None


async def watch(stack: LiveStack, tournament_id: int, quiet_s: float) -> tuple[int, float]:
    """Frames until the tournament has finished: (frames, seconds)."""
    started = time.monotonic()
    frames = 0
    async with websockets.connect(f"{stack.ws_url}/ws/tournaments/{tournament_id}/", max_size=2**24) as ws:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=quiet_s))
            frames += 1
            detail = frame.get("tournament") or {}
            if frames % 50 == 0:
                print(
                    f"  {time.monotonic() - started:6.0f} s  {detail.get('status')}  round {detail.get('round')}",
                    flush=True,
                )
            if detail.get("status") in ("finished", "cancelled"):
                return frames, time.monotonic() - started


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return f"median {statistics.median(values):.2f} s, p90 {pick(0.9):.2f} s, max {values[-1]:.2f} s (n={len(values)})"


def report(stack: LiveStack, tournament_id: int) -> None:
    detail = stack.api("GET", f"/api/tournaments/{tournament_id}/")
    db = sqlite3.connect(stack.env["DATABASE_URL"].removeprefix("sqlite:///"))
    rows = db.execute(
        "select p.round, p.white_id, p.black_id, p.white_score, p.created_at, p.finished_at, m.status"
        " from tournaments_pairing p left join matches_match m on m.id = p.match_id"
        " where p.tournament_id = ? order by p.created_at",
        (tournament_id,),
    ).fetchall()
    games = [r for r in rows if r[2] is not None]
    print(f"status {detail['status']}, {len(games)} games, {len(rows) - len(games)} byes")
    print(f"every pairing scored: {all(r[3] is not None for r in rows)}")
    statuses = {r[6] for r in games}
    print(f"match statuses: {sorted(s or 'none' for s in statuses)}")
    aborted = sum(1 for r in games if r[6] == "aborted")
    print(f"aborted games: {aborted}")
    when = lambda s: datetime.fromisoformat(s).replace(tzinfo=UTC)  # noqa: E731  # SQLite keeps UTC, naive
    if detail["kind"] != "arena":
        pauses = []
        for r in range(2, (detail["rounds"] or 0) + 1):
            last_end = max(when(x[5]) for x in rows if x[0] == r - 1)
            first_pair = min(when(x[4]) for x in rows if x[0] == r)
            pauses.append((first_pair - last_end).total_seconds())
        print(f"round's last end -> next round paired: {percentiles(pauses)}")
        pairs = [frozenset((r[1], r[2])) for r in games]
        print(f"rematches: {len(pairs) - len(set(pairs))}")
    else:
        ends_at = parse(detail["ends_at"])
        assert ends_at is not None
        waits, per_entrant, overlaps = [], [], 0
        for entrant in detail["entrants_list"]:
            mine = [r for r in games if entrant["id"] in (r[1], r[2])]
            per_entrant.append(len(mine))
            for a, b in zip(mine, mine[1:], strict=False):
                waits.append((when(b[4]) - when(a[5])).total_seconds())
                overlaps += when(b[4]) < when(a[5])
        print(f"games per entrant: min {min(per_entrant)}, max {max(per_entrant)}")
        print(f"an entrant's wait between two games: {percentiles(waits)}")
        print(f"two games at once: {overlaps}")
        running_at_end = [r for r in games if when(r[4]) < ends_at < when(r[5])]
        scored = all(r[3] is not None for r in running_at_end)
        print(f"games under way at the end time: {len(running_at_end)}, all scored: {scored}")
        finished = parse(detail["finished_at"])
        print(
            f"finished {(finished - ends_at).total_seconds():.1f} s after the end time" if finished else "not finished"
        )
    print("standings:")
    for row in detail["standings"]:
        record = f"{row['wins']}/{row['draws']}/{row['losses']}"
        print(f"  {row['rank']:2d}. {row['entrant']['name']:<24} {row['points']:>6} pts  {record}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=["arena", "swiss", "round_robin"], default="arena")
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--minutes", type=int, default=60, help="arena")
    parser.add_argument("--rounds", type=int, default=5, help="Swiss")
    parser.add_argument("--clock", default="1+0")
    parser.add_argument("--tick-ms", default="5000", help="TOURNAMENT_TICK_MS (the default's)")
    args = parser.parse_args()
    with LiveStack(extra_env={"TOURNAMENT_TICK_MS": args.tick_ms}) as stack:
        lines = stack.manage("shell", "-c", COPY_BOTS.format(game=args.game, bots=args.bots)).splitlines()
        slugs = next(line.split()[1] for line in lines if line.startswith("SLUGS "))
        length = ["--minutes", str(args.minutes)] if args.kind == "arena" else []
        length += ["--rounds", str(args.rounds)] if args.kind == "swiss" else []
        out = stack.manage(
            "create_tournament",
            "--kind",
            args.kind,
            "--game",
            args.game,
            "--clock",
            args.clock,
            "--house-bots",
            slugs,
            "--starts-in",
            "5",
            "--max-entrants",
            str(max(args.bots, 2)),
            *length,
        )
        tournament_id = int(out.strip().splitlines()[-1])
        print(
            f"{args.kind} of {args.bots} {args.game} bots ({slugs}), clock {args.clock}, load {os.getloadavg()}",
            flush=True,
        )
        frames, seconds = asyncio.run(watch(stack, tournament_id, quiet_s=600))
        print(f"finished after {seconds:.0f} s, {frames} socket frames, load {os.getloadavg()}")
        report(stack, tournament_id)


if __name__ == "__main__":
    main()
