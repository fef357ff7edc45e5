"""Errors of the Bot API, each with the stable code the wire and the HTTP answers use (docs/bots.md)."""

from __future__ import annotations

from server.matches.errors import MatchError


class NotABot(MatchError):
    """The event stream and a bot's answers are for bot accounts' tokens only."""

    code = "not_a_bot"
    http_status = 403


class NotAnAccount(MatchError):
    """Only a person with an account (not a guest, not a bot) registers bot accounts."""

    code = "account_needed"
    http_status = 403


class TooManyBots(MatchError):
    code = "too_many_bots"
    http_status = 409


class NoSuchBot(MatchError):
    code = "not_found"
    http_status = 404


class NotAHouseBot(MatchError):
    """A game against house bots names a bot profile that is not a listed one of that game."""

    code = "not_a_house_bot"
    http_status = 400


class NoSuchChallenge(MatchError):
    code = "not_found"
    http_status = 404


class ChallengeClosed(MatchError):
    """Answered, cancelled or expired: nothing to accept any more."""

    code = "challenge_closed"
    http_status = 409


class TooManyGames(MatchError):
    """The bot, or its owner's bots together, already play as many games as they may at once."""

    code = "too_many_games"
    http_status = 409


class TooManyChallenges(MatchError):
    code = "too_many_challenges"
    http_status = 409


class NoSuchMeasurement(MatchError):
    code = "no_such_measurement"
    http_status = 404


class TooManyMeasurements(MatchError):
    """One live measurement a bot, and a few an owner: they share the lowest queue with research."""

    code = "too_many_measurements"
    http_status = 409
