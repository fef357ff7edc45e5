"""The shapes the match API answers with, for ``/api/schema/`` (docs/design.md §5).

The views build their JSON in `selectors`; these serializers only describe it, field by
field, so the schema says what a client really gets.  A change to a selector's output
changes its serializer here in the same commit.  Game positions (``state``) and a bot's
search figures (``stats``) are the game's and the searcher's own JSON: objects, not
described further.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DatabaseError
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from games import registry
from server.matches.models import Match, Seat

SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"


class GameSeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    name = serializers.CharField(help_text='as players call the seat, e.g. "X" or "black"')
    colour = serializers.CharField(
        help_text="its colour in the page's palette: blue, orange, purple, green, black or white"
    )
    mark = serializers.CharField(help_text="how lists draw it: disc (with the seat's symbol), plain (disc), x or o")


class GameSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="stable lowercase id, e.g. connect4")
    name = serializers.CharField(help_text="display name")
    num_players = serializers.IntegerField()
    has_chance = serializers.BooleanField(help_text="dice: chance events are moves of seat -1")
    board = serializers.CharField(help_text="the browser module that draws the board, e.g. connect4.js")
    stylesheet = serializers.CharField(help_text="the board's stylesheet under css/, e.g. games/connect4.css")
    seats = GameSeatSerializer(many=True)
    resignation_levels = serializers.ListField(
        child=serializers.CharField(),
        help_text='what a seat may offer to resign short of the match (backgammon: "single", "gammon", "backgammon")',
    )


class SeatBotProfileSerializer(serializers.Serializer[Any]):
    """The bot's profile as it was when the match was made."""

    slug = serializers.CharField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    level = serializers.IntegerField(allow_null=True)
    algorithm = serializers.CharField(allow_null=True)
    time_budget_ms = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    is_ai = serializers.BooleanField(help_text="always true")


class SeatPlayerSerializer(serializers.Serializer[Any]):
    """A person (``kind`` human, with ``id``) or a bot (``kind`` bot, ``is_ai`` true, with ``profile``)."""

    id = serializers.IntegerField(required=False, help_text="people only: the player's id")
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Seat.Kind.choices)
    is_ai = serializers.BooleanField(help_text="true for every bot, false for people")
    profile = SeatBotProfileSerializer(required=False, help_text="bots only")


class SeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    name = serializers.CharField(help_text='the seat as the game calls it: "white", "X", "blue (dot)"')
    player = SeatPlayerSerializer(allow_null=True, help_text="null while the seat is open")


class MoverSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=[*Seat.Kind.values, "chance"])
    is_ai = serializers.BooleanField()


class MoveSerializer(serializers.Serializer[Any]):
    ply = serializers.IntegerField(help_text="moves played before this one (chance events included)")
    seat = serializers.IntegerField(help_text="seat index; -1 for a chance event")
    move = serializers.CharField(help_text="the game's canonical move text")
    by = MoverSerializer()
    think_ms = serializers.IntegerField()
    at = serializers.DateTimeField(allow_null=True)
    fallback = serializers.CharField(allow_null=True, help_text="why no search chose this bot move; else null")
    queue_wait_ms = serializers.IntegerField(
        required=False, allow_null=True, help_text="bot moves: how long the turn waited for a worker"
    )
    stats = serializers.DictField(required=False, help_text="bot moves: the search's figures")


class ResultSerializer(serializers.Serializer[Any]):
    returns = serializers.ListField(child=serializers.FloatField(), help_text="one utility per seat; empty if aborted")
    winner = serializers.IntegerField(allow_null=True, help_text="seat index; null for a draw, an abort or a tie")
    reason = serializers.CharField()
    ranking = serializers.ListField(child=serializers.IntegerField(), help_text="seats, best first")
    places = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="by seat: where it finished, 1 first; seats with equal returns share a place (empty if aborted)",
    )


class MatchSummarySerializer(serializers.Serializer[Any]):
    """A match as the lobby lists it: everything but the position and the moves."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    seats = SeatSerializer(many=True)
    ply = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True, help_text="seat index, -1 for chance, null when not live")
    result = ResultSerializer(allow_null=True)
    rated = serializers.BooleanField()
    hints_allowed = serializers.BooleanField()
    v = serializers.IntegerField(help_text="the match's event version; only grows")
    created_at = serializers.DateTimeField()


class ThinkingSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "thinking"])
    budget_ms = serializers.IntegerField(allow_null=True)
    since = serializers.DateTimeField(allow_null=True)


class OfferSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["takeback", "draw"])
    seat = serializers.IntegerField()
    ply = serializers.IntegerField()
    awaiting = serializers.ListField(child=serializers.IntegerField(), help_text="seats still to accept")


class ClockStateSerializer(serializers.Serializer[Any]):
    initial_ms = serializers.IntegerField()
    increment_ms = serializers.IntegerField()
    remaining_ms = serializers.ListField(child=serializers.IntegerField(), help_text="per seat, when the turn started")
    running = serializers.IntegerField(allow_null=True, help_text="the seat whose clock runs")
    elapsed_ms = serializers.IntegerField(help_text="used by the running seat since the turn started")


class PresenceSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    online = serializers.BooleanField()


class MatchSerializer(MatchSummarySerializer):
    """The full match object (docs/design.md §5)."""

    state = serializers.DictField(help_text="the current position, the game's own JSON")
    legal_moves = serializers.ListField(child=serializers.CharField(), help_text="empty unless a seat is to move")
    move_parts = serializers.ListField(
        child=serializers.DictField(),
        allow_null=True,
        help_text="where the move to make is entered part by part (backgammon: die by die), the graph of its parts: "
        'nodes {"parts": [[part, next node index]], "move": the legal move so far or null}, node 0 first; else null',
    )
    moves = MoveSerializer(many=True)
    thinking = ThinkingSerializer(allow_null=True, help_text="the bot to move, while one is")
    offer = OfferSerializer(allow_null=True)
    clock = ClockStateSerializer(allow_null=True)
    presence = PresenceSerializer(many=True)
    abandon_after_ms = serializers.IntegerField()


class PositionsSerializer(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    positions = serializers.ListField(
        child=serializers.DictField(), help_text="the start, then the position after each ply"
    )


# --- the body of POST /api/matches/ --------------------------------------------------


class MatchCreateScheme(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's registry is unannotated
    """``POST /api/matches/`` as JSON Schema can say it: one alternative per game and kind of match.

    Per game: exactly its number of seats, and bot seats name one of that game's bot
    profiles (read when the schema is made).  A clock may be set in both (a bot's clock never
    flags); hints only with bots.  What JSON Schema cannot say is in the
    description: hints need exactly one person and at least one bot in an unrated match.
    """

    target_class = "server.matches.api.MatchCreateSerializer"

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        profiles = _bot_profiles_by_game()
        human = {
            "type": "object",
            "properties": {"kind": {"type": "string", "enum": ["human"]}, "profile": {"not": {}}},
            "required": ["kind"],
        }
        clock = {
            "type": "object",
            "properties": {
                "minutes": {"type": "number", "minimum": 0.25, "maximum": 180, "description": "each seat's time"},
                "increment": {"type": "integer", "minimum": 0, "maximum": 60, "description": "seconds per move"},
            },
            "required": ["minutes", "increment"],
        }
        variants = []
        for game in registry.all():
            seats = {"type": "array", "minItems": game.num_players, "maxItems": game.num_players}
            # Top-level enums are wrapped in allOf: drf-spectacular would otherwise pull each into a
            # shared enum component, and these differ per alternative.
            base = {"game": {"allOf": [{"type": "string", "enum": [game.id]}]}}
            variants.append(
                {
                    "type": "object",
                    "title": f"{game.id} between people",
                    "properties": {
                        **base,
                        "seats": {**seats, "items": human},
                        "clock": {**clock, "nullable": True},
                        "hints": {"allOf": [{"type": "boolean", "enum": [False]}]},
                        "rated": {"type": "boolean", "default": False},
                    },
                    "required": ["game", "seats"],
                }
            )
            slugs = profiles.get(game.id, []) if profiles is not None else None
            if slugs == []:
                continue  # no bot plays this game
            profile = {"type": "string", "enum": slugs} if slugs else {"type": "string", "pattern": SLUG_PATTERN}
            bot = {
                "type": "object",
                "properties": {"kind": {"type": "string", "enum": ["bot"]}, "profile": profile},
                "required": ["kind", "profile"],
            }
            variants.append(
                {
                    "type": "object",
                    "title": f"{game.id} with bots",
                    "properties": {
                        **base,
                        "seats": {**seats, "items": {"anyOf": [human, bot]}},
                        "clock": {**clock, "nullable": True},
                        "hints": {"type": "boolean", "default": False},
                        "rated": _bots_rated(),
                    },
                    "required": ["game", "seats"],
                }
            )
        return {
            "anyOf": variants,
            "required": ["game", "seats"],  # every alternative's: the body itself is required
            "description": "A new match: the game, its seats in order (the caller takes the first free "
            "human seat), an optional clock (a bot's is charged its search time and never flags), and hints "
            "(only for one person against "
            "bots, in an unrated match). `rated` (default false) makes the result count for the people's "
            "ratings: never with hints, nor with bots unless the installation rates bot games, and only between "
            "accounts (a guest is refused with 403 rated_needs_account).",
        }


def _bots_rated() -> dict[str, Any]:
    """`rated` in a match with bots: always false unless the installation rates bot games."""
    if settings.BOT_GAMES_RATED_FOR_HUMANS:
        return {"type": "boolean", "default": False}
    return {"allOf": [{"type": "boolean", "enum": [False]}]}


def _bot_profiles_by_game() -> dict[str, list[str]] | None:
    """Every bot profile's slug by game, or None when the database cannot say (no tables yet)."""
    from server.bots.models import BotProfile

    try:
        found: dict[str, list[str]] = {}
        for slug, game in BotProfile.objects.order_by("slug").values_list("slug", "game"):
            found.setdefault(game, []).append(slug)
        return found
    except DatabaseError:
        return None
