"""Tests: bot turns run inline after commit unless a test asks for the real runner."""

import os

from server.config.settings.base import *  # noqa: F403
from server.platform.cache import cache_settings

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
BOT_RUNNER = "inline"
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CACHES = cache_settings("", "")  # this process's memory: a test's throttle counts never outlive it
BOT_WATCHDOG_GRACE_MS = 1000
BOT_WATCHDOG = False  # tests call rescue_overdue_bots() themselves
MATCH_WATCH = False  # tests call flag_fallen_clocks() and abandon_gone_seats() themselves
MATCH_HEARTBEAT = False  # tests call heartbeat.beat() themselves
# Every test's sockets come from 127.0.0.1, and a test that leaves a socket open keeps its lease
# for SOCKET_LEASE_MS: over a whole run they would add up to the caps.  Off here; the caps' own
# tests set them (tests/server/test_socket_caps.py, test_sockets_live.py).
SOCKETS_PER_VISITOR = 0
SOCKETS_PER_ADDRESS = 0

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared-cache memory: threads then lock the way the real server's SQLite does.
    import tempfile

    DATABASES["default"]["TEST"] = {"NAME": f"{tempfile.gettempdir()}/plyground-test-{os.getpid()}.sqlite3"}  # noqa: F405
TOURNAMENT_TICK_IN_WEB = False  # tests call server.tournaments.rounds.tick() themselves
