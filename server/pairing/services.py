"""Quick pairing: seeks placed, cancelled, accepted, and paired into matches (docs/design.md §4).

Exactly once: a seek is turned into a match only under a row lock on it.  Pairing locks the
whole pool of its game, clock and rated flag in id order, so two seeks placed at the same
moment (on two web processes) are paired by whichever locks first, and the other then finds
its own seek gone; accepting locks the seek clicked and the person's own one, in id order too.
The two people hear `paired` on their lobby sockets (`person_group`), after commit; every
lobby hears `seek` and `seek_gone`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import registry
from server.matches import broadcast, frames
from server.matches.errors import RATED_NEEDS_ACCOUNT, BadMessage, HumanOnly, RatedNeedsAccount
from server.matches.models import Match
from server.matches.services import Clock, SeatRequest, configured_game, match_create, match_join
from server.pairing.errors import SeekUnavailable
from server.pairing.models import Seek
from server.pairing.ratings import rating_of
from server.pairing.selectors import live_seeks, seek_json
from server.players.models import Player

CLOCK_PATTERN = re.compile(r"^(\d{1,3}(?:\.\d{1,2})?)\+(\d{1,2})$")  # minutes + seconds a move
MAX_RANGE = 3000


@dataclass(frozen=True)
class SeekRequest:
    game: str
    clock: str = ""  # "" for none, else "minutes+increment"
    rated: bool = True
    rating_range: int | None = None  # null: any opponent
    options: dict[str, Any] = field(default_factory=dict)  # the game's options (`GameSpec.options`)


def seek_place(player: Player, channel: str, request: SeekRequest) -> int | None:
    """`player` seeks an opponent from the lobby socket `channel`; the new match's id if paired at once."""
    seek = _seek_store(player, channel, request)
    return seek_pair(seek.pk)


@transaction.atomic
def _seek_store(player: Player, channel: str, request: SeekRequest) -> Seek:
    _validate(request)
    options = configured_game(request.game, request.options).options
    _person_only(player)
    if request.rated and player.is_guest:
        raise RatedNeedsAccount(RATED_NEEDS_ACCOUNT)
    _sweep()
    seek_cancel(player.pk)
    seek = Seek.objects.create(
        player=player,
        channel=channel,
        game=request.game,
        clock=request.clock,
        rated=request.rated,
        rating=rating_of(player.pk, request.game),
        rating_range=request.rating_range,
        options=options,
    )
    frame = frames.seek(seek_json(seek))
    transaction.on_commit(lambda: broadcast.send_to_group(broadcast.LOBBY_GROUP, frame))
    return seek


@transaction.atomic
def seek_pair(seek_id: int) -> int | None:
    """Pair seek `seek_id` with the oldest compatible seek of its pool; the match's id, or None."""
    seek = Seek.objects.filter(pk=seek_id).first()
    if seek is None:
        return None
    pool = Seek.objects.select_for_update().filter(game=seek.game, clock=seek.clock, rated=seek.rated)
    locked = list(pool.order_by("pk"))  # every pairing of this pool locks in the same order: no deadlock
    mine = next((s for s in locked if s.pk == seek_id), None)
    if mine is None:  # paired, cancelled or gone while we waited for the lock
        return None
    online = set(live_seeks().filter(pk__in=[s.pk for s in locked]).values_list("pk", flat=True))
    partner = next((s for s in locked if s.pk != mine.pk and s.pk in online and compatible(mine, s)), None)
    if partner is None:
        return None
    return _start(mine, partner.player, [partner])


@transaction.atomic
def seek_accept(seek_id: int, player: Player) -> int:
    """`player` takes seek `seek_id` by clicking it: the match's id (`paired` goes to both people)."""
    rows = Seek.objects.filter(pk=seek_id) | Seek.objects.filter(player=player)
    locked = list(rows.select_for_update().order_by("pk"))
    seek = next((s for s in locked if s.pk == seek_id), None)
    if seek is None or not live_seeks().filter(pk=seek_id).exists():
        raise SeekUnavailable("this seek is no longer open: someone took it, or its player left")
    if seek.player_id == player.pk:
        raise SeekUnavailable("this is your own seek: wait for an opponent, or cancel it")
    _person_only(player)
    if seek.rated and player.is_guest:
        raise RatedNeedsAccount(RATED_NEEDS_ACCOUNT)
    if not seek.accepts(rating_of(player.pk, seek.game)):
        raise SeekUnavailable("your rating is outside the range this player asked for")
    own = [s for s in locked if s.pk != seek_id]
    return _start(seek, player, own)


@transaction.atomic
def seek_cancel(player_id: int) -> bool:
    """`player_id`'s open seek is withdrawn (the Cancel button, or a new seek replacing it)."""
    return _remove(Seek.objects.filter(player_id=player_id))


def seek_left(channel: str) -> bool:
    """The lobby socket `channel` closed: the seeks it placed go with it."""
    with transaction.atomic():
        return _remove(Seek.objects.filter(channel=channel))


def person_group(player_id: int) -> str:
    """The group of a person's lobby sockets: where `paired` goes."""
    return f"lobby.player.{player_id}"


def compatible(a: Seek, b: Seek) -> bool:
    """Two seeks pair: other people, the same pool, each inside the other's range."""
    same_pool = (a.game, a.clock, a.rated, a.options) == (b.game, b.clock, b.rated, b.options)
    return a.player_id != b.player_id and same_pool and a.accepts(b.rating) and b.accepts(a.rating)


def _start(seek: Seek, opponent: Player, also_gone: list[Seek]) -> int:
    """The match between `seek`'s person and `opponent`, seats drawn at random; both seeks gone."""
    people = [seek.player, opponent]
    random.shuffle(people)
    human = SeatRequest("human")
    clock = _clock(seek.clock)
    match = match_create(seek.game, [human, human], people[0], clock=clock, options=seek.options)
    match_join(match.pk, people[1])
    # Rated or casual as both seeks asked (people's matches are rated unless they say otherwise).
    Match.objects.filter(pk=match.pk).update(rated=seek.rated)
    _remove(Seek.objects.filter(pk__in=[seek.pk, *(s.pk for s in also_gone)]))
    match_id = match.pk
    for seat, person in enumerate(people):
        group, frame = person_group(person.pk), frames.paired(match_id, seat)
        transaction.on_commit(partial(broadcast.send_to_group, group, frame))
    return match_id


def _remove(seeks: QuerySet[Seek]) -> bool:
    gone = list(seeks.values_list("pk", flat=True))
    if not gone:
        return False
    Seek.objects.filter(pk__in=gone).delete()
    for seek_id in gone:
        frame = frames.seek_gone(seek_id)
        transaction.on_commit(partial(broadcast.send_to_group, broadcast.LOBBY_GROUP, frame))
    return True


def _sweep() -> None:
    """Seeks whose person went offline everywhere (their web process died) are taken away."""
    _remove(Seek.objects.exclude(player__online_until__gt=timezone.now()))


def _person_only(player: Player) -> None:
    """Seeks pair people: a bot account plays only the challenges it accepts (lichess's rule)."""
    if player.is_bot:
        raise HumanOnly("seeks are for people: a bot account plays the challenges it accepts (docs/bots.md)")


def _validate(request: SeekRequest) -> None:
    if request.game not in {game.id for game in registry.all()}:
        raise BadMessage(f"no game {request.game[:40]!r}")
    if registry.get(request.game).num_players != 2:
        raise BadMessage("quick pairing is for two-player games: invite friends to the others")
    if request.clock:
        _clock(request.clock)
    if request.rating_range is not None and not 0 <= request.rating_range <= MAX_RANGE:
        raise BadMessage(f"a rating range is between 0 and {MAX_RANGE}, or none")


def _clock(text: str) -> Clock | None:
    if not text:
        return None
    found = CLOCK_PATTERN.match(text)
    if found is None:
        raise BadMessage('a clock is "minutes+seconds", such as "5+3", or none')
    minutes, increment = float(found[1]), int(found[2])
    if not (0.25 <= minutes <= 180 and increment <= 60):
        raise BadMessage("a clock is 0.25 to 180 minutes, plus 0 to 60 seconds a move")
    return Clock(minutes, increment)
