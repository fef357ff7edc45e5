"""Measure my agent (docs/bots.md, "Measuring a bot"): a bot account against the house ladder.

A measurement plays `games_per_step` games of the bot against each step of the game's
calibrated ladder (the listed, rated, fixed-strength house bots above the random mover,
weakest first), one game at a time, steps in turn and colours alternating round by round,
every game from the game's start or, when the run names a set (`server.agents.openings`),
from its openings in turn, each one played with both colours.  The games are ordinary unrated matches with
``source="measurement"``: the bot hears each one's `game_start` on its event stream and plays
it on the match socket under the same clocks and checks as any game; the house bots' searches
go to the lowest queue (`server.bots.queues.bot_queue_for`), below every game a person plays;
exports find them by that source.

The rating is the maximum-likelihood Elo against the steps' ratings held fixed
(`server.bots.rating.fit_against`): on the site's one scale, since the steps were placed on
it by their calibration (`server.bots.placement`).  Its interval comes from these games
alone; each step's own uncertainty is shown beside it in the table.

A run moves on when one of its games ends (`match_finished`, aborts included), when a game of
its bot elsewhere ends (a run waits while the bot plays as many games as it may), and when the
bot connects to its event stream (a run a crash left between two games goes on).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import registry
from server.agents import frames
from server.agents.errors import NoSuchMeasurement, TooManyMeasurements
from server.agents.events import tell_after_commit
from server.agents.models import Measurement, MeasurementGame
from server.agents.openings import NoOpenings, opening_set
from server.agents.selectors import games_of_bot, games_of_owner
from server.bots.models import BotProfile
from server.bots.rating import fit_against
from server.matches.errors import BadMessage, GameOver
from server.matches.models import Match, Seat
from server.matches.services import Clock, SeatRequest, match_abort, match_create
from server.players.models import Player
from server.players.selectors import player_json

SOURCE = "measurement"
ABORTS_IN_A_ROW = 2  # games aborted before the bot's first move, one after another: it is not playing
MAX_GAMES_PER_STEP = 50


@dataclass(frozen=True)
class MeasurementRequest:
    game: str
    games_per_step: int
    steps: tuple[str, ...] = ()  # bot profile slugs; none: the whole ladder
    clock: Clock = Clock(3, 2)
    openings: str = ""  # an opening set's name; "": every game from the initial position


def ladder(game_id: str) -> list[BotProfile]:
    """The game's calibrated ladder: listed, rated, fixed-strength house bots above the random mover."""
    profiles = BotProfile.objects.filter(
        game=game_id, listed=True, adaptive=False, rating__isnull=False, level__gte=1
    ).order_by("level", "rating", "pk")
    return list(profiles)


@transaction.atomic
def measurement_create(bot: Player, request: MeasurementRequest) -> Measurement:
    """A run for `bot` (its owner asks), checked against the ladder and the caps; it starts after commit."""
    steps = _steps(request)
    if request.openings:
        try:
            opening_set(request.openings, request.game)
        except NoOpenings as exc:
            raise BadMessage(str(exc)) from None
    if request.games_per_step < 2 or request.games_per_step % 2 or request.games_per_step > MAX_GAMES_PER_STEP:
        raise BadMessage(f"games_per_step is an even number from 2 to {MAX_GAMES_PER_STEP}: each colour as often")
    if request.games_per_step * len(steps) > settings.MEASUREMENT_MAX_GAMES:
        raise BadMessage(f"a measurement plays {settings.MEASUREMENT_MAX_GAMES} games at most: fewer steps or games")
    Player.objects.select_for_update().filter(pk=bot.bot_owner_id or bot.pk).first()  # one owner's requests at a time
    if live_measurements().filter(bot=bot).exists():
        raise TooManyMeasurements(f"{bot.name} is being measured already: wait for it or cancel it")
    if live_measurements().filter(bot__bot_owner_id=bot.bot_owner_id).count() >= settings.MEASUREMENTS_PER_OWNER:
        raise TooManyMeasurements(f"your bots have {settings.MEASUREMENTS_PER_OWNER} measurements running already")
    measurement = Measurement.objects.create(
        bot=bot,
        game=request.game,
        steps=[p.slug for p in steps],
        games_per_step=request.games_per_step,
        clock={"minutes": request.clock.minutes, "increment": request.clock.increment},
        openings=request.openings,
    )
    measurement_id = measurement.pk
    transaction.on_commit(lambda: advance(measurement_id))
    return measurement


def _steps(request: MeasurementRequest) -> list[BotProfile]:
    if request.game not in registry.ids():
        raise BadMessage(f"no game {request.game[:40]!r}")
    if registry.get(request.game).num_players != 2:
        raise BadMessage("measurements are of games for two: the ladder is rated one against one")
    steps = ladder(request.game)
    if not steps:
        raise BadMessage(f"{request.game} has no calibrated ladder to measure against yet")
    if request.steps:
        by_slug = {p.slug: p for p in steps}
        unknown = [s for s in request.steps if s not in by_slug]
        if unknown:
            raise BadMessage(f"not a step of the ladder: {', '.join(unknown)[:200]}; the steps: {', '.join(by_slug)}")
        steps = [p for p in steps if p.slug in set(request.steps)]
    return steps


def live_measurements() -> QuerySet[Measurement]:
    return Measurement.objects.filter(status__in=(Measurement.Status.QUEUED, Measurement.Status.RUNNING))


def schedule(measurement: Measurement) -> list[tuple[str, int, int | None]]:
    """Every game of the run in order: (step, the bot's seat, its opening's index or None);
    round by round over the steps, the bot moving first in even rounds, second in odd ones,
    and with a set, each opening in turn for two rounds (both colours)."""
    count = len(opening_set(measurement.openings, measurement.game)) if measurement.openings else 0
    return [
        (step, rnd % 2, (rnd // 2) % count if count else None)
        for rnd in range(measurement.games_per_step)
        for step in measurement.steps
    ]


@transaction.atomic
def advance(measurement_id: int) -> None:
    """Start the run's next game, or finish the run: whatever its games so far call for."""
    measurement = Measurement.objects.select_for_update().filter(pk=measurement_id).first()
    if measurement is None or not measurement.is_live:
        return
    games = list(measurement.games.select_related("match"))
    if any(not g.match.is_over for g in games):
        return  # one game at a time
    statuses = [g.match.status for g in games]
    if len(statuses) >= ABORTS_IN_A_ROW and all(s == Match.Status.ABORTED for s in statuses[-ABORTS_IN_A_ROW:]):
        _end(measurement, Measurement.Status.FAILED, f"{measurement.bot.name} did not move in {ABORTS_IN_A_ROW} games")
        return
    finished = [g for g in games if g.match.status == Match.Status.FINISHED]
    plan = schedule(measurement)
    if len(finished) >= len(plan):
        _end(measurement, Measurement.Status.DONE)
        return
    room = _room(measurement.bot)
    if room:
        measurement.status, measurement.reason = Measurement.Status.QUEUED, room
        measurement.save(update_fields=["status", "reason"])
        return
    _start_game(measurement, *plan[len(finished)])


def _room(bot: Player) -> str:
    """Why the bot may not start another game now ("" when it may): the Bot API's caps."""
    if games_of_bot(bot.pk) >= settings.BOT_GAMES_PER_BOT:
        return f"waiting: {bot.name} plays {settings.BOT_GAMES_PER_BOT} games already"
    if bot.bot_owner_id is not None and games_of_owner(bot.bot_owner_id) >= settings.BOT_GAMES_PER_OWNER:
        return f"waiting: its owner's bots play {settings.BOT_GAMES_PER_OWNER} games already"
    return ""


def _start_game(measurement: Measurement, step: str, agent_seat: int, opening: int | None) -> None:
    house = BotProfile.objects.get(slug=step)
    requests = [SeatRequest(Seat.Kind.HUMAN), SeatRequest(Seat.Kind.BOT, house)]
    if agent_seat == 1:
        requests.reverse()
    clock = Clock(measurement.clock["minutes"], measurement.clock["increment"])
    bot = measurement.bot
    moves = opening_set(measurement.openings, measurement.game)[opening] if opening is not None else ()
    match = match_create(measurement.game, requests, bot, source=SOURCE, clock=clock, seated=[bot], opening=moves)
    MeasurementGame.objects.create(
        measurement=measurement, match=match, step=step, agent_seat=agent_seat, opening=opening
    )
    measurement.status, measurement.reason = Measurement.Status.RUNNING, ""
    measurement.save(update_fields=["status", "reason"])
    tell_after_commit(bot.pk, frames.game_start(match.pk, match.game, agent_seat))


def _end(measurement: Measurement, status: str, reason: str = "") -> None:
    """The run is over: its result is that of the games it finished (a failed or cancelled run's too)."""
    measurement.result = result_of(measurement, finished_games(measurement))
    measurement.status, measurement.reason, measurement.finished_at = status, reason, timezone.now()
    measurement.save(update_fields=["status", "reason", "result", "finished_at"])


def finished_games(measurement: Measurement) -> list[MeasurementGame]:
    return list(measurement.games.filter(match__status=Match.Status.FINISHED).select_related("match"))


def result_of(measurement: Measurement, finished: list[MeasurementGame]) -> dict[str, Any] | None:
    """The rating from the finished games (None before the first) and the table per step."""
    profiles = {p.slug: p for p in BotProfile.objects.filter(slug__in=measurement.steps)}
    rows = {slug: {"step": slug, "name": profiles[slug].name, "games": 0, "wins": 0, "draws": 0, "losses": 0}
            for slug in measurement.steps}  # fmt: skip
    results = []
    for game in finished:
        score = _score(game)
        row = rows[game.step]
        row["games"] += 1
        row["wins" if score == 1 else "draws" if score == 0.5 else "losses"] += 1
        results.append((profiles[game.step].rating, score))
    if not results:
        return None
    rating, low, high = fit_against(results)  # type: ignore[arg-type]  # ladder steps are rated
    for slug, row in rows.items():
        profile = profiles[slug]
        row.update(
            score=round((row["wins"] + row["draws"] / 2) / row["games"], 3) if row["games"] else None,
            step_rating=round(profile.rating or 0),
            step_deviation=round(profile.deviation or 0),
        )
    return {
        "rating": round(rating),
        "low": round(low),
        "high": round(high),
        "games": len(results),
        "steps": list(rows.values()),
    }


def _score(game: MeasurementGame) -> float:
    """The bot's score in a finished game: 1 won, 1/2 drawn, 0 lost."""
    returns = (game.match.result or {}).get("returns") or [0.0, 0.0]
    mine, theirs = returns[game.agent_seat], returns[1 - game.agent_seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@transaction.atomic
def measurement_cancel(owner: Player, measurement_id: int) -> Measurement:
    """The owner stops a run: its game in play is aborted (unrated either way), the results so far stay."""
    measurement = Measurement.objects.select_for_update().filter(pk=measurement_id, bot__bot_owner=owner).first()
    if measurement is None:
        raise NoSuchMeasurement(f"you have no measurement {measurement_id}")
    if not measurement.is_live:
        raise GameOver(f"measurement {measurement_id} is {measurement.status}: nothing to cancel")
    for game in measurement.games.select_related("match"):
        if not game.match.is_over:
            match_abort(game.match.pk, "measurement cancelled by its owner")
    _end(measurement, Measurement.Status.CANCELLED, "cancelled by its owner")
    return measurement


def after_match(match_id: int) -> None:
    """A match ended: the run it belongs to goes on, and so do runs waiting for its bots' room."""
    game = MeasurementGame.objects.filter(match_id=match_id).first()
    if game is not None:
        advance(game.measurement_id)
    seated = Seat.objects.filter(match_id=match_id, player__bot_owner__isnull=False).values_list("player", flat=True)
    for measurement_id in live_measurements().filter(bot__in=seated).values_list("pk", flat=True):
        advance(measurement_id)


def measurement_seen_by(measurement_id: int, player: Player) -> Measurement | None:
    """A run its bot's owner or the bot itself may read; None for anyone else."""
    return (
        Measurement.objects.filter(pk=measurement_id)
        .filter(Q(bot_id=player.pk) | Q(bot__bot_owner_id=player.pk))
        .select_related("bot__bot_owner")
        .first()
    )


def measurements_of(bot: Player) -> QuerySet[Measurement]:
    return Measurement.objects.filter(bot=bot).select_related("bot__bot_owner")


def measurement_json(measurement: Measurement) -> dict[str, Any]:
    """A run as the API shows it: its progress, and its rating so far (final once it is done)."""
    games = list(measurement.games.select_related("match"))
    finished = [g for g in games if g.match.status == Match.Status.FINISHED]
    playing = next((g.match.pk for g in games if not g.match.is_over), None)
    result = measurement.result if not measurement.is_live else result_of(measurement, finished)
    return {
        "id": measurement.pk,
        "bot": player_json(measurement.bot),
        "game": measurement.game,
        "steps": measurement.steps,
        "games_per_step": measurement.games_per_step,
        "clock": measurement.clock,
        "openings": measurement.openings or None,
        "status": measurement.status,
        "reason": measurement.reason or None,
        "progress": {
            "finished": len(finished),
            "total": len(schedule(measurement)),
            "aborted": sum(g.match.status == Match.Status.ABORTED for g in games),
            "playing": playing,
        },
        "result": result,
        "matches": [g.match.pk for g in games],
        "created_at": measurement.created_at.isoformat(),
        "finished_at": measurement.finished_at.isoformat() if measurement.finished_at else None,
    }


def measured_ratings(bot_id: int) -> list[dict[str, Any]]:
    """The bot's latest finished measurement per game, newest first: what its profile shows."""
    latest: dict[str, dict[str, Any]] = {}
    done = Measurement.objects.filter(bot_id=bot_id, status=Measurement.Status.DONE).order_by("-finished_at", "-pk")
    for measurement in done.only("game", "result", "finished_at"):
        if measurement.game not in latest and measurement.result:
            latest[measurement.game] = {"game": measurement.game, "on": measurement.finished_at, **measurement.result}
    return list(latest.values())


def resume(bot_id: int) -> None:
    """The bot connected: its live runs go on (one left between two games by a crash)."""
    for measurement_id in live_measurements().filter(bot_id=bot_id).values_list("pk", flat=True):
        advance(measurement_id)
