"""``/api/players/me/tokens/``: a player's own bearer tokens, listed (never their secret), issued, rotated, revoked.

A token expires `settings.API_TOKEN_DAYS` after it was issued; rotating gives a fresh one
(same label, a new expiry) and ends the old one at once.  The secret is shown once, in
the answer that issues it: only its hash is stored.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from server.http.openapi import errors
from server.players import selectors, services
from server.players.auth import acting_player
from server.players.models import ApiToken, hash_token
from server.players.throttles import TokenThrottle


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    current = serializers.SerializerMethodField(help_text="the token this request was sent with")

    class Meta:
        model = ApiToken
        fields = ["id", "label", "created_at", "last_used_at", "expires_at", "current"]

    def get_current(self, obj: ApiToken) -> bool:
        return obj.pk == self.context.get("current_id")


class TokenIssuedSerializer(TokenSerializer):
    token = serializers.CharField(help_text="the secret, shown this once: send it as 'Authorization: Bearer <token>'")

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]


class TokenRequestSerializer(serializers.Serializer[Any]):
    label = serializers.CharField(  # type: ignore[assignment]  # a field: the metaclass takes it out of the class
        required=False, allow_blank=True, max_length=40, help_text="your word for where it is used, e.g. 'laptop'"
    )


def _current_id(request: Request) -> int | None:
    """The id of the bearer token this request came with, if it came with one."""
    if not isinstance(request.auth, str):
        return None
    return ApiToken.objects.filter(digest=hash_token(request.auth)).values_list("pk", flat=True).first()


def _issued(row: ApiToken, token: str, request: Request) -> Response:
    data = TokenSerializer(row, context={"current_id": _current_id(request)}).data
    return Response({**data, "token": token}, status=status.HTTP_201_CREATED)


def _no_token(token_id: int) -> Response:
    return Response({"detail": f"you have no token {token_id}", "code": "not_found"}, status=404)


class TokenListView(APIView):
    """``GET``: your live tokens, newest first, without their secrets.  ``POST``: a new token."""

    def get_throttles(self) -> list[BaseThrottle]:
        return [TokenThrottle()] if self.request.method == "POST" else []

    @extend_schema(responses={200: TokenSerializer(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        player = acting_player(request)
        context = {"current_id": _current_id(request)}
        return Response(TokenSerializer(selectors.tokens_of(player.pk), many=True, context=context).data)

    @extend_schema(
        request=TokenRequestSerializer,
        responses={201: TokenIssuedSerializer, **errors(400, 401, 403, 409, 429)},
        description="Issue a token; it expires after the installation's token lifetime (90 days unless set).",
    )
    def post(self, request: Request) -> Response:
        player = acting_player(request)
        body = TokenRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            row, token = services.token_issue(player, body.validated_data.get("label", ""))
        except services.TooManyTokens as exc:
            return Response({"detail": str(exc), "code": "too_many_tokens"}, status=409)
        return _issued(row, token, request)


class TokenDetailView(APIView):
    """``DELETE``: revoke one of your tokens; it stops working at once."""

    @extend_schema(request=None, responses={204: OpenApiResponse(description="revoked"), **errors(401, 403, 404)})
    def delete(self, request: Request, token_id: int) -> Response:
        player = acting_player(request)
        if not services.token_revoke(player, token_id):
            return _no_token(token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRotateView(APIView):
    """``POST``: replace one of your tokens by a new one (same label, new expiry); the old one ends now."""

    throttle_classes = [TokenThrottle]

    @extend_schema(request=None, responses={201: TokenIssuedSerializer, **errors(401, 403, 404, 429)})
    def post(self, request: Request, token_id: int) -> Response:
        player = acting_player(request)
        rotated = services.token_rotate(player, token_id)
        if rotated is None:
            return _no_token(token_id)
        return _issued(*rotated, request)
