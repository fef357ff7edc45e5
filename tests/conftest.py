"""Shared test setup.  Every test talks only to 127.0.0.1.

`live_stack` is a real Plyground (daphne + Celery worker + Redis, `python -m server.run`)
on a free loopback port with a fresh SQLite file, shared by the tests of a session;
`stack.url`, `stack.ws_url`, `stack.api(method, path, body, token)`, `stack.guest()`.

Every process this run starts carries a marker in its environment (PLYGROUND_STACK_ID,
tests/support.py): a LiveStack's its own, any other the run's.  When the run ends, one still
alive fails the run (and is killed): the full-stack tests leave nothing behind to take other
stacks' tasks.

`make test` runs the suite in two passes (tests/run.sh): the tests marked `serial` here (full
stacks, browsers, fault injection, load, anything that starts servers or binds ports) one at a
time, and the rest on both cores with pytest-xdist, each worker with a Redis database of its own
(tests/support.py) and an SQLite file of its own (server/config/settings/test.py).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.support import (
    SESSION_STACK_PREFIX,
    STACK_ID_ENV,
    LiveStack,
    kill_stack_processes,
    stack_processes,
)

LEFTOVER_GRACE_S = 10.0
# What must run alone: a stack of processes with its own ports, a browser, timed supervision.
# Everything else (games, search, the server in-process) runs on both cores.
SERIAL_MARKERS = ("fullstack", "browser", "faults")
SERIAL_DIRS = ("browser", "faults", "load")
SERIAL_FILES = ("server/test_run.py",)  # supervises real processes on a timer, starts redis-servers
# Every process a test starts inherits the marker, not only LiveStack's (whose own id is
# longer): the fault tests' stacks, a browser, a stray server.run.
os.environ.setdefault(STACK_ID_ENV, f"{SESSION_STACK_PREFIX}tests")


@pytest.fixture(scope="session")
def live_stack():
    with LiveStack() as stack:
        yield stack


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: `-m serial` must see the mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent
    for item in items:
        where = item.path.relative_to(tests)
        if (
            where.parts[0] in SERIAL_DIRS
            or where.as_posix() in SERIAL_FILES
            or any(item.get_closest_marker(name) for name in SERIAL_MARKERS)
        ):
            item.add_marker(pytest.mark.serial)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    deadline = time.monotonic() + LEFTOVER_GRACE_S
    while stack_processes(SESSION_STACK_PREFIX, prefix=True) and time.monotonic() < deadline:
        time.sleep(0.2)
    leftovers = [(pid, _cmdline(pid)) for pid in stack_processes(SESSION_STACK_PREFIX, prefix=True)]
    if not leftovers:
        return
    kill_stack_processes(SESSION_STACK_PREFIX, prefix=True)
    report = "\n".join(f"  {pid}: {cmd}" for pid, cmd in leftovers)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = f"processes of this run's live stacks still running {LEFTOVER_GRACE_S:.0f} s after the tests:\n{report}"
    if reporter is not None:
        reporter.write_sep("=", "leftover processes", red=True)
        reporter.write_line(message)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"
