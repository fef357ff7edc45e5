"""Exactly once under races: concurrent submissions for one ply apply one move (docs/design.md §6.3)."""

from __future__ import annotations

import pytest

from server.matches import services
from server.matches.errors import StalePly
from server.matches.models import Match, Move
from tests.server.conftest import human_match
from tests.support import race

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("workers", [2, 6])
def test_concurrent_submissions_for_one_ply_apply_exactly_one(alice, bob, workers):
    match = human_match("connect4", alice, bob)
    results = race(lambda i: services.submit_move(match.pk, 0, str(1 + i % 7), 0), workers)
    applied = [r for r in results if isinstance(r, Move)]
    refused = [r for r in results if isinstance(r, StalePly)]
    assert len(applied) == 1 and len(refused) == workers - 1, results
    match.refresh_from_db()
    assert match.ply == 1 and Move.objects.filter(match=match).count() == 1
    assert match.state["board"][5][int(applied[0].move) - 1] == 0  # the stored state is the applied move's


def test_a_whole_game_of_racing_duplicates_stays_consistent(alice, bob):
    match = human_match("tictactoe", alice, bob)
    for ply, cell in enumerate(["5", "1", "9", "3", "2", "8", "4", "6", "7"]):
        results = race(lambda i, ply=ply, cell=cell: services.submit_move(match.pk, ply % 2, cell, ply), 3)
        assert sum(isinstance(r, Move) for r in results) == 1, results
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ply == 9
    assert list(Move.objects.filter(match=match).values_list("ply", flat=True)) == list(range(9))
