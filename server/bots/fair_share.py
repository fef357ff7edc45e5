"""How much worker time one visitor may hold at once: matches with bots, analyses, hints.

Throttles (`server.players.throttles`) bound how often a player asks; these caps bound how
much of it is under way at the same time, per player and per client address (so fresh
guests from one address share one allowance).  Each started piece of work holds a lease
in the installation's cache until it ends (the match or analysis is over, the hint is
found) or its lease runs out; asking beyond a cap is a 429 with a stable code and a
``Retry-After``.  Bot-vs-bot matches are for accounts: a guest costs nothing to make, an
account a sign-up (throttled per address), and a guest may still play any bot itself, in
as many matches at once as `MATCHES_VS_BOTS` allows: each of those bot turns goes on the
people's top queue, so without that cap one visitor's many matches would take its workers.

Like the throttles, the caps fail open while Redis is away (`server.platform.cache`): the
work is still bounded by the queues' order and the reserved worker (`server.bots.queues`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from server.matches.errors import MatchError
from server.players.models import Player
from server.players.throttles import client_ip

LOCK_S = 5  # a lock left by a crashed request is gone after this
LOCK_WAIT_S = 1.0  # how long a request waits for another one of the same visitor to decide
LOCK_POLL_S = 0.01


class WorkCapped(MatchError):
    """As much work of one kind under way as a player or an address may hold at once."""

    http_status = 429
    codes: ClassVar[set[str]] = set()  # one per declared cap (`Cap.code`): the wire's error table lists each

    def __init__(self, code: str, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after_s = retry_after_s


class AccountNeeded(MatchError):
    code = "account_needed"
    http_status = 403


@dataclass(frozen=True)
class Cap:
    """One kind of work: its caps (a pair from settings), how to tell a lease still live, how long one lasts.

    `held_by`, where given, counts a player's work from the database rather than from their
    leases: exact whatever became of the cache, and needing no expiry.
    """

    kind: str
    what: str  # in the players' words, plural
    setting: str  # settings name of (per player, per client address)
    lease_s: int  # a lease counts this long at most, whatever became of its work
    retry_after_s: int
    live: Callable[[list[str]], set[str]]  # the refs among these whose work is still under way
    held_by: Callable[[Player], int] | None = None
    advice: str = ""  # said after the refusal: what else frees a place, in the players' words

    def __post_init__(self) -> None:
        WorkCapped.codes.add(self.code)

    @property
    def code(self) -> str:
        """The refusal's stable code on the wire."""
        return f"too_many_{self.kind}"

    @property
    def limits(self) -> tuple[int, int]:
        per_player, per_address = getattr(settings, self.setting)
        return per_player, per_address


def _live_matches(refs: list[str]) -> set[str]:
    from server.matches.models import Match

    live = Match.objects.filter(pk__in=[int(r) for r in refs], status__in=[Match.Status.WAITING, Match.Status.ACTIVE])
    return {str(pk) for pk in live.values_list("pk", flat=True)}


BOT_MATCHES = Cap("bot_matches", "bot-vs-bot matches", "FAIR_SHARE_BOT_MATCHES", 4 * 3600, 60, _live_matches)

# A person's match against bots is under way until it is over: finished (won, lost, resigned,
# out of time, abandoned) or aborted.  An adjourned one counts too: its person resumes it by
# opening it, and it asks for bot turns again at once.
UNDER_WAY = ("waiting", "active", "adjourned")


def _live_matches_vs_bots(refs: list[str]) -> set[str]:
    from server.matches.models import Match, Seat

    live = Match.objects.filter(pk__in=[int(r) for r in refs], status__in=UNDER_WAY, seats__kind=Seat.Kind.BOT)
    return {str(pk) for pk in live.distinct().values_list("pk", flat=True)}


def _matches_vs_bots_of(player: Player) -> int:
    """How many matches with a bot seat `player` holds a seat in, under way: the rows, exactly."""
    from server.matches.models import Match, Seat

    under_way = Match.objects.filter(status__in=UNDER_WAY, seats__player=player).filter(seats__kind=Seat.Kind.BOT)
    return int(under_way.distinct().count())


# Matches where a person plays bots.  The player's count is the database's (an adjourned match
# may wait for its person for days); the address's is leases (the database keeps no address),
# each checked against its match's row, so an ended match frees its place at once.
MATCHES_VS_BOTS = Cap(
    "matches_vs_bots",
    "matches against bots",
    "FAIR_SHARE_MATCHES_VS_BOTS",
    7 * 24 * 3600,
    60,
    _live_matches_vs_bots,
    held_by=_matches_vs_bots_of,
    advice=". Adjourned ones count: finish or resign one from Your matches",
)
# The caps on analyses and hints are declared with them (server/analysis/api.py): bots never import analysis.


class Claim:
    """The right to start one piece of `cap`'s work; `hold(ref)` once it has started."""

    def __init__(self, cap: Cap, idents: list[tuple[str, int]]) -> None:
        self.cap = cap
        self.idents = idents

    def hold(self, ref: object) -> None:
        expires = time.time() + self.cap.lease_s
        for ident, _ in self.idents:
            key = _key(self.cap, ident)
            others = [lease for lease in _leases(key) if lease[0] != str(ref)]  # asked again: one lease
            cache.set(key, [*others, [str(ref), expires]], timeout=self.cap.lease_s)


def bot_match_allowed(player: Player) -> None:
    """Refuse a guest a bot-vs-bot match (`AccountNeeded`), unless ``BOT_MATCHES_ACCOUNTS_ONLY`` is off."""
    if settings.BOT_FAIR_SHARE and settings.BOT_MATCHES_ACCOUNTS_ONLY and player.user_id is None:
        raise AccountNeeded(
            "bot-vs-bot matches are for accounts: sign in or sign up to set bots against each other "
            "(as a guest you may play any bot yourself)"
        )


@contextmanager
def claim(cap: Cap, request: HttpRequest, player: Player) -> Iterator[Claim]:
    """Check `player`'s and the client address's leases of `cap` against its caps, under a lock.

    Raises `WorkCapped` when either holds as much as it may.  The caller starts the work
    inside the block and calls ``hold`` with its ref; the lock is held until then, so two
    requests at once cannot both take the last place.
    """
    if not settings.BOT_FAIR_SHARE:
        yield Claim(cap, [])
        return
    per_player, per_address = cap.limits
    player_ident = f"player-{player.pk}"
    address = client_ip(request)
    wanted = [(player_ident, per_player), (f"address-{address}" if address else "", per_address)]
    idents = [(ident, limit) for ident, limit in wanted if ident and limit > 0]  # 0 turns a count off
    if not idents:
        yield Claim(cap, [])
        return
    locks = [f"{_key(cap, ident)}:lock" for ident, _ in idents]
    taken = _lock(locks)
    if taken is None:
        raise WorkCapped(cap.code, f"another request of yours is starting {cap.what}: try again in a second", 1)
    try:
        for ident, limit in idents:
            whose = "you have" if ident == player_ident else "your address has"
            if cap.held_by is not None and ident == player_ident:
                held = cap.held_by(player)
            else:
                held = len(_live_leases(cap, ident))
            if held >= limit:
                raise WorkCapped(
                    cap.code,
                    f"{whose} {limit} {cap.what} under way, as many as the server runs for one visitor at once: "
                    f"try again when one has ended (in about {cap.retry_after_s} s){cap.advice}",
                    cap.retry_after_s,
                )
        yield Claim(cap, idents)
    finally:
        for lock in taken:
            cache.delete(lock)


def _key(cap: Cap, ident: str) -> str:
    return f"plyground:fair-share:{cap.kind}:{ident}"


def _leases(key: str) -> list[list[Any]]:
    now = time.time()
    return [lease for lease in cache.get(key) or [] if lease[1] > now]


def _live_leases(cap: Cap, ident: str) -> list[list[Any]]:
    """The ident's leases whose work is still under way; the others are dropped from the cache."""
    key = _key(cap, ident)
    leases = _leases(key)
    live = cap.live([ref for ref, _ in leases]) if leases else set()
    kept = [lease for lease in leases if lease[0] in live]
    if len(kept) != len(leases):
        cache.set(key, kept, timeout=cap.lease_s)
    return kept


def _lock(keys: list[str]) -> list[str] | None:
    """Take every lock in `keys` (in this order, as every request does), or none within LOCK_WAIT_S."""
    deadline = time.monotonic() + LOCK_WAIT_S
    taken: list[str] = []
    for key in keys:
        while not cache.add(key, True, timeout=LOCK_S):
            if time.monotonic() > deadline:
                for held in taken:
                    cache.delete(held)
                return None
            time.sleep(LOCK_POLL_S)
        taken.append(key)
    return taken
