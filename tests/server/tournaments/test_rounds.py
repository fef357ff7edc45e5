"""Tournaments run by the tick and by the ends of their matches, on the real match service."""

from __future__ import annotations

import itertools
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from server.agents.services import bot_account_create
from server.bots.models import BotProfile
from server.matches import services as match_services
from server.matches.models import Match
from server.players.services import player_create_guest
from server.tournaments import rounds, selectors, services
from server.tournaments.errors import EntryRefused, TooManyTournaments, TournamentClosed, TournamentFull
from server.tournaments.models import Entrant, Pairing, Tournament
from tests.server.tournaments.support import entered, people, resign, running, tick_at, tournament

pytestmark = pytest.mark.django_db


def test_a_swiss_of_four_runs_its_rounds_to_the_end(django_capture_on_commit_callbacks):
    t, players = entered("swiss", 4, rounds=3)
    assert tick_at().started == 1
    met: set[frozenset[int]] = set()
    for round_ in (1, 2, 3):
        t.refresh_from_db()
        assert t.round == round_ and t.status == Tournament.Status.RUNNING
        games = running(t)
        assert len(games) == 2
        for p in games:
            pair = frozenset({p.white_id, p.black_id})
            assert pair not in met, "no rematch in a Swiss of four over three rounds"
            met.add(pair)
            match = Match.objects.get(pk=p.match_id)
            assert match.status == Match.Status.ACTIVE and match.clock == {"initial_ms": 180_000, "increment_ms": 2000}
            assert match.rated, "people with accounts: rated as such a match is"
            resign(p, 1, django_capture_on_commit_callbacks)  # white wins; the next round is paired at once
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at is not None
    detail = selectors.tournament_json(t.pk)
    assert detail is not None
    points = [row["points"] for row in detail["standings"]]
    assert sum(points) == 6 and points == sorted(points, reverse=True)
    assert all(len(row["games"]) == 3 for row in detail["crosstable"])


def test_a_round_robin_of_three_gives_everyone_a_rest_and_meets_everyone(django_capture_on_commit_callbacks):
    t, players = entered("round_robin", 3)
    tick_at()
    t.refresh_from_db()
    assert t.rounds == 3
    for _ in range(3):
        (game,) = running(t)
        resign(game, 0, django_capture_on_commit_callbacks)  # black wins
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    pairs = {frozenset({p.white_id, p.black_id}) for p in Pairing.objects.filter(tournament=t)}
    assert pairs == {frozenset(c) for c in itertools.combinations(t.entrants.values_list("pk", flat=True), 2)}
    assert not Pairing.objects.filter(tournament=t, black__isnull=True).exists(), "a round robin's rest is no bye"


def test_a_swiss_bye_goes_to_the_lowest_and_scores_a_win(django_capture_on_commit_callbacks):
    t, players = entered("swiss", 3, rounds=2)
    tick_at()
    (bye,) = Pairing.objects.filter(tournament=t, black__isnull=True)
    lowest = min(Entrant.objects.filter(tournament=t), key=lambda e: (e.rating, -e.pk))
    assert bye.white_id == lowest.pk and bye.white_score == 2 and bye.note == "bye"
    resign(running(t)[0], 0, django_capture_on_commit_callbacks)
    byes = list(Pairing.objects.filter(tournament=t, black__isnull=True).values_list("white_id", flat=True))
    assert len(byes) == 2 and len(set(byes)) == 2, "nobody gets a second bye while another has none"


def test_the_tick_is_idempotent():
    t, _ = entered("swiss", 6)
    tick_at()
    first = list(Pairing.objects.filter(tournament=t).values_list("pk", flat=True))
    for _ in range(3):
        done = tick_at()
        assert done.paired == 0 and done.started == 0
    assert list(Pairing.objects.filter(tournament=t).values_list("pk", flat=True)) == first


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_pair_once():
    t, _ = entered("swiss", 8)
    results: list[object] = []
    start = threading.Barrier(2)

    def run() -> None:
        try:
            start.wait()
            results.append(rounds.tick())
        except Exception as exc:  # noqa: BLE001 - reported below
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(r.paired for r in results) == 4  # type: ignore[union-attr]
    assert Pairing.objects.filter(tournament=t).count() == 4
    assert Match.objects.count() == 4


def test_too_few_entrants_cancels_at_the_start():
    t, _ = entered("swiss", 1)
    assert tick_at().cancelled == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED


def test_a_game_nobody_starts_is_lost_by_the_absent_and_they_are_withdrawn(settings):
    t, _ = entered("swiss", 2, rounds=2)
    tick_at()
    (game,) = running(t)
    later = timezone.now() + timedelta(milliseconds=settings.CLOCK_FIRST_MOVE_MS + 1000)
    match = Match.objects.get(pk=game.match_id)
    match.turn_started_at = timezone.now() - timedelta(milliseconds=settings.CLOCK_FIRST_MOVE_MS + 1000)
    match.save(update_fields=["turn_started_at"])
    assert match_services.abort_unstarted_matches(later) == 1
    rounds.match_ended(game.match_id)  # what match_finished runs after the abort's commit
    game.refresh_from_db()
    assert (game.white_score, game.black_score, game.note) == (0, 2, "no first move")
    assert Entrant.objects.get(pk=game.white_id).withdrawn, "the absent player is withdrawn, as lichess does"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.round == 1, "one entrant left: nothing more to play"


def test_an_arena_repairs_at_once_and_finishes_after_its_last_games(django_capture_on_commit_callbacks):
    t, players = entered("arena", 4, minutes=10)
    tick_at()
    first = running(t)
    assert len(first) == 2
    resign(first[0], 1, django_capture_on_commit_callbacks)
    assert len(running(t)) == 1, "two waiting are not enough... until the other game ends"
    resign(first[1], 1, django_capture_on_commit_callbacks)
    second = running(t)
    assert len(second) == 2, "all four waiting: paired again at once"
    assert not {frozenset({p.white_id, p.black_id}) for p in second} & {
        frozenset({p.white_id, p.black_id}) for p in first
    }, "nobody meets their last opponent while others wait"
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))  # the end came
    done = tick_at()
    assert done.paired == 0 and done.finished == 0, "nobody is paired; the games under way go on"
    resign(second[0], 0, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and not Pairing.objects.filter(match__status="active").exclude(
        pk=second[1].pk
    )
    resign(second[1], 0, django_capture_on_commit_callbacks)  # the last game's end finishes it, and counts
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    detail = selectors.tournament_json(t.pk)
    assert detail is not None
    assert [row["points"] for row in detail["standings"]] == [4, 2, 2, 0]


def test_an_arena_counts_streaks():
    t, (a, b) = entered("arena", 2, minutes=10)
    tick_at()
    ea, eb = (Entrant.objects.get(tournament=t, player=p) for p in (a, b))
    for _ in range(3):  # a wins three in a row: 2 + 2 + 4
        (game,) = running(t)
        loser = 0 if game.white_id == eb.pk else 1
        match_services.match_resign(game.match_id, loser)
        rounds.match_ended(game.match_id)
    detail = selectors.tournament_json(t.pk)
    assert detail is not None
    top = detail["standings"][0]
    assert top["entrant"]["id"] == ea.pk and top["points"] == 8 and top["on_fire"]


def test_entry_rules():
    owner = people(1)[0]
    bot = bot_account_create(owner, "Reflex")
    for_people = tournament("swiss")
    with pytest.raises(EntryRefused):
        services.tournament_join(for_people.pk, bot)
    profile = BotProfile.objects.filter(game="tictactoe").first()
    assert profile is not None
    with pytest.raises(EntryRefused):
        services.house_bot_add(for_people.pk, profile)
    with pytest.raises(EntryRefused):
        services.tournament_join(for_people.pk, player_create_guest())
    for_bots = tournament("swiss", entry="bots", max_entrants=2)
    with pytest.raises(EntryRefused):
        services.tournament_join(for_bots.pk, owner)
    services.tournament_join(for_bots.pk, bot)
    services.house_bot_add(for_bots.pk, profile)
    with pytest.raises(TournamentFull):
        services.house_bot_add(for_bots.pk, BotProfile.objects.filter(game="tictactoe").exclude(pk=profile.pk)[0])
    tick_at()
    with pytest.raises(TournamentClosed):
        services.tournament_join(for_bots.pk, bot_account_create(owner, "Latecomer"))


def test_bot_games_are_casual_and_bots_shown_as_ai():
    owner = people(1)[0]
    bot = bot_account_create(owner, "Reflex")
    t = tournament("swiss", entry="open", rounds=1)
    services.tournament_join(t.pk, bot)
    services.house_bot_add(t.pk, BotProfile.objects.filter(game="tictactoe")[0])
    tick_at()
    (game,) = running(t)
    assert not Match.objects.get(pk=game.match_id).rated, "bot accounts' games are casual, as their challenges"
    detail = selectors.tournament_json(t.pk)
    assert detail is not None
    kinds = {e["kind"]: e for e in detail["entrants_list"]}
    assert kinds["agent"]["is_ai"] and kinds["agent"]["owner"] == owner.name
    assert kinds["bot"]["is_ai"] and kinds["bot"]["profile"]["is_ai"]


def test_a_person_may_have_two_open_tournaments():
    creator = people(1)[0]
    request = services.TournamentRequest("Mine", "arena", "connect4", "1+0", timezone.now(), minutes=30)
    services.tournament_create(creator, request)
    services.tournament_create(creator, request)
    with pytest.raises(TooManyTournaments):
        services.tournament_create(creator, request)


def test_withdrawing_before_the_start_removes_the_entry_and_after_it_stops_pairing(django_capture_on_commit_callbacks):
    t, (a, b, c) = entered("arena", 3)
    gone = services.tournament_withdraw(t.pk, c)
    assert gone.withdrawn and gone.pk is None
    assert t.entrants.count() == 2
    tick_at()
    (game,) = running(t)
    services.tournament_withdraw(t.pk, a)
    resign(game, 0, django_capture_on_commit_callbacks)
    assert not running(t), "a withdrawn entrant is paired no more"
    services.tournament_join(t.pk, a)  # an arena takes them back
    tick_at()
    assert len(running(t)) == 1
