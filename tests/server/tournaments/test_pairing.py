"""The pairing rules on their own: Berger tables, the Swiss (Monrad) rule, the arena's re-pairing, the scores."""

from __future__ import annotations

import itertools
import random

import pytest

from server.tournaments.pairing import (
    ArenaEntrant,
    SwissEntrant,
    arena_pairs,
    arena_points,
    berger_rounds,
    buchholz,
    colours_for,
    sonneborn_berger,
    swiss_round,
)


@pytest.mark.parametrize("n", range(2, 17))
def test_berger_is_complete_and_balanced(n):
    players = list(range(100, 100 + n))
    rounds = berger_rounds(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    met = [frozenset(pair) for r in rounds for pair in r]
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in itertools.combinations(players, 2)), key=sorted)
    assert len(set(met)) == len(met), "every pair meets exactly once"
    for r in rounds:
        seated = [p for pair in r for p in pair]
        assert len(seated) == len(set(seated)), "nobody plays twice in a round"
        assert len(seated) == n - n % 2, "everyone plays but the one who rests"
    whites = {p: sum(pair[0] == p for r in rounds for pair in r) for p in players}
    blacks = {p: sum(pair[1] == p for r in rounds for pair in r) for p in players}
    assert all(abs(whites[p] - blacks[p]) <= 1 for p in players), (whites, blacks)


def test_berger_matches_the_published_table_for_six():
    # FIDE Handbook C.05 Annex 1, Berger tables, 5 or 6 players.
    assert berger_rounds([1, 2, 3, 4, 5, 6]) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def rematch_free_pairing_exists(
    players: list[int], met: dict[int, set[int]], due: dict[int, str] | None = None
) -> bool:
    """Whether `players` can all be paired with someone they have not met (exhaustively); with
    `due`, also without pairing two who are both due the same colour (a third one running)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        rematch_free_pairing_exists(rest[:i] + rest[i + 1 :], met, due)
        for i, other in enumerate(rest)
        if other not in met[first] and not (due and due.get(first) and due.get(first) == due.get(other))
    )


def play_swiss(n: int, rounds: int, seed: int) -> list[list[tuple[int, int]]]:
    """A Swiss of `n` with random results; every round's pairs (checked as they come)."""
    rng = random.Random(seed)
    score = {i: 0 for i in range(n)}
    colours = {i: "" for i in range(n)}
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    byes: set[int] = set()
    played = []
    for r in range(rounds):
        field = [SwissEntrant(i, score[i], 2000 - i, colours[i], i in byes, frozenset(met[i])) for i in range(n)]
        result = swiss_round(field)
        if n % 2:
            assert result.bye is not None and result.bye not in byes, "the bye goes to someone without one"
            lowest_without = sorted((e for e in field if not e.had_bye), key=lambda e: (-e.score, -e.rating))[-1]
            assert result.bye == lowest_without.id, "to the lowest-ranked of them"
            byes.add(result.bye)
            score[result.bye] += 2
        else:
            assert result.bye is None
        seated = [p for pair in result.pairs for p in pair]
        assert sorted(seated + ([result.bye] if result.bye is not None else [])) == list(range(n))
        if result.rematches:
            players = [e.id for e in field if e.id != result.bye]
            assert not rematch_free_pairing_exists(players, met), f"round {r + 1}: a rematch that could be avoided"
        due = {i: {"ww": "b", "bb": "w"}[colours[i][-2:]] for i in range(n) if colours[i][-2:] in ("ww", "bb")}
        third = [p for w, b in result.pairs for p, c in ((w, "w"), (b, "b")) if colours[p][-2:] == c * 2]
        if third and not result.rematches:
            players = [e.id for e in field if e.id != result.bye]
            assert not rematch_free_pairing_exists(players, met, due), (
                f"round {r + 1}: a third colour running, avoidable"
            )
        for white, black in result.pairs:
            met[white].add(black)
            met[black].add(white)
            colours[white] += "w"
            colours[black] += "b"
            outcome = rng.choice((2, 1, 0))
            score[white] += outcome
            score[black] += 2 - outcome
        played.append(result.pairs)
    for i in range(n):
        balance = colours[i].count("w") - colours[i].count("b")
        assert abs(balance) <= 3, (i, colours[i])
    return played


@pytest.mark.parametrize("n,rounds", [(8, 7), (8, 5), (9, 5), (12, 7), (16, 9), (5, 4)])
def test_swiss_never_repeats_a_pairing_while_avoidable(n, rounds):
    for seed in range(8):
        play_swiss(n, rounds, seed)


def test_swiss_pairs_within_score_groups_first():
    # Four leaders on 2 points and four on 0: the leaders meet each other.
    field = [SwissEntrant(i, 2 if i < 4 else 0, 1500, "w" if i % 2 else "b") for i in range(8)]
    pairs = swiss_round(field).pairs
    for pair in pairs:
        assert (pair[0] < 4) == (pair[1] < 4), pairs


def test_swiss_backtracks_rather_than_rematch():
    # Greedy top-down would pair 1-2 then leave 3 and 4, who already met; the rule finds 1-3, 2-4.
    field = [
        SwissEntrant(1, 4, 1500),
        SwissEntrant(2, 4, 1400),
        SwissEntrant(3, 2, 1300, opponents=frozenset({4})),
        SwissEntrant(4, 2, 1200, opponents=frozenset({3})),
    ]
    result = swiss_round(field)
    assert result.rematches == 0
    assert {frozenset(p) for p in result.pairs} == {frozenset({1, 3}), frozenset({2, 4})}


def test_swiss_allows_a_rematch_only_when_none_can_be_avoided():
    field = [SwissEntrant(1, 2, 1500, opponents=frozenset({2})), SwissEntrant(2, 0, 1400, opponents=frozenset({1}))]
    result = swiss_round(field)
    assert result.rematches == 1 and len(result.pairs) == 1


def test_swiss_colours():
    more_blacks = SwissEntrant(1, 2, 1500, "bwb")
    more_whites = SwissEntrant(2, 2, 1400, "wbw")
    assert colours_for(more_whites, more_blacks, 0) == (1, 2), "the one with more blacks gets white"
    last_black = SwissEntrant(3, 2, 1500, "wb")
    last_white = SwissEntrant(4, 2, 1400, "bw")
    assert colours_for(last_white, last_black, 0) == (3, 4), "equal balance: the one who had black last"
    fresh_a, fresh_b = SwissEntrant(5, 0, 1500), SwissEntrant(6, 0, 1400)
    assert colours_for(fresh_a, fresh_b, 0) == (5, 6) and colours_for(fresh_a, fresh_b, 1) == (6, 5)


def test_arena_pairs_neighbours_in_rank_and_avoids_the_last_opponent():
    waiting = [
        ArenaEntrant(1, 10, 1500, last_opponent=2),
        ArenaEntrant(2, 9, 1500, last_opponent=1),
        ArenaEntrant(3, 8, 1500),
        ArenaEntrant(4, 1, 1500),
    ]
    pairs = arena_pairs(waiting)
    assert {frozenset(p) for p in pairs} == {frozenset({1, 3}), frozenset({2, 4})}
    assert (3, 1) in pairs, "the lower-ranked of a pair takes white"


def test_arena_plays_the_last_opponent_again_only_when_nobody_else_can_come_free():
    just_met = [ArenaEntrant(1, 2, 1500, 2), ArenaEntrant(2, 0, 1500, 1)]
    assert arena_pairs(just_met) == [(2, 1)]
    assert arena_pairs(just_met, others_playing=True) == [], "they wait for a game to end"
    assert arena_pairs([ArenaEntrant(1, 2, 1500)]) == [], "an odd one out waits"


def test_arena_points_streaks():
    assert arena_points([2, 2, 2, 2, 0, 2]) == [2, 2, 4, 4, 0, 2]
    assert arena_points([1, 1, 0]) == [1, 1, 0]
    assert arena_points([2, 2, 1, 2]) == [2, 2, 2, 2], "a draw on fire counts double and ends the streak"


def test_tie_breaks():
    scores = {1: 4, 2: 2, 3: 1}
    assert buchholz([2, 3], scores) == 3
    # Beat 2 (score 2 half points), drew 3 (score 1): 2*2 + 1*1 in quarter points.
    assert sonneborn_berger([(2, 2), (3, 1)], scores) == 5
