"""Weaker play that still looks human (difficulty levels).

The levers, all in `SearchConfig`:

- ``max_depth``: a shallow bot misses deep threats and long combinations, the way a
  beginner does, while still seeing what is right in front of it;
- ``slip_rate``: the chance, per move, of a slip: the bot plays a plausible second
  choice instead of its best move;
- ``temperature``: a softmax over the root values (in units of ``max_utility``).  With
  slips, it also spreads them: a slip is drawn with this temperature where it is above
  ``SLIP_TEMPERATURE`` (a high one picks among the sane second choices nearly at random,
  the weaker as often as the better), so the weakest level is weaker without any slip
  leaving the better half.

What a slip never does is throw the game away: moves that the search proves lose,
or that fall far below the best value, are not candidates, and a win on the very next
move is always taken.  "Far below" is in the game's own scale (`slip_floor`): a slip
stays in the better half of the range the root values span (``SLIP_SHARE``), and
never more than ``BLUNDER_MARGIN`` of ``max_utility`` below the best.  The spread,
not ``max_utility`` alone, is what makes the promise hold where an evaluation uses a
narrower scale than the stakes (backgammon's root values span under 1 of its 3).
A "missed win" is a deep win passed over for a sound move, which is the mistake
people actually make.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Final

from ai.types import SearchConfig, SearchResult
from games.base import Move

BLUNDER_MARGIN: Final = 0.5  # fraction of max_utility a slip may give away, at most
SLIP_SHARE: Final = 0.5  # fraction of the root values' spread (best - worst) a slip may give away, at most
SLIP_TEMPERATURE: Final = 0.1


def is_weakened(slip_rate: float, temperature: float) -> bool:
    return slip_rate > 0 or temperature > 0


def softmax_choice(values: Mapping[Move, float], temperature: float, rng: random.Random) -> Move:
    """A move drawn with probability proportional to exp(value / temperature)."""
    moves = list(values)
    top = max(values.values())
    weights = [math.exp((values[m] - top) / temperature) for m in moves]
    return rng.choices(moves, weights)[0]


def slip_floor(values: Mapping[Move, float], max_utility: float, decisive: float) -> float:
    """The lowest root value a slip may have: the better half of the spread, and within the stakes' margin.

    Proven results count at `decisive` for the spread, so one proven loss does not widen it
    beyond the scale of the game.

    >>> slip_floor({"a": 0.5, "b": 0.3, "c": -0.1}, max_utility=3, decisive=2.85)
    0.2
    """
    shown = [max(-decisive, min(decisive, v)) for v in values.values()]
    best = max(shown)
    spread = best - min(shown)
    return best - min(SLIP_SHARE * spread, BLUNDER_MARGIN * max_utility)


def sane_moves(values: Mapping[Move, float], max_utility: float, decisive: float) -> dict[Move, float]:
    """The moves a human-looking slip may choose: no proven losses, nothing far worse than the best."""
    best = max(values.values())
    floor = slip_floor(values, max_utility, decisive)
    out = {m: v for m, v in values.items() if v >= floor or v > decisive}
    if best > -decisive:
        out = {m: v for m, v in out.items() if v > -decisive}
    return out or {m: v for m, v in values.items() if v == best}


def pick(
    values: Mapping[Move, float],
    best: Move,
    *,
    slip_rate: float,
    temperature: float,
    max_utility: float,
    rng: random.Random,
    immediate_win: bool = False,
) -> tuple[Move, str]:
    """The move a weakened bot plays, and why ("best", "slip", "temperature").

    `values` are root values on the utility scale (proven wins and losses near
    +/- max_utility and beyond `0.9 * max_utility`).
    """
    if immediate_win or not values or not is_weakened(slip_rate, temperature):
        return best, "best"
    decisive = 0.95 * max_utility
    candidates = sane_moves(values, max_utility, decisive)
    # Proven wins all look alike to a player who cannot see that far: clip them to a "good" value.
    shown = {m: max(-decisive, min(decisive, v)) for m, v in candidates.items()}
    if slip_rate > 0 and rng.random() < slip_rate:
        others = {m: v for m, v in shown.items() if m != best}
        if others:
            return softmax_choice(others, max(SLIP_TEMPERATURE, temperature) * max_utility, rng), "slip"
    if temperature > 0:
        return softmax_choice(shown, temperature * max_utility, rng), "temperature"
    return best, "best"


def configured_pick(
    config: SearchConfig,
    values: Mapping[Move, float],
    best: Move,
    max_utility: float,
    rng: random.Random,
    immediate_win: bool = False,
) -> tuple[Move, str]:
    """`pick` with the slip rate and temperature a search configuration sets."""
    return pick(
        values,
        best,
        slip_rate=config.slip_rate,
        temperature=config.temperature,
        max_utility=max_utility,
        rng=rng,
        immediate_win=immediate_win,
    )


def weaken(
    result: SearchResult,
    config: SearchConfig,
    values: Mapping[Move, float],
    max_utility: float,
    rng: random.Random,
    immediate_win: bool = False,
) -> None:
    """The one weakening step every searcher ends with: `result` becomes the move a weakened bot plays.

    `values` are the root values the pick chooses among, on the utility scale.  When the
    pick is not the searched best move, the result's value and line become the pick's
    and ``stats["best_move"]`` keeps the best; ``stats["choice"]`` says why.
    """
    if not is_weakened(config.slip_rate, config.temperature):
        return
    move, why = configured_pick(config, values, result.move, max_utility, rng, immediate_win)
    if move != result.move:
        result.stats["best_move"] = result.move
        result.move, result.value, result.pv = move, values[move], [move]
    result.stats["choice"] = why
