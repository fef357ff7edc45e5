"""Which seats this web process has sockets for: a seat whose sockets are all gone is offline.

Each process counts its own sockets per (match, seat); the database holds the sum as
`Seat.online`, kept fresh by the heartbeat of `server/matches/watch.py`, so a process
that dies takes its seats offline after `PRESENCE_STALE_MS`.
"""

from __future__ import annotations

from collections import Counter

from channels.db import database_sync_to_async

from server.matches import services

_sockets: Counter[tuple[int, int]] = Counter()


async def arrived(match_id: int, seat: int) -> None:
    _sockets[(match_id, seat)] += 1
    await database_sync_to_async(services.seat_presence)(match_id, seat, True)


async def left(match_id: int, seat: int) -> None:
    key = (match_id, seat)
    _sockets[key] -= 1
    if _sockets[key] > 0:
        return
    del _sockets[key]
    await database_sync_to_async(services.seat_presence)(match_id, seat, False)


def here() -> set[tuple[int, int]]:
    """The (match id, seat) pairs with a socket open in this process."""
    return set(_sockets)
