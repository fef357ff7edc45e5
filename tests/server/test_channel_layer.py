"""The Redis channel layer as deployed (server/realtime/channel_layer.py), on the real Redis."""

from __future__ import annotations

import asyncio
import random
import time
import uuid

import pytest
import redis

from server.realtime.channel_layer import PooledRedisChannelLayer, redis_channel_layer
from tests.support import REDIS_TEST_URL

ROUNDS = 40
SOCKETS = 20


@pytest.fixture
def prefix():
    """A channel prefix of the test's own; its keys are removed afterwards."""
    prefix = f"plyground-layer-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(REDIS_TEST_URL)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)
    client.close()


def test_a_cancelled_receive_always_ends(prefix):
    """Closing a socket cancels its consumer's receive, and the consumer's task ends only when
    that receive does.  With a socket timeout, redis-py wrote every command through Python
    3.11's `asyncio.wait_for`, which swallows a cancellation arriving as the write completes:
    the receive holding channels_redis's lock then blocked on until a message came for any
    socket: 3 to 11 rounds in 40 here left a task that never ended (its person shown online
    for good)."""
    layer = PooledRedisChannelLayer(**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"])
    rng = random.Random(7)

    async def rounds() -> list[int]:
        left_running = []
        for _ in range(ROUNDS):
            channels = [await layer.new_channel() for _ in range(SOCKETS)]
            receives = [asyncio.create_task(layer.receive(c)) for c in channels]
            await asyncio.sleep(rng.uniform(0, 0.02))  # the cancel lands anywhere in the round trips
            for receive in receives:
                receive.cancel()
            _, pending = await asyncio.wait(receives, timeout=2)  # brpop_timeout is 5 s
            left_running.append(len(pending))
            if pending:  # a message for any of them wakes the stuck one: the next round starts clean
                await layer.send(channels[0], {"type": "wake"})
                await asyncio.wait(pending, timeout=6)
        await layer.flush()
        return left_running

    assert sum(asyncio.run(rounds())) == 0


MESSAGES = 600


def test_no_message_is_lost_while_other_sockets_close(prefix):
    """A socket closing cancels its consumer's receive.  In channels_redis one receive at a time
    blocks in BZPOPMIN for the whole process; cancelled after the pop, its reply -- another
    socket's message -- was dropped with the connection (django/channels#1683): 2-3 % of the
    messages here, and the end of a game in the load test while other games' sockets closed.

    Another process's layer sends to sockets that stay, while this loop closes other sockets
    at random and is busy now and then (a reply waits in the socket while it is)."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    layer = PooledRedisChannelLayer(**config)

    def send_from_another_process(channels: list[str]) -> None:
        sender, rng = PooledRedisChannelLayer(**config), random.Random(2)

        async def send() -> None:
            for n in range(MESSAGES):
                await sender.send(channels[n % len(channels)], {"type": "frame", "n": n})
                await asyncio.sleep(rng.uniform(0, 0.004))
            await sender.close_pools()

        asyncio.run(send())

    async def run() -> list[int]:
        rng, heard = random.Random(1), []

        async def socket(channel: str) -> None:
            while True:
                heard.append((await layer.receive(channel))["n"])

        staying = [await layer.new_channel() for _ in range(SOCKETS // 2)]
        sockets = [asyncio.create_task(socket(c)) for c in staying]
        closing = [asyncio.create_task(socket(await layer.new_channel())) for _ in range(SOCKETS // 2)]
        sending = asyncio.create_task(asyncio.to_thread(send_from_another_process, staying))
        while not sending.done():
            i = rng.randrange(len(closing))
            closing[i].cancel()
            closing[i] = asyncio.create_task(socket(await layer.new_channel()))
            time.sleep(0.002)  # the loop busy with something else
            await asyncio.sleep(rng.uniform(0, 0.003))
        await sending
        for _ in range(100):  # what is still on its way: 5 s at most
            if len(heard) >= MESSAGES:
                break
            await asyncio.sleep(0.05)
        for task in sockets + closing:
            task.cancel()
        await asyncio.wait(sockets + closing)
        await layer.flush()
        return sorted(heard)

    heard = asyncio.run(run())
    assert heard == list(range(MESSAGES)), f"{MESSAGES - len(set(heard))} of {MESSAGES} messages lost"


def test_a_receive_fails_when_redis_is_gone():
    """The reader's failure is every waiting receive's, as in channels_redis: their consumers end
    and the pages reconnect, instead of sockets waiting for ever on a reader that is gone."""
    config = redis_channel_layer("redis://127.0.0.1:1/0", f"plyground-layer-test-{uuid.uuid4().hex[:12]}")["CONFIG"]
    layer = PooledRedisChannelLayer(**config)

    async def two_sockets() -> list[BaseException | dict]:
        channels = [await layer.new_channel() for _ in range(2)]
        return await asyncio.wait_for(
            asyncio.gather(*(layer.receive(c) for c in channels), return_exceptions=True), timeout=20
        )

    results = asyncio.run(two_sockets())
    assert all(isinstance(r, redis.exceptions.ConnectionError) for r in results), results


def test_a_dead_process_memberships_expire_and_a_live_one_keeps_its_own(prefix):
    """A process killed under its sockets never discards their memberships.  Each live process
    renews its own every quarter of the group expiry, so once the expiry has passed a group
    send reaches the live socket and drops the dead one (a day, with channels_redis's default)."""
    config = {**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"], "group_expiry": 2}
    client = redis.Redis.from_url(REDIS_TEST_URL)

    async def join_and_die() -> str:  # the loop ends with the socket still in its group
        layer = PooledRedisChannelLayer(**config)
        channel = await layer.new_channel()
        await layer.group_add("match.1", channel)
        return channel

    async def live_through_the_expiry() -> tuple[dict, list[bytes], list[bytes]]:
        layer = PooledRedisChannelLayer(**config)
        channel, leaving = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("match.1", channel)
        await layer.group_add("match.1", leaving)
        await layer.group_discard("match.1", leaving)
        await asyncio.sleep(3.5)  # the expiry and more: renewed every 0.5 s meanwhile
        members = client.zrange(f"{prefix}:group:match.1", 0, -1)
        await layer.group_send("match.1", {"type": "frame", "n": 1})
        received = await asyncio.wait_for(layer.receive(channel), 2)
        after_send = client.zrange(f"{prefix}:group:match.1", 0, -1)
        assert await layer.renew_memberships() == 1  # the one still held; the one that left stays out
        await layer.close_pools()
        return received, members, after_send

    dead = asyncio.run(join_and_die())
    received, members, after_send = asyncio.run(live_through_the_expiry())
    assert received["n"] == 1
    assert len(members) == 2 and dead.encode() in members  # stored until the next send
    assert len(after_send) == 1 and dead.encode() not in after_send
    assert client.zrange(f"{prefix}:group:match.1", 0, -1) == after_send
    client.close()


def test_a_burst_to_a_group_reaches_each_socket_once_in_order(prefix):
    """Everything queued for a process is taken in batches (one round trip for up to
    READ_BATCH): 700 group sends queued before anyone reads, three sockets of the sending
    process (theirs handed over at once) and one of another (through its queue), each hears
    all 700 once and in order."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def burst() -> tuple[list[list[int]], list[int]]:
        ours = [await here.new_channel() for _ in range(3)]
        theirs = await there.new_channel()
        for channel in ours:
            await here.group_add("match.7", channel)
        await there.group_add("match.7", theirs)
        for n in range(700):
            await here.group_send("match.7", {"type": "frame", "n": n})
        heard = [[(await here.receive(c))["n"] for _ in range(700)] for c in ours]
        heard_there = [(await there.receive(theirs))["n"] for _ in range(700)]
        await here.flush()
        await there.close_pools()
        return heard, heard_there

    heard, heard_there = asyncio.run(asyncio.wait_for(burst(), 30))
    assert heard == [list(range(700))] * 3
    assert heard_there == list(range(700))


def test_a_group_send_drops_what_expired_in_the_queue_it_adds_to(prefix):
    """As channels_redis: a message nobody read within `expiry` is dropped by the next send to
    its queue (sent by another process: the sender's own sockets get theirs without a queue)."""
    config = {**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"], "expiry": 1}
    layer, sender = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def late_reader() -> list[int]:
        channel = await layer.new_channel()
        await layer.group_add("match.8", channel)
        await sender.group_send("match.8", {"type": "frame", "n": 1})
        await asyncio.sleep(2.1)
        await sender.group_send("match.8", {"type": "frame", "n": 2})
        first = await asyncio.wait_for(layer.receive(channel), 2)
        await layer.flush()
        await sender.close_pools()
        return [first["n"]]

    assert asyncio.run(late_reader()) == [2]


def test_a_socket_joins_and_leaves_its_groups_together(prefix):
    """A match socket's three groups are joined, renewed and left in one round trip each."""
    layer = PooledRedisChannelLayer(**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"])
    client = redis.Redis.from_url(REDIS_TEST_URL)
    groups = ["match.9", "chat.9.players", "person.4"]

    async def open_and_close() -> tuple[list[int], int, list[int], int]:
        channel, other = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("match.9", other)
        await layer.group_add_all(groups, channel)
        joined = [client.zcard(f"{prefix}:group:{g}") for g in groups]
        renewed = await layer.renew_memberships()
        await layer.group_discard_all(groups, channel)
        left = [client.zcard(f"{prefix}:group:{g}") for g in groups]
        still_held = await layer.renew_memberships()
        await layer.flush()
        return joined, renewed, left, still_held

    assert asyncio.run(open_and_close()) == ([2, 1, 1], 4, [1, 0, 0], 1)
    client.close()


def _commands_sent(layer: PooledRedisChannelLayer) -> list[str]:
    """Record the names of the commands `layer` sends from now on (its connections' pool)."""
    sent: list[str] = []
    client = layer.connection(0)
    execute = client.execute_command

    async def counted(*args, **options):
        sent.append(str(args[0]).upper())
        return await execute(*args, **options)

    client.execute_command = counted
    return sent


def test_a_group_send_is_one_round_trip_whoever_is_in_the_group(prefix):
    """One script queues one message per process, naming the group: each process's reader
    hands it to its own sockets in the group, and to no socket that left it."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    here, there, sender = (PooledRedisChannelLayer(**config) for _ in range(3))

    async def send() -> tuple[list[str], list[int], int, list[int]]:
        ours = [await here.new_channel() for _ in range(3)]
        theirs = [await there.new_channel() for _ in range(2)]
        for layer, channels in ((here, ours), (there, theirs)):
            for channel in channels:
                await layer.group_add("match.11", channel)
        await here.group_discard("match.11", ours[2])
        sent = _commands_sent(sender)
        await sender.group_send("match.11", {"type": "frame", "n": 1})
        commands = list(sent)
        heard = [(await asyncio.wait_for(here.receive(c), 2))["n"] for c in ours[:2]]
        heard += [(await asyncio.wait_for(there.receive(c), 2))["n"] for c in theirs]
        left = asyncio.create_task(here.receive(ours[2]))
        await asyncio.sleep(0.3)
        nothing_for_the_one_that_left = not left.done()
        left.cancel()
        client = redis.Redis.from_url(REDIS_TEST_URL)
        queued = [client.zcard(f"{prefix}{here.non_local_name(c)}") for c in (ours[0], theirs[0])]
        client.close()
        await here.flush()
        await there.close_pools()
        await sender.close_pools()
        return commands, heard, nothing_for_the_one_that_left, queued

    commands, heard, nothing_for_the_one_that_left, queued = asyncio.run(send())
    assert commands == ["EVAL"]
    assert heard == [1, 1, 1, 1]
    assert nothing_for_the_one_that_left
    assert queued == [0, 0]  # one message each, already read


def test_group_sends_made_together_go_in_one_round_trip_each_group_in_order(prefix):
    """Sends made while one is under way, or before the batch's call starts, go together in one
    script call: 60 moves to three groups (the second process's queue gets all 60), made at
    once on the sockets' loop, take one call.  Each group's messages
    reach the other process in the order they were sent, though they are queued with one
    call: `n` counts down, so a queue ordering equal scores by their bytes would reverse them."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)
    groups = ["match.21", "match.22", "match.23"]

    async def send() -> tuple[list[str], list[list[int]]]:
        ours = await here.new_channel()
        theirs = [await there.new_channel() for _ in groups]
        for group, channel in zip(groups, theirs, strict=True):
            await here.group_add(group, ours)
            await there.group_add(group, channel)
        sent = _commands_sent(here)
        sends = [here.group_send(groups[n % 3], {"type": "frame", "n": 60 - n}) for n in range(60)]
        await asyncio.gather(*sends)
        commands = list(sent)
        heard = [[(await asyncio.wait_for(there.receive(c), 2))["n"] for _ in range(20)] for c in theirs]
        await here.flush()
        await there.close_pools()
        return commands, heard

    commands, heard = asyncio.run(send())
    assert commands == ["EVAL"]
    assert heard == [list(range(60 - g, 0, -3)) for g in range(3)]


def test_a_batch_of_group_sends_that_fails_fails_each_send_and_the_next_batch_goes(prefix):
    """Each sender learns its send failed, as it would have alone (the broadcast logs it, and
    the page's sync recovers the frame); the sends after it are not held up."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def send() -> tuple[list[object], int]:
        ours, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("match.24", ours)
        await there.group_add("match.24", theirs)
        client = here.connection(0)
        execute = client.execute_command

        async def redis_gone(*args, **options):
            raise redis.ConnectionError("Redis is gone")

        client.execute_command = redis_gone
        sends = [here.group_send("match.24", {"type": "frame", "n": n}) for n in range(5)]
        failed = await asyncio.gather(*sends, return_exceptions=True)
        client.execute_command = execute
        await here.group_send("match.24", {"type": "frame", "n": 5})
        heard = (await asyncio.wait_for(there.receive(theirs), 2))["n"]
        await here.flush()
        await there.close_pools()
        return [type(error) for error in failed], heard

    assert asyncio.run(send()) == ([redis.ConnectionError] * 5, 5)


@pytest.mark.parametrize("closing", ["cancels its tasks", "leaves its tasks"])
def test_group_sends_cut_off_by_their_loop_closing_leave_the_next_loop_sending(prefix, closing):
    """Tests run each on a loop of its own with one layer: sends whose loop closed while they
    waited for a batch under way (their tasks cancelled, as `asyncio.run` and asgiref do, or
    left pending) are not sent, and do not hold up the next loop's."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def cut_off() -> None:
        await here.group_add("match.25", await here.new_channel())

        async def never_answered(*args, **options):
            await asyncio.get_running_loop().create_future()

        here.connection(0).execute_command = never_answered  # this loop's client: its first batch stays under way
        for n in range(3):
            asyncio.get_running_loop().create_task(here.group_send("match.25", {"type": "frame", "n": n}))
            await asyncio.sleep(0)
        await asyncio.sleep(0)

    async def next_loop() -> list[int]:
        await here.group_add("match.25", await here.new_channel())  # the sockets' loop is this one
        await asyncio.wait_for(here.group_send("match.25", {"type": "frame", "n": 3}), 2)
        heard = [(await asyncio.wait_for(there.receive(theirs), 2))["n"]]
        await asyncio.sleep(0.3)
        queue = redis.Redis.from_url(REDIS_TEST_URL)
        left = queue.zcard(f"{prefix}{there.non_local_name(theirs)}")
        queue.close()
        await here.flush()
        await there.close_pools()
        return heard + [left]

    async def join_there() -> str:
        channel = await there.new_channel()
        await there.group_add("match.25", channel)
        return channel

    theirs = asyncio.run(join_there())
    if closing == "cancels its tasks":
        asyncio.run(cut_off())
    else:
        loop = asyncio.new_event_loop()
        loop.run_until_complete(cut_off())
        loop.close()
    assert asyncio.run(next_loop()) == [3, 0]


def test_a_group_send_reaches_a_channel_of_no_process_as_channels_redis_does(prefix):
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    layer = PooledRedisChannelLayer(**config)

    async def send() -> tuple[int, int]:
        socket = await layer.new_channel()
        await layer.group_add("match.12", socket)
        await layer.group_add("match.12", "worker-queue")  # a plain channel: no "!"
        await layer.group_send("match.12", {"type": "frame", "n": 5})
        heard = await asyncio.wait_for(layer.receive(socket), 2)
        plain = await asyncio.wait_for(layer.receive("worker-queue"), 2)
        await layer.flush()
        return heard["n"], plain["n"]

    assert asyncio.run(send()) == (5, 5)


def test_with_capacities_per_channel_a_group_send_names_the_channels(prefix):
    """The two-step send (several hosts, or capacities per channel) still reaches everyone once."""
    config = {**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"], "channel_capacity": {"other.*": 10}}
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def send() -> tuple[list[str], list[int]]:
        ours, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("match.13", ours)
        await there.group_add("match.13", theirs)
        sent = _commands_sent(here)
        await here.group_send("match.13", {"type": "frame", "n": 3})
        commands = list(sent)
        heard = [
            (await asyncio.wait_for(here.receive(ours), 2))["n"],
            (await asyncio.wait_for(there.receive(theirs), 2))["n"],
        ]
        await here.flush()
        await there.close_pools()
        return commands, heard

    commands, heard = asyncio.run(send())
    assert commands == ["EVAL", "EVAL"] and heard == [3, 3]


@pytest.mark.parametrize("capacities", [None, {"other.*": 10}], ids=["one script", "by host"])
def test_a_process_hands_its_own_group_sends_to_its_own_sockets_once(prefix, capacities):
    """The sending process's sockets get its group send at once, not through Redis: its reader
    reads nothing (no command but the sends' scripts) and no second copy comes, while another
    process's sockets hear it through Redis; a burst keeps its order everywhere."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    if capacities:
        config = {**config, "channel_capacity": capacities}
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def send() -> tuple[list[list[int]], list[int], set[str], bool]:
        ours = [await here.new_channel() for _ in range(2)]
        theirs = await there.new_channel()
        await here.group_add_all(["match.14"], ours[0])
        await here.group_add_all(["match.14"], ours[1])
        await there.group_add("match.14", theirs)
        first = asyncio.create_task(here.receive(ours[0]))  # the sockets here are reading
        await asyncio.sleep(0.1)  # the reader waits in its blocking pop
        sent = _commands_sent(here)
        for n in range(300):
            await here.group_send("match.14", {"type": "frame", "n": n})
        heard = [[(await first)["n"]] + [(await here.receive(ours[0]))["n"] for _ in range(299)]]
        heard.append([(await here.receive(ours[1]))["n"] for _ in range(300)])
        heard_there = [(await asyncio.wait_for(there.receive(theirs), 2))["n"] for _ in range(300)]
        late = asyncio.create_task(here.receive(ours[0]))
        await asyncio.sleep(0.5)
        no_second_copy = not late.done()
        late.cancel()
        commands = set(sent)
        await here.flush()
        await there.close_pools()
        return heard, heard_there, commands, no_second_copy

    heard, heard_there, commands, no_second_copy = asyncio.run(asyncio.wait_for(send(), 30))
    assert heard == [list(range(300))] * 2
    assert heard_there == list(range(300))
    assert commands == {"EVAL"}
    assert no_second_copy


def test_a_group_send_from_another_event_loop_goes_through_redis(prefix):
    """A send from a loop the sockets do not receive on (a thread's own loop) must not touch
    their inboxes: it is queued in Redis, and the process's reader delivers it, once."""
    layer = PooledRedisChannelLayer(**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"])

    async def send() -> tuple[int, bool]:
        socket = await layer.new_channel()
        await layer.group_add("match.15", socket)
        waiting = asyncio.create_task(layer.receive(socket))
        await asyncio.sleep(0.1)
        await asyncio.to_thread(asyncio.run, layer.group_send("match.15", {"type": "frame", "n": 9}))
        heard = (await asyncio.wait_for(waiting, 2))["n"]
        again = asyncio.create_task(layer.receive(socket))
        await asyncio.sleep(0.3)
        once = not again.done()
        again.cancel()
        await layer.flush()
        return heard, once

    assert asyncio.run(send()) == (9, True)


def test_a_message_handed_over_here_is_a_copy(prefix):
    """Each socket here gets the message as a reader would decode it: the sender changing its
    message afterwards changes nothing the sockets hold."""
    layer = PooledRedisChannelLayer(**redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"])

    async def send() -> dict:
        socket = await layer.new_channel()
        await layer.group_add("match.16", socket)
        waiting = asyncio.create_task(layer.receive(socket))
        await asyncio.sleep(0.1)
        frame = {"ply": 3, "moves": [1, 2]}
        await layer.group_send("match.16", {"type": "frame", "frame": frame})
        frame["moves"].append(3)
        heard = await asyncio.wait_for(waiting, 2)
        await layer.flush()
        return heard

    assert asyncio.run(send()) == {"type": "frame", "frame": {"ply": 3, "moves": [1, 2]}}


def test_a_socket_that_takes_its_messages_at_once_gets_each_once_in_order(prefix):
    """A socket whose consumer takes its messages (`take_at_once`) is handed each one as it comes,
    from this process's own sends and through the reader from another process's, once each and in
    each sender's order; what it declines, and everything after it stops taking, waits in its inbox as before.
    A taker that fails costs only its own message the shortcut: the reader goes on for all."""
    config = redis_channel_layer(REDIS_TEST_URL, prefix)["CONFIG"]
    here, there = PooledRedisChannelLayer(**config), PooledRedisChannelLayer(**config)

    async def send() -> tuple[list[int], list[int], list[int], list[int]]:
        taking, failing, plain = [await here.new_channel() for _ in range(3)]
        for channel in (taking, failing, plain):
            await here.group_add("match.17", channel)
        taken: list[int] = []

        def take(message: dict) -> bool:
            if message["n"] % 10 == 9:
                return False  # declined: to the inbox
            taken.append(message["n"])
            return True

        def fail(message: dict) -> bool:
            raise RuntimeError("a socket's bug")

        here.take_at_once(taking, take)
        here.take_at_once(failing, fail)
        reading = asyncio.create_task(here.receive(plain))  # the reader runs for this process's sockets
        await asyncio.sleep(0.1)
        for n in range(50):
            await (here if n % 2 else there).group_send("match.17", {"type": "frame", "n": n})
        heard_plain = [(await asyncio.wait_for(reading, 2))["n"]]
        heard_plain += [(await asyncio.wait_for(here.receive(plain), 2))["n"] for _ in range(49)]
        declined = [(await asyncio.wait_for(here.receive(taking), 2))["n"] for _ in range(5)]
        here.stop_taking(taking)
        await here.group_send("match.17", {"type": "frame", "n": 50})
        declined.append((await asyncio.wait_for(here.receive(taking), 2))["n"])
        queued_for_failing = [(await asyncio.wait_for(here.receive(failing), 2))["n"] for _ in range(51)]
        await here.flush()
        await there.close_pools()
        return taken, declined, heard_plain, queued_for_failing

    taken, declined, heard_plain, queued_for_failing = asyncio.run(asyncio.wait_for(send(), 30))
    assert _each_sender_in_order(taken) == [n for n in range(50) if n % 10 != 9]
    assert _each_sender_in_order(declined[:5]) + declined[5:] == [9, 19, 29, 39, 49, 50]
    assert _each_sender_in_order(heard_plain) == list(range(50))
    assert _each_sender_in_order(queued_for_failing[:50]) + queued_for_failing[50:] == list(range(51))


def _each_sender_in_order(heard: list[int]) -> list[int]:
    """`heard` sorted, once each sender's messages (odd: this process, even: the other) are seen
    to be in the order sent; the two senders' sends may cross."""
    for parity in (0, 1):
        mine = [n for n in heard if n % 2 == parity]
        assert mine == sorted(mine)
    return sorted(heard)
