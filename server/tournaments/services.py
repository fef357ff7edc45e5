"""Writes to tournaments that people (and admins, and bot tokens) ask for: create, join, withdraw.

What runs unattended (starting, pairing, recording results, finishing) is in `rounds.py`.
Every write to a tournament's entrants takes the tournament's row lock, as the tick does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import registry
from server.bots.models import BotProfile
from server.matches.errors import BadMessage
from server.pairing.ratings import DEFAULT_RATING, rating_of
from server.players.models import Player
from server.tournaments import announce
from server.tournaments.errors import (
    EntryRefused,
    NoSuchTournament,
    NotEntered,
    TooManyTournaments,
    TournamentClosed,
    TournamentFull,
)
from server.tournaments.models import Entrant, Tournament


@dataclass(frozen=True)
class TournamentRequest:
    """What a tournament is, as its creator asks for it (checked by `check_request`)."""

    name: str
    kind: str
    game: str
    clock: str
    starts_at: datetime
    entry: str = Tournament.Entry.PEOPLE
    rated: bool = True
    rounds: int | None = None  # Swiss
    minutes: int | None = None  # arena
    max_entrants: int = 16

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> TournamentRequest:
        """The request a validated form (the API's serializer, the admin's form) describes."""
        return cls(
            name=data["name"],
            kind=data["kind"],
            game=data["game"],
            clock=data["clock"],
            starts_at=data["starts_at"],
            entry=data["entry"],
            rated=data["rated"],
            rounds=data.get("rounds"),
            minutes=data.get("minutes"),
            max_entrants=data["max_entrants"],
        )


def max_entrants_of(kind: str) -> int:
    """A round robin plays entrants - 1 rounds, so its field is capped by the rounds cap."""
    if kind == Tournament.Kind.ROUND_ROBIN:
        return min(settings.TOURNAMENT_MAX_ENTRANTS, settings.TOURNAMENT_MAX_ROUNDS + 1)
    return int(settings.TOURNAMENT_MAX_ENTRANTS)


def check_request(request: TournamentRequest, now: datetime | None = None) -> None:
    """`BadMessage` saying what is wrong with a request; nothing when it may be created."""
    now = now or timezone.now()
    if not request.name.strip() or len(request.name) > 80:
        raise BadMessage("a tournament's name is 1 to 80 characters")
    if request.kind not in Tournament.Kind.values:
        raise BadMessage(f"a tournament is one of {', '.join(Tournament.Kind.values)}")
    if request.entry not in Tournament.Entry.values:
        raise BadMessage(f"entry is one of {', '.join(Tournament.Entry.values)}")
    try:
        game = registry.get(request.game)
    except KeyError as exc:
        raise BadMessage(f"no game {request.game[:40]!r}: one of {', '.join(registry.ids())}") from exc
    if game.num_players != 2:
        raise BadMessage(f"{game.name} is played by {game.num_players}: tournaments are for games of two")
    if request.clock not in settings.TOURNAMENT_TIME_CONTROLS:
        raise BadMessage(
            f"the clock is one of the site's time controls: {', '.join(settings.TOURNAMENT_TIME_CONTROLS)}"
        )
    if request.starts_at < now - timedelta(minutes=1):
        raise BadMessage("a tournament starts now or later, not in the past")
    if request.starts_at > now + timedelta(days=settings.TOURNAMENT_MAX_DAYS_AHEAD):
        raise BadMessage(f"a tournament starts within {settings.TOURNAMENT_MAX_DAYS_AHEAD} days")
    cap = max_entrants_of(request.kind)
    if not 2 <= request.max_entrants <= cap:
        raise BadMessage(f"a {request.kind.replace('_', ' ')} takes 2 to {cap} entrants")
    if request.kind == Tournament.Kind.SWISS:
        if request.rounds is None or not 1 <= request.rounds <= settings.TOURNAMENT_MAX_ROUNDS:
            raise BadMessage(f"a Swiss has 1 to {settings.TOURNAMENT_MAX_ROUNDS} rounds")
    elif request.rounds is not None:
        raise BadMessage("only a Swiss chooses its rounds (a round robin plays everyone once, an arena plays on time)")
    if request.kind == Tournament.Kind.ARENA:
        if request.minutes is None or not 1 <= request.minutes <= settings.TOURNAMENT_MAX_ARENA_MINUTES:
            raise BadMessage(f"an arena lasts 1 to {settings.TOURNAMENT_MAX_ARENA_MINUTES} minutes")
    elif request.minutes is not None:
        raise BadMessage("only an arena lasts a number of minutes")


@transaction.atomic
def tournament_create(creator: Player | None, request: TournamentRequest) -> Tournament:
    """A new tournament, scheduled.  `creator` None is the site (an admin); a person needs an account
    and may have at most `TOURNAMENT_OPEN_PER_PERSON` scheduled or running."""
    if creator is not None:
        if creator.is_bot:
            raise EntryRefused("a bot account creates no tournament: its owner does")
        if creator.is_guest:
            raise EntryRefused("sign up to create a tournament: guests may not")
        Player.objects.select_for_update().filter(pk=creator.pk).first()  # one creation at a time per person
        open_ones = Tournament.objects.filter(
            created_by=creator, status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING]
        ).count()
        if open_ones >= settings.TOURNAMENT_OPEN_PER_PERSON:
            raise TooManyTournaments(
                f"you have {open_ones} tournaments scheduled or running: at most {settings.TOURNAMENT_OPEN_PER_PERSON}"
            )
    check_request(request)
    tournament = Tournament.objects.create(
        name=request.name.strip(),
        kind=request.kind,
        game=request.game,
        clock=request.clock,
        entry=request.entry,
        rated=request.rated,
        starts_at=request.starts_at,
        rounds=request.rounds,
        minutes=request.minutes,
        max_entrants=request.max_entrants,
        created_by=creator,
    )
    return tournament


def locked(tournament_id: int) -> Tournament:
    """The tournament, its row locked until the transaction ends (the tick and every entry change)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NoSuchTournament(f"no tournament {tournament_id}")
    return tournament


@transaction.atomic
def tournament_join(tournament_id: int, player: Player) -> Entrant:
    """`player` (a person, or a bot account through its token) enters; an arena's returning entrant plays again."""
    tournament = locked(tournament_id)
    if player.is_bot:
        if tournament.entry == Tournament.Entry.PEOPLE:
            raise EntryRefused("this tournament is for people: bots never take a person's place")
    else:
        if tournament.entry == Tournament.Entry.BOTS:
            raise EntryRefused("this tournament is for bots: people watch it")
        if player.is_guest:
            raise EntryRefused("sign up to play in tournaments: guests may not")
    existing = Entrant.objects.filter(tournament=tournament, player=player).first()
    return _enter(tournament, existing, lambda: Entrant(player=player, rating=rating_of(player.pk, tournament.game)))


@transaction.atomic
def house_bot_add(tournament_id: int, profile: BotProfile) -> Entrant:
    """An admin enters a house bot (a bot profile of the tournament's game)."""
    tournament = locked(tournament_id)
    if tournament.entry == Tournament.Entry.PEOPLE:
        raise EntryRefused("this tournament is for people: bots never take a person's place")
    if profile.game != tournament.game:
        raise BadMessage(f"{profile.name} plays {profile.game}, not {tournament.game}")
    existing = Entrant.objects.filter(tournament=tournament, bot_profile=profile).first()
    rating = round(profile.rating) if profile.rating is not None else DEFAULT_RATING
    return _enter(tournament, existing, lambda: Entrant(bot_profile=profile, rating=rating))


def _enter(tournament: Tournament, existing: Entrant | None, new: Callable[[], Entrant]) -> Entrant:
    if not tournament.takes_entrants:
        raise TournamentClosed(f"the tournament is {tournament.status}: it takes no entrants now")
    if existing is not None and not existing.withdrawn:
        return existing  # joining twice changes nothing
    if tournament.entrants.filter(withdrawn=False).count() >= tournament.max_entrants:
        raise TournamentFull(f"the tournament has its {tournament.max_entrants} entrants")
    if existing is not None:
        existing.withdrawn = False  # an arena's entrant comes back (before a start, a withdrawal leaves no row)
        existing.save(update_fields=["withdrawn"])
        announce.after_commit(tournament.pk)
        return existing
    entrant = new()
    entrant.tournament = tournament
    entrant.save()
    announce.after_commit(tournament.pk)
    return entrant


@transaction.atomic
def tournament_withdraw(tournament_id: int, player: Player) -> Entrant:
    """`player` leaves: before the start their entry is gone; after it they are paired no more,
    and their results stand (a game under way is played out or lost on the clock)."""
    tournament = locked(tournament_id)
    entrant = Entrant.objects.filter(tournament=tournament, player=player, withdrawn=False).first()
    if entrant is None:
        raise NotEntered("you are not in this tournament")
    return withdraw(tournament, entrant)


def withdraw(tournament: Tournament, entrant: Entrant) -> Entrant:
    """Under the tournament's lock: the entrant leaves, marked withdrawn; before the start its
    entry is deleted too (the instance returned has no id then)."""
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise TournamentClosed(f"the tournament is {tournament.status}")
    announce.after_commit(tournament.pk)
    entrant.withdrawn = True
    if tournament.status == Tournament.Status.SCHEDULED:
        entrant.delete()
    else:
        entrant.save(update_fields=["withdrawn"])
    return entrant
