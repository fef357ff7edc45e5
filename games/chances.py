"""A game's evaluation read as winning chances: the expected score a value stands for.

Each game's evaluation has its own scale: chess counts a pawn as 0.01 of a won game,
Connect Four's open windows and Othello's mobility are squashed into (-1, 1) each its
own way.  A swing of 0.1 is a queen in chess and a small edge elsewhere, so the
analysis cannot judge moves on the raw values (docs/design.md §4).  It judges them on
the *expected score* instead: 1 a certain win, 1/2 even chances (or a certain draw),
0 a certain loss, from a logistic map

    expected score = 1 / (1 + exp(-slope * value))

whose slope each game declares (`GameSpec.chances`), fitted by maximum likelihood on
the values its bots' searches gave positions of bot games and how those games ended
(benchmarks/calibrate_chances.py states the run).  A proven result is not mapped:
a proven win is 1, a draw 1/2, a loss 0.

>>> chess = WinningChances(slope=30.0, shown_as="pawns", unit=0.01)
>>> round(chess.expected_score(0.0), 3), round(chess.expected_score(0.09), 3)
(0.5, 0.937)
>>> chess.expected_score(1.0, proven=True), chess.expected_score(-1.0, proven=True)
(1.0, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

ShownAs = Literal["pawns", "chances", "equity"]
"""How players read a value: pawns (and mate in N) in chess, equity in points in
backgammon, winning chances in percent elsewhere."""

# How much of the expected score a move may give away before the analysis names it.
# The same share in every game, because it is measured in the players' currency: a
# point.  Lichess's advice uses these steps too (0.1, 0.2 and 0.3 of its winning
# chances, which run from -1 to 1: half as much expected score each).
INACCURACY: Final = 0.05
MISTAKE: Final = 0.10
BLUNDER: Final = 0.15
THRESHOLDS: Final[tuple[tuple[str, float], ...]] = (
    ("blunder", BLUNDER),
    ("mistake", MISTAKE),
    ("inaccuracy", INACCURACY),
)


@dataclass(frozen=True)
class WinningChances:
    """How one game's values map to expected scores, and how players read them.

    `slope` is the logistic map's, per unit of the game's value; `unit` is the value
    players count in (a pawn in chess: 0.01), 0 where they count chances.
    """

    slope: float = 4.0
    shown_as: ShownAs = "chances"
    unit: float = 0.0

    def __post_init__(self) -> None:
        if self.slope <= 0:
            raise ValueError("a winning-chances slope is positive: a better value means better chances")

    def expected_score(self, value: float, proven: bool = False) -> float:
        """The mover's expected score for `value` (its own), 0..1; a `proven` value is its result."""
        if proven:
            return 1.0 if value > 0 else 0.0 if value < 0 else 0.5
        z = self.slope * value
        if z < -40:  # beyond a double's range: a certain loss
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    def text(self, value: float, proven: bool = False, plies_to_end: int | None = None) -> str:
        """`value` (the mover's) as players read it: pawns or mate in N, equity, or winning chances.

        >>> chess = WinningChances(slope=30.0, shown_as="pawns", unit=0.01)
        >>> chess.text(0.0153), chess.text(-0.09), chess.text(1.0, True, 5), chess.text(-1.0, True, -4)
        ('+1.53', '-9.00', '#3', '#-2')
        >>> WinningChances(slope=4.0).text(0.25), WinningChances(slope=4.0).text(1.0, proven=True)
        ('73%', 'win')
        >>> WinningChances(slope=2.0, shown_as="equity").text(-0.4231)
        '-0.423'
        >>> chess.text(-0.00001), WinningChances(slope=2.0, shown_as="equity").text(-0.0001)  # no "-0.00"
        ('+0.00', '+0.000')
        """
        if proven and self.shown_as != "equity":
            if plies_to_end and self.shown_as == "pawns":  # mate in N moves of the winner's
                moves = (abs(plies_to_end) + 1) // 2
                return f"#{moves}" if plies_to_end > 0 else f"#-{moves}"
            return "win" if value > 0 else "loss" if value < 0 else "draw"
        # Rounded before the sign is written, so that a value a hair below zero reads as even, not "-0.00".
        if self.shown_as == "pawns":
            return f"{round(value / self.unit, 2) + 0.0:+.2f}"
        if self.shown_as == "equity":
            return f"{round(value, 3) + 0.0:+.3f}"
        return f"{round(100 * self.expected_score(value))}%"


def classify(drop: float) -> str | None:
    """ "inaccuracy", "mistake", "blunder" or None for a move that gave away `drop` of the expected score.

    >>> classify(0.04), classify(0.05), classify(0.12), classify(0.5)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    for name, threshold in THRESHOLDS:
        if drop >= threshold - 1e-9:
            return name
    return None
