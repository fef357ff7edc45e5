"""Takebacks, offers and claims: against bots a takeback is granted at once; between people a
takeback request or a draw offer waits for the others' answers (so does a resignation offer,
`resignations`, answered here too); a draw the rules allow
(chess: threefold repetition, the 50-move rule) is claimed without asking anyone (docs/wire.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.base import parts_json
from server.matches import frames
from server.matches.errors import (
    BadMessage,
    GameOver,
    NoDrawToClaim,
    NoOffer,
    NothingToTakeBack,
    NotYourTurn,
    OfferNotAllowed,
    OfferPending,
)
from server.matches.models import Match, Seat
from server.matches.selectors import clock_json
from server.matches.services.clocks import flag_if_out_of_time
from server.matches.services.endings import drawn, finish
from server.matches.services.events import announce_turn, locked, record

OFFER_KINDS = ("takeback", "draw")


@transaction.atomic
def match_takeback(match_id: int, seat: int) -> Match:
    """Against bots: `seat` takes back its last move and the replies after it, at once.

    Between people a takeback is a request the others answer (`match_offer`).
    """
    match = locked(match_id)
    _require_live(match)
    if _other_humans(match, seat):
        raise OfferNotAllowed("between people a takeback is a request: the others accept or decline it")
    _take_back(match, seat)
    match.save()
    return match


@transaction.atomic
def match_offer(match_id: int, seat: int, kind: str) -> Match:
    """`seat` asks for a takeback or offers a draw; against bots alone a takeback is granted at once."""
    if kind not in OFFER_KINDS:
        raise BadMessage(f"an offer is one of {', '.join(OFFER_KINDS)}")
    match = locked(match_id)
    _require_live(match)
    others = _other_humans(match, seat)
    if kind == "draw" and len(others) < match.seats.count() - 1:
        raise OfferNotAllowed("a bot does not agree to draws: play on or resign")
    if not others:  # only bots to ask: they let you
        _take_back(match, seat)
        match.save()
        return match
    if match.offer is not None:
        mine = match.offer["seat"] == seat
        raise OfferPending("your offer is still waiting" if mine else "answer the offer made to you first")
    if kind == "takeback" and not match.moves.filter(seat=seat).exists():
        raise NothingToTakeBack("you have not moved yet: there is nothing to take back")
    match.offer = {"kind": kind, "seat": seat, "ply": match.ply, "awaiting": others}
    record(match, frames.offer(match.offer))
    match.save()
    return match


@transaction.atomic
def match_answer(match_id: int, seat: int, accept: bool) -> Match:
    """Accept or decline the offer waiting for `seat`; the offering seat may decline (withdraw) its own."""
    match = locked(match_id)
    if match.is_over:
        raise GameOver("the match is over")
    offer = match.offer
    if offer is None:
        raise NoOffer("there is no offer to answer (a move since may have cancelled it)")
    if seat == offer["seat"] and accept:
        raise NoOffer("you cannot accept your own offer; decline withdraws it")
    if seat != offer["seat"] and seat not in offer["awaiting"]:
        raise NoOffer("this offer is not waiting for your answer")
    awaiting = [s for s in offer["awaiting"] if s != seat] if accept else []
    match.offer = {**offer, "awaiting": awaiting} if awaiting else None
    record(
        match,
        frames.offer_answered(kind=offer["kind"], seat=offer["seat"], by=seat, accepted=accept, offer=match.offer),
    )
    if accept and not awaiting:
        if offer["kind"] == "takeback":
            _take_back(match, offer["seat"])
        elif offer["kind"] == "resign":
            # Imported here: an accepted resignation is stored as a move, and moves cancel offers.
            from server.matches.services.resignations import resignation_accepted

            resignation_accepted(match, None, offer)
        else:
            finish(match, drawn(match.seats.count(), "draw agreed"))
    match.save()
    return match


def match_claim_draw(match_id: int, seat: int) -> Match:
    """`seat` claims the draw its game's rules allow in the position on the board (`Game.claimable_draw`).

    A claim needs nobody's agreement, a bot's neither; it is made on the claimant's own turn,
    before moving (FIDE 9.2).  The match ends drawn with the rule as its reason.
    """
    with transaction.atomic():
        match = locked(match_id)
        _require_live(match)
        if not flag_if_out_of_time(match):  # a fallen flag ends the game before any claim
            _claim_draw(match, seat)
            match.save()
            return match
        match.save()
    raise GameOver("the match is over: out of time")


def _claim_draw(match: Match, seat: int) -> None:
    if seat != match.to_move:
        raise NotYourTurn("a draw is claimed on your own turn, before you move")
    game = match.rules()
    reason = game.claimable_draw(game.from_json(match.state))
    if reason is None:
        raise NoDrawToClaim("there is no draw to claim here: play on, offer a draw or resign")
    finish(match, drawn(match.seats.count(), reason))


def cancel_offer_on_move(match: Match, seat: int) -> None:
    """A move cancels a takeback request (the position changed) and a draw offer its answerer played on."""
    offer = match.offer
    if offer is None or (offer["kind"] == "draw" and seat not in offer["awaiting"]):
        return
    match.offer = None
    frame = frames.offer_answered(
        kind=offer["kind"], seat=offer["seat"], by=seat, accepted=False, offer=None, cancelled="a move was played"
    )
    record(match, frame)


def _require_live(match: Match) -> None:
    if match.is_over:
        raise GameOver("the match is over")
    if match.status == Match.Status.WAITING:
        raise OfferNotAllowed("the match has not started: a seat is still open")


def _other_humans(match: Match, seat: int) -> list[int]:
    return [s.index for s in match.seats.all() if s.index != seat and s.kind == Seat.Kind.HUMAN]


def _take_back(match: Match, seat: int) -> None:
    """Back to the position before `seat`'s last move: that move and every later one are deleted.

    The plies are numbered again from there (exactly once still holds: one Move per ply),
    and the state is replayed from the initial position through the game's rules.
    """
    last = match.moves.filter(seat=seat).order_by("-ply").first()
    if last is None:
        raise NothingToTakeBack("you have not moved yet: there is nothing to take back")
    game = match.rules()
    state = game.initial_state()
    for move in match.moves.filter(ply__lt=last.ply).order_by("ply").values_list("move", flat=True):
        state = game.apply(state, move)
    match.moves.filter(ply__gte=last.ply).delete()
    now = timezone.now()
    match.ply = last.ply
    match.state = game.to_json(state)
    match.to_move = game.to_move(state)
    match.turn_started_at = now
    match.offer = None
    frame = frames.takeback(
        seat=seat,
        ply=match.ply,
        state=match.state,
        to_move=match.to_move,
        legal_moves=game.legal_moves(state),
        clock=clock_json(match, now) if match.clock_ms is not None else None,
        move_parts=parts_json(game.move_parts(state)),
    )
    record(match, frame)
    announce_turn(match)
