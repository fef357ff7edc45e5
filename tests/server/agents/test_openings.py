"""Opening sets for measurements: the files, the matches that start from them, the runs that use them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from server.agents import measuring, openings
from server.agents.openings import NoOpenings, opening_set
from server.bots.models import BotProfile
from server.bots.seed import seed_profiles
from server.matches.errors import BadMessage
from server.matches.models import Match
from server.matches.selectors import clock_json, clock_runs
from server.matches.services import Clock, SeatRequest, match_create, submit_player_move
from server.matches.services.clocks import abort_unstarted_matches
from tests.server.agents.conftest import api_as

STEP = "connect4-shallow"


def test_every_game_for_two_without_chance_has_eight_distinct_legal_openings():
    assert set(openings.games_with_openings()) == {
        g for g in registry.ids() if g not in ("backgammon", "chinese-checkers")
    }
    for game_id in openings.games_with_openings():
        game, positions = registry.get(game_id), set()
        lines = opening_set("standard", game_id)
        assert len(lines) == openings.OPENINGS_PER_GAME, game_id
        for line in lines:
            state = game.initial_state()
            for move in line:
                state = game.play(state, game.canonical_move(state, move))
            assert not game.is_terminal(state)
            positions.add(str(game.to_json(state)))
        assert len(positions) == len(lines), game_id


def test_the_random_lines_are_made_again_the_same_from_their_seed():
    for game_id in ("tictactoe", "othello", "checkers", "chinese-checkers-2", "chess"):
        assert tuple(openings.make_standard(game_id)) == opening_set("standard", game_id), game_id


def test_the_solver_calls_every_connect_four_opening_balanced():
    from games.connect4.solver import Connect4Solver

    solver, game = Connect4Solver(), registry.get("connect4")
    for line in opening_set("standard", "connect4"):
        state = game.initial_state()
        for move in line:
            state = game.play(state, move)
        assert solver.solve_state(state, weak=True) == 0, line  # neither side wins with perfect play


@pytest.mark.parametrize(
    ("name", "game"), [("standard", "backgammon"), ("standard", "chinese-checkers"), ("wild", "chess")]
)
def test_a_set_without_openings_for_the_game_says_so(name, game):
    with pytest.raises(NoOpenings):
        opening_set(name, game)


@pytest.fixture
def ladder(db):
    seed_profiles(BotProfile)


def house_and_bot(bot, agent_seat: int) -> list[SeatRequest]:
    seats = [SeatRequest("bot", BotProfile.objects.get(slug=STEP)), SeatRequest("human")]
    return seats if agent_seat == 1 else seats[::-1]


def test_a_match_starts_after_its_opening_with_the_clocks_not_yet_running(ladder, bot):
    line = opening_set("standard", "connect4")[0]
    match = match_create(
        "connect4", house_and_bot(bot, 0), bot, clock=Clock(1, 0), seated=[bot], opening=line, source="measurement"
    )
    assert match.ply == match.opening_plies == len(line) and match.status == Match.Status.ACTIVE
    assert [m.move for m in match.moves.order_by("ply")] == list(line)
    assert [m.seat for m in match.moves.order_by("ply")] == [ply % 2 for ply in range(len(line))]
    assert match.to_move == 0 and not clock_runs(match, 0) and not clock_runs(match, 1)
    assert clock_json(match)["remaining_ms"] == [60_000, 60_000] and clock_json(match)["running"] is None
    submit_player_move(match.pk, bot.pk, "4", match.ply)  # the bot's first move of its own
    match.refresh_from_db()
    assert clock_runs(match, 0) and not clock_runs(match, 1)


def test_a_bot_that_never_moves_after_an_opening_is_aborted_as_from_the_start(ladder, bot):
    line = opening_set("standard", "connect4")[0]
    match = match_create("connect4", house_and_bot(bot, 0), bot, clock=Clock(1, 0), seated=[bot], opening=line)
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(minutes=5))
    assert abort_unstarted_matches() == 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED


def test_an_opening_the_rules_refuse_is_refused(ladder, bot):
    with pytest.raises(BadMessage, match="opening move"):
        match_create("connect4", house_and_bot(bot, 0), bot, seated=[bot], opening=("4", "9"))
    with pytest.raises(BadMessage, match="leaves something"):
        match_create("tictactoe", [SeatRequest("human"), SeatRequest("human")], bot, opening=tuple("1425375"[:5]))


def test_a_run_with_a_set_plays_each_opening_with_both_colours(ladder, owner, bot, django_capture_on_commit_callbacks):
    from server.matches.services import match_resign

    with django_capture_on_commit_callbacks(execute=True):
        made = api_as(owner).post(
            "/api/agents/Quokka/measurements/",
            {"game": "connect4", "games_per_step": 4, "steps": [STEP], "openings": "standard"},
            format="json",
        )
    assert made.status_code == 201, made.content
    assert made.json()["openings"] == "standard"
    run = measuring.Measurement.objects.get(pk=made.json()["id"])
    lines = opening_set("standard", "connect4")
    seen = []
    for _ in range(4):
        game = run.games.select_related("match").order_by("-pk").first()
        match = game.match
        assert [m.move for m in match.moves.order_by("ply")[: match.opening_plies]] == list(lines[game.opening])
        seen.append((game.opening, game.agent_seat))
        with django_capture_on_commit_callbacks(execute=True):
            match_resign(match.pk, game.agent_seat)
    assert seen == [(0, 0), (0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"game": "connect4", "openings": "wild"}, "openings"),  # no such set: the serializer's choices
        ({"game": "backgammon", "openings": "standard"}, "none for backgammon"),  # its dice
    ],
)
def test_a_run_naming_a_set_it_cannot_use_is_refused(ladder, owner, bot, body, word):
    made = api_as(owner).post("/api/agents/Quokka/measurements/", {"games_per_step": 2, **body}, format="json")
    assert made.status_code == 400 and word in made.content.decode(), made.content
