"""A worker's memory does not grow with the bot turns it plays (docs/security.md, "A worker's memory").

A Celery worker runs turn after turn in one process: a `bot_thinking` frame, the search
job with its thinking frames, the move's frame; the frames go through the real Redis
channel layer.  Its searches pause the collector and freeze what they leave
(`ai.budget.collector_paused`): garbage made then (the per-frame event loops that asgiref
and channels_redis built, in reference cycles) was never collected, ~40-50 MB a minute a
pool process under load.
"""

from __future__ import annotations

import asyncio
import gc
import random
import threading
import time
import tracemalloc
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import CHANCE, registry
from server.bots import turn as bot_turn
from server.bots.services import thinking_sender
from server.bots.turn import BotTurn, ThinkingReporter, compute_move
from server.matches import broadcast, frames
from server.realtime.channel_layer import PooledRedisChannelLayer, redis_channel_layer
from tests.support import REDIS_TEST_URL

# Games and searchers as the ladders mix them, each search ended by its depth or its
# iterations, never by the clock: the same nodes on a loaded machine as on an idle one.
MIX = [
    ("tictactoe", {"algorithm": "alphabeta", "max_depth": 3}),
    ("connect4", {"algorithm": "alphabeta", "max_depth": 3}),
    ("connect4", {"algorithm": "mcts", "max_iterations": 100}),
    ("othello", {"algorithm": "alphabeta", "max_depth": 1}),
    ("chess", {"algorithm": "alphabeta", "max_depth": 1}),
    ("backgammon", {"algorithm": "expectimax", "max_depth": 1}),
    ("chinese-checkers", {"algorithm": "maxn", "max_depth": 1}),
    ("tictactoe", {"algorithm": "mcts", "max_iterations": 300}),
]
WARM_UP_TURNS = 80  # every game's caches (bounded: move generation, evaluations) fill first
TURNS = 200
# Python's heap after the warm-up, over 200 turns: ~0.3-0.6 MB here (the bounded caches
# still filling), 3.0 MB once inside the whole suite's process (more of its heap in cycles
# awaiting the due collection); 6.6-7.5 MB before the fix, linearly on.  4.5 MB leaves that
# room and still fails a leak of 23 KB a turn.
MAX_GROWTH_BYTES = 4.5 * 1024 * 1024


@pytest.fixture
def redis_layer(settings):
    """The production channel layer on the test Redis, with a private prefix (deleted after)."""
    prefix = f"plyground-memory-test-{uuid.uuid4().hex[:12]}"
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_TEST_URL, prefix)}
    yield get_channel_layer()
    client = redis.Redis.from_url(REDIS_TEST_URL)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)
    client.close()


class Turns:
    """Bot turns of several matches, one game each, played on from move to move."""

    def __init__(self) -> None:
        self.states: dict[int, object] = {}
        self.frames = 0

    def play(self, number: int) -> None:
        match_id = number % len(MIX)
        game_id, config = MIX[match_id]
        game = registry.get(game_id)
        state = self.states.get(match_id)
        rng = random.Random(number)
        if state is None or game.is_terminal(state):
            state = game.initial_state()
        while game.to_move(state) == CHANCE:
            moves, weights = zip(*game.chance_outcomes(state), strict=True)
            state = game.apply(state, rng.choices(moves, weights)[0])
        now = time.time()
        turn = BotTurn(
            match_id=match_id,
            ply=game.ply(state),
            seat=game.to_move(state),
            game=game_id,
            state=game.to_json(state),
            config={**config, "time_budget_ms": 600_000, "seed": number},
            deadline=now + 600,
            queued_at=now,
            started_at=now,
        )
        send = thinking_sender(match_id)

        def counted(frame: dict) -> None:
            self.frames += 1
            send(frame)

        counted(frames.bot_thinking(turn.seat, turn.ply, None))  # as `bot_turn_begin` sends it
        stats = compute_move(turn, on_progress=ThinkingReporter(turn, counted))
        counted(frames.bot_thinking(turn.seat, turn.ply, None))  # the move's frame, after the search
        self.states[match_id] = game.apply(state, stats["move"])


def test_two_hundred_bot_turns_do_not_grow_the_workers_memory(redis_layer, monkeypatch):
    monkeypatch.setattr(bot_turn, "THINKING_REPORT_EVERY_S", 0.0)  # each report sent, as in longer searches
    turns = Turns()
    tracemalloc.start()
    try:
        for number in range(WARM_UP_TURNS):
            turns.play(number)
        before = tracemalloc.get_traced_memory()[0]
        sent_before = turns.frames
        for number in range(WARM_UP_TURNS, WARM_UP_TURNS + TURNS):
            turns.play(number)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert turns.frames - sent_before >= 3 * TURNS  # thinking frames went out during the searches
    assert grown < MAX_GROWTH_BYTES, f"{TURNS} bot turns grew Python's heap by {grown / 2**20:.1f} MB"


def test_a_workers_frames_leave_no_event_loop_behind(redis_layer, settings):
    """A process without a server loop sends on one loop of its own: in order, and no loop,
    pool or connection is made (and left in a cycle) per frame."""
    # The sockets of another process, in the match's group.
    elsewhere = PooledRedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])

    async def listen() -> str:
        channel = await elsewhere.new_channel()
        await elsewhere.group_add("match.7", channel)
        return channel

    channel = async_to_sync(listen)()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable stays in gc.garbage
    try:
        for ply in range(30):
            broadcast.send_to_group("match.7", frames.bot_thinking(0, ply, None))
        gc.collect()
        loops = [o for o in gc.garbage if isinstance(o, asyncio.AbstractEventLoop)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert loops == []
    assert [t.name for t in threading.enumerate()].count("broadcast-sender") == 1

    async def received() -> list[int]:
        plies = [(await elsewhere.receive(channel))["frame"]["ply"] for _ in range(30)]
        await elsewhere.close_pools()
        return plies

    assert async_to_sync(received)() == list(range(30))
