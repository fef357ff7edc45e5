"""Measured difficulty: a round-robin of bot-vs-bot matches through the normal match path,
then Elo ratings by maximum likelihood (`server.bots.rating`), anchored at the random mover.

Calibration matches are ordinary matches with `source="calibration"`: played by the
configured runner (Celery workers on the full stack) with the bots' real budgets (or
capped ones, when a run says so: the seat's snapshot records the budget it played with),
stored and exportable like any other.  A run is resumable: the games already finished
for a pairing count towards its total.

In a game for three, each two profiles meet in the six seatings of two profiles over three
seats, and every two seats with different profiles count as one comparison: ahead scores
1, a shared place 1/2 (as `benchmarks/ladder_quick.py` scores them).  The comparisons of
one game are not independent, so there the intervals are somewhat too narrow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from games import registry
from server.bots import measured, placement
from server.bots.models import BotProfile
from server.bots.rating import Rating, Result, comparisons, fit, seatings
from server.matches import services
from server.matches.models import Match, Seat

SOURCE = "calibration"
STALLED_AFTER = timedelta(minutes=5)  # an unfinished match this old is from an interrupted run


@dataclass(frozen=True)
class Pairing:
    seats: tuple[BotProfile, ...]  # by seat index

    @property
    def slugs(self) -> tuple[str, ...]:
        return tuple(p.slug for p in self.seats)


def pairings(profiles: Sequence[BotProfile], num_players: int = 2) -> list[Pairing]:
    """Two seats: every ordered pair (each moves first).  Three: each pair in all six seatings."""
    return [Pairing(seats) for seats in seatings(profiles, num_players)]


def calibration_matches(profiles: Sequence[BotProfile], status: str | None = None) -> QuerySet[Match]:
    slugs = [p.slug for p in profiles]
    qs = Match.objects.filter(source=SOURCE, seats__bot_profile__slug__in=slugs).distinct()
    return qs.filter(status=status) if status else qs


def pairing_of(match: Match) -> tuple[str, ...] | None:
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    if len(seats) < 2 or any(s.kind != Seat.Kind.BOT for s in seats):
        return None
    return tuple(s.bot_profile.slug for s in seats)  # type: ignore[union-attr]  # bot seats: each has its profile


def counts_by_pairing(profiles: Sequence[BotProfile]) -> dict[tuple[str, ...], int]:
    """Finished and in-flight calibration matches per ordered pairing."""
    slugs = {p.slug for p in profiles}
    counts: dict[tuple[str, ...], int] = {}
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
    budget_cap_ms: int | None = None,
) -> None:
    """Create the missing matches, at most `concurrency` in flight, until every pairing has its games."""
    abort_stalled(profiles)
    todo: list[Pairing] = []
    have = counts_by_pairing(profiles)
    every = pairings(profiles, registry.get(profiles[0].game).num_players)
    for pairing in every:
        missing = games_per_pairing - have.get(pairing.slugs, 0)
        todo += [pairing] * max(0, missing)
    total = games_per_pairing * len(every)
    in_flight: set[int] = set(calibration_matches(profiles, Match.Status.ACTIVE).values_list("pk", flat=True))
    while todo or in_flight:
        while todo and len(in_flight) < concurrency:
            in_flight.add(start_match(todo.pop(0), budget_cap_ms).pk)
        over = Match.objects.filter(pk__in=in_flight).filter(
            Q(status=Match.Status.FINISHED) | Q(status=Match.Status.ABORTED)
        )
        in_flight -= set(over.values_list("pk", flat=True))
        progress(total - len(todo) - len(in_flight), total)
        if in_flight:
            time.sleep(poll_s)


@transaction.atomic
def start_match(pairing: Pairing, budget_cap_ms: int | None = None) -> Match:
    """A calibration match; with a cap, each seat's snapshot (what its bot plays with) has the capped budget.

    The first bot turn is queued when the transaction commits, so it already reads the cap.
    """
    seats = [services.SeatRequest("bot", profile) for profile in pairing.seats]
    match = services.match_create(pairing.seats[0].game, seats, None, source=SOURCE)
    if budget_cap_ms is not None:
        for seat in match.seats.all():
            snapshot = dict(seat.bot_snapshot)  # type: ignore[arg-type]  # a bot seat has its snapshot
            snapshot["time_budget_ms"] = min(snapshot["time_budget_ms"], budget_cap_ms)
            snapshot["min_think_ms"] = min(snapshot.get("min_think_ms") or 0, snapshot["time_budget_ms"])
            seat.bot_snapshot = snapshot
            seat.save(update_fields=["bot_snapshot"])
    return match


def results(profiles: Sequence[BotProfile]) -> list[Result]:
    """Every finished calibration game between these profiles, as comparisons of two seats."""
    slugs = {p.slug for p in profiles}
    out = []
    finished = calibration_matches(profiles, Match.Status.FINISHED).prefetch_related("seats__bot_profile")
    for match in finished:
        seating = pairing_of(match)
        returns = (match.result or {}).get("returns") or []
        if not seating or not set(seating) <= slugs or len(returns) != len(seating):
            continue
        out += comparisons(seating, returns)
    return out


def games_by_profile(profiles: Sequence[BotProfile]) -> dict[str, int]:
    """Finished calibration games each profile played (with three seats a game is two comparisons)."""
    slugs = {p.slug for p in profiles}
    games = dict.fromkeys(slugs, 0)
    finished = calibration_matches(profiles, Match.Status.FINISHED).prefetch_related("seats__bot_profile")
    for match in finished:
        seating = pairing_of(match)
        if seating and set(seating) <= slugs:
            for slug in set(seating):
                games[slug] += 1
    return games


def fit_and_store(
    profiles: Sequence[BotProfile], anchor: str, method: str = "", budget_cap_ms: int | None = None
) -> list[Rating]:
    """Fit, and write each profile's rating with the settings it was measured with."""
    ratings = fit(results(profiles), anchor=anchor)
    by_slug = {p.slug: p for p in profiles}
    games = games_by_profile(profiles)
    today = timezone.localdate()
    for r in ratings:
        profile = by_slug[r.player]
        entry = measured.entry_for(profile, r.elo, r.low, r.high, games[r.player], method, today, budget_cap_ms)
        for field, value in measured.rating_fields(entry).items():
            setattr(profile, field, value)
        profile.save(update_fields=measured.MEASURED_FIELDS)
    return ratings


def data_entries(profiles: Sequence[BotProfile]) -> dict[str, dict[str, Any]]:
    """The rated profiles as `seed_ratings.json` entries (after `fit_and_store`), on the bots' own scale."""
    return {
        p.slug: measured.entry_for(  # rated by `fit_and_store`: its rating fields are set
            p,
            placement.calibration_elo(p.rating),
            placement.calibration_elo(p.rating_low),  # type: ignore[arg-type]  # rated: set
            placement.calibration_elo(p.rating_high),  # type: ignore[arg-type]  # rated: set
            p.rated_games,
            p.rating_method,
            p.measured_on,  # type: ignore[arg-type]  # rated: set
            p.rating_budget_cap_ms or None,
        )  # fmt: skip
        for p in profiles
        if p.rating is not None
    }


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
    # Adaptive bots too: against a bot they play at their starting strength.
    return list(BotProfile.objects.filter(game=game, listed=True).order_by("adaptive", "level"))


def played_counts(profiles: Sequence[BotProfile]) -> dict[str, int]:
    rows = Seat.objects.filter(bot_profile__in=profiles, match__source=SOURCE, match__status=Match.Status.FINISHED)
    return dict(rows.values_list("bot_profile__slug").annotate(n=Count("id")))
