"""HTTP API for research exports (docs/design.md §9): ``/api/exports/games.jsonl``, ``/api/exports/moves.csv``
and ``/api/exports/estimate/`` (how big they would be)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NoReturn

from django.db import DatabaseError
from django.http.response import HttpResponseBase
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import registry
from server.bots.models import BotProfile
from server.http.openapi import errors
from server.players.consent import PURPOSES
from server.players.throttles import EstimateThrottle
from server.research.estimate import export_estimate
from server.research.filters import PAIRINGS, RESULTS, STATUSES, ExportFilterSerializer, parse_filters
from server.research.permissions import IsResearcher
from server.research.streaming import export_response

SLUG = "[-a-zA-Z0-9_]+"


def comma_list(values: str) -> dict[str, Any]:
    """A query parameter that is a comma-separated list of `values` (a regex alternation)."""
    return {"type": "string", "pattern": f"^({values})(,({values}))*$"}


def one_of(choices: Iterable[str]) -> str:
    """An alternation of plain words: ids and choices are letters, digits, - and _, nothing to escape."""
    words = list(choices)
    assert all(re.fullmatch(SLUG, word) for word in words), words
    return "|".join(words)


def bot_slugs() -> dict[str, Any]:
    """``bot``: a list of the bot profiles' slugs, read when the schema is made (any slugs without a database)."""
    try:
        slugs = list(BotProfile.objects.order_by("slug").values_list("slug", flat=True))
    except DatabaseError:
        slugs = []
    return comma_list(one_of(slugs) if slugs else SLUG)


MOMENT = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]}
# The filters as `ExportFilterSerializer` takes them; ``bot``'s list is read by `filter_parameters`.
# What a schema cannot say is checked on request (400): `until` must be later than `since`.
FILTER_SCHEMAS = {
    "game": comma_list(one_of(g.id for g in registry.all())),
    "since": MOMENT,
    "until": MOMENT,
    "pairing": comma_list(one_of(PAIRINGS)),
    "result": comma_list(one_of(RESULTS)),
    "status": comma_list(one_of(STATUSES)),
    "source": comma_list(SLUG),
    "min_plies": {"type": "integer", "minimum": 0},
    "max": {"type": "integer", "minimum": 1},
    "purpose": {"type": "string", "enum": list(PURPOSES)},
}


def filter_parameters() -> list[OpenApiParameter]:
    schemas = {**FILTER_SCHEMAS, "bot": bot_slugs()}
    return [
        OpenApiParameter(name, schemas[name], description=f.help_text)  # type: ignore[arg-type]  # every filter has its help text
        for name, f in ExportFilterSerializer().fields.items()
    ]


class ExportSchema(AutoSchema):
    """The export views' filters, with ``bot`` limited to the bot profiles there are when the schema is made."""

    def get_override_parameters(self) -> list[Any]:
        return [*super().get_override_parameters(), *filter_parameters()]


class ExportView(APIView):
    schema = ExportSchema()
    permission_classes = [IsResearcher]
    fmt = "jsonl"

    def permission_denied(self, request: Request, message: str | None = None, code: str | None = None) -> NoReturn:
        # 403 for everyone without the permission, signed in or not: there is nothing to
        # gain by signing in as a guest, so a 401 challenge would only mislead.
        raise PermissionDenied(message or IsResearcher.message)

    def get(self, request: Request) -> HttpResponseBase:  # a download streams: DRF passes Django's response through
        return export_response(request._request, parse_filters(request.query_params), self.fmt)


# On the classes, not on `get`: a class's decorator builds on the view's `ExportSchema`.
@extend_schema(
    responses={(200, "application/x-ndjson"): OpenApiTypes.STR, **errors(400, 401, 403)},
    description="One match a line; the layout is docs/exports.md (JSON Schema docs/exports.schema.json).",
)
class GamesExportView(ExportView):
    """``GET /api/exports/games.jsonl``: one match a line (JSON Lines), streamed."""

    fmt = "jsonl"


@extend_schema(
    responses={(200, "text/csv"): OpenApiTypes.STR, **errors(400, 401, 403)},
    description="One move a row; the columns are documented in docs/exports.md.",
)
class MovesExportView(ExportView):
    """``GET /api/exports/moves.csv``: one move a row (CSV with a header), streamed."""

    fmt = "csv"


class EstimateSerializer(serializers.Serializer[Any]):
    matches = serializers.IntegerField(help_text="matches the export holds")
    moves = serializers.IntegerField(help_text="their moves and chance events: the CSV's rows")
    bytes = inline_serializer(
        "ExportBytes",
        {"games.jsonl": serializers.IntegerField(), "moves.csv": serializers.IntegerField()},
        help_text="the download's size in each format, measured on a sample and scaled up",
    )
    exact = serializers.BooleanField(help_text="the sample was the whole export: the bytes are its exact size")


@extend_schema(
    responses={200: EstimateSerializer, **errors(400, 401, 403, 429)},
    description="The size of an export with the same filters, from counts and a sample of at most 50 matches.",
)
class ExportEstimateView(ExportView):
    """``GET /api/exports/estimate/``: how many matches and moves an export holds, and roughly how many bytes."""

    throttle_classes = [EstimateThrottle]  # each one counts the matches selected: cheap, but not free

    def get(self, request: Request) -> Response:
        return Response(export_estimate(parse_filters(request.query_params)).as_json())
