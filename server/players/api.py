from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from server.http.openapi import errors
from server.players.accounts import NAME_TAKEN, name_taken
from server.players.auth import acting_player, request_player
from server.players.consent import consent_of, consent_set
from server.players.models import Player
from server.players.names import NAME_MAX, NAME_MIN, validate_guest_name
from server.players.services import player_create_guest_with_token


class PlayerSerializer(serializers.ModelSerializer[Player]):
    kind = serializers.SerializerMethodField()
    is_ai = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "kind", "is_ai", "is_guest"]

    def get_kind(self, obj: Player) -> str:
        return "human"

    def get_is_ai(self, obj: Player) -> bool:
        return False


class GuestRequestSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(
        required=False,
        trim_whitespace=False,  # the policy says what is wrong with a space at either end
        validators=[validate_guest_name],
        help_text=f"{NAME_MIN} to {NAME_MAX} letters, digits, spaces, - or _; no invisible characters, no word that "
        "claims to be an AI or a bot (AI, bot, engine...), no bot's name, and none that looks like an account's",
    )

    def validate_name(self, name: str) -> str:
        if name_taken(name):
            raise serializers.ValidationError(NAME_TAKEN, code="name_taken")
        return name


class GuestThrottle(AnonRateThrottle):
    scope = "guest"


class GuestView(APIView):
    """``POST /api/players/guest/``: a new guest player and its API token."""

    authentication_classes: list[type[BaseAuthentication]] = []
    throttle_classes = [GuestThrottle]

    @extend_schema(
        request=GuestRequestSerializer,
        responses={
            201: inline_serializer(
                "GuestCreated",
                {
                    "player": PlayerSerializer(),
                    "token": serializers.CharField(help_text="send it as 'Authorization: Bearer <token>'"),
                },
            ),
            **errors(400, 429),
        },
    )
    def post(self, request: Request) -> Response:
        body = GuestRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player, token = player_create_guest_with_token(body.validated_data.get("name"))
        return Response({"player": PlayerSerializer(player).data, "token": token}, status=status.HTTP_201_CREATED)


class MeView(APIView):
    """``GET /api/players/me/``: the player this request is."""

    @extend_schema(responses={200: PlayerSerializer, **errors(401)})
    def get(self, request: Request) -> Response:
        player = request_player(request)
        if player is None:
            return Response({"detail": "not signed in: play a match, or send a bearer token"}, status=401)
        return Response(PlayerSerializer(player).data)


class ConsentSerializer(serializers.Serializer[Any]):
    research = serializers.BooleanField(help_text="the person's games may go into research exports")
    training = serializers.BooleanField(help_text="the person's games may be used to train Plyground's bots")
    answered = serializers.BooleanField(read_only=True, help_text="false until the person first chose")

    def to_internal_value(self, data: Any) -> Any:
        # Strict JSON booleans: "false" or 0 from a form would be read as a choice nobody made.
        if isinstance(data, dict):
            wrong = {
                k: ["must be true or false"] for k in ("research", "training") if not isinstance(data.get(k), bool)
            }
            wrong |= {k: ["unknown field; known: research, training"] for k in data if k not in self.fields}
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


class ConsentView(APIView):
    """``GET``/``PUT /api/players/me/consent/``: whether the player's games go into research
    exports and into training our bots (both false until the person says yes)."""

    @extend_schema(responses={200: ConsentSerializer, **errors(401)})
    def get(self, request: Request) -> Response:
        player = acting_player(request)
        return Response(consent_of(player).to_json())

    @extend_schema(request=ConsentSerializer, responses={200: ConsentSerializer, **errors(400, 401)})
    def put(self, request: Request) -> Response:
        player = acting_player(request)
        body = ConsentSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        chosen = consent_set(player, body.validated_data["research"], body.validated_data["training"])
        return Response(chosen.to_json())
