"""Standings from pairings: points, then Buchholz, then Sonneborn-Berger, then rating; arena streaks."""

from __future__ import annotations

from server.tournaments.standings import Played, standings


def test_ties_are_broken_by_buchholz_then_sonneborn_berger_then_rating():
    ratings = {1: 1500, 2: 1500, 3: 1500, 4: 1400}
    played = [
        Played(1, 3, 2, 0),  # 1 beat 3
        Played(2, 4, 2, 0),  # 2 beat 4
        Played(3, 4, 2, 0),  # 3 beat 4
        Played(1, 2, 0, 2),  # 2 beat 1
        Played(4, 1, 0, 2),  # 1 beat 4
        Played(3, 2, 2, 0),  # 3 beat 2
    ]
    rows = standings(False, ratings, played)
    # 1, 2 and 3 have two wins each (4 half points); 4 none.
    assert [r.points for r in rows] == [4, 4, 4, 0]
    # Buchholz: each of 1, 2, 3 met the other two (8) and 4 (0): equal; Sonneborn-Berger the same,
    # so the rating decides, then the id.
    assert [r.entrant for r in rows] == [1, 2, 3, 4]
    assert rows[0].buchholz == 8 and rows[0].sonneborn_berger == 2 * 4 + 2 * 0


def test_buchholz_orders_equal_points():
    ratings = {1: 1000, 2: 2000, 3: 1500, 4: 1500}
    played = [Played(1, 3, 2, 0), Played(2, 4, 2, 0), Played(3, 4, 2, 0)]
    rows = standings(False, ratings, played)
    # 1, 2 and 3 have 2 half points.  Buchholz: 1 met 3 (2), 3 met 1 and 4 (2 + 0), 2 met 4 (0): 2 is
    # third despite the best rating.  Sonneborn-Berger then puts 1 (beat 3, on 2) before 3 (beat 4, on 0).
    assert [r.entrant for r in rows] == [1, 3, 2, 4]


def test_a_bye_counts_a_win_but_no_game():
    rows = standings(False, {1: 1500, 2: 1500}, [Played(1, None, 2, 0)])
    assert rows[0].entrant == 1 and rows[0].points == 2 and rows[0].games == 0 and rows[0].buchholz == 0


def test_arena_points_and_fire():
    rows = standings(True, {1: 1500, 2: 1500}, [Played(1, 2, 2, 0), Played(2, 1, 0, 2), Played(1, 2, 2, 0)])
    assert (rows[0].entrant, rows[0].points, rows[0].on_fire, rows[0].wins) == (1, 8, True, 3)
    assert rows[1].points == 0 and not rows[1].on_fire
