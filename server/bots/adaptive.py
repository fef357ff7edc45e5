"""Adaptive difficulty: a bot that keeps each player near a 50% score.
"adaptive difficulty").

Strength is a number in [0, 1] kept per (bot profile, player).  Across matches it moves
after every result (up when the player scored more than half, down when less); within
a match the bot eases off while it believes it is clearly winning and tightens up when
it is losing.  Strength becomes search settings through `config_for`: a weaker bot
searches shallower and slips more often — the human-looking weakening of `ai`, never
random blunders.
"""

from __future__ import annotations

from typing import Any

import ai

STEP = 0.1  # strength change per match result
IN_MATCH_SHIFT = 0.2  # strength change while the bot's own evaluation is decisive
DECISIVE = 0.3  # |value| / max_utility beyond which the bot "knows" who is winning
MAX_SLIP_RATE = 0.45
DEFAULT_DEPTH = 8  # plies at full strength when the profile sets no cap
DEFAULT_ITERATIONS = 20_000


def clamp(x: float, low: float = 0.0, high: float = 1.0) -> float:
    return max(low, min(high, x))


def strength_after(strength: float, player_score: float) -> float:
    """The next strength after a match where the player scored `player_score` (0, 0.5 or 1)."""
    return clamp(strength + 2 * STEP * (player_score - 0.5))


def in_match_strength(strength: float, last_value: float | None, max_utility: float) -> float:
    """Ease off when clearly winning, try harder when clearly losing."""
    if last_value is None:
        return strength
    ratio = last_value / max_utility
    if ratio > DECISIVE:
        return clamp(strength - IN_MATCH_SHIFT)
    if ratio < -DECISIVE:
        return clamp(strength + IN_MATCH_SHIFT)
    return strength


def config_for(base: dict[str, Any], strength: float) -> dict[str, Any]:
    """The profile's search settings scaled to `strength` (1 is the profile as configured)."""
    config = dict(base)
    depth = base.get("max_depth") or DEFAULT_DEPTH
    config["max_depth"] = max(1, round(strength * depth))
    searcher = ai.CATALOGUE.get(base.get("algorithm") or "")
    if searcher is not None and searcher.can(ai.Capability.COUNTS_ITERATIONS):  # capped by playouts, not depth
        iterations = base.get("max_iterations") or DEFAULT_ITERATIONS
        config["max_iterations"] = max(10, round(strength**2 * iterations))
        config["max_depth"] = base.get("max_depth")
    config["slip_rate"] = round(max(base.get("slip_rate") or 0.0, MAX_SLIP_RATE * (1 - strength)), 3)
    return config
