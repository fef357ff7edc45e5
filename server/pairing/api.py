"""``POST /api/pairing/ready/``: the browser's player, made for it if it has none yet.

A guest is made on a person's first action (server/players/middleware.py), and the lobby
socket knows its person from the session it opened with; so before a first seek the page
asks for its player here and opens its lobby socket again (docs/wire.md).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from server.http.openapi import errors
from server.players.api import PlayerSerializer
from server.players.auth import request_player


class PairingReadyView(APIView):
    @extend_schema(request=None, responses={200: PlayerSerializer, **errors(401, 403)})
    def post(self, request: Request) -> Response:
        player = request_player(request)
        if player is None:
            return Response({"detail": "open the site in a browser, or send a bearer token"}, status=401)
        return Response(PlayerSerializer(player).data)
