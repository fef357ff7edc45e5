"""Reads for profiles: who a name is, a player's results per game and per bot, their match history.

A result is seen from the player's seat: a finished match they won (``winner`` is their
seat), lost (another seat's) or drew (no winner).  Matches not finished have none.
Reads of matches live here, beside the player they describe; matches never read players'
profiles, so the dependency stays one way in use (docs/design.md §4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from games.base import places
from server.matches.models import Match, Seat
from server.matches.selectors import seat_player_json
from server.players.models import Player
from server.players.names import name_skeleton
from server.players.selectors import player_json

HISTORY_PAGE_SIZE = 20
RESULTS = ("win", "draw", "loss")


def player_by_name(name: str) -> Player | None:
    """The account named `name` (as it looks), else the guest with exactly that name seen last."""
    account = Player.objects.filter(is_guest=False, name_key=name_skeleton(name)).first()
    if account is not None:
        return account
    return Player.objects.filter(is_guest=True, name=name).order_by("-last_seen_at", "-pk").first()


def _matches_of(player: Player) -> QuerySet[Match]:
    """The player's matches with their seat (`my_seat`) and the winning seat (`winner`, null for none)."""
    mine = Seat.objects.filter(match=OuterRef("pk"), player=player).values("index")[:1]
    # A JSON null is no winner on every database (SQLite's text of it would cast to 0).
    winner = Case(
        When(Q(result__winner=None), then=Value(None)),
        default=Cast(KT("result__winner"), IntegerField()),
        output_field=IntegerField(),
    )
    return Match.objects.filter(seats__player=player).annotate(my_seat=Subquery(mine), winner=winner)


FINISHED = Q(status=Match.Status.FINISHED)


def _outcome_q(result: str) -> Q:
    """Matches the player won, drew or lost (on `_matches_of`'s annotations)."""
    won = Q(winner=F("my_seat"))
    if result == "win":
        return FINISHED & won
    if result == "draw":
        return FINISHED & Q(winner__isnull=True)
    return FINISHED & Q(winner__isnull=False) & ~won


def results_per_game(player: Player) -> list[dict[str, Any]]:
    """Per game the player has a match of: finished matches played, wins, draws, losses."""
    rows = (
        _matches_of(player)
        .values("game")
        .annotate(
            played=Count("pk", filter=FINISHED),
            wins=Count("pk", filter=_outcome_q("win")),
            draws=Count("pk", filter=_outcome_q("draw")),
            losses=Count("pk", filter=_outcome_q("loss")),
        )
        .order_by("game")
    )
    return [{k: row[k] for k in ("game", "played", "wins", "draws", "losses")} for row in rows]


def results_per_bot(player: Player) -> list[dict[str, Any]]:
    """Per bot profile the player met in a finished match: the player's wins, draws and losses."""
    finished = _matches_of(player).filter(status=Match.Status.FINISHED)
    per_bot: dict[int, dict[str, Any]] = {}
    bots = Seat.objects.filter(kind=Seat.Kind.BOT, match__in=finished.values("pk")).select_related("bot_profile")
    outcomes = {m.pk: _result_for(m.winner, m.my_seat, m.status) for m in finished.only("pk", "status", "result")}  # type: ignore[attr-defined]  # `winner` and `my_seat` are annotations (_matches_of)
    for seat in bots.distinct():
        entry = per_bot.setdefault(
            seat.bot_profile_id,  # type: ignore[arg-type]  # bot seats: each has its profile
            {"slug": seat.bot_profile.slug, "name": seat.bot_profile.name, "game": seat.bot_profile.game,  # type: ignore[union-attr]  # bot seats: a profile each
             "wins": 0, "draws": 0, "losses": 0},
        )  # fmt: skip
        result = outcomes.get(seat.match_id)
        if result is not None:
            entry["wins" if result == "win" else "draws" if result == "draw" else "losses"] += 1
    return sorted(per_bot.values(), key=lambda e: (e["game"], e["name"], e["slug"]))


def _result_for(winner: int | None, my_seat: int | None, status: str) -> str | None:
    if status != Match.Status.FINISHED:
        return None
    if winner is None:
        return "draw"
    return "win" if winner == my_seat else "loss"


def _place_for(match: Match) -> dict[str, Any] | None:
    """Where the player finished in a game of more than two seats that is no draw
    ({"place", "shared", "of"}): "draw" alone would hide that two shared first and one was third."""
    returns = (match.result or {}).get("returns") or []
    finished = places(returns)
    seat = match.my_seat  # type: ignore[attr-defined]  # an annotation (_matches_of)
    if match.status != Match.Status.FINISHED or len(finished) < 3 or seat is None or len(set(finished)) == 1:
        return None
    return {"place": finished[seat], "shared": finished.count(finished[seat]) > 1, "of": len(finished)}


@dataclass(frozen=True)
class HistoryFilter:
    game: str | None = None
    opponent: str | None = None  # a person's name, or a bot profile's slug or name
    result: str | None = None  # win, draw or loss, from the player's side


def history(player: Player, wanted: HistoryFilter) -> QuerySet[Match]:
    """The player's matches, newest first, filtered."""
    matches = _matches_of(player).prefetch_related("seats__player", "seats__bot_profile")
    if wanted.game:
        matches = matches.filter(game=wanted.game)
    if wanted.opponent:
        name = wanted.opponent.strip()
        others = Seat.objects.filter(match=OuterRef("pk")).exclude(player=player)
        names = Q(player__name__iexact=name) | Q(bot_profile__slug=name) | Q(bot_profile__name__iexact=name)
        matches = matches.filter(Exists(others.filter(names)))
    if wanted.result:
        matches = matches.filter(_outcome_q(wanted.result))
    return matches.order_by("-created_at", "-pk")


def history_page(player: Player, wanted: HistoryFilter, number: int) -> Page[Match] | None:
    """Page `number` (from 1) of the history, or None past its end (page 1 always exists)."""
    paginator = Paginator(history(player, wanted), HISTORY_PAGE_SIZE, allow_empty_first_page=True)
    if number < 1 or number > paginator.num_pages:
        return None
    return paginator.page(number)


def history_entry(match: Match) -> dict[str, Any]:
    """One match of a history, from the player's seat: its result and who sat opposite."""
    seats = list(match.seats.all())
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "rated": match.rated,
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "seat": match.my_seat,  # type: ignore[attr-defined]  # `winner` and `my_seat` are annotations (_matches_of)
        "result": _result_for(match.winner, match.my_seat, match.status),  # type: ignore[attr-defined]  # `winner` and `my_seat` are annotations (_matches_of)
        "place": _place_for(match),
        "reason": (match.result or {}).get("reason") or None,
        "opponents": [seat_player_json(s) for s in seats if s.index != match.my_seat and not s.is_open],  # type: ignore[attr-defined]  # `winner` and `my_seat` are annotations (_matches_of)
        "replay_url": f"/matches/{match.pk}/",
        "analysis_url": f"/matches/{match.pk}/analysis/",
    }


def profile_json(player: Player) -> dict[str, Any]:
    return {
        **{k: v for k, v in player_json(player).items() if k != "id"},
        "joined": player.created_at.isoformat(),
        "games": results_per_game(player),
        "bots": results_per_bot(player),
    }
