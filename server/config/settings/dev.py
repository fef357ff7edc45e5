from server.config.settings.base import *  # noqa: F403

DEBUG = True
