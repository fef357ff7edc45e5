import os

from server.config.settings.base import *  # noqa: F403

# On by default for development; DEBUG=0 runs the development stack as production runs it
# (no SQL recorded for every query, no debug pages): the benchmarks measure that shape.
DEBUG = os.environ.get("DEBUG", "1") != "0"
