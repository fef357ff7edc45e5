"""Building tournaments and playing their games out in tests, through the real services."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from server.matches import services as match_services
from server.players.models import Player
from server.players.services import player_create_guest
from server.tournaments import rounds, services
from server.tournaments.models import Pairing, Tournament
from tests.server.conftest import with_account


def people(n: int) -> list[Player]:
    return [with_account(player_create_guest()) for _ in range(n)]


def tournament(kind: str = "swiss", game: str = "tictactoe", **changes: object) -> Tournament:
    fields: dict[str, object] = {
        "name": f"Test {kind}",
        "kind": kind,
        "game": game,
        "clock": "3+2",
        "starts_at": timezone.now(),
        "rounds": 3 if kind == "swiss" else None,
        "minutes": 10 if kind == "arena" else None,
        "max_entrants": 16,
        **changes,
    }
    return services.tournament_create(None, services.TournamentRequest(**fields))  # type: ignore[arg-type]


def entered(kind: str, n: int, **changes: object) -> tuple[Tournament, list[Player]]:
    t = tournament(kind, **changes)
    players = people(n)
    for p in players:
        services.tournament_join(t.pk, p)
    return t, players


def running(t: Tournament) -> list[Pairing]:
    """The pairings whose matches are under way."""
    return list(Pairing.objects.filter(tournament=t, white_score__isnull=True, match__isnull=False))


def resign(pairing: Pairing, loser_seat: int, callbacks: object) -> None:
    """The seat `loser_seat` of the pairing's match resigns; the end reaches the tournament as it
    does on the site (`match_finished` after commit), through `callbacks` (pytest-django's
    `django_capture_on_commit_callbacks`)."""
    assert pairing.match_id is not None
    with callbacks(execute=True):  # type: ignore[operator]
        match_services.match_resign(pairing.match_id, loser_seat)


def tick_at(minutes: float = 0) -> rounds.TickResult:
    return rounds.tick(timezone.now() + timedelta(minutes=minutes))
