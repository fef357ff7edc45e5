"""`manage.py calibrate`: a resumable round-robin through the match path, then Elo ratings."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from server.bots import calibration
from server.bots.models import BotProfile
from server.bots.placement import RANDOM_MOVER_RATING
from server.matches.models import Match, Move

pytestmark = pytest.mark.django_db(transaction=True)
SLUGS = "tictactoe-random,tictactoe-shallow,tictactoe-perfect"


def calibrate(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("calibrate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_calibrate_plays_a_round_robin_and_writes_monotonic_ratings():
    BotProfile.objects.filter(slug__startswith="tictactoe-").update(time_budget_ms=80)
    out, err = calibrate("--game", "tictactoe", "--games", "3", "--profiles", SLUGS)
    matches = Match.objects.filter(source=calibration.SOURCE)
    assert matches.count() == 6 * 3 and not matches.exclude(status=Match.Status.FINISHED).exists()
    # Each match went through the move path: one stored move per ply.
    assert all(Move.objects.filter(match=m).count() == m.ply for m in matches)
    assert "18/18 games" in err
    rated = {p.slug: p for p in BotProfile.objects.filter(slug__in=SLUGS.split(","))}
    assert rated["tictactoe-random"].rating == RANDOM_MOVER_RATING  # the anchor, placed on the players' scale
    assert rated["tictactoe-perfect"].rating > rated["tictactoe-random"].rating
    assert (
        rated["tictactoe-perfect"].rating_low
        < rated["tictactoe-perfect"].rating
        < rated["tictactoe-perfect"].rating_high
    )
    assert rated["tictactoe-perfect"].rated_games == 12
    assert "ladder" in out and "tictactoe-perfect" in out


def test_a_second_run_resumes_instead_of_starting_over():
    BotProfile.objects.filter(slug__startswith="tictactoe-").update(time_budget_ms=80)
    calibrate("--game", "tictactoe", "--games", "1", "--profiles", "tictactoe-random,tictactoe-perfect")
    assert Match.objects.filter(source=calibration.SOURCE).count() == 2
    calibrate("--game", "tictactoe", "--games", "2", "--profiles", "tictactoe-random,tictactoe-perfect")
    assert Match.objects.filter(source=calibration.SOURCE).count() == 4  # only the missing two were played


def test_bad_requests_are_clear():
    with pytest.raises(CommandError, match="unknown game"):
        calibrate("--game", "chesss")
    with pytest.raises(CommandError, match="random mover"):
        calibrate("--game", "tictactoe", "--profiles", "tictactoe-shallow,tictactoe-perfect")
    with pytest.raises(CommandError, match="another game"):
        calibrate("--game", "tictactoe", "--profiles", "tictactoe-random,connect4-shallow")
