"""The API's error bodies as ``/api/schema/`` declares them, shared by every app's views.

Two shapes reach a client:

- a refusal: ``{"detail": "...", "code": "..."}``.  The API's own refusals (a match rule,
  an unknown id) always carry a stable ``code`` (server/matches/errors.py); those raised by
  DRF itself (not signed in, a bad token, CSRF, a throttle, an unparsable body) may carry
  ``detail`` alone.
- invalid input (400): a message list per field, ``{"seats": ["..."]}``, nested for nested
  fields; or a refusal, for a body that is not JSON or a rule of the match.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="what went wrong, in words")
    code = serializers.CharField(
        required=False, help_text="a stable code, e.g. not_found, seat_taken, stale_ply, game_over"
    )


ERROR = OpenApiResponse(ErrorSerializer, description="refused: why, and a stable code")

ERRORS: dict[int, OpenApiResponse] = {
    400: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description='invalid input: messages per field ({"seats": ["..."]}, nested for nested fields), '
        'or {"detail", "code"} for a body that is not JSON or a request the match\'s rules refuse',
    ),
    401: OpenApiResponse(
        ErrorSerializer, description="not signed in (no session, no token), or an unknown or revoked token"
    ),
    403: OpenApiResponse(ErrorSerializer, description="not allowed: not your seat, no permission, or CSRF failed"),
    404: OpenApiResponse(ErrorSerializer, description="no such object"),
    409: OpenApiResponse(
        ErrorSerializer, description="conflicts with the match's current state (seat taken, game over, stale ply)"
    ),
    429: OpenApiResponse(ErrorSerializer, description="too many requests: try again later"),
}


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The error responses an operation can give, for ``extend_schema(responses={200: ..., **errors(404)})``."""
    return {status: ERRORS[status] for status in statuses}
