"""`stats` on a bot account's move frame: its search's figures, kept with the move (docs/bots.md).

Any small JSON object (``{"nodes": 120000, "depth": 9, "time_ms": 850, "value": 0.12, "pv": ["4", "3"]}``):
the site stores it with the move, sends it on the move frame and puts it in the run's exports,
and reads nothing in it.  Bounded so that no agent stores much: `MAX_BYTES` as compact JSON,
`MAX_DEPTH` levels of nesting.  People's moves carry none (their browsers send none).
"""

from __future__ import annotations

import json
from typing import Any

from server.matches.errors import StatsRefused
from server.players.models import Player

MAX_BYTES = 1024
MAX_DEPTH = 3  # {"pv": [...]} is two; {"a": {"b": [..]}} three


def checked_stats(stats: Any, player: Player | None) -> dict[str, Any]:
    """`stats` if a bot account may store them with its move; `StatsRefused` saying why otherwise."""
    if player is None or not player.is_bot:
        raise StatsRefused("stats are sent with bot accounts' moves only")
    if not isinstance(stats, dict):
        raise StatsRefused('stats is a JSON object: {"nodes": ..., "depth": ...}')
    if _depth(stats) > MAX_DEPTH:
        raise StatsRefused(f"stats nest at most {MAX_DEPTH} levels deep")
    size = len(json.dumps(stats, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_BYTES:
        raise StatsRefused(f"stats take at most {MAX_BYTES} bytes as compact JSON, not {size}")
    return stats


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0
