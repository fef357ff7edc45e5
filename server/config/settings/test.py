"""Tests: bot turns run inline after commit unless a test asks for the real runner."""

import os

from server.config.settings.base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
BOT_RUNNER = "inline"
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CACHES = cache_settings("", "")  # this process's memory: a test's throttle counts never outlive it  # noqa: F405
BOT_WATCHDOG_GRACE_MS = 1000
BOT_WATCHDOG = False  # tests call rescue_overdue_bots() themselves
MATCH_WATCH = False  # tests call flag_fallen_clocks() and abandon_gone_seats() themselves
MATCH_HEARTBEAT = False  # tests call heartbeat.beat() themselves

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared-cache memory: threads then lock the way the real server's SQLite does.
    import tempfile

    DATABASES["default"]["TEST"] = {"NAME": f"{tempfile.gettempdir()}/plyground-test-{os.getpid()}.sqlite3"}  # noqa: F405
