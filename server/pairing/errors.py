"""Errors of quick pairing, with their stable codes (docs/wire.md, error codes)."""

from __future__ import annotations

from server.matches.errors import MatchError


class SeekUnavailable(MatchError):
    """The seek was taken, cancelled or went away, or its range leaves the accepting person out."""

    code = "seek_unavailable"
    http_status = 409
