"""``/api/players/<name>/`` and its ``matches/``: a person's public profile and match history.

Public reads: no sign-in needed, and none is looked at.  ``<name>`` is an account's name
as it looks (``alice`` finds ``Alice``) or a guest's exact name; bots have their own pages
(``/api/bots/<slug>/``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import registry
from server.http.openapi import errors
from server.matches.serializers import SeatPlayerSerializer
from server.players import history
from server.players.models import Player

NAME_PARAMETER = OpenApiParameter(
    "name",
    # "me" and "guest" are the caller's own endpoints (`/api/players/me/`, `/api/players/guest/`),
    # and no account may take them as a name.
    {"type": "string", "minLength": 1, "maxLength": 40, "not": {"enum": ["me", "guest"]}},
    OpenApiParameter.PATH,
    description="an account's name (any case), or a guest's exact name; never `me` or `guest`",
)


class GameResultsSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(help_text="a game id, e.g. connect4")
    played = serializers.IntegerField(help_text="finished matches")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()


class BotResultsSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField(help_text="the bot profile: /api/bots/<slug>/")
    name = serializers.CharField()
    game = serializers.CharField()
    wins = serializers.IntegerField(help_text="the person's wins against this bot")
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()


class ProfileSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["human", "agent"], help_text="agent: a bot account (docs/bots.md)")
    is_ai = serializers.BooleanField(
        help_text="false for a person, true for a bot account; house bots are at /api/bots/"
    )
    is_guest = serializers.BooleanField()
    owner = serializers.CharField(required=False, help_text="a bot account's only: the person who registered it")
    joined = serializers.DateTimeField()
    games = GameResultsSerializer(many=True, help_text="per game the person has played")
    bots = BotResultsSerializer(many=True, help_text="results against each bot profile met in a finished match")


class HistoryEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField(help_text="waiting, active, adjourned, finished or aborted")
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    seat = serializers.IntegerField(help_text="the person's seat index")
    result = serializers.ChoiceField(
        choices=list(history.RESULTS), allow_null=True, help_text="from the person's side; null until finished"
    )
    place = serializers.DictField(
        allow_null=True,
        help_text='games of three or more that are no draw: {"place": 1, "shared": true, "of": 3}; else null',
    )
    reason = serializers.CharField(allow_null=True, help_text='how it ended, e.g. "four in a row"')
    opponents = SeatPlayerSerializer(many=True, help_text="who sits in the other seats (open seats left out)")
    replay_url = serializers.CharField(help_text="the match's page")
    analysis_url = serializers.CharField(help_text="the match's analysis page")


class HistoryPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField(help_text="matches that pass the filters")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = HistoryEntrySerializer(many=True)


class HistoryQuerySerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=[], required=False, help_text="a game id")
    opponent = serializers.CharField(
        required=False, max_length=60, help_text="a person's name, or a bot profile's slug or name"
    )
    result = serializers.ChoiceField(choices=list(history.RESULTS), required=False, help_text="from the person's side")
    page = serializers.IntegerField(required=False, min_value=1, default=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [g.id for g in registry.all()]  # type: ignore[attr-defined]  # a ChoiceField


def _no_player(name: str) -> Response:
    return Response({"detail": f"nobody is called {name!r}", "code": "not_found"}, status=404)


class ProfileView(APIView):
    """``GET /api/players/{name}/``: a person's public profile."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(parameters=[NAME_PARAMETER], responses={200: ProfileSerializer, **errors(404)})
    def get(self, request: Request, name: str) -> Response:
        player = history.player_by_name(name)
        if player is None:
            return _no_player(name)
        return Response(history.profile_json(player))


class HistoryView(APIView):
    """``GET /api/players/{name}/matches/``: a person's matches, newest first, 20 a page."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        parameters=[NAME_PARAMETER, HistoryQuerySerializer],
        responses={200: HistoryPageSerializer, **errors(400, 404)},
    )
    def get(self, request: Request, name: str) -> Response:
        query = HistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player: Player | None = history.player_by_name(name)
        if player is None:
            return _no_player(name)
        wanted = history.HistoryFilter(
            query.validated_data.get("game"), query.validated_data.get("opponent"), query.validated_data.get("result")
        )
        page = history.history_page(player, wanted, query.validated_data["page"])
        if page is None:
            return Response({"detail": "no such page", "code": "not_found"}, status=404)
        return Response(
            {
                "count": page.paginator.count,
                "page": page.number,
                "pages": page.paginator.num_pages,
                "results": [history.history_entry(m) for m in page.object_list],
            }
        )
