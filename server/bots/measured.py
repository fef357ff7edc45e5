"""Measured bot ratings kept as data next to the code, keyed by slug.

Each game's figures sit in its package beside the spec that declares its ladder
(``games/<id>/seed_ratings.json``), so a new game brings its own and touches no shared
file.  `manage.py calibrate --write-ratings` writes an entry per rated profile: the Elo and its
95% interval, the games behind it, the date, the method (the command, and a budget cap if
one was used) and a fingerprint of the playing settings it was measured with.
`manage.py seed_bots` copies an entry onto its profile only while the profile still plays
with those settings, so a fresh install shows measured figures and a changed profile
shows none ("rating not measured yet") until it is calibrated again.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from games import registry
from server.bots import placement

DATA_FILE = "seed_ratings.json"
DATA_PATH: Path | None = None  # one file for every game instead of each package's own (tests)

# What decides how a profile plays.  The name, description, listing and the human-like
# minimum think time (a delay, not a search setting) do not.
PLAYING_FIELDS = ("game", "algorithm", "time_budget_ms", "max_depth", "max_iterations", "slip_rate",
                  "temperature", "style", "opponent_model", "search_options", "adaptive")  # fmt: skip

# The values a field takes when a seed leaves it out (`seed.SETTING_DEFAULTS` and the model's).
PLAYING_DEFAULTS: dict[str, Any] = dict(
    max_depth=None, max_iterations=None, slip_rate=0.0, temperature=0.0, style="balanced", opponent_model="",
    search_options={}, adaptive=False,
)  # fmt: skip

# The rating fields of a profile, and their values when it has no measured rating.
RATING_FIELDS: dict[str, Any] = dict(
    rating=None, deviation=None, volatility=None, rating_low=None, rating_high=None, rated_games=0,
    measured_on=None, rating_method="", rating_budget_cap_ms=None, rating_fingerprint="",
)  # fmt: skip

# What a measurement writes: the rating, and the end of "no longer measured".
MEASURED_FIELDS = [*RATING_FIELDS, "unmeasured_since"]


def _canonical(field: str, value: Any) -> Any:
    """One spelling per setting: 0 and 0.0, None and "" for the opponent model are the same."""
    if field in ("slip_rate", "temperature"):
        return float(value or 0.0)
    if field in ("time_budget_ms", "max_depth", "max_iterations"):
        return None if value is None else int(value)
    if field == "opponent_model":
        return value or ""
    if field == "search_options":
        return dict(value or {})
    if field == "adaptive":
        return bool(value)
    return value


# Fields hashed under the name they had when the recorded measurements were taken, so that a
# renamed field keeps every `seed_ratings.json` fingerprint valid.
HASHED_AS: dict[str, str] = {"slip_rate": "error_rate"}


def fingerprint(settings: Mapping[str, Any]) -> str:
    """A short hash of the playing settings (a seed's dict or a profile's fields)."""
    values = {HASHED_AS.get(f, f): _canonical(f, settings.get(f, PLAYING_DEFAULTS.get(f))) for f in PLAYING_FIELDS}
    text = json.dumps(values, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def profile_fingerprint(profile: Any) -> str:
    return fingerprint({f: getattr(profile, f) for f in PLAYING_FIELDS})


def data_path(game_id: str) -> Path:
    """The file that holds a game's measured ratings: `DATA_FILE` in the game's package."""
    return DATA_PATH or Path(inspect.getfile(type(registry.get(game_id)))).with_name(DATA_FILE)


def data_paths() -> list[Path]:
    """Every registered game's file, once (two ids may share a package)."""
    return list(dict.fromkeys(data_path(game_id) for game_id in registry.ids()))


def load(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The entries by slug, of `path` or of every game; none from a file that does not exist."""
    entries: dict[str, dict[str, Any]] = {}
    for each in [path] if path else data_paths():
        if each.exists():
            entries.update(json.loads(each.read_text())["ratings"])
    return entries


def entry_for(profile: Any, elo: float, low: float, high: float, games: int, method: str,
              measured_on: date, budget_cap_ms: int | None) -> dict[str, Any]:  # fmt: skip
    """The data file's entry for a profile just rated.  The cap is kept only where it cut the budget."""
    capped = budget_cap_ms is not None and budget_cap_ms < profile.time_budget_ms
    return {
        "game": profile.game,
        "elo": round(elo, 1),
        "low": round(low, 1),
        "high": round(high, 1),
        "games": games,
        "measured_on": measured_on.isoformat(),
        "method": method,
        "budget_cap_ms": budget_cap_ms if capped else None,
        "fingerprint": profile_fingerprint(profile),
    }


def write(entries: Mapping[str, dict[str, Any]], path: Path | None = None) -> list[Path]:
    """Merge `entries` into `path`, or each into its game's file (other slugs kept), sorted for readable
    diffs; the files written."""
    by_file: dict[Path, dict[str, dict[str, Any]]] = defaultdict(dict)
    for slug, entry in entries.items():
        by_file[path or data_path(entry["game"])][slug] = entry
    for file, new in by_file.items():
        merged = {**load(file), **new}
        ordered = dict(sorted(merged.items(), key=lambda item: (item[1]["game"], item[0])))
        file.write_text(json.dumps({"ratings": ordered}, indent=1) + "\n")
    return list(by_file)


def rating_fields(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A data entry as the profile's rating fields: placed on the people's Glicko-2 scale (`placement`)."""
    placed = placement.place(entry["elo"], entry.get("low"), entry.get("high"))
    return dict(
        rating=placed.rating, deviation=placed.deviation, volatility=placement.START_VOLATILITY,
        rating_low=placed.low, rating_high=placed.high, rated_games=entry["games"],
        measured_on=date.fromisoformat(entry["measured_on"]), rating_method=entry["method"],
        rating_budget_cap_ms=entry.get("budget_cap_ms"), rating_fingerprint=entry["fingerprint"],
        unmeasured_since=None,
    )  # fmt: skip


def should_apply(profile: Any, entry: Mapping[str, Any]) -> bool:
    """The entry was measured with the profile's settings and is newer than the profile's own rating.

    Not as new: the profile already holds that measurement, or a later one, and since then
    rated games against people may have moved it (`server.ratings.services`); seeding again
    must not undo them."""
    if entry["fingerprint"] != profile_fingerprint(profile):
        return False
    own_is_current = profile.rating is not None and profile.rating_fingerprint == entry["fingerprint"]
    return not (
        own_is_current and profile.measured_on and profile.measured_on >= date.fromisoformat(entry["measured_on"])
    )


def games_with_data(entries: Iterable[Mapping[str, Any]]) -> set[str]:
    return {e["game"] for e in entries}
