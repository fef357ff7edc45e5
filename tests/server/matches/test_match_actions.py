"""Takebacks, takeback requests and draw offers (services; docs/design.md §4)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections

from games import registry
from server.bots import receivers
from server.bots.services import bot_turn_finish, bot_turn_prepare
from server.bots.turn import compute_move
from server.matches import services
from server.matches.errors import (
    GameOver,
    NoOffer,
    NothingToTakeBack,
    OfferNotAllowed,
    OfferPending,
    StalePly,
)
from server.matches.models import Match, MatchEvent, Move
from tests.server.conftest import human_match

# Bot turns are queued on commit: the bot tests need real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def bot_match(player, profile):
    return services.match_create(
        profile.game, [services.SeatRequest("human"), services.SeatRequest("bot", profile)], player
    )


def frames(match_id: int) -> list[dict]:
    return [e.frame for e in MatchEvent.objects.filter(match_id=match_id).order_by("v")]


class NoBotReplies:
    """Bot turns are announced but nobody searches (a slow or lost worker)."""

    def __enter__(self):
        self.orig, receivers.queue_bot_turn = receivers.queue_bot_turn, lambda *args: None

    def __exit__(self, *exc):
        receivers.queue_bot_turn = self.orig


# --- against bots: at once ------------------------------------------------------------


def test_takeback_against_a_bot_removes_your_move_and_its_reply(alice, fast_bot):
    match = bot_match(alice, fast_bot)
    services.submit_move(match.pk, 0, "4", 0)
    services.submit_move(match.pk, 0, "3", 2)
    assert Move.objects.filter(match=match).count() == 4
    services.match_takeback(match.pk, 0)
    match.refresh_from_db()
    game = registry.get("connect4")
    after_two = game.initial_state()
    for move in Move.objects.filter(match=match).order_by("ply").values_list("move", flat=True):
        after_two = game.apply(after_two, move)
    assert match.ply == 2 and match.to_move == 0 and Move.objects.filter(match=match).count() == 2
    assert match.state == game.to_json(after_two)
    last = frames(match.pk)[-1]
    assert last["type"] == "takeback" and last["ply"] == 2 and last["to_move"] == 0
    assert last["state"] == match.state and last["legal_moves"] == list("1234567")
    # play goes on from there, and the bot answers again at the same ply numbers
    services.submit_move(match.pk, 0, "5", 2)
    match.refresh_from_db()
    assert match.ply == 4 and Move.objects.get(match=match, ply=2).move == "5"


def test_takeback_while_the_bot_is_still_thinking_removes_only_your_move(alice, fast_bot):
    match = bot_match(alice, fast_bot)
    with NoBotReplies():
        services.submit_move(match.pk, 0, "4", 0)
    services.match_offer(match.pk, 0, "takeback")  # the client frame: granted at once against bots
    match.refresh_from_db()
    assert match.ply == 0 and match.to_move == 0 and not Move.objects.filter(match=match).exists()
    assert match.state == registry.get("connect4").to_json(registry.get("connect4").initial_state())


def test_nothing_to_take_back_draws_with_bots_and_finished_matches_are_refused(alice, fast_bot):
    match = bot_match(alice, fast_bot)
    with pytest.raises(NothingToTakeBack):
        services.match_takeback(match.pk, 0)
    with pytest.raises(OfferNotAllowed):
        services.match_offer(match.pk, 0, "draw")
    services.submit_move(match.pk, 0, "4", 0)
    services.match_resign(match.pk, 0)
    with pytest.raises(GameOver):
        services.match_takeback(match.pk, 0)
    assert Move.objects.filter(match=match).count() == 2


def test_a_bot_result_for_the_old_position_is_dropped_after_a_takeback(alice, fast_bot):
    """The ply number comes back after a takeback: a search for the old position must not land."""
    match = bot_match(alice, fast_bot)
    with NoBotReplies():
        services.submit_move(match.pk, 0, "4", 0)
        now = time.time()
        stale_turn = bot_turn_prepare(match.pk, 1, now + 0.05, now)  # searched for the position after "4"
        stats = compute_move(stale_turn)
        services.match_takeback(match.pk, 0)
        services.submit_move(match.pk, 0, "1", 0)  # ply 1 again, another position
    assert bot_turn_finish(stale_turn, stats) is False
    assert Move.objects.filter(match=match).count() == 1
    # the old result dropped, a search for the current position lands
    now = time.time()
    fresh = bot_turn_prepare(match.pk, 1, now + 0.05, now)
    assert bot_turn_finish(fresh, compute_move(fresh)) is True
    assert Move.objects.filter(match=match).count() == 2


def test_a_bot_result_for_a_ply_taken_back_is_dropped_as_stale(alice, fast_bot):
    match = bot_match(alice, fast_bot)
    with NoBotReplies():
        services.submit_move(match.pk, 0, "4", 0)
        now = time.time()
        turn = bot_turn_prepare(match.pk, 1, now + 0.05, now)
        stats = compute_move(turn)
        services.match_takeback(match.pk, 0)
    assert bot_turn_finish(turn, stats) is False
    with pytest.raises(StalePly):
        services.submit_move(match.pk, 1, stats["move"], 1)
    assert not Move.objects.filter(match=match).exists()


# --- between people: requests and offers -------------------------------------------------


def test_takeback_request_accepted_goes_back_to_the_requesters_move(alice, bob):
    match = human_match("connect4", alice, bob)
    services.submit_move(match.pk, 0, "4", 0)
    services.submit_move(match.pk, 1, "4", 1)
    with pytest.raises(OfferNotAllowed):
        services.match_takeback(match.pk, 0)  # not at once between people
    services.match_offer(match.pk, 1, "takeback")
    match.refresh_from_db()
    assert match.offer == {"kind": "takeback", "seat": 1, "ply": 2, "awaiting": [0]}
    assert frames(match.pk)[-1] == {"type": "offer", "offer": match.offer}
    services.match_answer(match.pk, 0, accept=True)
    match.refresh_from_db()
    assert match.ply == 1 and match.to_move == 1 and match.offer is None
    assert [f["type"] for f in frames(match.pk)[-2:]] == ["offer_answered", "takeback"]
    answered = frames(match.pk)[-2]
    assert answered["accepted"] is True and answered["by"] == 0 and answered["kind"] == "takeback"


def test_declined_and_withdrawn_offers_change_nothing(alice, bob):
    match = human_match("connect4", alice, bob)
    services.submit_move(match.pk, 0, "4", 0)
    services.match_offer(match.pk, 0, "takeback")
    services.match_answer(match.pk, 1, accept=False)
    match.refresh_from_db()
    assert match.offer is None and match.ply == 1
    services.match_offer(match.pk, 0, "draw")
    with pytest.raises(NoOffer):
        services.match_answer(match.pk, 0, accept=True)  # not your own
    services.match_answer(match.pk, 0, accept=False)  # withdrawn
    match.refresh_from_db()
    assert match.offer is None and match.status == Match.Status.ACTIVE


def test_offer_errors(alice, bob):
    match = human_match("connect4", alice, bob)
    with pytest.raises(NothingToTakeBack):
        services.match_offer(match.pk, 1, "takeback")
    with pytest.raises(NoOffer):
        services.match_answer(match.pk, 1, accept=True)
    services.match_offer(match.pk, 0, "draw")
    with pytest.raises(OfferPending):
        services.match_offer(match.pk, 0, "draw")
    with pytest.raises(OfferPending):
        services.match_offer(match.pk, 1, "draw")
    waiting = human_match("connect4", alice)
    with pytest.raises(OfferNotAllowed):
        services.match_offer(waiting.pk, 0, "draw")


def test_a_draw_by_agreement_ends_the_match(alice, bob):
    match = human_match("connect4", alice, bob)
    services.match_offer(match.pk, 0, "draw")
    services.submit_move(match.pk, 0, "4", 0)  # the offerer may play on: the offer stands
    services.match_answer(match.pk, 1, accept=True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result == {"returns": [0.0, 0.0], "winner": None, "reason": "draw agreed", "ranking": []}
    assert frames(match.pk)[-1]["type"] == "game_over"


def test_a_move_by_the_answerer_cancels_the_offer(alice, bob):
    match = human_match("connect4", alice, bob)
    services.submit_move(match.pk, 0, "4", 0)
    services.match_offer(match.pk, 0, "takeback")
    services.submit_move(match.pk, 1, "3", 1)  # bob plays on instead of answering
    match.refresh_from_db()
    assert match.offer is None and match.ply == 2
    cancelled = frames(match.pk)[-1]
    assert cancelled["type"] == "offer_answered" and cancelled["accepted"] is False and cancelled["cancelled"]
    with pytest.raises(NoOffer):
        services.match_answer(match.pk, 1, accept=True)
    assert match.ply == 2 and Move.objects.filter(match=match).count() == 2


def test_an_accept_racing_a_move_applies_exactly_one_of_them(alice, bob):
    """Bob accepts alice's takeback while sending a move: whichever takes the lock first wins."""
    for _ in range(3):
        match = human_match("connect4", alice, bob)
        services.submit_move(match.pk, 0, "4", 0)
        services.match_offer(match.pk, 0, "takeback")
        outcomes = race(
            accept=lambda match_id=match.pk: services.match_answer(match_id, 1, accept=True),
            move=lambda match_id=match.pk: services.submit_move(match_id, 1, "3", 1),
        )
        match.refresh_from_db()
        if outcomes["accept"] == "ok":
            assert outcomes["move"] in ("stale_ply", "not_your_turn")
            assert match.ply == 0 and not Move.objects.filter(match=match).exists()
        else:
            assert outcomes == {"accept": "no_offer", "move": "ok"}
            assert match.ply == 2 and Move.objects.filter(match=match).count() == 2
        assert match.offer is None


def race(**calls) -> dict[str, str]:
    """Run the calls in threads released together; each one's "ok" or error code."""
    outcomes: dict[str, str] = {}
    start = threading.Barrier(len(calls))

    def run(name, call):
        start.wait()
        try:
            call()
            outcomes[name] = "ok"
        except Exception as exc:  # noqa: BLE001 - the loser's error is the point
            outcomes[name] = getattr(exc, "code", repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_a_takeback_with_dice_keeps_the_roll_before_your_move(alice):
    """Backgammon: back to the position before your move, dice already rolled: no fishing for a new roll."""
    from server.bots.models import BotProfile

    bot = BotProfile.objects.get(slug="backgammon-random")
    match = services.match_create(
        "backgammon", [services.SeatRequest("human"), services.SeatRequest("bot", bot)], alice
    )
    match.refresh_from_db()
    assert match.to_move == 0  # (if the opening roll gave the bot the first move, it has played it)
    before = (match.ply, match.state, match.to_move)
    game = registry.get("backgammon")
    move = game.legal_moves(game.from_json(match.state))[0]
    services.submit_move(match.pk, 0, move, match.ply)
    match.refresh_from_db()
    assert match.ply > before[0] + 1  # the bot's dice and reply came in
    services.match_takeback(match.pk, 0)
    match.refresh_from_db()
    assert (match.ply, match.state, match.to_move) == before
    assert Move.objects.filter(match=match).order_by("-ply").first().seat == -1  # our roll is kept
