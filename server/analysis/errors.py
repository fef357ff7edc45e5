"""Errors of analysis and hints, with stable wire codes (they extend the match domain's)."""

from __future__ import annotations

from server.matches.errors import MatchError


class NotFinished(MatchError):
    code = "not_finished"
    http_status = 409


class HintsOff(MatchError):
    """This match does not allow hints (rated, not against a bot, or not chosen at creation)."""

    code = "hints_off"
    http_status = 403


class AnalysisBusy(MatchError):
    """As many analyses as the installation runs at once are already waiting or running."""

    code = "analysis_busy"
    http_status = 503


class AnalysisStalled(RuntimeError):
    """An analysis made no progress through all its restarts (recorded as its error, never raised to a client)."""
