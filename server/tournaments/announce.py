"""Telling a tournament's sockets that it changed: the whole tournament, once the change commits."""

from __future__ import annotations

import logging

from django.db import transaction

from server.matches import broadcast
from server.tournaments import frames
from server.tournaments.selectors import tournament_json

log = logging.getLogger("plyground.tournaments")


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def after_commit(tournament_id: int) -> None:
    """Send the tournament as it stands once the transaction commits (read afresh then)."""
    transaction.on_commit(lambda: send_now(tournament_id))


def send_now(tournament_id: int) -> None:
    try:
        detail = tournament_json(tournament_id)
    except Exception:  # the change stands; a page's `sync` or next frame shows it
        log.exception("tournament %s not told", tournament_id)
        return
    if detail is not None:
        broadcast.send_to_group(tournament_group(tournament_id), frames.tournament(detail))
