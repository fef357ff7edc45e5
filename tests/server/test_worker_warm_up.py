"""A Celery pool process warms up (`ai.warm_up`) before it takes work: the first bot reply pays for no first call."""

from __future__ import annotations

import re

import pytest

from tests.support import LiveStack

pytestmark = pytest.mark.fullstack


def test_each_pool_process_warms_up_before_the_workers_are_ready():
    with LiveStack() as stack:
        log = stack.server_log()
    warmed = [m.start() for m in re.finditer(r"search process \d+ warmed up in", log)]
    assert len(warmed) >= 2, log  # the worker's two pool processes, and the reserved worker's
    assert max(warmed[:2]) < log.index("ready"), "warmed up before the worker consumed"


def test_no_warm_up_when_it_is_turned_off():
    with LiveStack(extra_env={"SEARCH_WARM_UP": "0"}) as stack:
        assert "warmed up" not in stack.server_log()
