"""Tournaments over HTTP (docs/wire.md, "Tournaments"; docs/tournaments.md).

- ``/api/tournaments/``: ``GET`` the list (``?status=``), ``POST`` create one (a person with an account).
- ``/api/tournaments/{id}/``: ``GET`` one whole: standings, crosstable, current pairings.
- ``/api/tournaments/{id}/join/`` and ``/withdraw/``: ``POST`` a person, or a bot account with its token.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from server.http.openapi import errors
from server.matches.api import error_response
from server.matches.errors import MatchError
from server.players.auth import acting_player, acting_player_or_bot
from server.players.throttles import PlayerRateThrottle
from server.tournaments import selectors, services
from server.tournaments.errors import NoSuchTournament
from server.tournaments.models import Tournament

# The schema's enums (settings' ENUM_NAME_OVERRIDES name them).
KINDS = list(Tournament.Kind.values)
STATUSES = list(Tournament.Status.values)
ENTRIES = list(Tournament.Entry.values)
ENTRANT_KINDS = ["human", "agent", "bot"]


class TournamentRequestSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    kind = serializers.ChoiceField(choices=KINDS)
    game = serializers.CharField(max_length=40, help_text="a registered game of two (GET /api/games/)")
    clock = serializers.ChoiceField(choices=[], help_text="one of the site's time controls, minutes+seconds")
    starts_at = serializers.DateTimeField(help_text="ISO 8601; now or later, within TOURNAMENT_MAX_DAYS_AHEAD")
    entry = serializers.ChoiceField(choices=ENTRIES, default=Tournament.Entry.PEOPLE)
    rated = serializers.BooleanField(default=True)
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, help_text="Swiss only")
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=1, help_text="arena only")
    max_entrants = serializers.IntegerField(default=16, min_value=2)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clock"].choices = list(settings.TOURNAMENT_TIME_CONTROLS)  # type: ignore[attr-defined]  # a ChoiceField

    def to_request(self) -> services.TournamentRequest:
        return services.TournamentRequest.from_form(self.validated_data)


class TournamentSerializer(serializers.Serializer[Any]):
    """A tournament in the list; the detail adds `entrants_list`, `standings`, `crosstable`, `pairings`."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KINDS)
    game = serializers.CharField()
    game_name = serializers.CharField()
    clock = serializers.CharField()
    entry = serializers.ChoiceField(choices=ENTRIES)
    rated = serializers.BooleanField()
    status = serializers.ChoiceField(choices=STATUSES)
    starts_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="arena: no pairing from then on")
    finished_at = serializers.DateTimeField(allow_null=True)
    rounds = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(help_text="the round under way, 0 before the first (arena: always 0)")
    minutes = serializers.IntegerField(allow_null=True)
    max_entrants = serializers.IntegerField()
    entrants = serializers.IntegerField(help_text="entrants not withdrawn")
    created_by = serializers.CharField(allow_null=True, help_text="null: created by the site's admins")
    url = serializers.CharField()


class TournamentDetailSerializer(TournamentSerializer):
    entrants_list = serializers.ListField(
        child=serializers.DictField(),
        help_text='each {"id", "name", "kind": "human"|"agent"|"bot", "is_ai", "rating", "withdrawn", ...}',
    )
    standings = serializers.ListField(
        child=serializers.DictField(),
        help_text='best first: {"rank", "entrant", "points", "buchholz", "sonneborn_berger", "games", "wins", ...}',
    )
    crosstable = serializers.ListField(child=serializers.DictField(), help_text='{"entrant", "games": [...]}')
    pairings = serializers.ListField(
        child=serializers.DictField(), help_text="the round under way, or the arena's games"
    )


class EntrantSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(allow_null=True, help_text="null once an entry withdrawn before the start is gone")
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=ENTRANT_KINDS)
    is_ai = serializers.BooleanField()
    rating = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


TOURNAMENT_ID = OpenApiParameter("tournament_id", int, OpenApiParameter.PATH)


class TournamentThrottle(PlayerRateThrottle):
    """Creating, joining and leaving, per player: each change is sent to every watcher of the tournament."""

    scope = "tournament"


class Throttled(APIView):
    def get_throttles(self) -> list[Any]:
        return [TournamentThrottle()] if self.request.method == "POST" else []


class TournamentListView(Throttled):
    """``GET``: the tournaments.  ``POST``: create one (a person with an account, a cap each)."""

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=STATUSES, required=False)],
        responses={200: TournamentSerializer(many=True), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in Tournament.Status.values:
            return Response(
                {"detail": f"status is one of {', '.join(Tournament.Status.values)}", "code": "bad_message"}, status=400
            )
        return Response(selectors.tournaments_json(wanted))

    @extend_schema(
        request=TournamentRequestSerializer,
        responses={201: TournamentDetailSerializer, **errors(400, 401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        creator = acting_player(request)
        body = TournamentRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            tournament = services.tournament_create(creator, body.to_request())
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.tournament_json(tournament.pk), status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(parameters=[TOURNAMENT_ID], responses={200: TournamentDetailSerializer, **errors(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        detail = selectors.tournament_json(tournament_id)
        if detail is None:
            return error_response(NoSuchTournament(f"no tournament {tournament_id}"))
        return Response(detail)


class TournamentJoinView(Throttled):
    """``POST``: enter (a person with an account, or a bot account through its own token)."""

    @extend_schema(
        parameters=[TOURNAMENT_ID], request=None, responses={200: EntrantSerializer, **errors(401, 403, 404, 409, 429)}
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        player = acting_player_or_bot(request)
        try:
            entrant = services.tournament_join(tournament_id, player)
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.entrant_json(entrant))


class TournamentWithdrawView(Throttled):
    """``POST``: leave (before the start the entry is gone; after it, no more games, results stand)."""

    @extend_schema(
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={200: EntrantSerializer, **errors(401, 404, 409, 429)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        player = acting_player_or_bot(request)
        try:
            entrant = services.tournament_withdraw(tournament_id, player)
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.entrant_json(entrant))
