"""Resignations: a seat resigns the match (`match_resign`), or in backgammon offers to resign a single
game, a gammon or a backgammon (times the cube; in a match no more than the winner needs), and the
opponent accepts or declines (docs/wire.md, "resign_offer").

A plain resignation forfeits the match, except where the game counts it for points
(`Game.resign_match_move`): backgammon's concedes the most the opponent could win (a backgammon times
the cube, or in a match to N the match), so it needs no answer and is stored as a move of the
resigning seat, as an accepted offer is, its result saying how the points were counted.

The offer waits in `Match.offer` (kind ``"resign"``) like a draw offer, and any move cancels it
(`offers.cancel_offer_on_move`: the position it was made in is gone).  A bot answers at once, by
its evaluation (`ai.resign`).  An accepted resignation is stored as a move of the resigning seat
(`Game.resign_move`), so the record replays it: it ends the game, and in a match the next game
follows as after any other.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ai import accepts_resignation
from server.matches import frames
from server.matches.errors import BadMessage, GameOver, NotYourTurn, OfferNotAllowed, OfferPending
from server.matches.models import Match, Seat
from server.matches.services.endings import abort, forfeit
from server.matches.services.events import locked_with_seats, record
from server.matches.services.moves import store_agreed_move


@transaction.atomic
def match_resign(match_id: int, seat: int) -> Match:
    """`seat` resigns: before the start the match is aborted; else it is lost, for the points the game
    counts where it counts them (`Game.resign_match_move`), by forfeit elsewhere."""
    match, seats = locked_with_seats(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        abort(match, "abandoned before it started")
    else:
        game = match.rules()
        state = game.from_json(match.state)
        move = game.resign_match_move(state, seat)
        if move is None:
            forfeit(match, seat, "resigned")
        else:
            match.offer = None  # whatever was waiting: the match ends with this move
            store_agreed_move(match, game, seats, seat, move, game.apply(state, move))
    match.save()
    return match


@transaction.atomic
def match_resign_offer(match_id: int, seat: int, level: Any) -> Match:
    """`seat` offers to resign the game on the board at `level`; a bot opponent answers at once."""
    match, seats = locked_with_seats(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    if match.status != Match.Status.ACTIVE:
        raise NotYourTurn("the match is not being played: nothing to resign")
    game = match.rules()
    state = game.from_json(match.state)
    levels = game.resign_levels(state)
    if not game.resignation_levels:
        raise OfferNotAllowed(f"{game.spec.name} has no resignation for points: 'resign' resigns the match")
    if not levels:
        raise OfferNotAllowed("no game is being played now: the next one starts with its opening roll")
    if level not in levels:
        raise BadMessage(f"level is one of {', '.join(levels)}")
    if match.offer is not None:
        mine = match.offer["seat"] == seat
        raise OfferPending("your offer is still waiting" if mine else "answer the offer made to you first")
    points, says = game.resignation_terms(state, seat, level)
    other = seats[1 - seat]
    offer = {
        "kind": "resign",
        "seat": seat,
        "ply": match.ply,
        "awaiting": [other.index],
        "level": level,
        "points": points,
        "says": says,
    }
    record(match, frames.offer(offer))
    if other.kind == Seat.Kind.BOT:
        accepted = accepts_resignation(game, state, seat, level)
        record(match, frames.offer_answered(kind="resign", seat=seat, by=other.index, accepted=accepted, offer=None))
        if accepted:
            resignation_accepted(match, seats, offer)
    else:
        match.offer = offer
    match.save()
    return match


def resignation_accepted(match: Match, seats: dict[int, Seat] | None, offer: dict[str, Any]) -> None:
    """The accepted `offer` played: the resigning seat's resignation stored as its move."""
    if seats is None:
        seats = {seat.index: seat for seat in match.seats.all()}
    game = match.rules()
    state = game.from_json(match.state)
    move = game.resign_move(state, offer["seat"], offer["level"])
    match.offer = None
    store_agreed_move(match, game, seats, offer["seat"], move, game.apply(state, move))
