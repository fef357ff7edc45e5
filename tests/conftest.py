"""Shared test setup.  Every test talks only to 127.0.0.1.

`live_stack` is a real Plyground (daphne + Celery worker + Redis, `python -m server.run`)
on a free loopback port with a fresh SQLite file, shared by the tests of a session;
`stack.url`, `stack.ws_url`, `stack.api(method, path, body, token)`, `stack.guest()`.

Every process this run starts carries a marker in its environment (PLYGROUND_STACK_ID,
tests/support.py): a LiveStack's its own, any other the run's (a pytest-xdist worker's, which
starts with its controller's).  When the run ends, one still alive fails the run (and is
killed): the full-stack tests leave nothing behind to take other stacks' tasks.

`make test` runs the main pass in three groups (tests/run.sh), by the marks set here: the tests
that start no servers on both cores (pytest-xdist), each worker with a Redis database of its own
(tests/support.py) and an SQLite file of its own (server/config/settings/test.py); then the
`live` ones (full stacks, browsers) on two workers again, each worker with live stacks of its
own (ports, Redis databases, SQLite files, process markers); then the `alone` ones (fault
injection, load, timed supervision, fairness under load) one at a time, with nothing else running.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.support import (
    SESSION_STACK_PREFIX,
    STACK_ID_ENV,
    XDIST_WORKER,
    LiveStack,
    kill_stack_processes,
    stack_processes,
)

LEFTOVER_GRACE_S = 10.0
# What starts servers or a browser (`live`): apart from the in-process tests, whose CPU would
# slow its timeouts, on workers that each bring their own stacks.
LIVE_MARKERS = ("fullstack", "browser", "faults")
LIVE_DIRS = ("browser", "faults", "load")
LIVE_FILES = ("server/test_run.py",)
# What must run alone (`alone`): it kills and restarts parts of stacks, supervises processes on
# a timer, or judges fairness, bursts and timeouts under a load of its own making, which another
# test's load would distort.
ALONE_MARKERS = ("faults",)
ALONE_DIRS = ("faults", "load")
ALONE_FILES = (
    "server/test_run.py",  # supervises real processes on a timer, starts redis-servers
    "server/test_fair_queues.py",  # one player's flood must not delay another's bot replies
    "server/test_slow_clients.py",  # the proxy's and daphne's timeouts, against slow clients
)
# Every process a test starts inherits the marker, not only LiveStack's (whose own id is
# longer): the fault tests' stacks, a browser, a stray server.run.  A pytest-xdist worker
# replaces the one it inherits from its controller with its own.
if XDIST_WORKER or STACK_ID_ENV not in os.environ:
    os.environ[STACK_ID_ENV] = f"{SESSION_STACK_PREFIX}tests"


@pytest.fixture(scope="session")
def live_stack():
    with LiveStack() as stack:
        yield stack


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: `-m live` must see the mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent
    for item in items:
        where = item.path.relative_to(tests)
        alone = _matches(item, where, ALONE_MARKERS, ALONE_DIRS, ALONE_FILES)
        if alone:
            item.add_marker(pytest.mark.alone)
        if alone or _matches(item, where, LIVE_MARKERS, LIVE_DIRS, LIVE_FILES):  # `alone` is `live` too
            item.add_marker(pytest.mark.live)


def _matches(
    item: pytest.Item, where: Path, markers: tuple[str, ...], dirs: tuple[str, ...], files: tuple[str, ...]
) -> bool:
    return where.parts[0] in dirs or where.as_posix() in files or any(item.get_closest_marker(name) for name in markers)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if XDIST_WORKER:  # its controller looks, once every worker has ended: a worker's verdict is not passed on
        return
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
