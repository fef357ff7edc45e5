"""Helpers for the research export tests: stored matches written directly, export readers."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rest_framework.test import APIClient

from server.bots.models import BotProfile
from server.matches.models import Match, Move, Seat
from server.players.models import ApiToken, Player

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "exports.schema.json").read_text())
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# Personal data the dataset's people carry; none of it may ever reach an export.
SECRET_NAME = "Zebulon Quackenbush"
SECRET_USERNAME = "zquackenbush"
SECRET_EMAIL = "zebulon@example.org"


def bot_stats(move: str, **extra: Any) -> dict[str, Any]:
    return {
        "algorithm": "alphabeta",
        "move": move,
        "value": 0.25,
        "depth": 2,
        "nodes": 812,
        "nps": 40600,
        "elapsed_ms": 20.0,
        "pv": [move, "4"],
        "budget_ms": 300,
        "queued_ms": 1.5,
        "deadline_slack_ms": 278.5,
        "seed": 12345,
        "search_version": "plyground-ai 0.1",
        **extra,
    }


def store_match(
    game: str,
    seats: list[Player | BotProfile | None],
    moves: list[tuple[int, str]],
    *,
    status: str = Match.Status.FINISHED,
    winner: int | None = None,
    reason: str = "four in a row",
    created_at: datetime = T0,
    source: str = "play",
) -> Match:
    """A match as the move path leaves it, written directly (fast): bots' moves carry search figures."""
    n = len(seats)
    result = None
    if status == Match.Status.FINISHED:
        returns = [0.0] * n if winner is None else [1.0 if i == winner else -1.0 for i in range(n)]
        result = {"returns": returns, "winner": winner, "reason": reason, "ranking": []}
    elif status == Match.Status.ABORTED:
        result = {"returns": [], "winner": None, "reason": "abandoned", "ranking": []}
    match = Match.objects.create(
        game=game,
        status=status,
        state={},
        ply=len(moves),
        result=result,
        source=source,
        started_at=created_at,
        finished_at=created_at + timedelta(minutes=5) if status != Match.Status.ACTIVE else None,
    )
    Match.objects.filter(pk=match.pk).update(created_at=created_at)
    for index, who in enumerate(seats):
        if isinstance(who, BotProfile):
            Seat.objects.create(match=match, index=index, kind="bot", bot_profile=who, bot_snapshot=who.snapshot())
        else:
            Seat.objects.create(match=match, index=index, kind="human", player=who)
    for ply, (seat, move) in enumerate(moves):
        is_bot = seat >= 0 and isinstance(seats[seat], BotProfile)
        stored = Move.objects.create(
            match=match, ply=ply, seat=seat, move=move, think_ms=100 + ply, stats=bot_stats(move) if is_bot else None
        )
        Move.objects.filter(pk=stored.pk).update(created_at=created_at + timedelta(seconds=2 * (ply + 1)))
    match.refresh_from_db()
    return match


def client_for(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(player)}")
    return client


def jsonl(response) -> list[dict[str, Any]]:
    body = b"".join(response.streaming_content).decode()
    assert body == "" or body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


def csv_text(response) -> str:
    return b"".join(response.streaming_content).decode()
