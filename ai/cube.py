"""Doubling-cube decisions from cubeless probabilities, by Janowski's model.

A game that has a doubling cube gives, where a seat must decide, the cubeless outcome
probabilities of the seat on roll (`games.base.CubeInputs`).  The cube's value to a
player lies between two extremes: a dead cube (nobody can double again: the cubeless
equity) and a perfectly live one (the game could be cashed at exactly the right moment:
equity linear in the winning chances between the take point and the cash point).
Janowski's model ("Take-points in money games", 1993) weighs them by the cube
efficiency `CUBE_EFFICIENCY`, the share of the live cube's value real play keeps; 0.68
is the public reference (GNU Backgammon's for contact positions).

Equities are the doubler's, per unit of the present cube: a double dropped pays it +1;
a double taken is worth twice its equity with the cube then the opponent's.  Double when
both answers leave it better off than not doubling; take when taking costs the taker less
than the point a drop gives away.

In match play a point is worth what the score makes it: the game gives the seat on roll's
match equities after each result (`games.base.MatchEquities`, from a match equity table), and
the three answers are compared in chances of winning the match instead (`decide_in_match`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from games.base import CubeInputs, MatchEquities, Move

CUBE_EFFICIENCY: Final = 0.68
# The smallest budget that affords the game's look-ahead for a cube decision (backgammon's: every
# roll's best play evaluated, ~0.6 s median on a loaded 2-core machine, benchmarks/README.md);
# smaller budgets decide from the position's own evaluation (`Game.cube_inputs(look_ahead=False)`).
LOOK_AHEAD_MIN_BUDGET_MS: Final = 1000
CERTAIN: Final = 1e-7  # chances this close to 0 or 1 leave no game for the cube to live in

CENTRED, OWN, THEIRS = "centred", "own", "theirs"  # where the cube is, for the seat on roll


@dataclass(frozen=True)
class CubeVerdict:
    """A decision and the doubler's equities behind it: no double, double/take, double/drop (= 1)."""

    move: Move
    no_double: float
    double_take: float
    double_drop: float = 1.0
    # The deciding seat's money equity of each answer, per unit of the present cube (empty where
    # money equities do not value the decision: in match play, or a move the match score forces).
    equities: dict[Move, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "move": self.move,
            "no_double": self.no_double,
            "double_take": self.double_take,
            "double_drop": self.double_drop,
        }
        if self.equities:
            data["equities"] = self.equities
        return data


def decide(inputs: CubeInputs, efficiency: float = CUBE_EFFICIENCY) -> CubeVerdict:
    """The cube action `inputs` call for: double or roll (offer), take or drop (answer)."""
    if inputs.match is not None:
        return decide_in_match(inputs, inputs.match)
    no_double = cubeful_equity(inputs, CENTRED if inputs.centred else OWN, efficiency, inputs.gammons_count)
    double_take = 2 * cubeful_equity(inputs, THEIRS, efficiency, True)
    if inputs.forced is not None:
        move = inputs.forced
    elif inputs.offer:
        move = inputs.act if min(double_take, 1.0) > no_double else inputs.decline
    else:
        move = inputs.act if double_take <= 1.0 else inputs.decline
    return CubeVerdict(move, no_double, double_take, equities=_equities(inputs, no_double, double_take))


def _equities(inputs: CubeInputs, no_double: float, double_take: float) -> dict[Move, float]:
    """Each answer's money equity for the seat deciding: the doubler's own, or the taker's (the negated
    doubler's); none in match play or for a forced move, which money equities do not value."""
    if inputs.match_play or inputs.forced is not None:
        return {}
    if inputs.offer:
        return {inputs.act: round(min(double_take, 1.0), 6), inputs.decline: round(no_double, 6)}
    return {inputs.act: round(-double_take, 6), inputs.decline: -1.0}


def decide_in_match(inputs: CubeInputs, match: MatchEquities) -> CubeVerdict:
    """A cube decision in match play, in the seat on roll's chances of winning the match: each answer's
    results weighted by the match equity table (`MatchEquities`), the cube dead after it (the textbook
    take point from a table; the cube's later value is left out, as it is for the Crawford game's
    trailer).  A move the match score forces comes first."""
    no_double = _match_chances(inputs, match.now)
    double_take = _match_chances(inputs, match.doubled)
    double_drop = match.now[0]  # the doubler wins a single game at the present cube
    if inputs.forced is not None:
        move = inputs.forced
    elif inputs.offer:
        move = inputs.act if min(double_take, double_drop) > no_double else inputs.decline
    else:
        move = inputs.act if double_take <= double_drop else inputs.decline
    return CubeVerdict(move, no_double, double_take, double_drop)


def _match_chances(inputs: CubeInputs, after: tuple[float, ...]) -> float:
    """The seat on roll's match-winning chances: each result's probability (gammons include
    backgammons in `inputs`) times its match equity `after` it."""
    lose = 1.0 - inputs.win
    shares = (
        inputs.win - inputs.win_gammon,
        inputs.win_gammon - inputs.win_backgammon,
        inputs.win_backgammon,
        lose - inputs.lose_gammon,
        inputs.lose_gammon - inputs.lose_backgammon,
        inputs.lose_backgammon,
    )
    return sum(share * equity for share, equity in zip(shares, after, strict=True))


def cubeful_equity(inputs: CubeInputs, cube: str, efficiency: float, gammons_count: bool) -> float:
    """The seat on roll's equity with the cube `cube` (`CENTRED`, `OWN`, `THEIRS`), per unit of cube:
    Janowski's mix of the dead cube's equity and the live cube's."""
    p = inputs.win
    gained = inputs.win_gammon + inputs.win_backgammon
    lost = inputs.lose_gammon + inputs.lose_backgammon
    dead = 2 * p - 1 + (gained - lost if gammons_count else 0.0)
    if p < CERTAIN or p > 1 - CERTAIN:
        return dead
    win_size, loss_size = 1 + gained / p, 1 + lost / (1 - p)  # the average win and loss, in cubes
    return (1 - efficiency) * dead + efficiency * _live(p, win_size, loss_size, cube, gammons_count)


def _live(p: float, win: float, loss: float, cube: str, gammons_count: bool) -> float:
    """The equity with a perfectly live cube: linear in `p` between the points where it is turned."""
    take_point = (loss - 0.5) / (win + loss + 0.5)  # the opponent's: below it, we would drop a double
    cash_point = (loss + 1.0) / (win + loss + 0.5)  # ours: above it, the opponent drops our double
    if cube == OWN:
        if p < cash_point:
            return -loss + (1 + loss) * p / cash_point
        return 1 + (win - 1) * (p - cash_point) / (1 - cash_point)
    if cube == THEIRS:
        if p < take_point:
            return -loss + (loss - 1) * p / take_point
        return -1 + (win + 1) * (p - take_point) / (1 - take_point)
    if p < take_point:  # centred: the opponent will double us out, or we them
        return -loss + (loss - 1) * p / take_point if gammons_count else -1.0
    if p < cash_point:
        return -1 + 2 * (p - take_point) / (cash_point - take_point)
    return 1 + (win - 1) * (p - cash_point) / (1 - cash_point) if gammons_count else 1.0
