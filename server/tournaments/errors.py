"""Errors of tournaments, with their stable codes (docs/wire.md, error codes)."""

from __future__ import annotations

from server.matches.errors import MatchError


class NoSuchTournament(MatchError):
    code = "no_such_tournament"
    http_status = 404


class TournamentClosed(MatchError):
    """It no longer takes entrants (started, finished) or the change asked does not apply any more."""

    code = "tournament_closed"
    http_status = 409


class TournamentFull(MatchError):
    code = "tournament_full"
    http_status = 409


class EntryRefused(MatchError):
    """The tournament's entry rule leaves this entrant out: a bot in a people's tournament, a guest."""

    code = "entry_refused"
    http_status = 403


class NotEntered(MatchError):
    code = "not_entered"
    http_status = 409


class TooManyTournaments(MatchError):
    """A person already has `TOURNAMENT_OPEN_PER_PERSON` tournaments scheduled or running."""

    code = "too_many_tournaments"
    http_status = 429
