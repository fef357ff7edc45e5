"""The Redis channel layer's settings, in one place for the server and for the tests that run on it."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from itertools import islice
from typing import Any

import redis.asyncio
from channels_redis.core import RedisChannelLayer

# channels_redis blocks up to 5 s in BZPOPMIN (its `brpop_timeout`).  redis-py's default
# 5 s socket timeout raced that block: idle sockets were closed with 1011, and a frame that
# Redis popped at the boundary was lost for the consumer it was meant for.
#
# No socket timeout at all, either: with one, redis-py sends every command through
# `asyncio.wait_for`, and Python 3.11's `wait_for` swallows a cancellation that arrives as the
# write completes (CPython gh-86296, fixed in 3.12).  A closing socket cancels its consumer's
# receive; the one holding channels_redis's receive lock then went on blocking in BZPOPMIN
# until a message came for any socket of the process, so the closed socket's task never
# ended and its person stayed online (one or two people of 300 closing at once, in most runs
# of tests/faults/test_storms.py).
# A dead Redis is noticed by the kernel instead, within about 20 s: keepalive probes while
# a read waits, and a user timeout while a write goes unacknowledged.  (The project runs on
# Python 3.11, where gh-86296 is not fixed: tests/faults/test_storms.py, the people left online.)
DEAD_REDIS_S = 20
TCP_OPTIONS = {
    socket.TCP_KEEPIDLE: 10,
    socket.TCP_KEEPINTVL: 5,
    socket.TCP_KEEPCNT: 2,
    socket.TCP_USER_TIMEOUT: DEAD_REDIS_S * 1000,
}

# redis-py's asyncio pool (one per process and event loop) opens a connection per command in
# flight and *fails* the command (MaxConnectionsError) once 100 are in use: 300 sockets closing
# at once each discard a group membership, and two thirds of the discards failed, leaving dead
# members in the groups (and, behind them, seats shown online).  The layer's pool here waits
# for a free connection instead (up to POOL_WAIT_S), and its size is set on purpose: a command
# takes well under a millisecond on loopback, so 50 connections carry tens of thousands of
# commands a second, while N web processes x 50 stay far below Redis's 10,000 clients.  One
# of them is held by the layer's blocking read at all times.  Upstream: redis-py's asyncio
# `ConnectionPool` raises instead of waiting (aio-libs/aioredis-py#1113, still so in the pinned
# redis 8.1.0, whose default cap became 100), and channels_redis 4.3.0 builds that pool
# (`channels_redis.utils.create_pool`); tests/faults/test_storms.py counts MaxConnectionsError.
POOL_SIZE = int(os.environ.get("REDIS_POOL_SIZE", "50"))
POOL_WAIT_S = 10

# A process that dies (SIGKILL, OOM, a lost machine) never discards its sockets' memberships,
# and channels_redis keeps a member until `group_expiry` has passed since it joined: a day by
# default, each frame to the group queued meanwhile for a channel nobody reads.  Here a
# membership lasts GROUP_EXPIRY_S, and each process stamps again every membership it holds
# every quarter of that: a dead process's members are dropped within GROUP_EXPIRY_S of its
# death (at the group's next send), while a live one has four tries to renew each.
# Upstream: django/channels#1371 (leaked memberships of a dead server, a day by default: still
# so in channels_redis 4.3.0); tests/server/test_channel_layer.py,
# `test_a_dead_process_memberships_expire_and_a_live_one_keeps_its_own`.
GROUP_EXPIRY_S = int(os.environ.get("CHANNEL_GROUP_EXPIRY_S", "120"))
RENEW_BATCH = 500  # memberships renewed per round trip
READ_BATCH = 200  # messages a process takes from its queue per round trip

log = logging.getLogger("plyground.channel_layer")


class _Inbox:
    """What the layer's reader took from Redis for one socket, and that socket's receive waiting.

    It replaces an asyncio.Queue per socket, waited for through `asyncio.wait` with a task of
    its own: at one message for each recipient of a move, those took a tenth of a busy web
    process's CPU.  A socket has one receive at a time (its consumer's), so one waiter.
    """

    __slots__ = ("messages", "waiter")

    def __init__(self) -> None:
        self.messages: deque[dict[str, Any]] = deque()
        self.waiter: asyncio.Future[None] | None = None

    def put(self, message: dict[str, Any], capacity: int) -> None:
        if len(self.messages) >= capacity:  # a socket that stopped reading: drop its oldest (channels_redis#212)
            self.messages.popleft()
        self.messages.append(message)
        self.wake()

    async def wait(self) -> None:
        self.waiter = asyncio.get_running_loop().create_future()
        try:
            await self.waiter
        finally:
            self.waiter = None

    def wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


class _Send:
    """One group send waiting for its batch (`PooledRedisChannelLayer._send_batches`)."""

    __slots__ = ("group_key", "message", "here", "done")

    def __init__(self, group_key: str, message: bytes, here: str) -> None:
        self.group_key = group_key
        self.message = message
        self.here = here
        self.done: asyncio.Future[tuple[int, list[bytes]]] | None = None


# The gap between the scores, in a process's queue, of sends made in one call or in the same
# instant (a score near 1.7e9 is exact to about 2.4e-7).
_SCORE_STEP = 1e-6


class PooledRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]  # channels_redis is untyped
    """channels_redis with a blocking, bounded connection pool (see POOL_SIZE), and one reader
    per process that no closing socket can interrupt (see `receive`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reader: asyncio.Task[None] | None = None
        self._joined: defaultdict[str, set[str]] = defaultdict(set)  # group -> this process's channels in it
        self._inboxes: dict[str, _Inbox] = {}  # this process's sockets' channels -> what was read for them
        self._takers: dict[str, Callable[[dict[str, Any]], bool]] = {}  # channels that take messages at once
        self._renewer: asyncio.Task[None] | None = None
        self._outgoing: list[_Send] = []  # group sends waiting for the batch under way
        self._sender: asyncio.Task[None] | None = None
        self._last_score = 0.0
        # The loop this process's sockets join and receive on: the only one that may touch their inboxes.
        self._sockets_loop: asyncio.AbstractEventLoop | None = None

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message for `channel`.

        All the sockets of a process share one Redis queue, read by one BZPOPMIN at a time.
        channels_redis runs that read in the task of whichever socket's receive took its lock,
        and a socket closing cancels its receive: when the read it cancelled had already
        popped a message -- the reply on its way, or the loop busy before reading it -- redis-py
        drops the connection with the reply, and another socket's frame was lost for good
        (django/channels#1683, channels_redis#366; channels_redis 4.3.0 still reads in the
        task of the socket holding its receive lock; tests/server/test_channel_layer.py,
        `test_no_message_is_lost_while_other_sockets_close`: 2-3 % of the frames while other
        sockets closed).  Here the read runs in a task of its own that no socket owns;
        a receive waits for its socket's inbox, and cancelling it cancels only that wait.
        """
        if "!" not in channel:  # a channel read by whoever asks, not this process's sockets
            message: dict[str, Any] = await super().receive(channel)
            return message
        assert self.require_valid_channel_name(channel)
        self._sockets_loop = asyncio.get_running_loop()
        inbox = self._inboxes.get(channel) or self._inboxes.setdefault(channel, _Inbox())
        try:
            while not inbox.messages:
                reader = self._running_reader(self.non_local_name(channel))
                await inbox.wait()  # a message, or the reader ended (`_wake_receives`)
                if not inbox.messages and reader.done() and not reader.cancelled():
                    reader.result()  # the read failed (Redis gone): so does this receive, as in channels_redis
                # a reader cancelled under it (the pools closed): the next turn starts another
        except asyncio.CancelledError:
            self._inboxes.pop(channel, None)  # the socket is gone: nothing more is kept for it
            self._takers.pop(channel, None)
            raise
        message = inbox.messages.popleft()
        if not inbox.messages and self._inboxes.get(channel) is inbox:
            del self._inboxes[channel]  # a socket between frames gets a new one on the next message
        return message

    def _running_reader(self, process_channel: str) -> asyncio.Task[None]:
        """The task that reads this process's messages into the sockets' inboxes (started if need be)."""
        loop = asyncio.get_running_loop()
        reader = self._reader
        if reader is not None and not reader.done():
            if reader.get_loop() is loop:
                return reader
            if not reader.get_loop().is_closed():
                raise RuntimeError("Two event loops are trying to receive() on one channel layer at once!")
        self._reader = loop.create_task(self._read_forever(process_channel), name="channel-layer-reader")
        self._reader.add_done_callback(_note_reader_failure)
        self._reader.add_done_callback(self._wake_receives)
        return self._reader

    def _wake_receives(self, reader: asyncio.Task[None]) -> None:
        """The reader ended: every waiting receive looks at why (and fails, or starts another)."""
        for inbox in self._inboxes.values():
            inbox.wake()

    async def flush(self) -> None:
        """Every key goes, memberships with them: none is left to renew."""
        self._joined.clear()
        await super().flush()

    async def close_pools(self) -> None:
        """Stop the reader and the renewals before closing their connections (flush() ends here too)."""
        for task in (self._reader, self._renewer):
            if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
                task.cancel()
                await asyncio.wait([task])
        self._reader = self._renewer = None
        await super().close_pools()

    async def _read_forever(self, process_channel: str) -> None:
        key = self.prefix + process_channel
        while True:
            for content in await self._next_batch(self.consistent_hash(process_channel), key):
                message = self.deserialize(content)
                group = message.pop(_GROUP_FIELD, None)
                if group is not None:  # for every socket of this process in the group (`group_send`)
                    names = list(self._joined.get(group, ()))
                else:
                    target = message.pop("__asgi_channel__", process_channel)
                    names = target if isinstance(target, list) else [target]
                self._hand_over(names, message)

    def take_at_once(self, channel: str, taker: Callable[[dict[str, Any]], bool]) -> None:
        """From now on, each message for `channel` is offered to `taker` as it is handed over,
        on the sockets' loop; what it does not take (returns False) goes to the inbox as before.

        A socket's consumer takes its frames this way and writes them itself
        (`server/realtime/frames_at_once.py`), without its task's turn for each one.
        """
        self._takers[channel] = taker

    def stop_taking(self, channel: str) -> None:
        self._takers.pop(channel, None)

    def _hand_over(self, channels: Iterable[str], message: dict[str, Any]) -> None:
        """Offer `message` to the taker of each of this process's `channels`, or put it in the
        channel's inbox (one dict for all: the first socket to send it encodes it for the others)."""
        for name in channels:
            take = self._takers.get(name)
            if take is not None:
                try:
                    if take(message):
                        continue
                except Exception:  # one socket's failure must not stop the reader for all
                    log.exception("the socket of %s failed to take a message: queued for it instead", name)
            inbox = self._inboxes.get(name) or self._inboxes.setdefault(name, _Inbox())
            inbox.put(message, self.capacity)

    async def _next_batch(self, index: int, key: str) -> list[bytes]:
        """What is queued for this process, up to READ_BATCH in one round trip; when nothing
        is, the next message as it comes.

        channels_redis reads one message in four round trips, keeping a backup copy for a
        receive cancelled between the pop and its caller.  This read belongs to no socket and
        is cancelled only when the pools close, with the process's sockets gone: a busy
        process takes everything queued in one round trip (a move relayed cost four on
        arrival before anything else), an idle one two a message.
        """
        connection = self.connection(index)
        queued = await connection.zpopmin(key, READ_BATCH)
        if queued:
            return [member for member, _ in queued]
        popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        return [] if popped is None else [popped[1]]

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """channels_redis's group_send in one round trip instead of four.

        One script drops the group's expired members, and queues one message for each process
        with a member left, after dropping that queue's expired messages.  The message names
        the group, not the channels: each process's reader hands it to its own sockets in the
        group (`_joined`), so it is serialized once whoever is in the group.  The sending
        process's own sockets get it at once, not through Redis (`group_send_here`).  With the keys
        spread over several Redis hosts (or capacities per channel), a script cannot reach them
        all: `_group_send_by_host` takes two round trips.
        """
        await self.group_send_elsewhere(group, message, self.group_send_here(group, message))

    async def group_send_elsewhere(self, group: str, message: dict[str, Any], here: str) -> None:
        """`group_send` through Redis to every process but `here` (`group_send_here` delivered
        there already; "" sends to all).

        On the sockets' loop the send joins the next batch (`_send_batches`): one script call
        for every send made while the one before was under way.
        """
        assert self.require_valid_group_name(group), "Group name not valid"
        if len(self.hosts) > 1 or self.channel_capacity:
            await self._group_send_by_host(group, message, here)
            return
        send = _Send(self._group_key(group), self.serialize({**message, _GROUP_FIELD: group}), here)
        if self._sockets_loop is asyncio.get_running_loop():
            over_capacity, others = await self._in_next_batch(send)
        else:
            [(over_capacity, others)] = await self._queue_in_groups([send])
        if others:  # channels of no process (none of ours): as channels_redis sends to them
            await self._queue_by_host(group, [member.decode() for member in others], message, time.time())
        if over_capacity:
            log.info("%s processes over capacity in group %s", over_capacity, group)

    async def _in_next_batch(self, send: _Send) -> tuple[int, list[bytes]]:
        """What the script found for `send`, once the batch it joins has been sent."""
        loop = asyncio.get_running_loop()
        if self._sender is not None and self._sender.get_loop() is not loop:
            # The sockets moved to a new loop (tests do, one per test): what waited on the old
            # one went with it, cancelled or left pending.
            self._sender, self._outgoing = None, []
        send.done = loop.create_future()
        self._outgoing.append(send)
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send_batches())
        return await send.done

    async def _send_batches(self) -> None:
        """Send what waits, one batch a round trip, until nothing does.

        A group send is a Redis round trip, and its CPU is mostly the round trip's (redis-py,
        the event loop's wake-up, the kernel's loopback), not the script's: a process alone in
        its matches' groups still pays one per move to learn that nobody else needs it.  Sends
        made while a batch is under way wait for it, so under load a round trip carries many
        (and when idle, each goes alone, at once).  Each group's sends keep their order: the
        script runs them in the order they were made.
        """
        while self._outgoing:
            # A send whose sender gave up (cancelled: its loop closing) is not sent, as alone.
            batch = [send for send in self._outgoing if not send.done.done()]  # type: ignore[union-attr]  # a send in `_outgoing` has its future (`_in_next_batch`)
            self._outgoing = []
            if not batch:
                continue
            try:
                found = await self._queue_in_groups(batch)
            except Exception as error:  # each sender reports it, as its own send would have
                for send in batch:
                    if not send.done.done():  # type: ignore[union-attr]  # a send in `_outgoing` has its future (`_in_next_batch`)
                        send.done.set_exception(error)  # type: ignore[union-attr]  # a send in `_outgoing` has its future (`_in_next_batch`)
                continue
            for send, result in zip(batch, found, strict=True):
                if not send.done.done():  # type: ignore[union-attr]  # a send in `_outgoing` has its future (`_in_next_batch`)
                    send.done.set_result(result)  # type: ignore[union-attr]  # a send in `_outgoing` has its future (`_in_next_batch`)

    async def _queue_in_groups(self, sends: list[_Send]) -> list[tuple[int, list[bytes]]]:
        """One script call for `sends`: for each, in order, its group's expired members
        dropped, and the message queued once for each other process with a member left."""
        now = time.time()
        # A process's queue is ordered by score: sends in one call, and calls in quick
        # succession, must not share a score, or Redis would order them by their bytes.
        first = max(now, self._last_score + _SCORE_STEP)
        self._last_score = first + _SCORE_STEP * (len(sends) - 1)
        found = await self.connection(0).eval(
            _QUEUE_ONE_PER_PROCESS_IN_GROUPS,
            len(sends),
            *(send.group_key for send in sends),
            int(now) - self.group_expiry,
            first,
            _SCORE_STEP,
            int(now) - int(self.expiry),
            self.expiry,
            self.capacity,
            self.prefix,
            *(part for send in sends for part in (send.message, send.here)),
        )
        return [(over_capacity, others) for over_capacity, others in found]

    def group_send_here(self, group: str, message: dict[str, Any]) -> str:
        """Hand `message` to this process's own sockets in `group` now, as its reader would;
        returns this process's name, for `group_send_elsewhere` to skip its queue ("" when
        the message was not delivered here).

        A move's frame reached the mover's process after two more round trips (the reader's
        empty take and its blocking pop, when idle) and a wait for its turn to read.  The
        sockets here are known without asking Redis (`_joined`).  Only from the event loop the
        sockets join and receive on: a send from another thread's loop (a script, a test) goes
        through Redis as before, for the reader to deliver.
        """
        assert self.require_valid_group_name(group), "Group name not valid"
        if self._sockets_loop is not asyncio.get_running_loop():
            return ""
        names = self._joined.get(group)
        if names:
            # A copy made as the reader makes it: nothing is shared with the sender's message.
            self._hand_over(list(names), self.deserialize(self.serialize(message)))
        return f"specific.{self.client_prefix}!"

    async def _group_send_by_host(self, group: str, message: dict[str, Any], here: str) -> None:
        """The group's expired members dropped and the rest read in one script, then, per Redis
        host, one script that drops each process queue's expired messages and queues one
        message per process, naming its channels (but none to `here`, delivered already)."""
        now = time.time()
        members = await self.connection(self.consistent_hash(group)).eval(
            _LIVE_MEMBERS, 1, self._group_key(group), int(now) - self.group_expiry
        )
        channels = [member.decode() for member in members]
        await self._queue_by_host(group, [c for c in channels if not (here and c.startswith(here))], message, now)

    async def _queue_by_host(self, group: str, channels: list[str], message: dict[str, Any], now: float) -> None:
        keys_by_host, message_of, capacity_of = self._map_channel_keys_to_connection(channels, message)
        for index, keys in keys_by_host.items():
            over_capacity = await self.connection(index).eval(
                _QUEUE_ONE_PER_PROCESS,
                len(keys),
                *keys,
                *(message_of[key] for key in keys),
                *(capacity_of[key] for key in keys),
                now,
                int(now) - int(self.expiry),
                self.expiry,
            )
            if over_capacity:
                log.info("%s of %s channels over capacity in group %s", over_capacity, len(channels), group)

    def create_pool(self, index: int) -> redis.asyncio.ConnectionPool:
        host = dict(self.hosts[index])
        address = host.pop("address")
        return redis.asyncio.BlockingConnectionPool.from_url(
            address, max_connections=POOL_SIZE, timeout=POOL_WAIT_S, **host
        )

    async def group_add(self, group: str, channel: str) -> None:
        await self.group_add_all([group], channel)

    async def group_add_all(self, groups: Iterable[str], channel: str) -> None:
        """`channel` joins every group in one round trip per Redis host: channels_redis's
        group_add takes two a group, and a match socket joins three as it opens."""
        groups = list(groups)
        assert all(self.require_valid_group_name(g) for g in groups), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        # Known here first: a frame sent to the group as soon as Redis has the member finds the
        # channel among this process's own (`_read_forever`, `group_send_here`).
        self._sockets_loop = asyncio.get_running_loop()
        for group in groups:
            self._joined[group].add(channel)
        now = time.time()
        try:
            for index, host_groups in self._by_host(groups).items():
                async with self.connection(index).pipeline(transaction=False) as pipe:
                    for group in host_groups:
                        pipe.zadd(self._group_key(group), {channel: now})
                        # Everything in the group at this point expires before the group does.
                        pipe.expire(self._group_key(group), self.group_expiry)
                    await pipe.execute()
        except BaseException:
            self._forget(groups, channel)
            raise
        self._start_renewals()

    async def group_discard(self, group: str, channel: str) -> None:
        await self.group_discard_all([group], channel)

    async def group_discard_all(self, groups: Iterable[str], channel: str) -> None:
        """`channel` leaves every group, in one round trip per Redis host.  Forgotten here
        first, so that no renewal in flight can count it as held."""
        groups = list(groups)
        assert all(self.require_valid_group_name(g) for g in groups), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        self._forget(groups, channel)
        for index, host_groups in self._by_host(groups).items():
            async with self.connection(index).pipeline(transaction=False) as pipe:
                for group in host_groups:
                    pipe.zrem(self._group_key(group), channel)
                await pipe.execute()

    def _forget(self, groups: Iterable[str], channel: str) -> None:
        for group in groups:
            members = self._joined.get(group)
            if members is not None:
                members.discard(channel)
                if not members:
                    del self._joined[group]

    def _by_host(self, groups: Iterable[str]) -> dict[int, list[str]]:
        by_host: defaultdict[int, list[str]] = defaultdict(list)
        for group in groups:
            by_host[self.consistent_hash(group)].append(group)
        return by_host

    async def renew_memberships(self) -> int:
        """Stamp every membership this process holds with the time now; returns how many.

        `ZADD XX` only updates a member still there: a socket that left while the renewal was
        on its way is not brought back."""
        now = time.time()
        held = [(group, channel) for group, channels in list(self._joined.items()) for channel in list(channels)]
        batches = iter(held)
        while batch := list(islice(batches, RENEW_BATCH)):
            channels: defaultdict[str, list[str]] = defaultdict(list)
            for group, channel in batch:
                channels[group].append(channel)
            for index, host_groups in self._by_host(channels).items():
                async with self.connection(index).pipeline(transaction=False) as pipe:
                    for group in host_groups:
                        pipe.expire(self._group_key(group), self.group_expiry)
                        pipe.zadd(self._group_key(group), dict.fromkeys(channels[group], now), xx=True)
                    await pipe.execute()
        return len(held)

    def _start_renewals(self) -> None:
        loop = asyncio.get_running_loop()
        renewer = self._renewer
        if renewer is not None and not renewer.done() and renewer.get_loop() is loop:
            return
        self._renewer = loop.create_task(self._renew_forever(), name="channel-layer-renewals")

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.group_expiry / 4)
            try:
                await self.renew_memberships()
            except Exception:  # Redis away for a moment: the next turn tries again
                log.warning("group memberships not renewed", exc_info=True)


_LIVE_MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# The message's field naming its group, for the readers (`group_send`).
_GROUP_FIELD = "__plyground_group__"

# Whole group sends on one Redis host, for each group of KEYS in order: the group's expired
# members dropped, then its message queued once for each process with a member (a channel name
# is the process's, up to its "!"), each process queue's expired messages dropped first; none
# for the sending process (its `here`), which handed the message to its own sockets itself.
# Returns, for each send, how many queues were full and the members that are no process's
# channel.  The process queues are not among KEYS: a single host only.
_QUEUE_ONE_PER_PROCESS_IN_GROUPS = """
local oldest_member, first_score, score_step = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local oldest, expiry, capacity, prefix = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local found = {}
for i = 1, #KEYS do
    local message, here = ARGV[6 + 2 * i], ARGV[7 + 2 * i]
    local score = first_score + (i - 1) * score_step
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest_member)
    local queued, over_capacity, others = {[here] = true}, 0, {}
    for _, member in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
        local process = string.match(member, '^[^!]*!')
        if process == nil then
            others[#others + 1] = member
        elseif not queued[process] then
            queued[process] = true
            local key = prefix .. process
            redis.call('ZREMRANGEBYSCORE', key, 0, oldest)
            if redis.call('ZCARD', key) < capacity then
                redis.call('ZADD', key, score, message)
                redis.call('EXPIRE', key, expiry)
            else
                over_capacity = over_capacity + 1
            end
        end
    end
    found[i] = {over_capacity, others}
end
return found
"""

# As channels_redis's group send, with each queue's expired messages dropped in the same call.
_QUEUE_ONE_PER_PROCESS = """
local now, oldest, expiry = ARGV[#ARGV - 2], ARGV[#ARGV - 1], ARGV[#ARGV]
local over_capacity = 0
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


async def join_groups(layer: Any, groups: Iterable[str], channel: str) -> None:
    """`channel` joins `groups`: in one round trip on this layer, one by one on another (in memory)."""
    await _for_each_group(layer, "group_add", groups, channel)


async def leave_groups(layer: Any, groups: Iterable[str], channel: str) -> None:
    """`channel` leaves `groups`: in one round trip on this layer, one by one on another."""
    await _for_each_group(layer, "group_discard", groups, channel)


async def _for_each_group(layer: Any, method: str, groups: Iterable[str], channel: str) -> None:
    if isinstance(layer, PooledRedisChannelLayer):
        await getattr(layer, f"{method}_all")(groups, channel)  # group_add_all, group_discard_all
        return
    for group in groups:
        await getattr(layer, method)(group, channel)


def _note_reader_failure(reader: asyncio.Task[None]) -> None:
    """A failed read fails the receives waiting then (their sockets reconnect); a new one starts on
    the next receive.  Logged here too, for when no receive was waiting to hear it."""
    if not reader.cancelled() and reader.exception() is not None:
        log.warning("the channel layer's read failed: %r", reader.exception())


def redis_channel_layer(url: str, prefix: str) -> dict[str, Any]:
    """The CHANNEL_LAYERS entry for channels_redis on `url`, its keys under `prefix`."""
    return {
        "BACKEND": "server.realtime.channel_layer.PooledRedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    "socket_timeout": None,  # see TCP_OPTIONS
                    "socket_connect_timeout": 5,
                    "socket_keepalive": True,
                    "socket_keepalive_options": TCP_OPTIONS,
                    "health_check_interval": 15,
                }
            ],
            "capacity": 1500,
            "expiry": 30,
            "group_expiry": GROUP_EXPIRY_S,
            # Separate stacks sharing one Redis (tests, staging) must not hear each other.
            "prefix": prefix,
        },
    }
