"""What the server and the browser read about a game (docs/design.md §2).

Each game package declares one `GameSpec`: its display name, the names of its seats,
the browser module that draws its board (a file under
``frontend/static/frontend/js/boards/``) and the bot ladder an installation is seeded
with.  The lobby, ``GET /api/games/`` and ``manage.py seed_bots`` read it from the
registry, so a new game needs no entry anywhere else.

>>> spec = GameSpec(name="Noughts", board="generic.js", seats=(SeatSpec("X", "black"), SeatSpec("O", "white")))
>>> [seat.name for seat in spec.seats]
['X', 'O']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

LEVEL_NAMES: Final[dict[int, str]] = {1: "Beginner", 2: "Casual", 3: "Intermediate", 4: "Advanced", 5: "Master"}


@dataclass(frozen=True)
class SeatSpec:
    """A seat as players call it: "X", "black", "blue (dot)"; `colour` names its CSS colour."""

    name: str
    colour: str


@dataclass(frozen=True)
class BotSeed:
    """One seeded bot profile.  Slugs are public and stable (links, exports): never rename one.

    `settings` holds the profile's search settings by field name (``max_depth``,
    ``error_rate``, ``search_options``, ...); those left out take the profile's defaults.
    """

    slug: str
    name: str
    level: int
    algorithm: str
    time_budget_ms: int
    description: str
    settings: dict[str, Any] = field(default_factory=dict)

    def profile(self, game_id: str) -> dict[str, Any]:
        """The profile's fields, in the order the seed has always written them."""
        return dict(slug=self.slug, game=game_id, name=self.name, level=self.level, algorithm=self.algorithm,
                    time_budget_ms=self.time_budget_ms, description=self.description, **self.settings)  # fmt: skip


@dataclass(frozen=True)
class GameSpec:
    """A game's presentation and catalogue entry; the rules live in its `Game`."""

    name: str  # the display name, the one place it is written
    board: str  # the board module's file name, e.g. "connect4.js"
    seats: tuple[SeatSpec, ...]
    ladder: tuple[BotSeed, ...] = ()


# --- writing a ladder -------------------------------------------------------------
def bot(
    game_id: str, level: int, name: str, algorithm: str, budget: int, description: str, slug: str = "", **settings: Any
) -> BotSeed:
    """A seeded profile; its slug is ``<game>-<level name>`` unless one is given."""
    slug = slug or (f"{game_id}-{LEVEL_NAMES[level].lower()}" if level else f"{game_id}-random")
    return BotSeed(slug, name, level, algorithm, budget, description, settings)


def random_bot(game_id: str) -> BotSeed:
    """Level 0 and the rating anchor (Elo 0): a first opponent for learning the rules."""
    return bot(game_id, 0, "Random mover", "random", 100, "Plays a uniformly random legal move.")


def adaptive_bot(game_id: str, name: str, algorithm: str, budget: int, **settings: Any) -> BotSeed:
    """The level-3 bot that adjusts its strength to the person it plays."""
    return bot(game_id, 3, name, algorithm, budget,
               "Adapts to you: it plays stronger after you win and eases off after you lose, within a match "
               "and across matches, so that you score about half against it.",
               slug=f"{game_id}-adaptive", adaptive=True, **settings)  # fmt: skip
