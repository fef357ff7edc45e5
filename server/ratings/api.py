"""``GET /api/leaderboards/<game>/``, ``GET /api/players/<name>/ratings/`` and
``GET /api/matches/<id>/ratings/`` (docs/wire.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import registry
from server.http.openapi import errors
from server.players.history import player_by_name
from server.players.selectors import player_json
from server.ratings import selectors


class RatingSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    rating = serializers.FloatField(help_text="Glicko-2, on the Glicko scale (1500 at the start)")
    deviation = serializers.FloatField(help_text="the rating's uncertainty (RD), in rating points")
    volatility = serializers.FloatField()
    provisional = serializers.BooleanField(help_text='deviation above the threshold: shown with "?"')
    games = serializers.IntegerField(help_text="rated matches played in this game")


class HistoryPointSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField(help_text="when the rated match ended")
    rating = serializers.FloatField(help_text="the rating after it")
    deviation = serializers.FloatField()


class PlayerRatingsSerializer(serializers.Serializer[Any]):
    player = serializers.DictField(help_text='{"id", "name", "kind": "human", "is_ai": false, "is_guest"}')
    ratings = RatingSerializer(many=True)
    history = serializers.DictField(
        child=HistoryPointSerializer(many=True), help_text="per game id: the rating after each rated match"
    )
    provisional_deviation = serializers.FloatField(help_text="ratings with a larger deviation are provisional")


class LeaderPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text='always "human": bots have no rating here')
    is_ai = serializers.BooleanField()
    is_guest = serializers.BooleanField(help_text="a guest, shown with the Guest marker")


class LeaderSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = LeaderPlayerSerializer()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField(help_text='shown with "?"; listed after every established rating')
    games = serializers.IntegerField()
    last_played = serializers.DateTimeField()


class LeaderboardSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    active_days = serializers.IntegerField(help_text="only people who played a rated match in these last days")
    leaders = LeaderSerializer(many=True)


class RatingChangeSerializer(serializers.Serializer[Any]):
    before = serializers.FloatField()
    after = serializers.FloatField()
    provisional_before = serializers.BooleanField()
    provisional_after = serializers.BooleanField()


class SeatRatingSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["human", "bot"], help_text="a person's rating, or a bot profile's")
    rating = serializers.FloatField(help_text="the person's rating in the match's game now (1500 before any)")
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField()
    change = RatingChangeSerializer(allow_null=True, help_text="what this match did to it; null until a rated end")


class MatchRatingsSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    rated = serializers.BooleanField()
    seats = SeatRatingSerializer(many=True, help_text="the seats held by people and by measured bots, one scale")


def not_found(detail: str) -> Response:
    return Response({"detail": detail, "code": "not_found"}, status=404)


class LeaderboardView(APIView):
    """``GET /api/leaderboards/{game}/``: active people's ratings, established best first, then provisional."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        parameters=[OpenApiParameter("game", str, OpenApiParameter.PATH, enum=[g.id for g in registry.all()])],
        responses={200: LeaderboardSerializer, **errors(404)},
    )
    def get(self, request: Request, game: str) -> Response:
        if game not in {g.id for g in registry.all()}:
            return not_found(f"no game {game!r}")
        board = {"game": game, "active_days": settings.LEADERBOARD_ACTIVE_DAYS, "leaders": selectors.leaderboard(game)}
        return Response(LeaderboardSerializer(board).data)


class PlayerRatingsView(APIView):
    """``GET /api/players/{name}/ratings/``: a person's rating per game and its history."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "name", {"type": "string", "minLength": 1, "maxLength": 40}, OpenApiParameter.PATH, description="a name"
            )
        ],
        responses={200: PlayerRatingsSerializer, **errors(404)},
    )
    def get(self, request: Request, name: str) -> Response:
        player = player_by_name(name)
        if player is None:
            return not_found(f"no player named {name!r}")
        ratings = selectors.ratings_for(player.pk)
        body = {
            "player": player_json(player),
            "ratings": ratings,
            "history": {r["game"]: selectors.rating_history(player.pk, r["game"]) for r in ratings},
            "provisional_deviation": selectors.provisional_deviation(),
        }
        return Response(PlayerRatingsSerializer(body).data)


class MatchRatingsView(APIView):
    """``GET /api/matches/{id}/ratings/``: the people of a match, their ratings and what it changed."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(responses={200: MatchRatingsSerializer, **errors(404)})
    def get(self, request: Request, match_id: int) -> Response:
        ratings = selectors.match_ratings(match_id)
        if ratings is None:
            return not_found(f"no match {match_id}")
        return Response(MatchRatingsSerializer(ratings).data)
