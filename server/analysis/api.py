"""HTTP API: ``/api/matches/{id}/analysis/`` (post-game analysis) and ``/api/matches/{id}/hint/``.

Both search with the strongest bot, so both run on workers (`runners.py`), never in the
request, and both are bounded:

- an analysis: anyone with a player (a guest included) may start the analysis of a
  finished match, like a spectator asking for the computer's view of a game they watched;
  there is one per match (asking again returns it, queued, running or done, and costs
  nothing), each player starts at most ``analysis`` (10/hour) of them, a player and a
  client address have at most ``FAIR_SHARE_ANALYSES`` under way (429 beyond,
  `server.bots.fair_share`), and at most ``ANALYSIS_MAX_PENDING`` wait or run at once over
  the installation (503 beyond);
- a hint: only the seated player to move, in a match created with hints; one search per
  ply, at most ``hint`` (20/minute) asks per player, and ``FAIR_SHARE_HINTS`` searching at
  once per player and per client address.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from server.analysis import selectors, services
from server.analysis.models import Analysis
from server.analysis.serializers import AnalysisSerializer, HintSerializer
from server.bots import fair_share
from server.http.openapi import ErrorSerializer, errors
from server.matches.api import error_response
from server.matches.errors import MatchError
from server.players.auth import acting_player
from server.players.throttles import AnalysisThrottle, HintThrottle

BUSY = OpenApiResponse(
    ErrorSerializer, description="analysis_busy: as many analyses as the server runs at once; try again later"
)
BUSY_RETRY_S = 60


def _live_analyses(refs: list[str]) -> set[str]:
    pending = [Analysis.Status.QUEUED, Analysis.Status.RUNNING]
    live = Analysis.objects.filter(pk__in=[int(r) for r in refs], status__in=pending)
    return {str(pk) for pk in live.values_list("pk", flat=True)}


def _live_hints(refs: list[str]) -> set[str]:
    """A hint's ref is "match:ply:seat"; it is under way until found (or its lease runs out)."""
    return {r for r in refs if selectors.hint_found(*(int(n) for n in r.split(":"))) is None}


# What one visitor may have under way at once (server/bots/fair_share.py): an analysis is
# asked again in a minute or so, a hint's search is over in well under a second.
ANALYSES = fair_share.Cap("analyses", "analyses", "FAIR_SHARE_ANALYSES", 3600, 60, _live_analyses)
HINTS = fair_share.Cap("hints", "hints", "FAIR_SHARE_HINTS", 60, 2, _live_hints)


class HintDoneSerializer(HintSerializer):
    status = serializers.ChoiceField(choices=["done"])


class HintQueuedSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=["queued"])
    seat = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="the ply the hint is for; it comes as a `hint` frame on the match socket")


class AnalysisView(APIView):
    """``GET``: status, progress and, once done, the per-move results.  ``POST``: start it (idempotent)."""

    @extend_schema(responses={200: AnalysisSerializer, **errors(401, 404)})
    def get(self, request: Request, match_id: int) -> Response:
        analysis = selectors.analysis_of(match_id)
        if analysis is None:
            return Response({"detail": f"match {match_id} has not been analysed", "code": "not_found"}, status=404)
        return Response(selectors.analysis_json(analysis))

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(AnalysisSerializer, description="already analysed or under way"),
            202: OpenApiResponse(AnalysisSerializer, description="started"),
            **errors(401, 403, 404, 409, 429),
            503: BUSY,
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = acting_player(request)
        existing = selectors.analysis_of(match_id)
        if existing is None or existing.status == Analysis.Status.FAILED:
            throttle = AnalysisThrottle()  # only starting one counts: reading an existing one is free
            if not throttle.allow_request(request, self):
                raise Throttled(throttle.wait())
        try:
            if existing is None or existing.status == Analysis.Status.FAILED:
                with fair_share.claim(ANALYSES, request, player) as claim:
                    analysis, started = services.analysis_request(match_id, player)
                    if started:
                        claim.hold(analysis.pk)
            else:
                analysis, started = services.analysis_request(match_id, player)
        except MatchError as exc:
            response = error_response(exc)
            if response.status_code == 503:
                response["Retry-After"] = str(BUSY_RETRY_S)
            return response
        return Response(
            selectors.analysis_json(selectors.analysis_of(analysis.match_id)),  # type: ignore[arg-type]  # just requested: it exists
            status=202 if started else 200,
        )


class HintView(APIView):
    """``POST``: the best move for the caller, the seated player to move, in a match that allows hints.

    ``200`` with the hint when it is found already (asked before for this ply, or quick);
    ``202`` while a worker searches it: it then comes as a ``hint`` frame on the match's
    socket, and ``GET`` reads it.
    """

    throttle_classes = [HintThrottle]

    def get_throttles(self) -> list[BaseThrottle]:
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(HintDoneSerializer, description="the hint"),
            202: OpenApiResponse(HintQueuedSerializer, description="searching: the hint comes on the match socket"),
            **errors(401, 403, 404, 409, 429),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = acting_player(request)
        try:
            if (asked := services.hint_of(match_id, player)) is not None:  # asked again: costs nothing
                return Response(asked, status=200 if asked["status"] == "done" else 202)
            with fair_share.claim(HINTS, request, player) as claim:
                answer = services.hint_request(match_id, player)
                if answer["status"] == "queued":
                    claim.hold(f"{match_id}:{answer['ply']}:{answer['seat']}")
        except MatchError as exc:
            return error_response(exc)
        return Response(answer, status=200 if answer["status"] == "done" else 202)

    @extend_schema(
        responses={
            200: OpenApiResponse(HintDoneSerializer, description="the caller's hint for the current ply"),
            202: OpenApiResponse(HintQueuedSerializer, description="still searching"),
            **errors(401, 403, 404, 409),
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        player = acting_player(request)
        try:
            answer = services.hint_of(match_id, player)
        except MatchError as exc:
            return error_response(exc)
        if answer is None:
            return Response({"detail": "no hint asked for this ply", "code": "not_found"}, status=404)
        return Response(answer, status=200 if answer["status"] == "done" else 202)
