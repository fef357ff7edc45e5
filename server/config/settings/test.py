"""Tests: bot turns run inline after commit unless a test asks for the real runner."""

from server.config.settings.base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
BOT_RUNNER = "inline"
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
BOT_WATCHDOG_GRACE_MS = 1000
BOT_WATCHDOG = False  # tests call rescue_overdue_bots() themselves
