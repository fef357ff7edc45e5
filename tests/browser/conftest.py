"""Browser tests: a real Plyground server and Debian's chromium driven by Playwright.

`plyground` is the shared full stack of tests/conftest.py (daphne, a Celery
worker, Redis, a fresh SQLite file); `restartable_stack` is one of its own that a
test can stop and start again on the same port and database.  Each page opens in
a fresh browser context (its own cookies: its own guest).  Screenshots go to
tests/browser/screenshots/ (ignored by git).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from playwright.sync_api import expect

from tests.support import REDIS_TEST_URL, XDIST_WORKER, LiveStack, redis_url_plus, worker_redis_url

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Assertions wait as long as actions do: a loaded CI machine can take seconds to echo a move.
expect.set_options(timeout=15_000)
# RestartableStack's own Redis database: four past the worker's (tests/support.py), clear of the
# other workers' ones; REDIS_RESTART_TEST_URL names the first worker's instead.
RESTART_REDIS_URL = (
    worker_redis_url(os.environ["REDIS_RESTART_TEST_URL"], XDIST_WORKER)
    if "REDIS_RESTART_TEST_URL" in os.environ
    else redis_url_plus(REDIS_TEST_URL, 4)
)
# A word of a compound is prose, not a value: the chess Master's "null-move pruning".
RAW_VALUE = re.compile(r"(?<!-)\b(?:null|undefined|NaN)\b(?!-)|\[object Object\]")
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


# Without chromium every browser test fails (make test installs it, or says what to install):
# a run never passes with them skipped.  Only this switch, which make test and CI unset,
# skips them instead, for a run that knowingly leaves the browser out.
SKIP_SWITCH = "PLYGROUND_SKIP_BROWSER_TESTS"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            if not Path(CHROMIUM).exists() and os.environ.get(SKIP_SWITCH) == "1":
                item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is not installed and {SKIP_SWITCH}=1"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") and not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is not installed: apt-get install chromium (make test does it when it can), "
            f"or set {SKIP_SWITCH}=1 to skip the browser tests knowingly",
            pytrace=False,
        )


class RestartableStack(LiveStack):
    """A full stack of its own, stopped and started again on the same port and database.

    It uses a Redis database of its own too, so a restart test starts from an empty one.
    """

    def __init__(self) -> None:
        super().__init__()
        self.env["REDIS_URL"] = RESTART_REDIS_URL

    def __enter__(self) -> RestartableStack:
        redis.Redis.from_url(RESTART_REDIS_URL).flushdb()
        return super().__enter__()


@pytest.fixture(scope="session")
def plyground(live_stack: LiveStack) -> LiveStack:
    """The shared live stack (tests/conftest.py): daphne, a Celery worker, Redis."""
    return live_stack


@pytest.fixture
def restartable_stack() -> Iterator[RestartableStack]:
    with RestartableStack() as stack:
        yield stack


# Module scope: Playwright's sync API keeps an event loop running in the main thread while
# it is open, which would break asyncio.run() and the async tests of later modules.
@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, plyground):
    """Open a page in a fresh context (a new guest); errors in page scripts fail the test."""
    contexts = []
    errors: list[str] = []

    def open_page(path: str = "/", viewport: dict[str, int] | None = None, server: LiveStack | None = None):
        size = viewport or {"width": 1280, "height": 900}
        context = browser.new_context(base_url=(server or plyground).url, viewport=size)
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path)
        return page

    yield open_page
    leaks = []
    for context in contexts:
        for page in context.pages:
            text = page.locator("body").inner_text()
            leaks += [f"{page.url}: {found}" for found in RAW_VALUE.findall(text)]
        context.close()
    assert not errors, f"script errors in the page: {errors}"
    assert not leaks, f"raw values shown to players: {leaks}"


@pytest.fixture
def screenshot(request):
    """screenshot(page, "name") saves tests/browser/screenshots/<test>-<name>.png."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def save(page, name: str) -> Path:
        path = SCREENSHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
