"""Backgammon's contact evaluation before the network: logistic models on hand-made
features, kept for comparisons (`gnubg_match.py --evaluations logistic`, `bg_fit.py`,
`bg_eval_speed.py`).

P(win) from the difference of the two sides' `evaluation.side_features`, the race lead
and the threat of the next roll (the pips the roller's hits take, weighed by the home
board the hit checker must enter against); P(gammon | win) from the winner's and the
loser's features and that threat; P(backgammon | gammon) from theirs.  The weights were
fitted by `bg_fit.py` to GNU Backgammon's 0-ply cubeless outputs.  Races go to the
game's race model, as in the game.
"""

from __future__ import annotations

import math
import operator
from functools import lru_cache
from typing import Final

from games.backgammon import BackgammonState
from games.backgammon.evaluation import (
    BAR,
    CHECKERS,
    OFF,
    WIN_FEATURES,
    Probabilities,
    Side,
    _pips,
    race_probabilities,
    race_started,
    side_features,
)
from games.backgammon.rules import position_value
from games.base import Seat

PIPS_HIT: Final = WIN_FEATURES.index("pips hit/900")  # what the opponent's next roll takes from me, on average
HOME: Final = WIN_FEATURES.index("home points")


def gammon_features(winner: Side, loser: Side, winner_rolls: bool, threat: float) -> tuple[float, ...]:
    """What makes a win a gammon: how far the loser is from saving it, how strong the winner;
    `threat`: the winner's `hit_threat`."""
    outside = outside_pips = trapped = 0
    for p in range(7, 26):
        n = loser[p]
        if n:
            outside += n
            outside_pips += (p - 6) * n
            if p >= 19:
                trapped += n
    home = (
        (winner[1] >= 2) + (winner[2] >= 2) + (winner[3] >= 2) + (winner[4] >= 2) + (winner[5] >= 2) + (winner[6] >= 2)
    )
    return (
        1.0,
        outside / CHECKERS,
        outside_pips / 100,
        float(loser[BAR]),
        float(home),
        _pips(winner) / 100,
        winner[OFF] / CHECKERS,
        float(trapped),
        float(sum(winner[19:26])),
        1.0 if winner_rolls else -1.0,
        threat,
    )


GAMMON_FEATURES: Final = (
    "bias", "loser outside/15", "loser outside pips/100", "loser bar", "winner home points",
    "winner pips/100", "winner off/15", "loser back checkers", "winner back checkers", "winner rolls",
    "winner's hit threat",
)  # fmt: skip


def backgammon_features(winner: Side, loser: Side) -> tuple[float, ...]:
    """What makes a gammon a backgammon: the loser's checkers still in the winner's home or on the bar."""
    trapped = sum(loser[19:26])
    escape = sum(map(operator.mul, ESCAPE, loser[19:26]))
    home = (
        (winner[1] >= 2) + (winner[2] >= 2) + (winner[3] >= 2) + (winner[4] >= 2) + (winner[5] >= 2) + (winner[6] >= 2)
    )
    return (1.0, float(trapped), escape / 100, float(loser[BAR]), float(home), _pips(winner) / 100)


ESCAPE: Final = range(1, 8)  # pips from the loser's points 19-24 and the bar to its 18-point


BACKGAMMON_FEATURES: Final = (
    "bias", "loser trapped", "loser escape pips/100", "loser bar", "winner home points", "winner pips/100",
)  # fmt: skip

# Fitted by benchmarks/bg_fit.py (240 games, 28,039 contact positions; the run: `git show
# 2c4d750:benchmarks/README.md`, "Shots in the contact model").
WIN_ON_ROLL: Final = 0.0847
WIN_LEAD: Final = 0.7201  # on race_lead
WIN_THREAT: Final = 0.6953  # on hit_threat
WIN_WEIGHTS: Final = (
    3.3941, -0.2802, 0.1176, -0.1190, 0.1075, 0.1645, 0.1406, -0.1512, -0.1985, 2.2122, -0.5458, -0.1784, 0.2110,
)  # fmt: skip
GAMMON_WEIGHTS: Final = (-2.0620, 1.1200, 2.0604, 0.3432, 0.2428, -0.8472, 1.4495, -0.0486, 0.0316, 0.0549, 0.7786)
BACKGAMMON_WEIGHTS: Final = (-1.2547, -0.2457, 11.7348, -0.1586, -0.4153, -0.8725)


def _logistic(z: float) -> float:
    if z < -40:
        return 0.0
    return 1 / (1 + math.exp(-z))


def _dot(weights: tuple[float, ...], features: tuple[float, ...]) -> float:
    return float(sum(map(operator.mul, weights, features)))


def _gammon_wins(winner: Side, loser: Side, winner_rolls: bool, threat: float) -> tuple[float, float]:
    """(P(gammon | win), P(backgammon | win)) for `winner` over `loser` (`gammon_features`)."""
    if loser[OFF]:
        return 0.0, 0.0  # a checker off saves the gammon for good
    gammon = _logistic(_dot(GAMMON_WEIGHTS, gammon_features(winner, loser, winner_rolls, threat)))
    if not any(loser[19:26]):
        return gammon, 0.0
    return gammon, gammon * _logistic(_dot(BACKGAMMON_WEIGHTS, backgammon_features(winner, loser)))


def race_lead(me: Side, op: Side) -> float:
    """My lead in the race as a share of both pip counts: a lead of 10 pips matters more near the end."""
    mine, theirs = _pips(me), _pips(op)
    return 10 * (theirs - mine) / (mine + theirs)


def hit_threat(mine: tuple[float, ...], theirs: tuple[float, ...], my_roll: bool) -> float:
    """The next roll's shots, for me: the pips my rolls take from them by hitting when I
    roll next, or minus what theirs take from me when they do (`pips_hit` / 900 from the
    `side_features` of either side), weighed by the hitter's home board, which the hit
    checker must enter against: x0.5 with no point made there, x1.5 with all six.  The
    shots of the side not on roll only matter later, through the features' difference."""
    if my_roll:
        return theirs[PIPS_HIT] * _board_weight(mine[HOME])
    return -mine[PIPS_HIT] * _board_weight(theirs[HOME])


def _board_weight(home_points: float) -> float:
    return (1 + home_points / 3) / 2


def _contact(me: Side, op: Side, my_roll: bool) -> Probabilities:
    mine, theirs = side_features(me, op), side_features(op, me)
    difference = tuple(map(operator.sub, mine, theirs))
    threat = hit_threat(mine, theirs, my_roll)
    z = (
        WIN_ON_ROLL * (1 if my_roll else -1)
        + WIN_LEAD * race_lead(me, op)
        + WIN_THREAT * threat
        + _dot(WIN_WEIGHTS, difference)
    )
    win = _logistic(z)
    my_gammon, my_backgammon = _gammon_wins(me, op, my_roll, threat)
    their_gammon, their_backgammon = _gammon_wins(op, me, not my_roll, -threat)
    return Probabilities(
        win, win * my_gammon, win * my_backgammon, (1 - win) * their_gammon, (1 - win) * their_backgammon
    )


def side_probabilities(me: Side, op: Side, my_roll: bool) -> Probabilities:
    """As `evaluation.side_probabilities`, with the logistic models for contact."""
    if race_started(me, op):
        return race_probabilities(me, op, my_roll)
    return _contact(me, op, my_roll)


@lru_cache(maxsize=65536)
def logistic_evaluate(state: BackgammonState, seat: Seat) -> float:
    """`Backgammon.evaluate` with the logistic contact models (a stand-in for `rules._evaluate`)."""
    return position_value(state, seat, side_probabilities)
