"""HTTP API for games and matches (docs/design.md §5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import Game, registry
from games.spec import GameOption
from server.bots import fair_share
from server.bots.models import BotProfile
from server.http.openapi import errors
from server.matches import records, selectors, services
from server.matches.errors import MatchError, NoRecord
from server.matches.models import Match, Seat
from server.matches.serializers import GameSerializer, MatchSerializer, MatchSummarySerializer, PositionsSerializer
from server.players.auth import acting_player
from server.players.models import Player

MAX_SEATS = 6


class GameListView(APIView):
    """``GET /api/games/``: the catalogue."""

    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(responses=GameSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response([game_entry(g) for g in registry.all()])


def game_entry(game: Game[Any]) -> dict[str, Any]:
    """A game's catalogue entry: its rules' metadata and its spec (docs/design.md §2)."""
    return {
        "id": game.id,
        "name": game.name,
        "num_players": game.num_players,
        "has_chance": game.has_chance,
        "board": game.spec.board,
        "stylesheet": game.spec.stylesheet,
        "seats": [seat.to_json(i) for i, seat in enumerate(game.spec.seats)],
        "options": [option_json(option) for option in game.spec.options],
        "resignation_levels": list(game.resignation_levels),
    }


def option_json(option: GameOption) -> dict[str, Any]:
    """A game option as the lobby's form offers it: on/off (``"kind": "bool"``) or a whole number in a range."""
    entry: dict[str, Any] = {"name": option.name, "description": option.description, "default": option.default}
    if isinstance(option.default, bool):
        return {**entry, "kind": "bool"}
    return {**entry, "kind": "int", "low": option.low, "high": option.high}


class SeatRequestSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["human", "bot"])
    profile = serializers.SlugField(required=False, help_text="bot profile slug, for bot seats")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["kind"] == "bot" and not data.get("profile"):
            raise serializers.ValidationError({"profile": "a bot seat names its bot profile"})
        if data["kind"] == "human" and data.get("profile"):
            raise serializers.ValidationError({"profile": "only bot seats have a profile"})
        return data


class ClockSerializer(serializers.Serializer[Any]):
    minutes = serializers.FloatField(min_value=0.25, max_value=180, help_text="each seat's time at the start")
    increment = serializers.IntegerField(min_value=0, max_value=60, help_text="seconds added after each move")


class MatchCreateSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=[])
    seats = SeatRequestSerializer(many=True, allow_empty=False, max_length=MAX_SEATS)  # type: ignore[call-arg]  # `many=True` makes a ListSerializer, which takes it
    clock = ClockSerializer(required=False, allow_null=True, help_text="optional clocks, for games between people")
    hints = serializers.BooleanField(default=False, help_text="allow hints: one person against bots, unrated")
    rated = serializers.BooleanField(default=False, help_text="the result changes the people's ratings")
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="the game's options by name (GET /api/games/ lists each game's): backgammon's cube, jacoby, match_to",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [g.id for g in registry.all()]  # type: ignore[attr-defined]  # a ChoiceField

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        try:
            game = registry.get(data["game"]).with_options(data["options"])
        except ValueError as exc:
            raise serializers.ValidationError({"options": str(exc)}) from exc
        if len(data["seats"]) != game.num_players:
            raise serializers.ValidationError({"seats": f"{game.name} needs exactly {game.num_players} seats"})
        slugs = {s["profile"] for s in data["seats"] if s["kind"] == "bot"}
        profiles = {p.slug: p for p in BotProfile.objects.filter(slug__in=slugs)}
        requests = []
        for seat in data["seats"]:
            profile = None
            if seat["kind"] == "bot":
                profile = profiles.get(seat["profile"])
                if profile is None:
                    raise serializers.ValidationError({"seats": f"no bot profile {seat['profile']!r}"})
                if profile.game != game.id:
                    raise serializers.ValidationError({"seats": f"bot {profile.slug!r} plays {profile.game}"})
            requests.append(services.SeatRequest(seat["kind"], profile))
        data["seat_requests"] = requests
        clock = data.get("clock")
        data["clock"] = services.Clock(clock["minutes"], clock["increment"]) if clock else None
        return data


class ResignOfferSerializer(serializers.Serializer[Any]):
    level = serializers.ChoiceField(choices=["single", "gammon", "backgammon"])


class JoinSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEATS - 1)


def error_response(exc: MatchError) -> Response:
    """A match rule's refusal as the API answers it: its message, code and HTTP status (and when to retry)."""
    response = Response({"detail": exc.message, "code": exc.code}, status=exc.http_status)
    if retry_after_s := getattr(exc, "retry_after_s", None):
        response["Retry-After"] = str(retry_after_s)
    return response


STATUS_FILTERS = ("open", *Match.Status.values)


class MatchListView(APIView):
    """``GET /api/matches/?status=open|waiting|active|adjourned|finished|aborted&game=&player=me`` and
    ``POST /api/matches/``."""

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=STATUS_FILTERS, description="open is waiting with a free seat"),
            OpenApiParameter("game", str, enum=registry.ids(), description="a game id, e.g. connect4"),
            OpenApiParameter("player", str, enum=["me"], description="only the caller's own matches"),
        ],
        responses={200: MatchSummarySerializer(many=True), **errors(400, 401)},
        description="At most 50 matches, newest first.",
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted not in (None, *STATUS_FILTERS):
            return Response({"status": [f"one of {', '.join(STATUS_FILTERS)}"]}, status=400)
        if request.query_params.get("game") not in (None, *registry.ids()):
            return Response({"game": [f"one of {', '.join(registry.ids())}"]}, status=400)
        player_id = None
        if "player" in request.query_params:
            if request.query_params["player"] != "me":
                return Response({"player": ["only 'me': your own matches"]}, status=400)
            player_id = acting_player(request).pk
        matches = selectors.match_list(wanted, request.query_params.get("game"), player_id=player_id)
        return Response([selectors.match_summary_json(m) for m in matches])

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer, **errors(400, 401, 403, 429)})
    def post(self, request: Request) -> Response:
        player = acting_player(request)
        body = MatchCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if all(seat.kind == "bot" for seat in data["seat_requests"]):
                # Worker time nobody plays in: for accounts, a few at once (server/bots/fair_share.py).
                fair_share.bot_match_allowed(player)
                with fair_share.claim(fair_share.BOT_MATCHES, request, player) as claim:
                    match = self.create(data, player)
                    claim.hold(match.pk)
            elif any(seat.kind == "bot" for seat in data["seat_requests"]):
                # Each of its bot turns is a person's, on the top queue: a few at once (fair_share).
                with fair_share.claim(fair_share.MATCHES_VS_BOTS, request, player) as claim:
                    match = self.create(data, player)
                    claim.hold(match.pk)
            else:
                match = self.create(data, player)
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.match_json(selectors.match_get(match.pk)), status=status.HTTP_201_CREATED)  # type: ignore[arg-type]  # just made

    @staticmethod
    def create(data: dict[str, Any], player: Player) -> Match:
        return services.match_create(
            data["game"],
            data["seat_requests"],
            player,
            clock=data["clock"],
            hints=data["hints"],
            rated=data["rated"],
            options=data["options"],
        )


class MatchDetailView(APIView):
    """``GET /api/matches/{id}/``: the full match."""

    @extend_schema(responses={200: MatchSerializer, **errors(401, 404)})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id)
        if match is None:
            return Response({"detail": f"no match {match_id}", "code": "not_found"}, status=404)
        return Response(selectors.match_json(match))


class MatchPositionsView(APIView):
    """``GET /api/matches/{id}/positions/``: the position after each ply (index 0: the start)."""

    @extend_schema(responses={200: PositionsSerializer, **errors(401, 404)})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id)
        if match is None:
            return Response({"detail": f"no match {match_id}", "code": "not_found"}, status=404)
        return Response({"ply": match.ply, "positions": selectors.match_positions(match)})


class MatchRecordView(APIView):
    """``GET /api/matches/{id}/record/``: the match's record as a file, in its game's notation (chess: PGN)."""

    # Only the record in this notation, or any (None): the `/pgn/` address promises PGN.
    notation: str | None = None

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR, **errors(400, 401, 404)},
        description="Any match, finished or not: PGN for chess (application/x-chess-pgn), "
        "a plain text record (text/plain) for the other games.",
    )
    def get(self, request: Request, match_id: int) -> HttpResponse | Response:
        match = selectors.match_get(match_id)
        if match is None:
            return Response({"detail": f"no match {match_id}", "code": "not_found"}, status=404)
        try:
            record = records.match_record(match, site=request.build_absolute_uri(f"/matches/{match.pk}/"))
            if self.notation is not None and record.extension != self.notation:
                raise NoRecord(f"match {match.pk} has no {self.notation} record; its record is at /record/")
        except MatchError as exc:
            return error_response(exc)
        response = HttpResponse(record.text, content_type=record.media_type)
        response["Content-Disposition"] = f'attachment; filename="plyground-{match.pk}.{record.extension}"'
        return response


class MatchPgnView(MatchRecordView):
    """``GET /api/matches/{id}/pgn/``: a chess match as a PGN file, moves in SAN with their clocks."""

    notation = "pgn"


class MatchJoinView(APIView):
    """``POST /api/matches/{id}/join/``: take an open seat."""

    @extend_schema(request=JoinSerializer, responses={200: MatchSerializer, **errors(400, 401, 403, 404, 409, 429)})
    def post(self, request: Request, match_id: int) -> Response:
        player = acting_player(request)
        body = JoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        seat = body.validated_data.get("seat")
        try:
            if Seat.objects.filter(match_id=match_id, kind=Seat.Kind.BOT).exists():
                # A seat against bots counts as creating one does (fair_share.MATCHES_VS_BOTS).
                with fair_share.claim(fair_share.MATCHES_VS_BOTS, request, player) as claim:
                    services.match_join(match_id, player, seat)
                    claim.hold(match_id)
            else:
                services.match_join(match_id, player, seat)
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.match_json(selectors.match_get(match_id)))  # type: ignore[arg-type]  # found above, and matches are never deleted


class MatchResignView(APIView):
    """``POST /api/matches/{id}/resign/``: the caller's seat resigns."""

    @extend_schema(request=None, responses={200: MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, match_id: int) -> Response:
        return seat_action(request, match_id, services.match_resign)


class MatchResignOfferView(APIView):
    """``POST /api/matches/{id}/resign-offer/`` with ``{"level": "single" | "gammon" | "backgammon"}``:
    the caller's seat offers to resign the game on the board for that many points (backgammon)."""

    @extend_schema(request=ResignOfferSerializer, responses={200: MatchSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, match_id: int) -> Response:
        data = request.data if isinstance(request.data, dict) else {}
        extra = sorted(k for k in data if k != "level")
        if extra or not isinstance(data.get("level"), str):
            detail = 'the body is {"level": "single" | "gammon" | "backgammon"}'
            return Response({"detail": detail, "code": "bad_message"}, status=400)
        level = data["level"]
        return seat_action(request, match_id, lambda match, seat: services.match_resign_offer(match, seat, level))


class MatchResumeView(APIView):
    """``POST /api/matches/{id}/resume/``: the caller's adjourned match is active again.

    Seated players only; a running or waiting match is returned as it is.  Opening the
    match socket resumes it too (docs/lobby.md).
    """

    @extend_schema(request=None, responses={200: MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, match_id: int) -> Response:
        return seat_action(request, match_id, services.match_resume)


class MatchClaimDrawView(APIView):
    """``POST /api/matches/{id}/claim-draw/``: the caller, to move, claims the draw the rules allow.

    Chess: threefold repetition or the 50-move rule (the state's ``claimable_draw`` says which).
    """

    @extend_schema(request=None, responses={200: MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, match_id: int) -> Response:
        return seat_action(request, match_id, services.match_claim_draw)


def seat_action(request: Request, match_id: int, action: Callable[[int, int], object]) -> Response:
    """`action(match_id, seat)` for the caller's seat; the match after it, or the error."""
    player = acting_player(request)
    try:
        match = selectors.match_get(match_id)
        if match is None:
            return Response({"detail": f"no match {match_id}", "code": "not_found"}, status=404)
        action(match_id, services.require_seat(match, player.pk))
    except MatchError as exc:
        return error_response(exc)
    return Response(selectors.match_json(selectors.match_get(match_id)))  # type: ignore[arg-type]  # found above, and matches are never deleted
