"""`python -m server.run`: nothing outlives it, however it is stopped, and it restarts what dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from server import run
from tests.support import LiveStack, stack_processes


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


@pytest.mark.fullstack
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["ctrl-c", "sigterm", "sigkill"])
def test_stopping_server_run_ends_every_process_of_its_stack(sig):
    with LiveStack() as stack:
        pids = stack.processes()
        # server.run, daphne, the worker and its two pool processes
        assert stack.proc.pid in pids and len(pids) >= 5 and len(worker_pids(stack)) == 3, pids
        os.kill(stack.proc.pid, sig)
        assert wait_until(lambda: not stack_processes(stack.stack_id), timeout=10), [
            cmdline(pid) for pid in stack.processes()
        ]


@pytest.mark.fullstack
def test_a_worker_that_dies_is_started_again_and_its_pool_dies_with_it():
    with LiveStack() as stack:
        time.sleep(run.STABLE_AFTER_S + 1)  # the worker has started, so its death is a crash
        main = next(
            pid for pid in worker_pids(stack) if Path(f"/proc/{pid}/stat").read_text().split()[3] == str(stack.proc.pid)
        )
        pool = [pid for pid in worker_pids(stack) if pid != main]
        os.kill(main, signal.SIGKILL)
        assert wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pool), timeout=3), "pool orphaned"
        assert wait_until(lambda: "celery worker: starting again" in stack.server_log(), timeout=5)
        assert wait_until(lambda: stack.server_log().count("ready.") >= 2, timeout=30), stack.server_log()[-2000:]
        assert stack.proc.poll() is None and "exited with code -9" in stack.server_log()


def test_a_child_failing_at_its_first_start_stops_the_stack():
    stack = run.Stack()
    stack.spawn("broken", [sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ))
    try:
        assert stack.supervise(poll_s=0.05) == 3
    finally:
        stack.stop()


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
