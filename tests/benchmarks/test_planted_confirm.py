"""`benchmarks/planted_confirm.py`'s race reference for two-player Chinese checkers: each side's
fewest moves home, and the race's verdict on every move, on positions counted by hand."""

from __future__ import annotations

import sys
from pathlib import Path

from games import registry
from games.chinese_checkers.rules import CELL_OF, TRIANGLES, ChineseCheckersState

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from planted_confirm import is_race, moves_home, race_values  # noqa: E402

GAME = registry.get("chinese-checkers-2")


def cells(*names: str) -> int:
    return sum(1 << CELL_OF[name] for name in names)


def race(top_outside: str, bottom_outside: str, ply: int = 100) -> ChineseCheckersState:
    """Each side's target full but its far corner (d4 at the top, n4 at the bottom), one piece outside."""
    top = TRIANGLES["top"] & ~cells("d4") | cells(top_outside)
    bottom = TRIANGLES["bottom"] & ~cells("n4") | cells(bottom_outside)
    return ChineseCheckersState((top, bottom), ply)


def test_moves_home_counts_steps_to_the_empty_hole():
    assert moves_home(GAME, race("e9", "m8"), 0, 3) == 1  # e9 is next to d4
    assert moves_home(GAME, race("f9", "m8"), 0, 3) == 2  # f9 is two steps from d4, nothing to jump over
    assert moves_home(GAME, race("f9", "m8"), 1, 3) == 1
    assert moves_home(GAME, race("i5", "m8"), 0, 3) is None  # more than the limit


def test_the_side_to_move_wins_a_race_of_equal_length_only_by_finishing():
    state = race("e9", "m8")  # seat 0 to move; each side one move from home
    assert is_race(state)
    values = race_values(GAME, state)
    assert values is not None
    assert values["e9-d4"] == 1.0
    assert {v for m, v in values.items() if m != "e9-d4"} == {0.0}  # seat 1 finishes next


def test_a_side_a_move_ahead_may_spend_one():
    values = race_values(GAME, race("e9", "l7"))  # seat 1 needs 2: seat 0 can afford a move that keeps 1
    assert values is not None and values["e9-d4"] == 1.0
    assert values["e9-e8"] == 1.0  # e8 is next to d4 too
    assert values["e9-f9"] == 0.0  # two from home: seat 1 finishes first
