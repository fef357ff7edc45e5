"""Measured difficulty: a round-robin of bot-vs-bot matches through the normal match path,
then Elo ratings by maximum likelihood (`server.bots.rating`), anchored at the random mover.

Calibration matches are ordinary matches with `source="calibration"`: played by the
configured runner (Celery workers on the full stack) with the bots' real budgets,
stored and exportable like any other.  A run is resumable: the games already finished
for a pairing count towards its total.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Q
from django.utils import timezone

from server.bots.models import BotProfile
from server.bots.rating import Rating, Result, fit
from server.matches import services
from server.matches.models import Match, Seat

SOURCE = "calibration"
STALLED_AFTER = timedelta(minutes=5)  # an unfinished match this old is from an interrupted run


@dataclass(frozen=True)
class Pairing:
    first: BotProfile  # seat 0
    second: BotProfile  # seat 1


def pairings(profiles: Sequence[BotProfile]) -> list[Pairing]:
    """Every ordered pair: each two profiles meet with each of them moving first (seats alternate)."""
    return [Pairing(a, b) for a, b in itertools.permutations(profiles, 2)]


def calibration_matches(profiles: Sequence[BotProfile], status: str | None = None):
    slugs = [p.slug for p in profiles]
    qs = Match.objects.filter(source=SOURCE, seats__bot_profile__slug__in=slugs).distinct()
    return qs.filter(status=status) if status else qs


def pairing_of(match: Match) -> tuple[str, str] | None:
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    if len(seats) != 2 or any(s.kind != Seat.Kind.BOT for s in seats):
        return None
    return seats[0].bot_profile.slug, seats[1].bot_profile.slug


def counts_by_pairing(profiles: Sequence[BotProfile]) -> dict[tuple[str, str], int]:
    """Finished and in-flight calibration matches per ordered pairing."""
    slugs = {p.slug for p in profiles}
    counts: dict[tuple[str, str], int] = {}
    live = calibration_matches(profiles).exclude(status=Match.Status.ABORTED).prefetch_related("seats__bot_profile")
    for match in live:
        pair = pairing_of(match)
        if pair and set(pair) <= slugs:
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def abort_stalled(profiles: Sequence[BotProfile]) -> int:
    """Abort matches an interrupted run left unfinished, so a resumed run replays them."""
    stalled = calibration_matches(profiles).filter(
        status=Match.Status.ACTIVE, started_at__lt=timezone.now() - STALLED_AFTER
    )
    ids = list(stalled.values_list("pk", flat=True))
    for match_id in ids:
        services.match_abort(match_id, "calibration run interrupted")
    return len(ids)


def run_round_robin(
    profiles: Sequence[BotProfile],
    games_per_pairing: int,
    concurrency: int,
    progress: Callable[[int, int], None] = lambda done, total: None,
    poll_s: float = 0.2,
) -> None:
    """Create the missing matches, at most `concurrency` in flight, until every pairing has its games."""
    abort_stalled(profiles)
    todo: list[Pairing] = []
    have = counts_by_pairing(profiles)
    for pairing in pairings(profiles):
        missing = games_per_pairing - have.get((pairing.first.slug, pairing.second.slug), 0)
        todo += [pairing] * max(0, missing)
    total = games_per_pairing * len(pairings(profiles))
    in_flight: set[int] = set(calibration_matches(profiles, Match.Status.ACTIVE).values_list("pk", flat=True))
    while todo or in_flight:
        while todo and len(in_flight) < concurrency:
            pairing = todo.pop(0)
            seats = [services.SeatRequest("bot", pairing.first), services.SeatRequest("bot", pairing.second)]
            match = services.match_create(pairing.first.game, seats, None, source=SOURCE)
            in_flight.add(match.pk)
        over = Match.objects.filter(pk__in=in_flight).filter(
            Q(status=Match.Status.FINISHED) | Q(status=Match.Status.ABORTED)
        )
        in_flight -= set(over.values_list("pk", flat=True))
        progress(total - len(todo) - len(in_flight), total)
        if in_flight:
            time.sleep(poll_s)


def results(profiles: Sequence[BotProfile]) -> list[Result]:
    """Every finished calibration game between these profiles, as (seat 0, seat 1, seat 0's score)."""
    slugs = {p.slug for p in profiles}
    out = []
    finished = calibration_matches(profiles, Match.Status.FINISHED).prefetch_related("seats__bot_profile")
    for match in finished:
        pair = pairing_of(match)
        returns = (match.result or {}).get("returns") or []
        if not pair or not set(pair) <= slugs or len(returns) != 2:
            continue
        score = 1.0 if returns[0] > returns[1] else 0.0 if returns[0] < returns[1] else 0.5
        out.append(Result(pair[0], pair[1], score))
    return out


def fit_and_store(profiles: Sequence[BotProfile], anchor: str) -> list[Rating]:
    ratings = fit(results(profiles), anchor=anchor)
    by_slug = {p.slug: p for p in profiles}
    for r in ratings:
        profile = by_slug[r.player]
        profile.rating, profile.rating_low, profile.rating_high = round(r.elo, 1), round(r.low, 1), round(r.high, 1)
        profile.rated_games = r.games
        profile.save(update_fields=["rating", "rating_low", "rating_high", "rated_games"])
    return ratings


def head_to_head(profiles: Sequence[BotProfile]) -> dict[tuple[str, str], tuple[int, float]]:
    """(games, score of the first) for every unordered pair, seats combined."""
    table: dict[tuple[str, str], list[float]] = {}
    for r in results(profiles):
        for a, b, s in ((r.a, r.b, r.score_a), (r.b, r.a, 1 - r.score_a)):
            entry = table.setdefault((a, b), [0, 0.0])
            entry[0] += 1
            entry[1] += s
    return {k: (int(v[0]), v[1] / v[0]) for k, v in table.items()}


def profiles_for(game: str, slugs: Sequence[str] | None) -> list[BotProfile]:
    if slugs:
        found = {p.slug: p for p in BotProfile.objects.filter(slug__in=slugs)}
        missing = [s for s in slugs if s not in found]
        if missing:
            raise ValueError(f"no bot profile {', '.join(missing)}")
        wrong = [s for s in slugs if found[s].game != game]
        if wrong:
            raise ValueError(f"{', '.join(wrong)} play another game than {game}")
        return [found[s] for s in slugs]
    return list(BotProfile.objects.filter(game=game, listed=True, adaptive=False).order_by("level"))


def played_counts(profiles: Sequence[BotProfile]) -> dict[str, int]:
    rows = Seat.objects.filter(bot_profile__in=profiles, match__source=SOURCE, match__status=Match.Status.FINISHED)
    return dict(rows.values_list("bot_profile__slug").annotate(n=Count("id")))
