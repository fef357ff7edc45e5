"""Reads about bots: their record against people."""

from __future__ import annotations

from dataclasses import dataclass

from server.bots.models import BotProfile
from server.matches.models import Match, Seat


@dataclass(frozen=True)
class BotRecord:
    games: int  # finished matches, any opponent
    human_games: int  # finished matches with at least one person seated
    human_score: float | None  # the people's points per game against this bot (win 1, draw 1/2)


def bot_record(profile: BotProfile) -> BotRecord:
    seats = Seat.objects.filter(bot_profile=profile, match__status=Match.Status.FINISHED).select_related("match")
    games = human_games = 0
    human_points = 0.0
    for seat in seats:
        games += 1
        returns = (seat.match.result or {}).get("returns") or []
        people = Seat.objects.filter(match_id=seat.match_id, kind=Seat.Kind.HUMAN).values_list("index", flat=True)
        people = [i for i in people if i < len(returns)]
        if not people or seat.index >= len(returns):
            continue
        human_games += 1
        for index in people:
            diff = returns[index] - returns[seat.index]
            human_points += (1.0 if diff > 0 else 0.0 if diff < 0 else 0.5) / len(people)
    return BotRecord(games, human_games, human_points / human_games if human_games else None)
