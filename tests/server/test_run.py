"""`python -m server.run`: nothing outlives it, however it is stopped, and it restarts what dies."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import websockets

from server import run
from tests.support import LiveStack, free_port, stack_processes


def wait_until(check, timeout: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return check()


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def worker_pids(stack: LiveStack) -> list[int]:
    return [pid for pid in stack.processes() if "server.worker" in cmdline(pid)]


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().split()[3])


def test_the_reserved_worker_takes_only_peoples_turns_and_hints_unless_turned_off():
    argv = run.reserved_worker_argv({"WORKER_CONCURRENCY": "4"})
    assert argv is not None and argv[1:4] == ["-m", "server.worker", "--reserved"]
    assert argv[argv.index("--concurrency") + 1] == "1"  # WORKER_RESERVED_CONCURRENCY's default
    assert run.worker_argv({"WORKER_CONCURRENCY": "4"})[-3] == "4"  # the other worker keeps its own
    assert run.reserved_worker_argv({"WORKER_RESERVED_CONCURRENCY": "0"}) is None
    assert run.reserved_worker_argv({"BOT_FAIR_SHARE": "0"}) is None


@pytest.mark.fullstack
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["ctrl-c", "sigterm", "sigkill"])
def test_stopping_server_run_ends_every_process_of_its_stack(sig):
    with LiveStack() as stack:
        pids = stack.processes()
        # server.run, daphne, the worker and its two pool processes, the reserved worker and its one, beat
        assert stack.proc.pid in pids and len(pids) >= 8 and len(worker_pids(stack)) == 5, pids
        assert any(" beat " in cmdline(pid) for pid in pids), "Celery beat sends the tournament tick"
        os.kill(stack.proc.pid, sig)
        assert wait_until(lambda: not stack_processes(stack.stack_id), timeout=10), [
            cmdline(pid) for pid in stack.processes()
        ]


@pytest.mark.fullstack
def test_a_worker_that_dies_is_started_again_and_its_pool_dies_with_it():
    with LiveStack() as stack:
        time.sleep(run.STABLE_AFTER_S + 1)  # the worker has started, so its death is a crash
        main = next(
            pid for pid in worker_pids(stack) if parent(pid) == stack.proc.pid and "--reserved" not in cmdline(pid)
        )
        pool = [pid for pid in worker_pids(stack) if parent(pid) == main]
        assert len(pool) == 2
        os.kill(main, signal.SIGKILL)
        assert wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pool), timeout=3), "pool orphaned"
        assert wait_until(lambda: "celery worker: starting again" in stack.server_log(), timeout=5)
        # Two workers were ready; the third "ready." is the restarted one's.
        assert wait_until(lambda: stack.server_log().count("ready.") >= 3, timeout=30), stack.server_log()[-2000:]
        assert stack.proc.poll() is None and "exited with code -9" in stack.server_log()


def test_a_child_that_never_starts_stops_the_stack_after_three_tries(monkeypatch, tmp_path):
    monkeypatch.setattr(run, "RESTART_PAUSES_S", (0.1, 0.2))
    starts = tmp_path / "starts"
    stack = run.Stack()
    code = f"open({str(starts)!r}, 'a').write('x'); raise SystemExit(3)"
    stack.spawn("broken", [sys.executable, "-c", code], dict(os.environ))
    try:
        assert stack.supervise(poll_s=0.05) == 3
    finally:
        stack.stop()
    assert starts.read_text() == "xxx"


def test_a_child_that_had_started_is_restarted_with_a_pause(monkeypatch, tmp_path):
    monkeypatch.setattr(run, "STABLE_AFTER_S", 0.3)
    monkeypatch.setattr(run, "RESTART_PAUSES_S", (0.2, 0.4))
    starts = tmp_path / "starts"
    code = f"open({str(starts)!r}, 'a').write('x'); import time; time.sleep(0.6)"
    stack = run.Stack()
    stack.spawn("flaky", [sys.executable, "-c", code], dict(os.environ))
    threading.Timer(4.0, stack.stopping.set).start()
    try:
        assert stack.supervise(poll_s=0.05) == 0
    finally:
        stack.stop()
    assert 3 <= len(starts.read_text()) <= 6
    assert not stack.children[0].running()


def test_die_with_parent_arms_the_kernel_signal():
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    code = (  # PR_GET_PDEATHSIG is 2
        "import ctypes; sig = ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(sig)); print(sig.value)"
    )
    out = subprocess.run([sys.executable, "-c", code], preexec_fn=run.die_with_parent, capture_output=True, text=True)
    assert out.stdout.strip() == str(int(signal.SIGTERM))


class OwnRedis:
    """A redis-server of the test's own on a free port, to restart at will (never the shared one)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        argv = [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        self.proc = subprocess.Popen(
            [*argv, "--appendonly", "no"], stdout=subprocess.DEVNULL, preexec_fn=run.die_with_parent
        )
        assert wait_until(lambda: run.redis_reachable(self.url), timeout=5)
        return time.monotonic()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(5)


def bot_reply(stack: LiveStack, match: dict, token: str, rng: random.Random, timeout: float = 20) -> dict:
    """Play a random legal move for seat 0; return the bot's answer as the match API stores it."""

    async def move() -> int:
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
            state = json.loads(await ws.recv())["match"]
            await ws.send(json.dumps({"type": "move", "move": rng.choice(state["legal_moves"]), "ply": state["ply"]}))
            return state["ply"]

    ply = asyncio.run(move())
    return wait_for_move(stack, match, token, ply + 1, timeout)


def wait_for_move(stack: LiveStack, match: dict, token: str, ply: int, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        moves = stack.api("GET", f"/api/matches/{match['id']}/", token=token)["moves"]
        if len(moves) > ply:
            return moves[ply]
        time.sleep(0.1)
    raise AssertionError(f"no move at ply {ply} after {timeout} s:\n{stack.server_log()[-3000:]}")


@pytest.mark.fullstack
def test_the_worker_survives_a_redis_restart_during_a_search_and_bots_search_again():
    """Celery 5.7's worker died of this every time (server/platform/broker.py): AttributeError on
    transport.client while putting back the running search's task."""
    redis_server = OwnRedis()
    redis_server.start()
    stack = LiveStack()
    stack.env["REDIS_URL"] = redis_server.url
    try:
        with stack:
            _, token = stack.guest()
            seats = [{"kind": "human"}, {"kind": "bot", "profile": "connect4-deep"}]  # 1 s searches
            match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": seats}, token)
            rng = random.Random(4)
            assert bot_reply(stack, match, token, rng)["fallback"] is None
            worker = sorted(worker_pids(stack))[0]

            async def move_then_restart_redis() -> tuple[int, float]:
                async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
                    state = json.loads(await ws.recv())["match"]
                    move = rng.choice(state["legal_moves"])
                    await ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
                    await asyncio.sleep(0.3)  # the bot is searching
                    redis_server.stop()
                await asyncio.sleep(1.5)
                return state["ply"], redis_server.start()

            ply, back = asyncio.run(move_then_restart_redis())
            searched = wait_for_move(stack, match, token, ply + 1, timeout=20)
            next_reply = bot_reply(stack, match, token, rng)
            since_back = time.monotonic() - back
            log = stack.server_log()
            assert "Unrecoverable error" not in log and "starting again" not in log, log[-3000:]
            assert worker in worker_pids(stack), "the same worker process, not a restarted one"
            assert searched["fallback"] is None and next_reply["fallback"] is None
            assert since_back < 10, f"the next real bot move came {since_back:.1f} s after Redis returned"
    finally:
        redis_server.stop()
