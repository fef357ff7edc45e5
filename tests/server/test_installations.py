"""Two installations on one Redis never cross: each database gets its own prefix and queues."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys

import dj_database_url
import pytest

from server.platform.installation import database_identity, installation_id
from tests.server.test_fullstack import play_against_bot
from tests.support import ROOT, LiveStack


def names_for(database_url: str, **env: str) -> tuple[str, str, str]:
    """(channel prefix, base queue, bot queue) a server process computes from its environment."""
    code = (
        "from django.conf import settings as s; "
        "print(s.CHANNEL_LAYERS['default']['CONFIG']['prefix'], s.CELERY_TASK_DEFAULT_QUEUE, "
        "s.CELERY_TASK_ROUTES['bots.bot_move']['queue'])"
    )
    named = ("CHANNEL_PREFIX", "CELERY_QUEUE", "PLYGROUND_INSTALLATION")
    clean = {k: v for k, v in os.environ.items() if k not in named}
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "server.config.settings.dev",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "DATABASE_URL": database_url,
            **env,
        },
        capture_output=True,
        text=True,
        check=True,
    )
    prefix, queue, bots = out.stdout.split()
    return prefix, queue, bots


def test_two_databases_are_two_installations_and_one_is_one(tmp_path):
    a = names_for(f"sqlite:///{tmp_path}/a.sqlite3")
    b = names_for(f"sqlite:///{tmp_path}/b.sqlite3")
    assert a != b and a[0] != b[0] and a[1] != b[1] and a[2] != b[2]
    assert names_for(f"sqlite:///{tmp_path}/../{tmp_path.name}/a.sqlite3") == a, "one file, however it is named"
    assert a[0] != "asgi" and a[1] != "celery", "no shared default any more"
    assert a[2].startswith(a[1] + "."), "per-purpose queues are named after the installation's base queue"


def test_postgres_identity_is_host_port_and_name():
    one = dj_database_url.parse("postgres://u:p@db.example:5432/plyground")
    same_other_user = dj_database_url.parse("postgres://other:secret@db.example:5432/plyground")
    other_name = dj_database_url.parse("postgres://u:p@db.example:5432/staging")
    other_host = dj_database_url.parse("postgres://u:p@db2.example:5432/plyground")
    assert installation_id(one, {}) == installation_id(same_other_user, {})
    assert len({installation_id(d, {}) for d in (one, other_name, other_host)}) == 3
    assert "secret" not in database_identity(same_other_user)


def test_explicit_names_win(tmp_path):
    url = f"sqlite:///{tmp_path}/a.sqlite3"
    prefix, queue, _ = names_for(url, PLYGROUND_INSTALLATION="staging")
    assert (prefix, queue) == ("plyground-staging", "plyground-staging")
    prefix, queue, bots = names_for(url, CHANNEL_PREFIX="mine", CELERY_QUEUE="work")
    assert (prefix, queue, bots) == ("mine", "work", "work.bots")


def received_bot_tasks(stack: LiveStack) -> int:
    return len(re.findall(r"Task bots\.bot_move\[[0-9a-f-]+\] received", stack.server_log()))


@pytest.mark.fullstack
def test_two_stacks_on_one_redis_keep_their_tasks_and_frames():
    """Both with default names (no CHANNEL_PREFIX/CELERY_QUEUE): both databases have a match 1,
    so a task or frame taken by the wrong stack would play or show a move in the wrong game."""
    with LiveStack(own_names=False) as one, LiveStack(own_names=False) as two:

        async def both():
            return await asyncio.gather(
                *(
                    play_against_bot(stack, "tictactoe", "tictactoe-perfect", seed)
                    for stack in (one, two)
                    for seed in (1, 2)
                )
            )

        results = asyncio.run(both())
        for stack, games in ((one, results[:2]), (two, results[2:])):
            bot_moves = [frame for _, frames in games for frame in frames]
            assert bot_moves and all(frame.get("fallback") is None for frame in bot_moves), "every bot move searched"
            assert all(frame["stats"]["algorithm"] != "random" for frame in bot_moves)
            # Each worker ran exactly its own stack's bot turns: none of the other's.
            assert received_bot_tasks(stack) == len(bot_moves), stack.server_log()[-3000:]
        queues = [re.search(r"\.> (plyground-[0-9a-f]{12})\.bots ", s.server_log()).group(1) for s in (one, two)]
        assert queues[0] != queues[1], queues
