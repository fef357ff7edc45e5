"""A match's record, the file players download: the match's game writes it (`Game.match_record`).

The server says what happened (`games.records.PlayedMatch`: the moves and their think
times, the seats' names, the clock, how it ended); the game writes its notation: PGN for
chess, a plain record for games without a notation of their own (docs/wire.md).
"""

from __future__ import annotations

from games.records import Ending, GameRecord, PlayedMatch, PlayedMove, RecordSeat
from server.matches.errors import NoRecord
from server.matches.models import Match, Seat

ENDINGS = {
    Match.Status.FINISHED: Ending.FINISHED,
    Match.Status.ABORTED: Ending.CALLED_OFF,
}


def match_record(match: Match, site: str) -> GameRecord:
    """The match's record; `site` is where it was played (its page).  NoRecord for a damaged match."""
    game = match.rules()
    try:
        return game.match_record(played_match(match, site, game.num_players))
    except ValueError as exc:  # the stored moves are the rules' own: this would be a damaged match
        raise NoRecord(f"match {match.pk} has no record: {exc}") from exc


def played_match(match: Match, site: str, num_seats: int) -> PlayedMatch:
    """What the game reads to write the match's record."""
    result = match.result or {}
    ending = ENDINGS.get(Match.Status(match.status), Ending.GOING_ON)
    seats = {seat.index: seat for seat in match.seats.all()}
    return PlayedMatch(
        moves=tuple(PlayedMove(*row) for row in match.moves.order_by("ply").values_list("seat", "move", "think_ms")),
        seats=tuple(_record_seat(seats.get(index)) for index in range(num_seats)),
        site=site,
        date=match.created_at.strftime("%Y.%m.%d"),
        rated=match.rated,
        clock=(match.clock["initial_ms"], match.clock["increment_ms"]) if match.clock else None,
        ending=ending,
        returns=tuple(result.get("returns") or ()) if ending == Ending.FINISHED else (),
        winner=result.get("winner"),
        reason=str(result.get("reason") or ""),
    )


def _record_seat(seat: Seat | None) -> RecordSeat:
    if seat is None:
        return RecordSeat("?")
    if seat.kind == Seat.Kind.BOT:
        return RecordSeat(str((seat.bot_snapshot or {}).get("name", "Bot")), "program")
    if seat.player is not None:
        return RecordSeat(seat.player.name, "human")
    return RecordSeat("?")
