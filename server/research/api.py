"""HTTP API for research exports (DESIGN §5): ``/api/exports/games.jsonl`` and ``/api/exports/moves.csv``."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.views import APIView

from server.config.openapi import errors
from server.research.filters import ExportFilterSerializer, parse_filters
from server.research.permissions import IsResearcher
from server.research.streaming import export_response

FILTER_PARAMETERS = [
    OpenApiParameter(
        name, OpenApiTypes.INT if name in ("min_plies", "max") else OpenApiTypes.STR, description=f.help_text
    )
    for name, f in ExportFilterSerializer().fields.items()
]


class ExportView(APIView):
    permission_classes = [IsResearcher]
    fmt = "jsonl"

    def permission_denied(self, request, message=None, code=None):
        # 403 for everyone without the permission, signed in or not: there is nothing to
        # gain by signing in as a guest, so a 401 challenge would only mislead.
        raise PermissionDenied(message or IsResearcher.message)

    def get(self, request):
        return export_response(request._request, parse_filters(request.query_params), self.fmt)


class GamesExportView(ExportView):
    """``GET /api/exports/games.jsonl``: one match a line (JSON Lines), streamed."""

    fmt = "jsonl"

    @extend_schema(
        parameters=FILTER_PARAMETERS,
        responses={(200, "application/x-ndjson"): OpenApiTypes.STR, **errors(400, 401, 403)},
        description="One match a line; the layout is docs/exports.md (JSON Schema docs/exports.schema.json).",
    )
    def get(self, request):
        return super().get(request)


class MovesExportView(ExportView):
    """``GET /api/exports/moves.csv``: one move a row (CSV with a header), streamed."""

    fmt = "csv"

    @extend_schema(
        parameters=FILTER_PARAMETERS,
        responses={(200, "text/csv"): OpenApiTypes.STR, **errors(400, 401, 403)},
        description="One move a row; the columns are documented in docs/exports.md.",
    )
    def get(self, request):
        return super().get(request)
