from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import ai
from games import registry
from server.bots import public_rating
from server.bots.models import BotProfile
from server.bots.selectors import bot_record, how_it_plays
from server.http.openapi import errors

LEVEL_NAMES = {0: "Random", 1: "Beginner", 2: "Casual", 3: "Intermediate", 4: "Advanced", 5: "Master"}


class BotProfileSerializer(serializers.ModelSerializer[BotProfile]):
    is_ai = serializers.SerializerMethodField()
    level_name = serializers.SerializerMethodField()
    public_rating = serializers.SerializerMethodField()
    rating = serializers.FloatField(
        allow_null=True, read_only=True, help_text="Glicko-2, the people's scale; null: not measured (or no longer)"
    )
    deviation = serializers.FloatField(allow_null=True, read_only=True, help_text="the rating's uncertainty (RD)")
    provisional = serializers.BooleanField(read_only=True, help_text='deviation above the people\'s threshold: "?"')
    unmeasured_since = serializers.DateField(
        allow_null=True, read_only=True, help_text="its settings changed on this day: its rating is no longer measured"
    )

    class Meta:
        model = BotProfile
        fields = ["slug", "game", "name", "level", "level_name", "algorithm", "time_budget_ms", "max_depth",
                  "max_iterations", "slip_rate", "temperature", "style", "adaptive", "rating", "deviation",
                  "provisional", "rating_low", "rating_high", "rated_games", "measured_on", "rating_method",
                  "rating_budget_cap_ms", "unmeasured_since", "description", "is_ai", "public_rating"]  # fmt: skip

    def get_is_ai(self, obj: BotProfile) -> bool:
        return True  # not a field: a bot is always disclosed as an AI

    def get_level_name(self, obj: BotProfile) -> str:
        return "Adaptive" if obj.adaptive else LEVEL_NAMES.get(obj.level, f"Level {obj.level}")

    @extend_schema_field(
        inline_serializer(
            "PublicRating",
            {
                "scale": serializers.CharField(help_text='whose Elo scale, e.g. "Stockfish 15.1\'s UCI_Elo"'),
                "elo": serializers.FloatField(help_text="the Elo the bot's score against the reference implies"),
                "low": serializers.FloatField(help_text="95% interval, low end"),
                "high": serializers.FloatField(help_text="95% interval, high end"),
                "bound": serializers.CharField(
                    allow_null=True, help_text='"below" or "above" when it lost or won every game; else null'
                ),
                "games": serializers.IntegerField(help_text="games against the reference"),
                "measured_on": serializers.DateField(),
                "method": serializers.CharField(help_text="the benchmark command"),
                "label": serializers.CharField(
                    help_text='e.g. "≈1450 on Stockfish 15.1\'s UCI_Elo scale (±120, 40 games)"'
                ),
                "short": serializers.CharField(help_text='e.g. "≈1450 Stockfish Elo"'),
                "caveat": serializers.CharField(help_text="the opponent's settings, and a capped budget if any"),
            },
            allow_null=True,
        )
    )
    def get_public_rating(self, obj: BotProfile) -> dict[str, Any] | None:
        """Chess bots: the rating on Stockfish's scale, while the profile plays as it was measured; else null."""
        return public_rating.for_api(obj)


class BotDetailSerializer(BotProfileSerializer):
    how_it_plays = serializers.SerializerMethodField()
    record = serializers.SerializerMethodField()

    class Meta(BotProfileSerializer.Meta):
        fields = [*BotProfileSerializer.Meta.fields, "how_it_plays", "record"]

    def get_how_it_plays(self, obj: BotProfile) -> list[str]:
        return how_it_plays(obj)

    @extend_schema_field(
        inline_serializer(
            "BotRecord",
            {
                "games": serializers.IntegerField(help_text="finished games played"),
                "human_games": serializers.IntegerField(help_text="of which against people"),
                "human_score": serializers.FloatField(
                    allow_null=True,
                    help_text="the people's points per game against it (win 1, draw 1/2); null before any",
                ),
            },
        )
    )
    def get_record(self, obj: BotProfile) -> dict[str, Any]:
        record = bot_record(obj)
        return {"games": record.games, "human_games": record.human_games, "human_score": record.human_score}


class BotListView(APIView):
    """``GET /api/bots/?game=connect4``: the listed bot profiles, weakest first."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, enum=registry.ids(), description="only this game's bots, e.g. connect4")
        ],
        responses={200: BotProfileSerializer(many=True), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        bots = BotProfile.objects.filter(listed=True).order_by("game", "level")
        if game := request.query_params.get("game"):
            if game not in registry.ids():  # never sent to the database as is (PostgreSQL refuses NUL bytes)
                return Response({"game": [f"one of {', '.join(registry.ids())}"]}, status=400)
            bots = bots.filter(game=game)
        return Response(BotProfileSerializer(bots, many=True).data)


class BotDetailView(APIView):
    """``GET /api/bots/{slug}/``: one bot, with "how this bot plays" in plain words."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        # Django's slug converter: any other text is no URL of this view (an HTML 404 page).
        parameters=[OpenApiParameter("slug", str, OpenApiParameter.PATH, pattern=r"^[-a-zA-Z0-9_]+$")],
        responses={200: BotDetailSerializer, **errors(404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        bot = BotProfile.objects.filter(slug=slug).first()
        if bot is None:
            return Response({"detail": f"no bot {slug!r}", "code": "not_found"}, status=404)
        return Response(BotDetailSerializer(bot).data)


class AlgorithmOptionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    type = serializers.CharField(help_text='JSON type(s), e.g. "integer | null"')
    choices = serializers.ListField(child=serializers.CharField(), required=False, help_text="the allowed strings")
    default = serializers.JSONField(allow_null=True)


class AlgorithmSerializer(serializers.Serializer[Any]):
    """One entry of `ai.CATALOGUE`."""

    id = serializers.CharField(help_text="what a bot profile's `algorithm` holds")
    label = serializers.CharField(help_text="the name to show, e.g. max^n")  # type: ignore[assignment]  # a field: the metaclass takes it out of the class
    summary = serializers.CharField()
    options = AlgorithmOptionSerializer(many=True, help_text="the search options a profile may set")
    uses_opponent_model = serializers.BooleanField()
    counts_iterations = serializers.BooleanField(help_text="capped by max_iterations rather than max_depth")
    capabilities = serializers.ListField(
        child=serializers.CharField(), help_text="what it can do (`ai.Capability`): full_width, exact_root, chance, ..."
    )
    games = serializers.ListField(child=serializers.CharField(), help_text="ids of the games it fits")


class AlgorithmListView(APIView):
    """``GET /api/algorithms/``: the algorithms bots search with, and the games each fits."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(responses=AlgorithmSerializer(many=True))
    def get(self, request: Request) -> Response:
        games = registry.all()
        return Response(AlgorithmSerializer([a.to_json(games) for a in ai.CATALOGUE.values()], many=True).data)
