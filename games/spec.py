"""What the server and the browser read about a game (docs/design.md §2).

Each game package declares one `GameSpec`: its display name, its place in the
catalogue, the names, colours and marks of its seats, the browser module that draws its
board (a file under ``frontend/static/frontend/js/boards/``; its stylesheet has the same
name under ``frontend/static/frontend/css/games/``) and the bot ladder an installation
is seeded with.  The lobby, every page, ``GET /api/games/`` and ``manage.py seed_bots``
read it from the registry, so a new game needs no entry anywhere else.

>>> spec = GameSpec(name="Noughts", board="noughts.js", order=5,
...                 seats=(SeatSpec("X", "blue", mark="x"), SeatSpec("O", "orange", mark="o")))
>>> [seat.name for seat in spec.seats], spec.stylesheet
(['X', 'O'], 'games/noughts.css')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from games.chances import WinningChances

LEVEL_NAMES: Final[dict[int, str]] = {1: "Beginner", 2: "Casual", 3: "Intermediate", 4: "Advanced", 5: "Master"}


SEAT_COLOURS: Final = frozenset({"blue", "orange", "purple", "green", "black", "white"})
"""The colours a seat may have: the page's palette (``css/plyground.css``), safe for colour-blind players."""

SEAT_MARKS: Final = frozenset({"disc", "plain", "x", "o"})
"""How lists draw a seat: a disc with the seat's symbol (dot, diamond, square, triangle), a plain
disc (black and white differ by lightness alone), or the letter X or O drawn as a stroke."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat as players call it: "X", "black", "blue (dot)"; its colour and mark as lists draw it."""

    name: str
    colour: str  # one of SEAT_COLOURS
    mark: str = "disc"  # one of SEAT_MARKS

    def __post_init__(self) -> None:
        if self.colour not in SEAT_COLOURS or self.mark not in SEAT_MARKS:
            raise ValueError(
                f"seat {self.name!r}: colour one of {sorted(SEAT_COLOURS)}, mark one of {sorted(SEAT_MARKS)}"
            )

    def to_json(self, index: int) -> dict[str, Any]:
        return {"index": index, "name": self.name, "colour": self.colour, "mark": self.mark}


@dataclass(frozen=True)
class BotSeed:
    """One seeded bot profile.  Slugs are public and stable (links, exports): never rename one.

    `settings` holds the profile's search settings by field name (``max_depth``,
    ``slip_rate``, ``search_options``, ...); those left out take the profile's defaults.
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
class GameOption:
    """A choice the players make when they start a match (backgammon: the cube, a match to N points).

    Options are on/off (a `bool` default) or whole numbers from `low` to `high` (an `int` default);
    `Game.with_options` checks the values a request names and returns the game they configure.
    """

    name: str
    description: str
    default: bool | int
    low: int = 0
    high: int = 1

    def check(self, value: object) -> bool | int:
        """`value` if it is a valid setting of this option; `ValueError` saying what is expected otherwise."""
        if isinstance(self.default, bool):
            if type(value) is not bool:
                raise ValueError(f"option {self.name!r} is true or false")
            return value
        if type(value) is not int or not self.low <= value <= self.high:
            raise ValueError(f"option {self.name!r} is a whole number from {self.low} to {self.high}")
        return value


@dataclass(frozen=True)
class GameSpec:
    """A game's presentation and catalogue entry; the rules live in its `Game`."""

    name: str  # the display name, the one place it is written
    board: str  # the board module's file name, e.g. "connect4.js": the game's id, or a sibling's it shares
    order: int  # its place in the catalogue (the lobby's order), smallest first; ties by id
    seats: tuple[SeatSpec, ...]
    ladder: tuple[BotSeed, ...] = ()
    options: tuple[GameOption, ...] = ()  # what a match may choose; the registered game plays the defaults
    chances: WinningChances = WinningChances()  # how its values read as winning chances (`games.chances`)

    @property
    def stylesheet(self) -> str:
        """The board's stylesheet under ``frontend/static/frontend/css/``, named as its board module."""
        return f"games/{self.board.removesuffix('.js')}.css"


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
