"""Reads of tournaments: the list, and one tournament whole (standings, crosstable, pairings).

Every entrant is shown as everywhere else on the site: a person with their guest marker, a bot
account as an AI with its owner, a house bot as an AI with its profile (docs/design.md §6.1).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from games import registry
from server.players.selectors import player_json
from server.tournaments.models import Entrant, Pairing, Tournament
from server.tournaments.standings import Played, standings

LIST_LIMIT = 100


def entrant_json(entrant: Entrant) -> dict[str, Any]:
    if entrant.bot_profile is not None:
        profile = entrant.bot_profile
        who: dict[str, Any] = {
            "name": profile.name,
            "kind": "bot",
            "is_ai": True,
            "profile": {
                "slug": profile.slug,
                "name": profile.name,
                "level": profile.level,
                "algorithm": profile.algorithm,
                "is_ai": True,
            },
        }
    else:
        assert entrant.player is not None  # the check constraint: a player or a house bot
        who = player_json(entrant.player)
        who.pop("id", None)
    return {"id": entrant.pk, **who, "rating": entrant.rating, "withdrawn": entrant.withdrawn}


def summary_json(tournament: Tournament, entrants: int) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "kind": tournament.kind,
        "game": tournament.game,
        "game_name": registry.get(tournament.game).name,
        "clock": tournament.clock,
        "entry": tournament.entry,
        "rated": tournament.rated,
        "status": tournament.status,
        "starts_at": tournament.starts_at.isoformat(),
        "started_at": tournament.started_at.isoformat() if tournament.started_at else None,
        "ends_at": tournament.ends_at.isoformat() if tournament.ends_at else None,
        "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
        "rounds": tournament.rounds,
        "round": tournament.round,
        "minutes": tournament.minutes,
        "max_entrants": tournament.max_entrants,
        "entrants": entrants,
        "created_by": tournament.created_by.name if tournament.created_by is not None else None,
        "url": f"/tournaments/{tournament.pk}/",
    }


def tournaments_json(status: str | None = None) -> list[dict[str, Any]]:
    """The tournaments, running first, then scheduled (soonest first), then the latest ended."""
    rows = Tournament.objects.select_related("created_by").annotate(
        active=Count("entrants", filter=Q(entrants__withdrawn=False))
    )
    if status:
        rows = rows.filter(status=status)
    order: dict[str, int] = {Tournament.Status.RUNNING: 0, Tournament.Status.SCHEDULED: 1}
    listed = sorted(
        rows[:LIST_LIMIT] if status else rows.order_by("-starts_at")[: LIST_LIMIT * 2],
        key=lambda t: (order.get(t.status, 2), t.starts_at.timestamp() * (1 if t.status == "scheduled" else -1)),
    )
    return [summary_json(t, t.active) for t in listed[:LIST_LIMIT]]


def tournament_json(tournament_id: int) -> dict[str, Any] | None:
    """The whole tournament, or None when there is no such one."""
    tournament = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if tournament is None:
        return None
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("player__bot_owner", "bot_profile"))
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("match"))
    arena = tournament.kind == Tournament.Kind.ARENA
    done = sorted((p for p in pairings if p.done), key=lambda p: (p.finished_at or p.created_at, p.pk))
    played = [Played(p.white_id, p.black_id, p.white_score or 0, p.black_score or 0) for p in done]
    rows = standings(arena, {e.pk: e.rating for e in entrants}, played)
    by_id = {e.pk: e for e in entrants}
    scale = 1 if arena else 2  # round robin and Swiss count half points, shown as points
    return {
        **summary_json(tournament, sum(not e.withdrawn for e in entrants)),
        "entrants_list": [entrant_json(e) for e in entrants],
        "standings": [
            {
                "rank": rank,
                "entrant": entrant_json(by_id[row.entrant]),
                "points": row.points / scale,
                "buchholz": row.buchholz / 2,
                "sonneborn_berger": row.sonneborn_berger / 4,
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "on_fire": row.on_fire,
            }
            for rank, row in enumerate(rows, start=1)
        ],
        "crosstable": _crosstable(tournament, rows, pairings),
        "pairings": [_pairing_json(p) for p in _current(tournament, pairings)],
    }


def tournament_of_match(match_id: int) -> dict[str, Any] | None:
    """The tournament a match is a game of, and its round (None in an arena), for its room."""
    pairing = Pairing.objects.filter(match_id=match_id).select_related("tournament").first()
    if pairing is None:
        return None
    tournament = pairing.tournament
    arena = tournament.kind == Tournament.Kind.ARENA
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "round": None if arena else pairing.round,
        "rounds": None if arena else tournament.rounds,
        "url": f"/tournaments/{tournament.pk}/",
    }


def _current(tournament: Tournament, pairings: list[Pairing]) -> list[Pairing]:
    """What is being played: the round under way (round robin, Swiss), or the games under way and
    the latest ended ones (arena)."""
    if tournament.kind != Tournament.Kind.ARENA:
        return [p for p in pairings if p.round == tournament.round]
    running = [p for p in pairings if not p.done]
    ended = sorted((p for p in pairings if p.done), key=lambda p: p.finished_at or p.created_at, reverse=True)
    return running + ended[:10]


def _pairing_json(pairing: Pairing) -> dict[str, Any]:
    return {
        "round": pairing.round,
        "white": pairing.white_id,
        "black": pairing.black_id,
        "match": pairing.match_id,
        "match_url": f"/matches/{pairing.match_id}/" if pairing.match_id else None,
        "white_score": pairing.white_score,
        "black_score": pairing.black_score,
        "note": pairing.note,
    }


def _crosstable(tournament: Tournament, rows: list[Any], pairings: list[Pairing]) -> list[dict[str, Any]]:
    """Per entrant in standings order, their games: opponent, colour, score (half points), match.

    Round robin: the cells against each opponent (`against`, keyed by entrant id).  Swiss and
    arena: the games in the order played (`games`)."""
    table: dict[int, list[dict[str, Any]]] = {row.entrant: [] for row in rows}
    for p in sorted(pairings, key=lambda p: (p.round, p.finished_at or p.created_at, p.pk)):
        if p.black_id is None:
            table[p.white_id].append({"round": p.round, "opponent": None, "colour": None, "score": p.white_score})
            continue
        for me, other, colour, score in (
            (p.white_id, p.black_id, "white", p.white_score),
            (p.black_id, p.white_id, "black", p.black_score),
        ):
            table[me].append(
                {"round": p.round, "opponent": other, "colour": colour, "score": score, "match": p.match_id}
            )
    return [{"entrant": row.entrant, "games": table[row.entrant]} for row in rows]
