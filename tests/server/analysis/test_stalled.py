"""An analysis whose worker died is queued again from where it stopped, then given up on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from server.analysis.models import Analysis
from server.analysis.services import analysis_request, resume_stalled_analyses
from tests.server.analysis.test_queue_position import finished_tictactoe

committing = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lost_analysis(alice, bob, monkeypatch):
    """An analysis asked for whose job never ran (its worker died with the message)."""
    monkeypatch.setattr("server.analysis.runners.queue_analysis", lambda analysis_id, index=0: None)
    analysis, _ = analysis_request(finished_tictactoe(alice, bob).pk, alice)
    monkeypatch.undo()  # from here on the inline runner searches, as a worker would
    return analysis


def age(analysis: Analysis, seconds: float) -> None:
    Analysis.objects.filter(pk=analysis.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


@committing
def test_a_stalled_analysis_is_queued_again_and_finishes(lost_analysis, settings):
    age(lost_analysis, settings.ANALYSIS_STALL_SECONDS + 1)
    assert resume_stalled_analyses() == 1
    analysis = Analysis.objects.get(pk=lost_analysis.pk)
    assert analysis.status == Analysis.Status.DONE and analysis.progress == analysis.total > 0
    assert analysis.restarts == 1


@committing
def test_it_goes_on_from_the_position_it_had_reached(lost_analysis, settings, monkeypatch):
    searched = []
    monkeypatch.setattr("server.analysis.runners.queue_analysis", lambda analysis_id, index=0: searched.append(index))
    Analysis.objects.filter(pk=lost_analysis.pk).update(status=Analysis.Status.RUNNING, progress=3)
    age(lost_analysis, settings.ANALYSIS_STALL_SECONDS + 1)
    assert resume_stalled_analyses() == 1
    assert searched == [3]


@committing
def test_a_slow_but_moving_analysis_is_left_alone(lost_analysis, settings):
    age(lost_analysis, settings.ANALYSIS_STALL_SECONDS - 5)
    assert resume_stalled_analyses() == 0
    assert Analysis.objects.get(pk=lost_analysis.pk).status == Analysis.Status.QUEUED


@committing
def test_after_its_restarts_it_fails_and_asking_again_starts_it_anew(lost_analysis, settings, alice):
    Analysis.objects.filter(pk=lost_analysis.pk).update(restarts=settings.ANALYSIS_MAX_RESTARTS)
    age(lost_analysis, settings.ANALYSIS_STALL_SECONDS + 1)
    assert resume_stalled_analyses() == 0
    failed = Analysis.objects.get(pk=lost_analysis.pk)
    assert failed.status == Analysis.Status.FAILED and "stopped making progress" in failed.error

    again, started = analysis_request(failed.match_id, alice)
    assert started and again.restarts == 0
    assert Analysis.objects.get(pk=failed.pk).status == Analysis.Status.DONE
