"""The bot profiles every installation starts with; `manage.py seed_bots` keeps them current."""

from __future__ import annotations

from typing import Any

from games import registry
from games.spec import LEVEL_NAMES
from server.bots import measured

__all__ = ["LEVEL_NAMES", "PROFILES", "SETTING_DEFAULTS", "profiles", "seed_profiles"]


# Each game's ladder is declared with the game (`GameSpec.ladder`, docs/design.md §2): levels
# differ in what makes a bot strong (how deep it looks, how long it thinks, how often it
# slips, which search it runs).  Ratings are measured by `manage.py calibrate` and kept in
# each game's seed_ratings.json (`server.bots.measured`).
def profiles() -> list[dict[str, Any]]:
    """Every registered game's seeded profiles, games in registration order."""
    return [seed.profile(game.id) for game in registry.all() for seed in game.spec.ladder]


PROFILES: list[dict[str, Any]] = profiles()

# Every seeded setting is written, so re-seeding resets a profile's search to the catalogue's.
SETTING_DEFAULTS: dict[str, Any] = dict(
    max_depth=None, max_iterations=None, slip_rate=0.0, temperature=0.0, style="balanced", opponent_model="",
    search_options={}, min_think_ms=0, adaptive=False,
)  # fmt: skip


def seed_profiles(bot_profile_model: Any, ratings: dict[str, dict[str, Any]] | None = None) -> int:
    """Create or update the seeded profiles, with the measured ratings of the games' `seed_ratings.json`.

    A data entry is written onto its profile when it was measured with the settings the
    profile now plays with (`measured.should_apply`); admins' listing choices are kept.
    Works with a migration's historical model too: fields it does not have yet are skipped.
    """
    known = {f.name for f in bot_profile_model._meta.get_fields()}
    entries = measured.load() if ratings is None else ratings
    seeded = profiles()
    for spec in seeded:
        settings = {**SETTING_DEFAULTS, **spec}
        if "slip_rate" not in known and "error_rate" in known:  # the field's name before migration 0010
            settings["error_rate"] = settings.pop("slip_rate")
        defaults = {k: v for k, v in settings.items() if k in known and k not in ("slug", "listed")}
        profile, created = bot_profile_model.objects.update_or_create(slug=spec["slug"], defaults=defaults)
        if created and "listed" in known:
            profile.listed = spec.get("listed", True)
            profile.save(update_fields=["listed"])
        entry = entries.get(spec["slug"])
        if entry and "unmeasured_since" in known and measured.should_apply(profile, entry):
            for field, value in measured.rating_fields(entry).items():
                setattr(profile, field, value)
            profile.save(update_fields=measured.MEASURED_FIELDS)
    return len(seeded)
