"""Quick pairing's rules: compatible seeks, rating ranges, exactly once, seeks leaving with their person."""

from __future__ import annotations

import pytest

from server.matches.errors import BadMessage, RatedNeedsAccount
from server.matches.models import Match
from server.matches.presence import ONLINE
from server.pairing import services
from server.pairing.errors import SeekUnavailable
from server.pairing.models import Seek
from server.pairing.services import SeekRequest, compatible, seek_accept, seek_cancel, seek_left, seek_place
from server.players.models import Player
from server.players.services import player_create_guest
from server.ratings.models import PlayerRating
from tests.support import race


def person(name: str, guest: bool = False) -> Player:
    """Someone with a lobby socket open; an account unless `guest` (rated seeks need accounts)."""
    player = player_create_guest(name)
    player.online_until, player.is_guest = ONLINE, guest
    player.save()
    return player


def seek(game="connect4", clock="", rated=True, rating=1500, rating_range=None, player_id=1) -> Seek:
    return Seek(game=game, clock=clock, rated=rated, rating=rating, rating_range=rating_range, player_id=player_id)


@pytest.mark.parametrize(
    ("a", "b", "pairs"),
    [
        (seek(), seek(player_id=2), True),
        (seek(), seek(player_id=1), False),  # the same person
        (seek(), seek(game="tictactoe", player_id=2), False),
        (seek(clock="5+3"), seek(clock="3+2", player_id=2), False),
        (seek(rated=True), seek(rated=False, player_id=2), False),
        (seek(rating=1500, rating_range=100), seek(rating=1600, player_id=2), True),  # the edge is inside
        (seek(rating=1500, rating_range=100), seek(rating=1601, player_id=2), False),
        (seek(rating=1500), seek(rating=1800, rating_range=200, player_id=2), False),  # the other's range counts
        (seek(rating=1500, rating_range=400), seek(rating=1800, rating_range=300, player_id=2), True),
    ],
)
def test_two_seeks_pair_when_the_same_pool_and_each_inside_the_others_range(a, b, pairs):
    assert compatible(a, b) is pairs
    assert compatible(b, a) is pairs


@pytest.mark.django_db
def test_two_compatible_seeks_make_one_match_between_them():
    alice, bob = person("Alice"), person("Bob")
    assert seek_place(alice, "chan-a", SeekRequest("connect4", "5+3", rated=False)) is None
    match_id = seek_place(bob, "chan-b", SeekRequest("connect4", "5+3", rated=False))
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.ACTIVE and match.game == "connect4"
    assert {s.player_id for s in match.seats.all()} == {alice.pk, bob.pk}
    assert match.clock == {"initial_ms": 300_000, "increment_ms": 3000}
    assert match.rated is False
    assert not Seek.objects.exists()


@pytest.mark.django_db
def test_incompatible_seeks_wait_and_a_new_seek_replaces_the_old():
    alice, bob = person("Alice"), person("Bob")
    seek_place(alice, "chan-a", SeekRequest("connect4", "", rated=True))
    assert seek_place(bob, "chan-b", SeekRequest("connect4", "", rated=False)) is None
    assert seek_place(bob, "chan-b", SeekRequest("connect4", "5+3", rated=True)) is None
    assert Seek.objects.count() == 2 and Seek.objects.get(player=bob).clock == "5+3"
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_range_leaves_people_out(monkeypatch):
    ratings = {}
    monkeypatch.setattr(services, "rating_of", lambda player_id, game: ratings[player_id])
    alice, bob, carol = person("Alice"), person("Bob"), person("Carol")
    ratings.update({alice.pk: 1500, bob.pk: 1900, carol.pk: 1650})
    seek_place(alice, "a", SeekRequest("connect4", rating_range=200))
    assert seek_place(bob, "b", SeekRequest("connect4")) is None
    with pytest.raises(SeekUnavailable):
        seek_accept(Seek.objects.get(player=alice).pk, bob)
    match_id = seek_place(carol, "c", SeekRequest("connect4"))
    assert {s.player_id for s in Match.objects.get(pk=match_id).seats.all()} == {alice.pk, carol.pk}
    assert list(Seek.objects.values_list("player_id", flat=True)) == [bob.pk]


@pytest.mark.django_db
def test_a_seek_is_placed_at_the_persons_rating_in_that_game():
    alice = person("Alice")
    PlayerRating.objects.create(player=alice, game="connect4", rating=1812.6, games=9)
    seek_place(alice, "a", SeekRequest("connect4", rating_range=100))
    assert Seek.objects.get(player=alice).rating == 1813
    othello = SeekRequest("othello")
    seek_place(alice, "a", othello)  # no rated match in Othello yet: the starting rating
    assert Seek.objects.get(player=alice).rating == 1500


@pytest.mark.django_db
def test_clicking_a_seek_takes_it_once():
    alice, bob, carol = person("Alice"), person("Bob"), person("Carol")
    seek_place(alice, "a", SeekRequest("tictactoe"))
    seek_place(bob, "b", SeekRequest("connect4"))  # Bob's own seek goes when he takes Alice's
    target = Seek.objects.get(player=alice).pk
    match_id = seek_accept(target, bob)
    assert {s.player_id for s in Match.objects.get(pk=match_id).seats.all()} == {alice.pk, bob.pk}
    assert not Seek.objects.exists()
    with pytest.raises(SeekUnavailable):
        seek_accept(target, carol)
    seek_place(carol, "c", SeekRequest("tictactoe"))
    with pytest.raises(SeekUnavailable):
        seek_accept(Seek.objects.get(player=carol).pk, carol)


@pytest.mark.django_db
def test_a_seek_goes_with_its_socket_with_cancel_and_with_its_person():
    alice, bob = person("Alice"), person("Bob")
    seek_place(alice, "chan-a", SeekRequest("connect4"))
    assert seek_left("chan-other") is False
    assert seek_left("chan-a") is True and not Seek.objects.exists()
    seek_place(alice, "chan-a", SeekRequest("connect4"))
    assert seek_cancel(alice.pk) is True and not Seek.objects.exists()
    seek_place(alice, "chan-a", SeekRequest("connect4"))
    Player.objects.filter(pk=alice.pk).update(online_until=None)  # her web process died: presence expired
    assert seek_place(bob, "chan-b", SeekRequest("connect4")) is None
    assert list(Seek.objects.values_list("player_id", flat=True)) == [bob.pk]


@pytest.mark.django_db
def test_a_guest_neither_places_nor_takes_a_rated_seek():
    guest, alice = person("Drifter", guest=True), person("Alice")
    with pytest.raises(RatedNeedsAccount) as refused:
        seek_place(guest, "g", SeekRequest("connect4", rated=True))
    assert refused.value.code == "rated_needs_account" and not Seek.objects.exists()
    seek_place(alice, "a", SeekRequest("connect4", rated=True))
    with pytest.raises(RatedNeedsAccount):
        seek_accept(Seek.objects.get(player=alice).pk, guest)
    assert not Match.objects.exists()
    assert seek_place(guest, "g", SeekRequest("connect4", rated=False)) is None  # casual: welcome
    assert Seek.objects.count() == 2 and not Match.objects.exists()  # rated and casual never pair


@pytest.mark.django_db
@pytest.mark.parametrize(
    "request_",
    [
        SeekRequest("nogame"),
        SeekRequest("chinese-checkers"),
        SeekRequest("connect4", "5"),
        SeekRequest("connect4", "999+0"),
    ],
)
def test_bad_seeks_are_refused(request_):
    with pytest.raises(BadMessage):
        seek_place(person("Alice"), "a", request_)


@pytest.mark.django_db(transaction=True)
def test_seeks_placed_at_once_are_paired_exactly_once():
    people = [person(f"Seeker {i}") for i in range(6)]
    results = race(lambda i: seek_place(people[i], f"chan-{people[i].pk}", SeekRequest("connect4", "3+2")), len(people))
    errors = [r for r in results if isinstance(r, Exception)]
    assert errors == []
    seated = [s.player_id for m in Match.objects.all() for s in m.seats.all()]
    assert sorted(seated) == sorted(p.pk for p in people)  # everyone in exactly one match
    assert Match.objects.count() == 3 and not Seek.objects.exists()


@pytest.mark.django_db
def test_seeks_pair_only_with_the_same_game_options_and_the_match_plays_them():
    alice, bob, carol = person("Alice"), person("Bob"), person("Carol")
    cube = {"cube": True}
    assert seek_place(alice, "chan-a", SeekRequest("backgammon", "", rated=False, options=cube)) is None
    # Bob wants a plain game: no pairing with Alice's money game.
    assert seek_place(bob, "chan-b", SeekRequest("backgammon", "", rated=False)) is None
    assert Seek.objects.get(player=alice).options == {"cube": True, "jacoby": False, "match_to": 0}
    assert Seek.objects.get(player=bob).options == {"cube": False, "jacoby": False, "match_to": 0}
    match_id = seek_place(carol, "chan-c", SeekRequest("backgammon", "", rated=False, options=cube))
    match = Match.objects.get(pk=match_id)
    assert {s.player_id for s in match.seats.all()} == {alice.pk, carol.pk}
    assert match.options == {"cube": True, "jacoby": False, "match_to": 0} and match.state["cube"]["value"] == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "says"),
    [({"cube": 1}, "'cube' is true or false"), ({"match_to": 7, "jacoby": True}, "Jacoby"), ({"x": 1}, "no option")],
)
def test_a_seek_with_wrong_options_is_refused_saying_why(options, says):
    with pytest.raises(BadMessage, match=says):
        seek_place(person("Alice"), "chan-a", SeekRequest("backgammon", "", rated=False, options=options))
    assert not Seek.objects.exists()
