"""Errors of the match domain, each with the stable code the wire uses (docs/design.md §5)."""

from __future__ import annotations


class MatchError(Exception):
    code = "bad_request"
    http_status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadMessage(MatchError):
    code = "bad_message"


class IllegalMoveError(MatchError):
    code = "illegal_move"


class NotYourTurn(MatchError):
    code = "not_your_turn"
    http_status = 409


class StalePly(MatchError):
    code = "stale_ply"
    http_status = 409


class NotSeated(MatchError):
    code = "not_seated"
    http_status = 403


class GameOver(MatchError):
    code = "game_over"
    http_status = 409


class HumanOnly(MatchError):
    """A bot account at a place only people take: open seats, seeks (docs/bots.md)."""

    code = "human_only"
    http_status = 403


class SeatTaken(MatchError):
    code = "seat_taken"
    http_status = 409


class NotFound(MatchError):
    code = "not_found"
    http_status = 404


class NothingToTakeBack(MatchError):
    code = "nothing_to_take_back"
    http_status = 409


class OfferNotAllowed(MatchError):
    code = "offer_not_allowed"
    http_status = 409


class OfferPending(MatchError):
    code = "offer_pending"
    http_status = 409


class NoOffer(MatchError):
    code = "no_offer"
    http_status = 409


class NoDrawToClaim(MatchError):
    """A draw claimed where the game's rules allow none (chess: no threefold repetition, no 50 moves)."""

    code = "no_draw_to_claim"
    http_status = 409


class NoRecord(MatchError):
    """A game record asked in a notation the match's game does not have (a PGN of a Connect Four match)."""

    code = "no_record"


class NotRatable(MatchError):
    """A rated match asked with a bot seat (unless the installation rates those) or with hints."""

    code = "not_ratable"


class RatedNeedsAccount(NotRatable):
    """A guest in a rated match or seek: rated games are between accounts, so a rating costs an account."""

    code = "rated_needs_account"
    http_status = 403


RATED_NEEDS_ACCOUNT = "rated games are between accounts: sign up (free) or log in, or play this one casual"


class StatsRefused(MatchError):
    """A move's `stats` that are not a small JSON object, or sent by someone who is no bot account."""

    code = "stats_refused"
