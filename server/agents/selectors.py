"""Reads of the Bot API: bot accounts, their challenges and games, as the wire shows them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from server.agents.models import Challenge
from server.matches.models import Match
from server.players.models import Player
from server.players.selectors import player_json

# A bot's game holds its place in the caps until it is over; an adjourned one does not.
LIVE_STATUSES = (Match.Status.WAITING, Match.Status.ACTIVE)


def bot_accounts_of(owner_id: int) -> QuerySet[Player]:
    return Player.objects.filter(bot_owner_id=owner_id).select_related("bot_owner").order_by("created_at", "pk")


def bot_by_name(name: str) -> Player | None:
    """The bot account named `name` exactly (names are unique among accounts by their look)."""
    return Player.objects.filter(bot_owner__isnull=False, name=name).select_related("bot_owner").first()


def live_matches_of(player_ids: Iterable[int]) -> QuerySet[Match]:
    """Matches not over in which one of `player_ids` has a seat."""
    return Match.objects.filter(status__in=LIVE_STATUSES, seats__player_id__in=player_ids).distinct()


def games_of_bot(bot_id: int) -> int:
    return live_matches_of([bot_id]).count()


def games_of_owner(owner_id: int) -> int:
    """Live matches of all of `owner_id`'s bots together (a match between two of them counts once)."""
    return live_matches_of(Player.objects.filter(bot_owner_id=owner_id).values_list("pk", flat=True)).count()


def open_challenges_to(bot_id: int) -> QuerySet[Challenge]:
    """The bot's challenges it may still accept, oldest first."""
    return _open().filter(bot_id=bot_id).select_related("challenger__bot_owner").order_by("created_at", "pk")


def open_challenges_by(player_id: int) -> QuerySet[Challenge]:
    return _open().filter(challenger_id=player_id)


def _open() -> QuerySet[Challenge]:
    since = timezone.now() - timedelta(seconds=settings.BOT_CHALLENGE_TTL_S)
    return Challenge.objects.filter(status=Challenge.Status.PENDING, created_at__gt=since)


def challenge_seen_by(challenge_id: int, player: Player) -> Challenge | None:
    """A challenge its challenger, its bot or the bot's owner may read; None for anyone else."""
    mine = Q(challenger_id=player.pk) | Q(bot_id=player.pk) | Q(bot__bot_owner_id=player.pk)
    return (
        Challenge.objects.filter(mine, pk=challenge_id)
        .select_related("challenger__bot_owner", "bot__bot_owner")
        .first()
    )


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    """A challenge as the event stream and the API show it (docs/bots.md)."""
    status = challenge.status
    if status == Challenge.Status.PENDING and not challenge.is_open:
        status = "expired"
    return {
        "id": challenge.pk,
        "game": challenge.game,
        "challenger": player_json(challenge.challenger),
        "bot": player_json(challenge.bot),
        "challenger_seat": challenge.seat,
        "house_bots": challenge.house_bots,
        "clock": challenge.clock,
        "options": challenge.options,
        "rated": False,
        "status": status,
        "decline_reason": challenge.decline_reason or None,
        "match": challenge.match_id,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
    }


def bot_account_json(bot: Player) -> dict[str, Any]:
    """A bot account as its owner's list and its profile show it."""
    return {**player_json(bot), "created_at": bot.created_at.isoformat(), "profile_url": f"/players/{bot.name}/"}


def bot_seats(bot_id: int) -> list[dict[str, Any]]:
    """The bot's live matches with its seat in each: what the event stream repeats on (re)connect."""
    matches = live_matches_of([bot_id]).prefetch_related("seats")
    return [
        {"match": m.pk, "game": m.game, "seat": next(s.index for s in m.seats.all() if s.player_id == bot_id)}
        for m in matches.order_by("pk")
    ]


def house_game_json(match: Match, bot_id: int) -> dict[str, Any]:
    """A bot's game against house bots, as `POST /api/agents/games/` answers it."""
    seats = list(match.seats.select_related("bot_profile").order_by("index"))
    return {
        "match": match.pk,
        "game": match.game,
        "seat": next(s.index for s in seats if s.player_id == bot_id),
        "house_bots": [s.bot_profile.slug for s in seats if s.bot_profile is not None],
        "clock": match.clock,
        "rated": match.rated,
    }
