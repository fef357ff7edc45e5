"""Tournaments unattended on the full stack: daphne, a real Celery worker, Celery beat and Redis.

Nobody calls the tick here: beat sends it, the worker's bots play the games, and the ends of
the matches pair the next games.  The test only creates the tournament (as an admin would) and
watches its socket until it has finished.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest
import websockets

from tests.support import LiveStack

pytestmark = pytest.mark.fullstack

TICK_MS = "1000"
# Six seeded tic-tac-toe bots of the ladder (not the adaptive one), and two more random movers an
# admin adds, as they would in the admin: eight bots, each move a fraction of a second.
LADDER = [
    "tictactoe-random",
    "tictactoe-beginner",
    "tictactoe-shallow",
    "tictactoe-intermediate",
    "tictactoe-advanced",
    "tictactoe-perfect",
]
EXTRA = ["tictactoe-random-b", "tictactoe-random-c"]
ADD_RANDOM_MOVERS = """
from server.bots.models import BotProfile
for slug, name in (("tictactoe-random-b", "Rattle"), ("tictactoe-random-c", "Jitter")):
    profile = BotProfile.objects.get(slug="tictactoe-random")
    profile.pk, profile.slug, profile.name = None, slug, name
    profile.save()
"""


async def watch_until_finished(stack: LiveStack, tournament_id: int, frames_cap: int = 2000) -> list[dict]:
    """Every `tournament` frame of the socket until one says finished (or the stack goes quiet)."""
    seen: list[dict] = []
    async with websockets.connect(f"{stack.ws_url}/ws/tournaments/{tournament_id}/") as ws:
        for _ in range(frames_cap):
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=120))
            assert frame["type"] == "tournament", frame
            seen.append(frame["tournament"])
            if frame["tournament"]["status"] in ("finished", "cancelled"):
                return seen
    raise AssertionError(f"not finished after {frames_cap} frames")


def create(stack: LiveStack, *args: str) -> int:
    return int(stack.manage("create_tournament", *args).strip().splitlines()[-1])


def test_a_swiss_of_eight_bots_runs_to_its_end_unattended():
    with LiveStack(extra_env={"TOURNAMENT_TICK_MS": TICK_MS}) as stack:
        assert "celery beat" in stack.server_log() or "beat" in stack.server_log()
        stack.manage("shell", "-c", ADD_RANDOM_MOVERS)
        bots = ",".join(LADDER + EXTRA)
        tournament_id = create(
            stack, "--kind", "swiss", "--game", "tictactoe", "--rounds", "3", "--house-bots", bots, "--starts-in", "2"
        )
        frames = asyncio.run(watch_until_finished(stack, tournament_id))
        final = stack.api("GET", f"/api/tournaments/{tournament_id}/")
        assert final["status"] == "finished" and final["round"] == 3
        assert any(f["status"] == "running" for f in frames), "the socket showed it running, live"
        assert len({f["round"] for f in frames if f["status"] == "running"}) == 3, "each round seen as it came"
        entrants = final["entrants_list"]
        assert len(entrants) == 8 and all(e["is_ai"] and e["kind"] == "bot" for e in entrants)
        games = [(g["opponent"], g["match"]) for row in final["crosstable"] for g in row["games"]]
        assert len(games) == 8 * 3
        pairs = [frozenset({row["entrant"], g["opponent"]}) for row in final["crosstable"] for g in row["games"]]
        assert len(set(pairs)) == 12, "twelve games, no pairing twice"
        assert sum(row["points"] for row in final["standings"]) == 12
        for match_id in {m for _, m in games}:
            match = stack.api("GET", f"/api/matches/{match_id}/")
            assert match["status"] == "finished", match["status"]
            assert all(s["player"]["is_ai"] for s in match["seats"])
            assert match["clock"] is not None and not match["rated"]
        log = stack.server_log()
        assert "tournament tick" in log, "beat's tick reached the worker"


def test_a_short_arena_runs_to_its_end_unattended():
    with LiveStack(extra_env={"TOURNAMENT_TICK_MS": TICK_MS}) as stack:
        bots = ",".join(["tictactoe-random", "tictactoe-beginner", "tictactoe-shallow", "tictactoe-intermediate"])
        tournament_id = create(
            stack, "--kind", "arena", "--game", "tictactoe", "--minutes", "1", "--house-bots", bots, "--starts-in", "1"
        )
        frames = asyncio.run(watch_until_finished(stack, tournament_id))
        final = stack.api("GET", f"/api/tournaments/{tournament_id}/")
        assert final["status"] == "finished" and frames[-1]["status"] == "finished"
        games = [g for row in final["crosstable"] for g in row["games"]]
        assert len(games) >= 8, "several games each in a minute of tic-tac-toe between quick bots"
        assert all(g["score"] is not None for g in games), "the games under way at the end finished and counted"
        assert final["finished_at"] >= final["ends_at"]
        # Nobody played two games at once: each entrant's pairings follow one another.
        db = sqlite3.connect(stack.env["DATABASE_URL"].removeprefix("sqlite:///"))
        for row in final["crosstable"]:
            spans = db.execute(
                "select created_at, finished_at from tournaments_pairing where white_id = ? or black_id = ?"
                " order by created_at",
                (row["entrant"], row["entrant"]),
            ).fetchall()
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), spans
        assert [row["points"] for row in final["standings"]] == sorted(
            (row["points"] for row in final["standings"]), reverse=True
        )


def test_embedded_mode_runs_tournaments_without_beat():
    """`make run` without Redis: no beat, so the web process ticks (server/tournaments/watch.py)."""
    with LiveStack(embedded=True, extra_env={"TOURNAMENT_TICK_MS": TICK_MS}) as stack:
        assert "embedded mode" in stack.server_log()
        bots = ",".join(LADDER[:4])
        tournament_id = create(
            stack, "--kind", "swiss", "--game", "tictactoe", "--rounds", "2", "--house-bots", bots, "--starts-in", "1"
        )
        asyncio.run(watch_until_finished(stack, tournament_id))
        final = stack.api("GET", f"/api/tournaments/{tournament_id}/")
        assert final["status"] == "finished" and final["round"] == 2
        assert sum(row["points"] for row in final["standings"]) == 4
        assert "celery beat" not in stack.server_log()
