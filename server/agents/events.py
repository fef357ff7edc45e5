"""What reaches a bot's event stream: its channel group, told once the change is committed."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from server.agents.frames import Frame

log = logging.getLogger("plyground.agents")

AGENT_EVENT = "agent.event"  # the channel message's type: `agent_event` on the consumer


def events_group(player_id: int) -> str:
    """The channel group of every event stream a bot account (`player_id`) has open."""
    return f"agents.events.{player_id}"


def tell_after_commit(player_id: int, frame: Frame) -> None:
    """Send `frame` to `player_id`'s event streams once the transaction commits (a bot only hears what happened)."""
    transaction.on_commit(lambda: _send(events_group(player_id), frame))


def _send(group: str, frame: Frame) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": AGENT_EVENT, "frame": frame})
    except Exception:  # the change stands; a reconnecting stream hears it again (open challenges, games)
        log.exception("event not told to %s", group)
