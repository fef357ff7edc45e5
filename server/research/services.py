"""Writes for research: bot-vs-bot matches made for datasets (``manage.py selfplay``)."""

from __future__ import annotations

from collections.abc import Sequence

from games import registry
from server.bots.models import BotProfile
from server.matches import services
from server.matches.models import Match

SELFPLAY_SOURCE = "selfplay"


def selfplay_profiles(game_id: str, slugs: Sequence[str]) -> list[BotProfile]:
    """The profiles named, checked to play `game_id`; `ValueError` saying what is wrong otherwise."""
    game = registry.get(game_id)  # KeyError naming the known games
    found = {p.slug: p for p in BotProfile.objects.filter(slug__in=slugs)}
    missing = [s for s in slugs if s not in found]
    if missing:
        raise ValueError(f"no bot profile {', '.join(map(repr, missing))}")
    wrong = [s for s in slugs if found[s].game != game.id]
    if wrong:
        raise ValueError(f"bot profile {', '.join(map(repr, wrong))} plays another game than {game.id}")
    if len(slugs) not in (1, game.num_players):
        raise ValueError(f"{game.name} has {game.num_players} seats: name one profile or {game.num_players}")
    return [found[s] for s in slugs]


def selfplay_seating(profiles: Sequence[BotProfile], num_players: int, number: int) -> list[BotProfile]:
    """Seat order for the `number`-th match: profiles take turns at moving first."""
    seated = list(profiles) if len(profiles) == num_players else [profiles[0]] * num_players
    shift = number % num_players
    return seated[shift:] + seated[:shift]


def selfplay_match_create(game_id: str, seated: Sequence[BotProfile], source: str = SELFPLAY_SOURCE) -> Match:
    """A bot-vs-bot match through the normal path, tagged with `source` from its creation.

    The bots are queued when the match is committed, and then play through the
    configured runner (Celery workers when Redis is configured).
    """
    return services.match_create(game_id, [services.SeatRequest("bot", p) for p in seated], None, source=source)
