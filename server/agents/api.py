"""The Bot API over HTTP (docs/bots.md): bot accounts and their tokens for their owner; challenges.

- ``/api/agents/``: ``GET`` your bot accounts, ``POST`` register one (a person with an account).
- ``/api/agents/{name}/tokens/``: ``GET`` a bot's live tokens, ``POST`` a new one (its secret shown
  once); ``/api/agents/{name}/tokens/{id}/``: ``DELETE`` revokes it (its sockets close).
- ``/api/agents/{name}/challenges/``: ``POST`` challenges that bot (a person or another bot).
- ``/api/agents/games/``: ``POST`` (a bot's token) starts a game of that bot against house bots at once.
- ``/api/agents/challenges/{id}/``: ``GET`` one (its challenger, bot or owner), ``DELETE`` cancels it.
- ``/api/agents/{name}/measurements/``: ``GET`` that bot's measurements, ``POST`` a new one (its owner):
  games against the game's house ladder, and a rating on the site's scale (`server.agents.measuring`).
- ``/api/agents/measurements/{id}/``: ``GET`` one with its progress (its owner or its bot), ``DELETE`` cancels it.
- ``/api/agents/measurements/{id}/export/{jsonl|csv|pgn}/``: ``GET`` its games, every move with its stats.
- ``/api/agents/{name}/consent/``: ``GET``/``PUT`` whether that bot's games go into research exports (its owner).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import registry
from server.agents import exports, measuring, selectors, services
from server.agents.errors import NoSuchBot, NoSuchChallenge, NoSuchMeasurement
from server.agents.models import Measurement
from server.agents.openings import SETS as OPENING_SETS
from server.http.openapi import errors
from server.matches.api import ClockSerializer, error_response
from server.matches.errors import MatchError, NoRecord
from server.matches.services import Clock
from server.players import selectors as player_selectors
from server.players.api import ConsentSerializer
from server.players.auth import acting_player, acting_player_or_bot
from server.players.consent import consent_of, consent_set
from server.players.services import TooManyTokens
from server.players.throttles import PlayerRateThrottle, TokenThrottle
from server.players.tokens_api import TokenIssuedSerializer, TokenRequestSerializer, TokenSerializer

BOT_NAME = OpenApiParameter(
    "name",
    {"type": "string", "minLength": 3, "maxLength": 24},  # everyone's name policy (server/players/names.py)
    OpenApiParameter.PATH,
    description="a bot account's name, exactly",
)


class BotAccountSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["agent"])
    is_ai = serializers.BooleanField(help_text="always true: shown with the AI marker everywhere")
    is_guest = serializers.BooleanField()
    owner = serializers.CharField(help_text="the person who registered it, named wherever it is shown")
    created_at = serializers.DateTimeField()
    profile_url = serializers.CharField()


class BotAccountRequestSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=40, help_text="everyone's name policy: no AI or bot words")


class ChallengeRequestSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=[], help_text="a registered game's id (GET /api/games/)")
    seat = serializers.IntegerField(default=0, min_value=0, max_value=7, help_text="the challenger's seat")
    clock = ClockSerializer(required=False, allow_null=True, help_text="optional clocks; the server keeps them")
    house_bots = serializers.ListField(
        child=serializers.SlugField(max_length=60),
        max_length=6,
        default=list,
        help_text="bot profile slugs for the seats beyond the two sides (games of three or more)",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="the game's options by name (GET /api/games/ lists each game's): backgammon's cube, jacoby, match_to",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = registry.ids()  # type: ignore[attr-defined]  # a ChoiceField

    def to_request(self) -> services.ChallengeRequest:
        data = self.validated_data
        clock = Clock(data["clock"]["minutes"], data["clock"]["increment"]) if data.get("clock") else None
        return services.ChallengeRequest(data["game"], data["seat"], clock, tuple(data["house_bots"]), data["options"])


class ChallengeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    challenger = serializers.DictField(help_text='{"id", "name", "kind", "is_ai", "is_guest"[, "owner"]}')
    bot = serializers.DictField(help_text='the bot account: {"id", "name", "kind": "agent", "is_ai": true, "owner"}')
    challenger_seat = serializers.IntegerField()
    house_bots = serializers.ListField(child=serializers.CharField())
    clock = serializers.DictField(allow_null=True, help_text='{"minutes", "increment"} or null')
    options = serializers.DictField(help_text="the game's options, every declared one with its value")
    rated = serializers.BooleanField(help_text="always false for now: bot accounts' games are casual")
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "cancelled", "expired"])
    decline_reason = serializers.CharField(allow_null=True)
    match = serializers.IntegerField(allow_null=True, help_text="the match, once accepted: /matches/{id}/")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class HouseGameRequestSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=[], help_text="a registered game's id (GET /api/games/)")
    house_bots = serializers.ListField(
        child=serializers.SlugField(max_length=60),
        min_length=1,
        max_length=7,
        help_text="listed bot profile slugs of that game (GET /api/bots/?game=): one a seat, the bot's apart",
    )
    seat = serializers.CharField(
        default="random", max_length=6, help_text='the bot\'s seat: a number from 0, or "random" (the default)'
    )
    clock = ClockSerializer(required=False, allow_null=True, help_text="optional clocks; the server keeps them")
    rated = serializers.BooleanField(default=False, help_text="bot accounts' games are casual: true is refused")
    options = serializers.DictField(required=False, default=dict, help_text="the game's options, as for challenges")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = registry.ids()  # type: ignore[attr-defined]  # a ChoiceField

    def validate_seat(self, value: str) -> str:
        if value != "random" and not (value.isdigit() and int(value) < 8):
            raise serializers.ValidationError('a seat number from 0, or "random"')
        return value

    def to_request(self) -> services.HouseGameRequest:
        data = self.validated_data
        clock = Clock(data["clock"]["minutes"], data["clock"]["increment"]) if data.get("clock") else None
        seat = None if data["seat"] == "random" else int(data["seat"])
        return services.HouseGameRequest(
            data["game"], tuple(data["house_bots"]), seat, clock, data["rated"], data["options"]
        )


class HouseGameSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField(help_text="the match: play it on /ws/matches/{match}/ with the same token")
    game = serializers.CharField()
    seat = serializers.IntegerField(help_text="the bot's seat")
    house_bots = serializers.ListField(child=serializers.CharField(), help_text="the other seats' bot profiles")
    clock = serializers.DictField(allow_null=True, help_text='{"initial_ms", "increment_ms"} or null')
    rated = serializers.BooleanField()


class HouseGameThrottle(PlayerRateThrottle):
    """Games asked per bot (``DEFAULT_THROTTLE_RATES["bot_games"]``), beside the caps on games at once."""

    scope = "bot_games"


def _name_refused(exc: ValidationError) -> Response:
    return Response({"name": exc.messages}, status=status.HTTP_400_BAD_REQUEST)


class BotAccountListView(APIView):
    """``GET``: your bot accounts.  ``POST``: register one (a person with an account; a cap each)."""

    @extend_schema(responses={200: BotAccountSerializer(many=True), **errors(401, 403)})
    def get(self, request: Request) -> Response:
        owner = acting_player(request)
        return Response([selectors.bot_account_json(b) for b in selectors.bot_accounts_of(owner.pk)])

    @extend_schema(
        request=BotAccountRequestSerializer, responses={201: BotAccountSerializer, **errors(400, 401, 403, 409)}
    )
    def post(self, request: Request) -> Response:
        owner = acting_player(request)
        body = BotAccountRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            bot = services.bot_account_create(owner, body.validated_data["name"])
        except ValidationError as exc:
            return _name_refused(exc)
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.bot_account_json(bot), status=status.HTTP_201_CREATED)


class BotTokenListView(APIView):
    """``GET``: your bot's live tokens (never their secrets).  ``POST``: a new one, shown this once."""

    def get_throttles(self) -> list[Any]:
        return [TokenThrottle()] if self.request.method == "POST" else []

    @extend_schema(parameters=[BOT_NAME], responses={200: TokenSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, name: str) -> Response:
        try:
            bot = services.owned_bot(acting_player(request), name)
        except NoSuchBot as exc:
            return error_response(exc)
        return Response(TokenSerializer(player_selectors.tokens_of(bot.pk), many=True).data)

    @extend_schema(
        parameters=[BOT_NAME],
        request=TokenRequestSerializer,
        responses={201: TokenIssuedSerializer, **errors(400, 401, 403, 404, 409, 429)},
        description="A token that plays as this bot account only: ?token= on /ws/agents/ and the match sockets.",
    )
    def post(self, request: Request, name: str) -> Response:
        body = TokenRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            row, token = services.bot_token_issue(acting_player(request), name, body.validated_data.get("label", ""))
        except NoSuchBot as exc:
            return error_response(exc)
        except TooManyTokens as exc:
            return Response({"detail": str(exc), "code": "too_many_tokens"}, status=409)
        return Response({**TokenSerializer(row).data, "token": token}, status=status.HTTP_201_CREATED)


class BotTokenDetailView(APIView):
    """``DELETE``: revoke a token of your bot; it stops at once and the sockets it opened close."""

    @extend_schema(
        parameters=[BOT_NAME],
        request=None,
        responses={204: OpenApiResponse(description="revoked"), **errors(401, 403, 404)},
    )
    def delete(self, request: Request, name: str, token_id: int) -> Response:
        try:
            revoked = services.bot_token_revoke(acting_player(request), name, token_id)
        except NoSuchBot as exc:
            return error_response(exc)
        if not revoked:
            return error_response(NoSuchBot(f"your bot {name[:40]!r} has no token {token_id}"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChallengeCreateView(APIView):
    """``POST``: challenge this bot account to a game; the match starts when it accepts."""

    @extend_schema(
        parameters=[BOT_NAME],
        request=ChallengeRequestSerializer,
        responses={201: ChallengeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, name: str) -> Response:
        challenger = acting_player_or_bot(request)  # a bot may challenge another
        bot = selectors.bot_by_name(name)
        if bot is None:
            return error_response(NoSuchBot(f"no bot account named {name[:40]!r}"))
        body = ChallengeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            challenge = services.challenge_create(challenger, bot, body.to_request())
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.challenge_json(challenge), status=status.HTTP_201_CREATED)


class HouseGameView(APIView):
    """``POST`` with a bot account's token: a game of that bot against house bots, started at once."""

    throttle_classes = [HouseGameThrottle]

    @extend_schema(
        request=HouseGameRequestSerializer,
        responses={201: HouseGameSerializer, **errors(400, 401, 403, 409, 429)},
        description="The bot hears `game_start` on /ws/agents/ as for an accepted challenge (docs/bots.md).",
    )
    def post(self, request: Request) -> Response:
        bot = acting_player_or_bot(request)
        body = HouseGameRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            match = services.house_game_create(bot, body.to_request())
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.house_game_json(match, bot.pk), status=status.HTTP_201_CREATED)


class ChallengeDetailView(APIView):
    """``GET``: a challenge you made or received (or your bot did).  ``DELETE``: cancel yours while it waits."""

    @extend_schema(responses={200: ChallengeSerializer, **errors(401, 404)})
    def get(self, request: Request, challenge_id: int) -> Response:
        challenge = selectors.challenge_seen_by(challenge_id, acting_player_or_bot(request))
        if challenge is None:
            return error_response(NoSuchChallenge(f"no challenge {challenge_id} of yours"))
        return Response(selectors.challenge_json(challenge))

    @extend_schema(request=None, responses={200: ChallengeSerializer, **errors(401, 404, 409)})
    def delete(self, request: Request, challenge_id: int) -> Response:
        try:
            challenge = services.challenge_cancel(acting_player_or_bot(request), challenge_id)
        except MatchError as exc:
            return error_response(exc)
        return Response(selectors.challenge_json(challenge))


class MeasurementRequestSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=[], help_text="a game for two with a calibrated ladder (GET /api/bots/)")
    games_per_step = serializers.IntegerField(
        min_value=2, max_value=measuring.MAX_GAMES_PER_STEP, help_text="games against each step, an even number"
    )
    steps = serializers.ListField(
        child=serializers.SlugField(max_length=60),
        max_length=20,
        default=list,
        help_text="bot profile slugs of the ladder's steps to play; none: every step",
    )
    clock = ClockSerializer(required=False, help_text="each game's clock; default 3 minutes + 2 seconds a move")
    openings = serializers.ChoiceField(
        choices=OPENING_SETS,
        required=False,
        allow_null=True,
        default=None,
        help_text="an opening set its games start from, each opening with both colours; none: the initial position",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = registry.ids()  # type: ignore[attr-defined]  # a ChoiceField

    def to_request(self) -> measuring.MeasurementRequest:
        data = self.validated_data
        clock = Clock(data["clock"]["minutes"], data["clock"]["increment"]) if data.get("clock") else Clock(3, 2)
        return measuring.MeasurementRequest(
            data["game"], data["games_per_step"], tuple(data["steps"]), clock, data["openings"] or ""
        )


class MeasurementSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    bot = serializers.DictField(help_text='the bot account: {"id", "name", "kind": "agent", "is_ai": true, "owner"}')
    game = serializers.CharField()
    steps = serializers.ListField(child=serializers.CharField(), help_text="the ladder's steps played, weakest first")
    games_per_step = serializers.IntegerField()
    clock = serializers.DictField(help_text='{"minutes", "increment"}')
    openings = serializers.CharField(allow_null=True, help_text="the opening set its games start from, or null")
    status = serializers.ChoiceField(choices=[s.value for s in Measurement.Status])
    reason = serializers.CharField(allow_null=True, help_text="why it waits, failed or was cancelled")
    progress = serializers.DictField(help_text='{"finished", "total", "aborted", "playing": a match id or null}')
    result = serializers.DictField(
        allow_null=True,
        help_text='{"rating", "low", "high" (95%), "games", "steps": [{"step", "name", "games", "wins", "draws", '
        '"losses", "score", "step_rating", "step_deviation"}]}: so far while it runs',
    )
    matches = serializers.ListField(child=serializers.IntegerField(), help_text="its games: /matches/{id}/")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class MeasurementListView(APIView):
    """``GET``: your bot's measurements, newest first.  ``POST``: measure it against the house ladder."""

    @extend_schema(parameters=[BOT_NAME], responses={200: MeasurementSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, name: str) -> Response:
        try:
            bot = services.owned_bot(acting_player(request), name)
        except NoSuchBot as exc:
            return error_response(exc)
        return Response([measuring.measurement_json(m) for m in measuring.measurements_of(bot)[:50]])

    @extend_schema(
        parameters=[BOT_NAME],
        request=MeasurementRequestSerializer,
        responses={201: MeasurementSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, name: str) -> Response:
        body = MeasurementRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            bot = services.owned_bot(acting_player(request), name)
            measurement = measuring.measurement_create(bot, body.to_request())
        except MatchError as exc:
            return error_response(exc)
        return Response(measuring.measurement_json(measurement), status=status.HTTP_201_CREATED)


class MeasurementDetailView(APIView):
    """``GET``: a measurement of your bot (or of the bot whose token asks).  ``DELETE``: cancel it."""

    @extend_schema(responses={200: MeasurementSerializer, **errors(401, 404)})
    def get(self, request: Request, measurement_id: int) -> Response:
        measurement = measuring.measurement_seen_by(measurement_id, acting_player_or_bot(request))
        if measurement is None:
            return error_response(NoSuchMeasurement(f"no measurement {measurement_id} of yours"))
        return Response(measuring.measurement_json(measurement))

    @extend_schema(request=None, responses={200: MeasurementSerializer, **errors(401, 403, 404, 409)})
    def delete(self, request: Request, measurement_id: int) -> Response:
        try:
            measurement = measuring.measurement_cancel(acting_player(request), measurement_id)
        except MatchError as exc:
            return error_response(exc)
        return Response(measuring.measurement_json(measurement))


EXPORT_FORMAT = OpenApiParameter(
    "fmt", {"type": "string", "enum": list(exports.FORMATS)}, OpenApiParameter.PATH, description="pgn: chess only"
)


class MeasurementExportView(APIView):
    """``GET``: a measurement's games as a file: every move, the agent's stats and the house bots'."""

    @extend_schema(
        parameters=[EXPORT_FORMAT],
        responses={(200, "text/plain"): OpenApiTypes.STR, **errors(400, 401, 404)},
        description="games.jsonl (one game a line), moves.csv (one move a row) or games.pgn (chess); "
        'the moves of a game\'s opening are marked (docs/bots.md, "Search statistics").',
    )
    def get(self, request: Request, measurement_id: int, fmt: str) -> HttpResponse | Response:
        measurement = measuring.measurement_seen_by(measurement_id, acting_player_or_bot(request))
        if measurement is None:
            return error_response(NoSuchMeasurement(f"no measurement {measurement_id} of yours"))
        if fmt not in exports.FORMATS:
            return error_response(NoRecord(f"an export is one of {', '.join(exports.FORMATS)}, not {fmt[:20]!r}"))
        if fmt == "pgn" and measurement.game != "chess":
            return error_response(NoRecord(f"PGN is for chess: this run is of {measurement.game}; take jsonl or csv"))
        site = request.build_absolute_uri("/").rstrip("/")
        response = HttpResponse("".join(exports.export(measurement, fmt, site)), content_type=exports.MEDIA_TYPES[fmt])
        name = {"jsonl": "games.jsonl", "csv": "moves.csv", "pgn": "games.pgn"}[fmt]
        response["Content-Disposition"] = f'attachment; filename="plyground-measurement-{measurement.pk}-{name}"'
        return response


class BotConsentView(APIView):
    """``GET``/``PUT``: whether your bot's games go into research exports and training (both off until you say)."""

    @extend_schema(parameters=[BOT_NAME], responses={200: ConsentSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, name: str) -> Response:
        try:
            bot = services.owned_bot(acting_player(request), name)
        except NoSuchBot as exc:
            return error_response(exc)
        return Response(consent_of(bot).to_json())

    @extend_schema(
        parameters=[BOT_NAME],
        request=ConsentSerializer,
        responses={200: ConsentSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Request, name: str) -> Response:
        try:
            bot = services.owned_bot(acting_player(request), name)
        except NoSuchBot as exc:
            return error_response(exc)
        body = ConsentSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(consent_set(bot, body.validated_data["research"], body.validated_data["training"]).to_json())
