"""Backgammon's evaluation before it valued gammons, kept for comparisons (`gnubg_match.py`, `bg_fit.py`).

A tanh in (-1, 1) of the difference of the two sides' features (pips, blots, made points,
home points, primes, the bar, checkers off), 0.03 for being on roll; the game pays up to 3.
"""

from __future__ import annotations

import math
from functools import lru_cache

from games.backgammon import BAR, NO_TURN, BackgammonState, Side, sides
from games.backgammon.rules import OFF
from games.base import Seat


@lru_cache(maxsize=65536)
def old_evaluate(state: BackgammonState, seat: Seat) -> float:
    """The old `Backgammon.evaluate`, cached: a search asks for a position's value again when it orders moves."""
    winner = next((s for s in (0, 1) if state.off[s] == 15), None)
    if winner is not None:
        return 0.99 if winner == seat else -0.99
    me, op = sides(state, seat)
    mine = 0  # my rearmost checker
    for p in range(25, 0, -1):
        if me[p]:
            mine = p
            break
    theirs = 0  # their rearmost checker, in my numbering
    if not op[BAR]:
        theirs = 25
        for p in range(1, 25):
            if op[p]:
                theirs = p
                break
    race = mine < theirs  # the armies have passed each other: no more hitting
    score = _features(me, race) - _features(op[:1] + op[1:25][::-1] + op[25:], race)
    if state.dice and state.turn != seat or not state.dice and state.turn == seat:
        score -= 0.03  # the other side rolls next: a few pips behind
    elif state.turn != NO_TURN:
        score += 0.03
    return math.tanh(score)


def _features(me: Side, race: bool) -> float:
    """One side's strength, from its checkers in its own numbering; the evaluation subtracts two."""
    pips = 25 * me[BAR]
    made = blots = home = prime = longest = 0
    for p in range(1, 25):
        n = me[p]
        if n:
            pips += p * n
            if n >= 2:
                made += 1
                if p <= 6:
                    home += 1
                prime += 1
                if prime > longest:
                    longest = prime
                continue
            blots += 1
        prime = 0
    if race:
        return -pips / 40 + me[OFF] / 30
    return (
        -pips / 60
        - 0.06 * blots
        + 0.04 * made
        + 0.05 * home
        + 0.06 * (longest - 2 if longest > 2 else 0)
        - 0.15 * me[BAR]
        + me[OFF] / 30
    )
