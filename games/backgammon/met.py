"""Match equities: a player's chance of winning a match to N points from a score, by the public
Kazaross-XG2 table (`met_kazaross_xg2.json`, transcribed from GNU Backgammon's copy, its source and
notice in the file), which cube decisions in match play weigh results by (`ai.cube`).

>>> round(match_equity(1, 2, crawford_played=False), 3)  # the Crawford game, leading 1-away 2-away
0.677
>>> round(match_equity(2, 1, crawford_played=True), 3)  # after it: the trailer's free drop
0.488
>>> match_equity(0, 3, crawford_played=False), match_equity(3, 0, crawford_played=False)
(1.0, 0.0)
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Final

DATA: Final = Path(__file__).with_name("met_kazaross_xg2.json")


@cache
def _tables() -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    tables = json.loads(DATA.read_text())["tables"]
    return tuple(tuple(row) for row in tables["pre_crawford"]), tuple(tables["post_crawford"])


def match_equity(me_away: int, them_away: int, crawford_played: bool) -> float:
    """The chance of winning the match of a player `me_away` points from winning against one `them_away`
    away (0 or less: that player has won); `crawford_played`: the Crawford game is behind them."""
    if me_away <= 0:
        return 1.0
    if them_away <= 0:
        return 0.0
    pre, post = _tables()
    if crawford_played and them_away == 1:
        return post[me_away - 1]
    if crawford_played and me_away == 1:
        return 1.0 - post[them_away - 1]
    return pre[me_away - 1][them_away - 1]
