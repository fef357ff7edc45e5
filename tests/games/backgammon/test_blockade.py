"""The contact counts in GNU Backgammon's style that the network reads beside the points."""

from __future__ import annotations

import pytest

from games.backgammon import BACKGAMMON, sides
from games.backgammon.evaluation import ESCAPES, Side, blockade_features

NAMES = (
    "behind", "free pips", "back escapes", "contain rearmost", "contain rearmost²", "contain", "contain²",
    "mobility", "spread", "entering loss", "entering²", "timing", "back checker", "back anchor",
    "forward anchor", "backbone", "back game", "one back anchor",
)  # fmt: skip


def side(points: dict[int, int], bar: int = 0) -> Side:
    """A side in its own numbering: (off, points 1-24, bar)."""
    on_board = sum(points.values()) + bar
    return (15 - on_board, *(points.get(p, 0) for p in range(1, 25)), bar)


def features(me: Side, op: Side) -> dict[str, float]:
    return dict(zip(NAMES, blockade_features(me, op), strict=True))


START = {24: 2, 13: 5, 8: 3, 6: 5}


def test_escapes_count_the_rolls_that_land_open_through_an_open_point() -> None:
    assert ESCAPES[0] == 36  # nothing closed
    assert ESCAPES[0b111111] == 0  # a full prime right ahead: neither die can move
    assert ESCAPES[0b1] == 35  # only the point 1 pip ahead closed: 1-1 cannot take its first step
    # The point 7 ahead closed: the six rolls summing 7 land on it.
    assert ESCAPES[1 << 6] == 30


def test_the_starting_position() -> None:
    f = features(side(START), side(START))
    assert f["behind"] == pytest.approx(167 / 167)  # all my 167 pips still behind its back checkers
    assert f["free pips"] == 0
    assert f["back checker"] == pytest.approx(23 / 24)
    assert f["back anchor"] == pytest.approx(23 / 24)
    assert f["forward anchor"] == pytest.approx(1 / 6)  # the anchor on its 1-point (my 24)
    assert f["entering²"] == pytest.approx((36 - 25) / 36)  # one home point closed against me
    assert f["entering loss"] == 0  # nothing on the bar
    assert f["one back anchor"] == pytest.approx(2 / 8)


def test_a_prime_contains_and_a_closed_board_costs_entering() -> None:
    prime = side({3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 13: 3})
    trapped = side({24: 2, 13: 5, 6: 5}, bar=3)  # its rearmost on the bar; my prime on its 22-17
    f = features(prime, trapped)
    assert f["contain"] == pytest.approx(1.0)  # its checkers on my 3-8 area cannot move a full roll
    assert f["back escapes"] < 1
    closed = features(trapped, prime)
    assert closed["entering loss"] > 0
    assert closed["entering²"] == pytest.approx((36 - 4) / 36)  # four of my home points closed


def test_a_game_starts_with_both_sides_alike() -> None:
    state = BACKGAMMON.apply(BACKGAMMON.initial_state(), BACKGAMMON.chance_outcomes(BACKGAMMON.initial_state())[0][0])
    me, op = (sides(state, s)[0] for s in (0, 1))
    assert me == op == side(START)
    assert features(me, op) == features(op, me)
