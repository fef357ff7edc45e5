"""The bot profiles every installation starts with; `manage.py seed_bots` keeps them current."""

from __future__ import annotations

from typing import Any

PROFILES: list[dict[str, Any]] = [
    # --- tic-tac-toe ---
    dict(slug="tictactoe-random", game="tictactoe", name="Pip", level=1, algorithm="random", time_budget_ms=300,
         description="Plays any free cell at random. A first opponent for learning the rules."),
    dict(slug="tictactoe-shallow", game="tictactoe", name="Tess", level=2, algorithm="alphabeta",
         time_budget_ms=300, max_depth=2,
         description="Looks two moves ahead: takes a win and blocks yours, but misses forks."),
    dict(slug="tictactoe-perfect", game="tictactoe", name="Nova", level=3, algorithm="alphabeta",
         time_budget_ms=500,
         description="Searches the whole game tree with alpha-beta: it never loses."),
    # --- connect four ---
    dict(slug="connect4-random", game="connect4", name="Dot", level=1, algorithm="random", time_budget_ms=300,
         description="Drops its stones in random columns."),
    dict(slug="connect4-shallow", game="connect4", name="Rook", level=2, algorithm="alphabeta",
         time_budget_ms=300, max_depth=2,
         description="Alpha-beta two plies deep: finishes a line and blocks an open three, little more."),
    dict(slug="connect4-medium", game="connect4", name="Vega", level=3, algorithm="alphabeta",
         time_budget_ms=500, max_depth=5,
         description="Alpha-beta five plies deep with a threat-counting evaluation."),
    dict(slug="connect4-deep", game="connect4", name="Orion", level=4, algorithm="alphabeta",
         time_budget_ms=1500,
         description="Alpha-beta as deep as 1.5 seconds allow, with iterative deepening."),
]  # fmt: skip

FIELDS = ("game", "name", "level", "algorithm", "time_budget_ms", "max_depth", "error_rate", "style", "description")


def seed_profiles(bot_profile_model) -> int:
    """Create or update the seeded profiles (admins' ratings and listing choices are kept)."""
    for spec in PROFILES:
        defaults = {k: spec.get(k) for k in FIELDS if k in spec}
        defaults.setdefault("max_depth", None)
        bot_profile_model.objects.update_or_create(slug=spec["slug"], defaults=defaults)
    return len(PROFILES)
