"""Reads about bots: their record against people, and where a bot's turn stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import ai
from games import registry
from games.base import Game
from server.bots import public_rating
from server.bots.models import BotProfile, BotTurnRecord
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
        seated = Seat.objects.filter(match_id=seat.match_id, kind=Seat.Kind.HUMAN).values_list("index", flat=True)
        people = [i for i in seated if i < len(returns)]
        if not people or seat.index >= len(returns):
            continue
        human_games += 1
        for index in people:
            diff = returns[index] - returns[seat.index]
            human_points += (1.0 if diff > 0 else 0.0 if diff < 0 else 0.5) / len(people)
    return BotRecord(games, human_games, human_points / human_games if human_games else None)


STYLE_WORDS = {
    "balanced": "a balanced evaluation",
    "aggressive": "an aggressive evaluation that values its own threats over safety",
    "defensive": "a defensive evaluation that values blocking your threats",
}


def _has_hook(game_id: str, hook: str) -> bool:
    """The game implements the optional Game hook `hook` (an opening book of practice, endgame tables)."""
    try:
        game = registry.get(game_id)
    except KeyError:
        return False
    return getattr(type(game), hook) is not getattr(Game, hook)


def how_it_plays(profile: BotProfile) -> list[str]:
    """The bot's settings in plain words, for its public page and the API."""
    searcher = ai.CATALOGUE.get(profile.algorithm)
    words = searcher.describe(profile.search_options or {}) if searcher else profile.algorithm
    lines = [f"{profile.name} is an AI, not a person. It {words}."]
    if searcher is None or searcher.can(ai.Capability.LOOKS_AHEAD):
        plies = "ply" if profile.max_depth == 1 else "plies"
        depth = f"at most {profile.max_depth} {plies} deep" if profile.max_depth else "as deep as its time allows"
        lines.append(
            f"It thinks up to {profile.time_budget_ms / 1000:g} s per move, {depth}, with {STYLE_WORDS[profile.style]}."
        )
        if profile.max_iterations:
            lines.append(f"It plays out at most {profile.max_iterations:,} games per move.")
        if profile.slip_rate:
            often = "whenever it can" if profile.slip_rate >= 1 else f"on about {profile.slip_rate:.0%} of its moves"
            lines.append(
                f"It slips {often}: it plays a plausible second choice "
                "instead of its best, never one its search sees losing outright, and always one its search "
                "places in the better half of the range between its best and worst moves."
            )
        if profile.temperature and profile.slip_rate < 1:  # the moves that are not slips
            lines.append("It varies its choice among moves of similar value.")
        if profile.slip_rate and profile.temperature > ai.SLIP_TEMPERATURE:  # below it, slips lean as everyone's
            lines.append(
                "Its slips are spread: it picks among those second choices nearly at random, the weaker as "
                "often as the closer, but never one outside the better half."
                if profile.temperature >= 1
                else "Its slips lean less to the closest second choice than most bots' do."
            )
        options = profile.search_options or {}
        if options.get("opening_book") and _has_hook(profile.game, "book_move"):
            lines.append(
                "In known openings it plays a move from its opening book, chosen at random by how often "
                "the move was played; out of book it searches."
            )
        if options.get("tablebases") and _has_hook(profile.game, "table_move"):
            lines.append(
                "In endgames its tables hold (where the server has them) it plays perfectly: the fastest "
                "win, a draw kept, or the longest defence."
            )
        if options.get("trap_model"):
            lines.append(
                "Among moves its search proves equally good, it plays the one where you are most likely "
                "to go wrong: it plays for a win even in a drawn position, never at the risk of losing."
            )
    if profile.adaptive:
        lines.append("It adapts to you: stronger after you win, gentler after you lose, aiming at an even score.")
    lines.append(rating_words(profile))
    if profile.rating is not None and profile.rating_budget_cap_ms:
        lines.append(
            f"It was measured with its budget capped at {profile.rating_budget_cap_ms} ms a move instead of "
            f"{profile.time_budget_ms} ms: with its full time it is likely stronger."
        )
    if entry := public_rating.current_entry(profile):
        scale = public_rating.label(entry)
        lines.append(f"On the scale chess players know: {scale}. {public_rating.caveat(profile, entry)}")
    return lines


def rating_words(profile: BotProfile) -> str:
    """Its rating on the people's scale, with its uncertainty and what placed it; or why it has none."""
    if profile.rating is None and profile.unmeasured_since:
        return (
            f"Its rating is no longer measured: its settings changed on {profile.unmeasured_since.isoformat()}, "
            "and it has not been calibrated since."
        )
    if profile.rating is None:
        return "Its rating has not been measured yet."
    mark = "?" if profile.provisional else ""
    when = f" on {profile.measured_on.isoformat()}" if profile.measured_on else ""
    text = (
        f"Rating: {profile.rating:.0f}{mark} ±{profile.deviation or 0:.0f}, on the scale people are rated on: "
        f"placed by {profile.rated_games} calibration games against other bots{when}, and moved by its rated "
        "games against people."
    )
    if profile.adaptive:
        text += " It was measured at its starting strength: against you it adapts, so it may play above or below it."
    return text


def bot_turn_status(match_id: int, ply: int) -> tuple[str, datetime | None] | None:
    """("queued", None) while the turn waits for a free worker, ("thinking", search start) after; None: unknown."""
    record = BotTurnRecord.objects.filter(match_id=match_id, ply=ply).only("started_at").first()
    if record is None:
        return None
    return ("thinking", record.started_at) if record.started_at else ("queued", None)
