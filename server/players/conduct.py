"""A bot account's conduct on its sockets: each refused frame is a strike, too many a block.

A program that floods or sends garbage gets an error frame with a stable code for each frame
(the socket stays open, as for a person), and its strikes are counted per bot account across
every socket and web process (the shared cache).  `BOT_STRIKES` strikes within
`BOT_STRIKE_WINDOW_S` block the account for `BOT_BLOCK_S`: its sockets close with
`CLOSE_BLOCKED` and new ones are refused until the block ends.  People are not counted:
their limits are the sockets' own (docs/bots.md, "Limits").
"""

from __future__ import annotations

import time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from server.platform.cache import REDIS_DOWN

CLOSE_BLOCKED = 4429  # 4400-4499: final, a client does not retry at once
BLOCKED_REASON = "blocked for a while: too many refused frames (docs/bots.md, Limits)"


def _strikes_key(player_id: int) -> str:
    return f"bot-conduct:strikes:{player_id}"


def _block_key(player_id: int) -> str:
    return f"bot-conduct:blocked:{player_id}"


def strike(player_id: int) -> bool:
    """Count one refused frame of bot account `player_id`; True when it is now blocked."""
    key = _strikes_key(player_id)
    cache.add(key, 0, timeout=settings.BOT_STRIKE_WINDOW_S)  # the window starts at the first strike
    try:
        count = cache.incr(key)
    except (ValueError, *REDIS_DOWN):  # expired in between, or Redis away: not counted (fails open)
        return False
    if count < settings.BOT_STRIKES:
        return False
    cache.set(_block_key(player_id), time.time() + settings.BOT_BLOCK_S, timeout=settings.BOT_BLOCK_S)
    cache.delete(key)
    return True


def blocked_for(player_id: int) -> float:
    """Seconds left of bot account `player_id`'s block; 0 when it may play."""
    until = cache.get(_block_key(player_id))
    return max(0.0, float(until) - time.time()) if until is not None else 0.0


def unblock(player_id: int) -> None:
    """Lift a block (staff, tests)."""
    cache.delete(_block_key(player_id))
    cache.delete(_strikes_key(player_id))


class BotConduct:
    """A consumer mixin: a bot account's refused frames are strikes; blocked, its socket closes.

    The consumer calls `refused_while_blocked()` once accepted (True: it closed) and
    `bot_refused()` after each error frame it sends.
    """

    def _bot_id(self) -> int | None:
        player: Any = self.scope.get("player")  # type: ignore[attr-defined]  # a mixin: the consumer has `scope`
        return player.pk if player is not None and player.is_bot else None

    async def refused_while_blocked(self) -> bool:
        bot_id = self._bot_id()
        if bot_id is None or not await sync_to_async(blocked_for)(bot_id):
            return False
        await self.close(code=CLOSE_BLOCKED, reason=BLOCKED_REASON)  # type: ignore[attr-defined]  # a mixin: the consumer has `close`
        return True

    async def bot_refused(self) -> None:
        bot_id = self._bot_id()
        if bot_id is not None and await sync_to_async(strike)(bot_id):
            await self.close(code=CLOSE_BLOCKED, reason=BLOCKED_REASON)  # type: ignore[attr-defined]  # a mixin: the consumer has `close`
