"""The Celery broker transport: kombu's Redis transport, made to survive a Redis restart.

Celery 5.7's consumer, on losing the broker, first calls ``connection.collect()`` (which
detaches the transport: ``transport.client = None``) and then ``connection.close()``.
When a task is running unacknowledged (``acks_late``, i.e. a bot searching), that close
tries to put the message back through the detached transport, and kombu builds a new
Redis pool from ``transport.client.hostname``: ``AttributeError: 'NoneType' object has no
attribute 'hostname'``.  That is not a connection error, so the consumer does not ignore
it and the worker stops ("Unrecoverable error").

Here a detached transport raises redis's ``ConnectionError`` instead, which the consumer
ignores as it should while it reconnects.  Nothing is lost by it: Redis is unreachable at
that moment, so the message could not have been put back anyway; the running search
finishes and stores its move, and the watchdog covers a task that Redis forgot.
"""

from __future__ import annotations

from typing import Any

import redis
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection.client is None:
            raise redis.ConnectionError("the broker connection is closed")
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]  # private in kombu, absent from its stubs
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel
