"""The one-sided bear-off database: known counts, gnubg's own figures, and the dynamic programme's invariants."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.backgammon import BACKGAMMON, bearoff, legal_plays
from games.backgammon.bearoff import POSITIONS, ROLLS, WIDTH, after_roll, boards, database, index
from games.backgammon.rules import bear_off_rolls

# From `bearoffdump /usr/share/gnubg/gnubg_os0.bd -n N` (gnubg 1.07): P(k rolls) in %, from k = 0.
GNUBG_OFF = {
    54263: (0, 0, 0, 0, 0, 0.002, 0.024, 0.156, 0.847, 2.916, 8.307, 16.442, 25.115, 26.160, 14.609, 4.445,
            0.856, 0.113, 0.009),  # 15 on the 6-point: 12.266 rolls on average
    43691: (0, 0, 0, 0, 0.012, 0.871, 9.346, 34.314, 44.874, 10.018, 0.546, 0.018),  # 3 3 3 2 2 2
    6: (0, 75.0, 25.0),  # one checker on the 6-point
}  # fmt: skip
GNUBG_FIRST_OFF = {54263: (0, 47.222, 44.985, 6.865, 0.822, 0.098, 0.008)}


def test_boards_are_ranked_as_gnubg_ranks_them() -> None:
    assert index((0,) * 6) == 0
    assert index((1, 0, 0, 0, 0, 0)) == 1
    assert index((0, 1, 0, 0, 0, 0)) == 2
    assert index((0, 0, 0, 0, 0, 1)) == 6
    assert index((3, 3, 3, 2, 2, 2)) == 43691
    assert index((0, 0, 0, 0, 0, 15)) == POSITIONS - 1
    assert sorted(index(home) for home in boards()) == list(range(POSITIONS))


@pytest.mark.parametrize(
    ("home", "rolls"),
    [((1, 0, 0, 0, 0, 0), 1.0), ((2, 0, 0, 0, 0, 0), 1.0), ((4, 0, 0, 0, 0, 0), 1 + 30 / 36)],
)
def test_known_counts(home: bearoff.Home, rolls: float) -> None:
    # Four on the 1-point: a double takes them all, any other roll two (then the rest go next roll).
    assert database().expected_rolls(home) == pytest.approx(rolls, abs=1e-4)


@pytest.mark.parametrize("row", sorted(GNUBG_OFF))
def test_the_counts_are_gnubgs(row: int) -> None:
    ours = database().off[row] * 100
    theirs = np.zeros(WIDTH)
    theirs[: len(GNUBG_OFF[row])] = GNUBG_OFF[row]
    assert np.abs(ours - theirs).max() < 0.005  # gnubg prints 3 decimals


def test_the_first_checker_off_counts_are_gnubgs() -> None:
    ours = database().first[54263] * 100
    assert np.abs(ours[:7] - GNUBG_FIRST_OFF[54263]).max() < 0.005
    assert database().first_off((0, 0, 0, 0, 0, 14)).tolist() == [1.0] + [0.0] * (WIDTH - 1)  # one is off


def test_every_count_is_a_distribution_and_more_checkers_never_take_fewer_rolls() -> None:
    db = database()
    assert np.allclose(db.off.sum(axis=1), 1.0) and np.allclose(db.first.sum(axis=1), 1.0)
    assert db.off[0, 0] == 1.0 and not db.off[1:, 0].any()  # only the empty board takes no roll
    rng = random.Random(5)
    for _ in range(300):
        home = list(rng.choice(list(SAMPLE)))
        point = rng.randrange(6)
        if sum(home) < 15:
            more = (*home[:point], home[point] + 1, *home[point + 1 :])
            assert db.expected_rolls(more) >= db.expected_rolls(tuple(home)) - 1e-4


SAMPLE = tuple(random.Random(3).sample(list(boards()), 200))


def test_each_count_is_one_roll_plus_the_best_plays_count() -> None:
    """Bellman's equation over the 21 rolls, on a sample: the stored tables are the programme's fixed point.
    (The file rounds each probability to 1/65535: means move by up to ~3e-4, and plays whose means
    differ by less may swap, their counts differing a little.)"""
    db = database()
    for home in SAMPLE:
        if not sum(home):
            continue
        mean, count = 1.0, np.zeros(WIDTH)
        for a, b, weight in ROLLS:
            best = min(after_roll(home, a, b), key=db.expected_rolls)
            mean += weight / 36 * db.expected_rolls(best)
            count[1:] += weight / 36 * db.rolls(best)[:-1]
        assert mean == pytest.approx(db.expected_rolls(home), abs=5e-4)
        assert np.abs(count - db.rolls(home)).max() < 2e-3


def test_a_roll_plays_both_dice_and_doubles_four_times() -> None:
    assert after_roll((0, 0, 0, 0, 0, 1), 6, 5) == {(0,) * 6}
    assert after_roll((2, 0, 0, 0, 0, 0), 1, 1) == {(0,) * 6}
    assert after_roll((0, 0, 0, 0, 0, 2), 2, 1) == {(0, 0, 1, 0, 0, 1), (0, 0, 0, 1, 1, 0)}
    # A higher die bears off from the highest point only when no checker is above it.
    assert after_roll((1, 0, 1, 0, 0, 0), 6, 4) == {(0,) * 6}
    assert (1, 0, 0, 0, 0, 0) in after_roll((0, 0, 1, 0, 1, 0), 6, 2)


def test_the_file_round_trips() -> None:
    db = database()
    off, first = bearoff.decode(bearoff.encode(db.off, db.first))
    assert np.abs(off - db.off).max() < 1e-4 and np.abs(first - db.first).max() < 1e-4
    with pytest.raises(ValueError, match="not a bear-off database"):
        bearoff.decode(b"something else")


def test_among_plays_valued_alike_the_bots_bear_off_with_the_fewest_rolls_expected() -> None:
    # Seat 1 bears its last checker off next roll whatever it rolls: every play of seat 0 loses a
    # single game, and the bots' order (what a search keeps of equal values) puts first the play
    # that leaves the fewest rolls.
    state = BACKGAMMON.from_json(
        {
            "points": [0] * 5 + [3] + [0] * 17 + [-1],
            "bar": [0, 0],
            "off": [12, 14],
            "turn": 0,
            "dice": [5, 1],
            "ply": 40,
        }
    )
    plays = legal_plays(state)
    assert len(plays) > 1 and len({BACKGAMMON.evaluate(child, 0) for child in plays.values()}) == 1
    rolls = {move: bear_off_rolls(child, 0) for move, child in plays.items()}
    assert rolls[BACKGAMMON.order_moves(state, list(plays))[0]] == min(rolls.values()) < max(rolls.values())
