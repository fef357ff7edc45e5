"""Chess bots rated on Stockfish's scale, kept as data next to the code (`stockfish_ratings.json`).

The other ratings (`measured`) put the random mover at 0 and say how a bot fares against the
other bots of its game; chess players know another scale. `benchmarks/chess_stockfish.py
--summarize LOG --write-ratings` stores, per profile, the Elo its score against Stockfish held
to a `UCI_Elo` implies, with the 95% interval, the games, the opponent's settings, the date and
the fingerprint of the profile's playing settings (`measured.fingerprint`).

Nothing is copied onto the profile: an entry is shown only while the fingerprint still matches
the profile, so an admin's change to how a bot plays hides it at once ("not measured"), and
restoring the settings brings it back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from server.bots import measured

DATA_PATH = Path(__file__).with_name("stockfish_ratings.json")


def load(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The entries by slug; none when the file does not exist."""
    path = path or DATA_PATH
    if not path.exists():
        return {}
    return _read(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _read(path: str, mtime_ns: int) -> dict[str, dict[str, Any]]:
    """Parsed once per version of the file (the lobby lists every bot at each request)."""
    return dict(json.loads(Path(path).read_text())["ratings"])


def write(entries: Mapping[str, dict[str, Any]], path: Path | None = None) -> None:
    """Merge `entries` into the file (other slugs kept), sorted for readable diffs."""
    path = path or DATA_PATH
    merged = {**load(path), **entries}
    ordered = dict(sorted(merged.items(), key=lambda item: (item[1]["game"], item[0])))
    path.write_text(json.dumps({"ratings": ordered}, indent=1, ensure_ascii=False) + "\n")


def current_entry(profile: Any, entries: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The profile's entry if it was measured with the settings the profile plays with now."""
    entry = (load() if entries is None else entries).get(profile.slug)
    if entry is None or entry["fingerprint"] != measured.profile_fingerprint(profile):
        return None
    return entry


def estimate(entry: Mapping[str, Any]) -> str:
    """ "≈1450", or a bound when the bot won or lost every game (the score then bounds it one way only)."""
    if entry.get("bound") == "below":
        return f"below {entry['high']:.0f}"
    if entry.get("bound") == "above":
        return f"above {entry['low']:.0f}"
    return f"≈{entry['elo']:.0f}"


def spread(entry: Mapping[str, Any]) -> str:
    """ "±120, 40 games": the half-width of the 95% interval (none for a bound) and the games behind it."""
    games = f"{entry['games']} games"
    if entry.get("bound"):
        return games
    return f"±{(entry['high'] - entry['low']) / 2:.0f}, {games}"


def label(entry: Mapping[str, Any]) -> str:
    """E.g. "≈1450 on Stockfish 15.1's UCI_Elo scale (±120, 40 games)"."""
    return f"{estimate(entry)} on {entry['scale']} scale ({spread(entry)})"


def short(entry: Mapping[str, Any]) -> str:
    """For a lobby tile: "≈1450 Stockfish Elo"."""
    return f"{estimate(entry)} Stockfish Elo"


def caveat(profile: Any, entry: Mapping[str, Any]) -> str:
    """How it was measured, in a sentence: the opponent, and the budget when a cap cut the bot's own."""
    text = f"Measured against {entry['opponent']} on {date.fromisoformat(entry['measured_on']).isoformat()}"
    if entry.get("budget_cap_ms") and entry["budget_cap_ms"] < profile.time_budget_ms:
        text += (
            f", with its budget capped at {entry['budget_cap_ms']} ms a move instead of {profile.time_budget_ms} ms:"
            " with its full time it is likely stronger"
        )
    return text + "."


def for_api(profile: Any, entries: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The public rating as the API gives it, or None (never measured, or measured with other settings)."""
    entry = current_entry(profile, entries)
    if entry is None:
        return None
    return {
        "scale": entry["scale"],
        "elo": entry["elo"],
        "low": entry["low"],
        "high": entry["high"],
        "bound": entry.get("bound"),
        "games": entry["games"],
        "measured_on": entry["measured_on"],
        "method": entry["method"],
        "label": label(entry),
        "short": short(entry),
        "caveat": caveat(profile, entry),
    }
