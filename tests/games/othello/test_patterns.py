"""The pattern evaluation (games/othello/patterns.py): indices, symmetry, the weights, and what they predict."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from ai.evaluation import Evaluator
from games import registry
from games.othello import OTHELLO, OthelloState, move_mask
from games.othello import patterns as pt

SOLVED = Path(__file__).with_name("solved_positions.txt")  # benchmarks/othello_patterns.py check --fixture


def random_positions(count: int, seed: int) -> list[OthelloState]:
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        state = OTHELLO.initial_state()
        while not OTHELLO.is_terminal(state):
            out.append(state)
            state = OTHELLO.apply(state, rng.choice(OTHELLO.legal_moves(state)))
    return out[:count]


def transformed(b: int, sym: Callable[[int, int], tuple[int, int]]) -> int:
    out = 0
    for sq in range(64):
        if b >> sq & 1:
            r, c = sym(sq // 8, sq % 8)
            out |= 1 << (r * 8 + c)
    return out


def test_patterns_are_the_usual_sets() -> None:
    sizes = {name: sum(1 for shape, _ in pt.PATTERNS if pt.SHAPE_NAMES[shape] == name) for name in pt.SHAPE_NAMES}
    assert sizes == {
        "edge_x": 4, "corner_2x5": 8, "corner_3x3": 4, "row_2": 4, "row_3": 4, "row_4": 4,
        "diagonal_8": 2, "diagonal_7": 4, "diagonal_6": 4, "diagonal_5": 4, "diagonal_4": 4,
    }  # fmt: skip
    assert all(len(set(squares)) == len(squares) for _, squares in pt.PATTERNS)
    assert len({frozenset(squares) for _, squares in pt.PATTERNS}) == len(pt.PATTERNS)


def test_the_packed_indices_are_the_plain_ones() -> None:
    for state in random_positions(300, seed=3):
        own, opp = state.own_opp()
        reference = [
            pt.SHAPE_OFFSETS[shape] + index
            for (shape, _), index in zip(pt.PATTERNS, pt.pattern_indices(own, opp), strict=True)
        ]
        assert list(pt._flat_indices(own, opp)) == reference


def test_a_position_and_its_reflections_are_worth_the_same() -> None:
    for state in random_positions(120, seed=5):
        own, opp = state.own_opp()
        value = pt.disc_value(own, opp)
        for sym in pt.SYMMETRIES:
            assert pt.disc_value(transformed(own, sym), transformed(opp, sym)) == value


def test_values_are_deterministic_and_the_weights_load_the_same() -> None:
    states = random_positions(50, seed=11)
    first = [pt.disc_value(*s.own_opp()) for s in states]
    assert [pt.disc_value(*s.own_opp()) for s in states] == first
    assert pt.load_weights() == pt.WEIGHTS
    assert pt.WEIGHTS_FILE.stat().st_size < 2_000_000
    assert any(any(table) for table in pt.WEIGHTS)  # fitted, not the all-zero fallback


def test_the_evaluation_is_seat_relative_and_scores_finished_games() -> None:
    for state in random_positions(60, seed=13):
        assert pt.evaluate(state, 0) == -pt.evaluate(state, 1)
        assert -0.95 <= pt.evaluate(state, state.seat) <= 0.95
    for state in random_positions(200, seed=19):
        own, opp = state.own_opp()
        if (own | opp).bit_count() < pt.FROM_DISCS:  # the early phases: the hand-written evaluation
            assert pt.evaluate(state, state.seat) == OTHELLO.evaluate(state, state.seat)
        elif move_mask(own, opp) or move_mask(opp, own):
            assert pt.evaluate(state, state.seat) == max(-0.95, min(0.95, pt.disc_value(own, opp) / 64))
    wipe_out = OthelloState(black=(1 << 64) - 1 - 1, white=0, seat=1, ply=60)  # one square empty, white has no disc
    assert not move_mask(wipe_out.black, wipe_out.white) and pt.evaluate(wipe_out, 0) == 0.99


def solved() -> list[tuple[int, int, int]]:
    rows = []
    for line in SOLVED.read_text().splitlines():
        if line and not line.startswith("#"):
            own, opp, score = line.split()
            rows.append((int(own, 16), int(opp, 16), int(score)))
    return rows


def correlation(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return cov / (sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) ** 0.5


def test_the_patterns_predict_solved_positions_better_than_the_hand_written_evaluation() -> None:
    rows = solved()
    assert len(rows) >= 100
    exact = [float(score) for _, _, score in rows]
    patterns = [pt.disc_value(own, opp) for own, opp, _ in rows]
    hand = [OTHELLO.evaluate(OthelloState(own, opp, 0, 40), 0) for own, opp, _ in rows]

    def signs(values: list[float]) -> int:
        return sum((v > 0) == (e > 0) for v, e in zip(values, exact, strict=True) if e != 0)

    assert signs(patterns) > signs(hand)
    assert correlation(patterns, exact) > correlation(hand, exact) + 0.03


def test_a_profile_may_name_the_pattern_evaluation_and_other_games_are_untouched() -> None:
    # No seeded profile names it yet: Obsidian takes it once its rating is measured with it
    # (its 60 % against itself without, benchmarks/README.md, is within the noise).
    assert all("evaluation" not in (s.settings.get("search_options") or {}) for s in OTHELLO.spec.ladder)
    state = random_positions(30, seed=17)[-1]
    assert Evaluator(OTHELLO, evaluation="patterns")(state, 0) == pt.evaluate(state, 0)
    assert Evaluator(OTHELLO)(state, 0) == OTHELLO.evaluate(state, 0)
    with pytest.raises(ValueError, match="no evaluation named"):
        Evaluator(OTHELLO, evaluation="neural")
    connect4 = registry.get("connect4")
    assert connect4.evaluation("patterns") is None
