"""Where a queued analysis stands: the analyses asked before it that still wait."""

from __future__ import annotations

import pytest

from server.analysis import selectors
from server.analysis.models import Analysis
from server.analysis.services import analysis_request
from server.matches import services
from tests.server.conftest import human_match

# Analyses are queued on commit: these tests need real transactions.
committing = pytest.mark.django_db(transaction=True)

QUICK_GAME = ["5", "1", "9", "2", "3", "7", "6"]  # X wins on the 3-5-7 diagonal


def finished_tictactoe(alice, bob):
    match = human_match("tictactoe", alice, bob)
    for ply, move in enumerate(QUICK_GAME):
        services.submit_move(match.pk, ply % 2, move, ply)
    return match


@committing
def test_queued_analyses_stand_in_the_order_they_were_asked(alice, bob, monkeypatch):
    monkeypatch.setattr("server.analysis.runners.queue_analysis", lambda analysis_id: None)  # nothing runs
    asked = [analysis_request(finished_tictactoe(alice, bob).pk, alice)[0] for _ in range(3)]
    assert [selectors.queue_position(a) for a in asked] == [0, 1, 2]

    Analysis.objects.filter(pk=asked[0].pk).update(status=Analysis.Status.RUNNING)  # a worker took the first
    fresh = [Analysis.objects.get(pk=a.pk) for a in asked]
    assert [selectors.queue_position(a) for a in fresh] == [None, 0, 1]

    Analysis.objects.filter(pk=asked[1].pk).update(status=Analysis.Status.DONE)
    fresh = [Analysis.objects.get(pk=a.pk) for a in asked]
    assert [selectors.queue_position(a) for a in fresh] == [None, None, 0]


@committing
def test_the_api_answers_the_queue_position(token_client, bob, monkeypatch):
    from server.players.models import Player

    alice = Player.objects.get(pk=token_client.player.pk)
    monkeypatch.setattr("server.analysis.runners.queue_analysis", lambda analysis_id: None)
    first, second = finished_tictactoe(alice, bob), finished_tictactoe(alice, bob)
    assert token_client.post(f"/api/matches/{first.pk}/analysis/").json()["queue_position"] == 0
    body = token_client.post(f"/api/matches/{second.pk}/analysis/").json()
    assert body["status"] == "queued" and body["queue_position"] == 1 and body["progress"] == 0


@committing
def test_a_running_or_finished_analysis_has_no_queue_position(alice, bob):
    analysis, _ = analysis_request(finished_tictactoe(alice, bob).pk, alice)  # the inline runner finishes it
    analysis.refresh_from_db()
    assert analysis.status == "done"
    assert selectors.analysis_json(analysis)["queue_position"] is None
