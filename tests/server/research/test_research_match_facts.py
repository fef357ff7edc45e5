"""What an export says of a match beyond its moves (docs/exports.md): rated or not, the time control, each
seat's clock after every move, each seat's name in the game, and coarse ratings before and after."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import jsonschema
import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from server.matches import services
from server.matches.models import Match
from server.research.pseudonyms import Pseudonyms
from server.research.seats import RATING_STEP, clocks_after_moves, coarse_rating, seat_name
from tests.server.research.helpers import SCHEMA, csv_text, jsonl
from tests.server.research.test_research_exports import GAMES, MOVES

pytestmark = pytest.mark.django_db
HUMAN = services.SeatRequest("human")
# Connect Four: blue wins down column 4 on its fourth disc; (move, seconds the mover thinks).
PLAY = [("4", 3), ("3", 5), ("4", 7), ("3", 2), ("4", 11), ("3", 4), ("4", 6)]


def _account(player):
    player.is_guest, player.consent_research = False, True
    player.save()
    return player


@pytest.fixture
def rated_clocked(alice, bob) -> Match:
    """A rated 1+2 match between two accounts, played to its end with real think times."""
    alice, bob = _account(alice), _account(bob)
    match = services.match_create("connect4", [HUMAN, HUMAN], alice, clock=services.Clock(1, 2), rated=True)
    services.match_join(match.pk, bob)
    for ply, (move, seconds) in enumerate(PLAY):
        Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))
        services.submit_move(match.pk, ply % 2, move, ply)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rated
    return match


def _line(researcher, match: Match) -> dict:
    (line,) = [g for g in jsonl(researcher.get(GAMES)) if g["match"] == Pseudonyms().match(match.pk)]
    return line


def test_a_line_says_rated_time_control_and_each_seats_clock_as_the_match_counted_it(rated_clocked, researcher):
    line = _line(researcher, rated_clocked)
    jsonschema.validate(line, SCHEMA)
    assert line["rated"] is True and line["clock"] == {"initial_ms": 60_000, "increment_ms": 2000}
    clocks = [move["remaining_ms"] for move in line["moves"]]
    assert clocks[:2] == [[60_000, 60_000], [60_000, 60_000]]  # first moves are free
    assert clocks[2][0] == 60_000 - line["moves"][2]["think_ms"] + 2000
    assert clocks[-1] == rated_clocked.clock_ms  # the replay ends where the live clock did


def test_seats_carry_the_games_names_not_first_and_second(rated_clocked, researcher):
    assert [seat["name"] for seat in _line(researcher, rated_clocked)["seats"]] == ["blue (dot)", "orange (diamond)"]
    assert [seat_name("chess", 0), seat_name("chess", 1), seat_name("tictactoe", 0)] == ["white", "black", "X"]


def test_ratings_before_and_after_are_coarse_and_never_the_sites_figures(rated_clocked, researcher):
    seats = _line(researcher, rated_clocked)["seats"]
    public = APIClient().get(f"/api/matches/{rated_clocked.pk}/ratings/").json()["seats"]
    exact = {seat["seat"]: seat["change"] for seat in public}
    for seat in seats:
        change, site = seat["rating_change"], exact[seat["index"]]
        assert change["before"] == 1500 and change["provisional_before"] and change["provisional_after"]
        assert change["after"] % RATING_STEP == 0 and change["after"] == coarse_rating(site["after"])
        assert change["after"] != site["after"]  # the site's figure, to the digit, is not in the export
    winner, loser = seats
    assert winner["rating_change"]["after"] > loser["rating_change"]["after"]


def test_the_csv_says_the_same_for_each_move(rated_clocked, researcher):
    line = _line(researcher, rated_clocked)
    rows = [r for r in csv.DictReader(io.StringIO(csv_text(researcher.get(MOVES)))) if r["match"] == line["match"]]
    assert [json.loads(r["remaining_ms"]) for r in rows] == [m["remaining_ms"] for m in line["moves"]]
    assert {(r["rated"], r["clock_initial_ms"], r["clock_increment_ms"]) for r in rows} == {("true", "60000", "2000")}
    assert [r["seat_name"] for r in rows[:2]] == ["blue (dot)", "orange (diamond)"]
    for row in rows:
        change = line["seats"][int(row["seat"])]["rating_change"]
        assert (int(row["rating_before"]), int(row["rating_after"])) == (change["before"], change["after"])


def test_a_match_without_clocks_or_rating_says_so(dataset, researcher):
    line = _line(researcher, dataset.matches["hh"])
    assert line["rated"] is False and line["clock"] is None
    assert all(move["remaining_ms"] is None for move in line["moves"])
    assert [seat["rating_change"] for seat in line["seats"]] == [None, None]
    rows = [r for r in csv.DictReader(io.StringIO(csv_text(researcher.get(MOVES)))) if r["match"] == line["match"]]
    assert {(r["rated"], r["clock_initial_ms"], r["remaining_ms"], r["rating_before"]) for r in rows} == {
        ("false", "", "", "")
    }


def test_chance_charges_no_one_and_each_seat_pays_from_its_second_move():
    moves = [(-1, 0), (0, 900), (1, 500), (-1, 0), (0, 1200), (1, 700)]
    assert clocks_after_moves(10_000, 1000, 2, moves) == [
        [10_000, 10_000],
        [10_000, 10_000],
        [10_000, 10_000],
        [10_000, 10_000],
        [9_800, 10_000],
        [9_800, 10_300],
    ]
    assert clocks_after_moves(None, None, 2, moves) == [None] * 6
