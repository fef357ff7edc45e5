"""Rematch: offered after a match between people, accepted once, seats swapped; declined or left."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from server.matches import services
from server.matches.errors import NoOffer, OfferNotAllowed
from server.matches.models import Match, MatchEvent
from server.matches.services import rematch
from server.matches.services.rematch import rematch_answer, rematch_left, rematch_offer
from server.matches.watch import watch_pass
from tests.server.conftest import human_match
from tests.server.test_consumers import connect, receive_type
from tests.support import race

pytestmark = pytest.mark.django_db


def finished(alice, bob, clock=None) -> Match:
    human = services.SeatRequest("human")
    match = services.match_create("tictactoe", [human, human], alice, clock=clock)
    services.match_join(match.pk, bob)
    services.match_resign(match.pk, 1)
    return Match.objects.get(pk=match.pk)


def frames_of(match: Match) -> list[str]:
    return [e.frame["type"] for e in MatchEvent.objects.filter(match=match).order_by("v")]


def test_an_accepted_rematch_swaps_the_seats_once(alice, bob):
    match = finished(alice, bob, clock=services.Clock(5, 3))
    assert rematch_offer(match.pk, 0) is None
    assert rematch_offer(match.pk, 0) is None  # a double click
    next_id = rematch_answer(match.pk, 1, True)
    assert rematch_answer(match.pk, 1, True) == next_id  # a double click on Accept
    assert rematch_offer(match.pk, 0) == next_id
    following = Match.objects.get(pk=next_id)
    assert [s.player_id for s in following.seats.all()] == [bob.pk, alice.pk]
    assert following.status == Match.Status.ACTIVE and following.clock == match.clock
    assert Match.objects.count() == 2
    assert frames_of(match)[-2:] == ["rematch_offer", "rematch"]


def test_a_rematch_plays_the_same_game_options(alice, bob):
    human = services.SeatRequest("human")
    match = services.match_create("backgammon", [human, human], alice, options={"match_to": 3})
    services.match_join(match.pk, bob)
    services.match_resign(match.pk, 1)
    rematch_offer(match.pk, 0)
    following = Match.objects.get(pk=rematch_answer(match.pk, 1, True))
    assert following.options == {"cube": True, "jacoby": False, "match_to": 3}
    assert following.state["match_to"] == 3


def test_both_offering_at_once_is_an_acceptance(alice, bob):
    match = finished(alice, bob)
    rematch_offer(match.pk, 1)
    next_id = rematch_offer(match.pk, 0)
    assert next_id is not None and Match.objects.count() == 2


def test_declining_and_withdrawing_are_heard_by_both(alice, bob):
    match = finished(alice, bob)
    rematch_offer(match.pk, 0)
    with pytest.raises(NoOffer):
        rematch_answer(match.pk, 0, True)  # not one's own
    assert rematch_answer(match.pk, 1, False) is None
    assert Match.objects.get(pk=match.pk).offer is None
    events = list(MatchEvent.objects.filter(match=match).order_by("v"))
    assert events[-1].frame == {"type": "rematch_answered", "seat": 0, "by": 1, "accepted": False}
    with pytest.raises(NoOffer):
        rematch_answer(match.pk, 1, True)
    rematch_offer(match.pk, 1)
    rematch_answer(match.pk, 1, False)  # withdrawn
    assert Match.objects.count() == 1


def test_leaving_calls_the_rematch_off(alice, bob):
    match = finished(alice, bob)
    rematch_offer(match.pk, 0)
    rematch_left(match.pk, 0)
    frame = MatchEvent.objects.filter(match=match).order_by("v").last().frame
    assert frame == {"type": "rematch_answered", "seat": 0, "by": 0, "accepted": False, "reason": "left"}
    with pytest.raises(NoOffer):
        rematch_answer(match.pk, 1, True)


def test_no_rematch_before_the_end_or_against_bots(alice, bob, fast_bot):
    live = human_match("tictactoe", alice, bob)
    with pytest.raises(OfferNotAllowed):
        rematch_offer(live.pk, 0)
    bot = services.SeatRequest("bot", fast_bot)
    against_bot = services.match_create("connect4", [services.SeatRequest("human"), bot], alice)
    services.match_resign(against_bot.pk, 0)
    with pytest.raises(OfferNotAllowed):
        rematch_offer(against_bot.pk, 0)


@pytest.mark.django_db(transaction=True)
def test_both_clicking_at_once_make_one_match(alice, bob):
    match = finished(alice, bob)
    made = race(lambda i: rematch_offer(match.pk, i % 2), 4)
    assert not [m for m in made if isinstance(m, Exception)]
    assert Match.objects.count() == 2
    assert len({m for m in made if m is not None}) == 1


def watch_after(ms: int):
    """One pass of the match watch, its clock `ms` from now."""
    return database_sync_to_async(watch_pass)(heartbeat=False, now=timezone.now() + timedelta(milliseconds=ms))


def offer_of(match: Match):
    return database_sync_to_async(lambda: Match.objects.get(pk=match.pk).offer)()


@pytest.mark.django_db(transaction=True)
async def test_a_reload_keeps_the_rematch_offer_and_leaving_calls_it_off_after_the_grace(two_players, settings):
    # Inside the presence staleness (10 s): a pass on a later clock still finds the open sockets fresh.
    settings.REMATCH_LEFT_GRACE_MS = grace = 3000
    rematch._leaving.clear()  # notes of earlier tests' matches, whose ids this database reuses
    match, alice_token, bob_token = two_players
    await database_sync_to_async(services.match_resign)(match.pk, 1)
    path = f"/ws/matches/{match.pk}/"
    alice, bob = await connect(path, alice_token), await connect(path, bob_token)
    for comm in (alice, bob):
        await receive_type(comm, "state")
    await alice.send_json_to({"type": "rematch_offer"})
    await receive_type(bob, "rematch_offer")

    await bob.disconnect()  # a reload: the page's socket closes, and a new one opens at once
    bob = await connect(path, bob_token)
    assert (await receive_type(bob, "state"))["match"]["offer"]["kind"] == "rematch"
    assert (await watch_after(grace + 1000)).rematches_withdrawn == 0
    assert (await offer_of(match))["awaiting"] == [1]

    await bob.disconnect()  # gone for good this time
    assert (await watch_after(grace - 1000)).rematches_withdrawn == 0
    assert (await offer_of(match)) is not None
    assert (await watch_after(grace + 1000)).rematches_withdrawn == 1
    answered = await receive_type(alice, "rematch_answered")
    assert answered["by"] == 1 and answered["reason"] == "left" and not answered["accepted"]
    assert (await offer_of(match)) is None
    assert (await watch_after(grace + 2000)).rematches_withdrawn == 0  # once
    await alice.disconnect()
