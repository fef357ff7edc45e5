"""HTTP API: ``/api/matches/{id}/analysis/`` (post-game analysis) and ``/api/matches/{id}/hint/``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from server.analysis import selectors, services
from server.analysis.serializers import AnalysisSerializer, HintSerializer
from server.config.openapi import errors
from server.matches.api import acting_player, error_response
from server.matches.errors import MatchError


class AnalysisView(APIView):
    """``GET``: status, progress and, once done, the per-move results.  ``POST``: start it (idempotent)."""

    @extend_schema(responses={200: AnalysisSerializer, **errors(401, 404)})
    def get(self, request, match_id: int):
        analysis = selectors.analysis_of(match_id)
        if analysis is None:
            return Response({"detail": f"match {match_id} has not been analysed", "code": "not_found"}, status=404)
        return Response(selectors.analysis_json(analysis))

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(AnalysisSerializer, description="already analysed or under way"),
            202: OpenApiResponse(AnalysisSerializer, description="started"),
            **errors(401, 403, 404, 409),
        },
    )
    def post(self, request, match_id: int):
        player = acting_player(request)
        try:
            analysis, started = services.analysis_request(match_id, player)
        except MatchError as exc:
            return error_response(exc)
        return Response(
            selectors.analysis_json(selectors.analysis_of(analysis.match_id)), status=202 if started else 200
        )


class HintView(APIView):
    """``POST``: the best move for the caller, the seated player to move, in a match that allows hints."""

    @extend_schema(request=None, responses={200: HintSerializer, **errors(401, 403, 404, 409)})
    def post(self, request, match_id: int):
        player = acting_player(request)
        try:
            return Response(services.hint_request(match_id, player))
        except MatchError as exc:
            return error_response(exc)
