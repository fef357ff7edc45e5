"""The doubling cube: what a game with the cube pays, and how a match to N points goes on.

The rules (`games.backgammon.rules` applies them as moves):

- Before rolling, a seat that owns the cube, or any seat while it is centred, may ``"double"``.
  The other seat is then the one to move and answers ``"take"`` (the cube is worth twice as much
  and the taker owns it: only it may redouble) or ``"drop"`` (the game ends and the doubler wins
  the cube's value before the double).  A seat that does not double plays ``"roll"``, and the
  dice follow.  Beavers are not played.  The cube stops at `MAX_CUBE`, as on most sites.
- A game pays the cube's value times 1 (single game), 2 (gammon) or 3 (backgammon).  Under the
  Jacoby rule (money games, an option) gammons and backgammons count as single games until a
  double has been taken.
- A seat may offer to resign a single game, a gammon or a backgammon (`RESIGN_LEVELS`), at any
  time in a game; the other seat accepts (the game ends: it pays that times the cube, the Jacoby
  rule applied, and in a match no more than the winner needed) or declines (play goes on).
- A plain resignation, unasked, concedes the most the opponent could win, so it needs no answer: in
  a single or money game a backgammon times the cube (the Jacoby rule applied), what gnubg's and
  FIBS's ``resign backgammon`` pays; in a match to N points the match (`WHOLE_MATCH`: the winner is
  credited the points it still needed).  gnubg and FIBS resign games only; a site's match must
  also be one a player can stop, and a resignation for less is the offer above.
- A match to N points adds each game's points to the winner's score until one seat has N.  The
  game after a seat first reaches N - 1 is the Crawford game: no doubling in it.  After it the
  cube is back in play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.base import Move, Seat

DOUBLE: Final[Move] = "double"
TAKE: Final[Move] = "take"
DROP: Final[Move] = "drop"
ROLL: Final[Move] = "roll"
CUBE_MOVES: Final = frozenset({DOUBLE, TAKE, DROP, ROLL})

CENTRED: Final[Seat] = -1  # the cube's owner while nobody has taken a double
MAX_CUBE: Final = 64
MAX_MATCH: Final = 25  # the longest match to choose; tournaments play 25 points at most

# The match's Crawford stage: before anyone is one point from winning, the Crawford game, after it.
BEFORE_CRAWFORD: Final = 0
CRAWFORD_GAME: Final = 1
AFTER_CRAWFORD: Final = 2


@dataclass(frozen=True)
class CubeRules:
    """The options a backgammon match plays: the cube at all, the Jacoby rule, the match length."""

    cube: bool = False
    jacoby: bool = False
    match_to: int = 0  # 0: a single money game

    def __post_init__(self) -> None:
        if self.match_to and not self.cube:
            raise ValueError("a match to N points is played with the cube")
        if self.jacoby and (self.match_to or not self.cube):
            raise ValueError("the Jacoby rule is an option of money games with the cube")


NO_CUBE: Final = CubeRules()


def game_points(rules: CubeRules, multiplier: int, cube: int, owner: Seat) -> int:
    """What a finished game pays: `multiplier` 1, 2 or 3 (single, gammon, backgammon) times the cube,
    gammons counted single under the Jacoby rule while the cube is centred."""
    if rules.jacoby and owner == CENTRED:
        multiplier = 1
    return multiplier * cube


RESIGN_LEVELS: Final = {"single": 1, "gammon": 2, "backgammon": 3}  # what a resignation offers to lose
BACKGAMMON_MULTIPLIER: Final = RESIGN_LEVELS["backgammon"]  # the most a game pays, times the cube
WHOLE_MATCH: Final = 0  # in place of the multiplier: a match to N resigned whole (a plain resignation)
RESIGNED: Final = {1: "a single game", 2: "a gammon", 3: "a backgammon", WHOLE_MATCH: "the match"}


def resigned_points(rules: CubeRules, multiplier: int, cube: int, owner: Seat, needed: int) -> tuple[int, int, str]:
    """What a resignation at `multiplier` pays: (the multiplier counted, the points, how they were
    counted), e.g. ``(2, 4, "resigned a gammon: 2 points x cube 2 = 4")``.  `needed`: the points the
    winner needed to win the match (0 in a money game): a resignation pays no more.  The whole match
    (`WHOLE_MATCH`) pays exactly that, its game on the board counted a backgammon."""
    if multiplier == WHOLE_MATCH:
        needs = f"{needed} point{'s' * (needed > 1)}"
        return BACKGAMMON_MULTIPLIER, needed, f"resigned the match: the {needs} the winner needed"
    counted = game_points(rules, multiplier, 1, owner)
    reason = f"resigned {RESIGNED[multiplier]}"
    if not rules.cube:
        return counted, counted, reason
    points = counted * cube
    single = " (Jacoby rule: counted single)" if counted < multiplier else ""
    reason += f": {counted} point{'s' * (counted > 1)}{single} x cube {cube} = {points}"
    if needed and points > needed:
        points = needed
        reason += f", {needed} of them to win the match"
    return counted, points, reason


def next_crawford(stage: int, score: tuple[int, int], match_to: int) -> int:
    """The Crawford stage of the game starting at `score`, after a game played at `stage`."""
    if stage == CRAWFORD_GAME:
        return AFTER_CRAWFORD
    if stage == BEFORE_CRAWFORD and max(score) == match_to - 1:
        return CRAWFORD_GAME
    return stage
