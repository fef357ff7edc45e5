#!/usr/bin/env bash
# Runs every test the project has: lint, the fast suite with the full-stack and browser
# tests, then the slow marker.  Starts Redis when it is not reachable; installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export REDIS_TEST_URL="${REDIS_TEST_URL:-redis://127.0.0.1:6379/9}"

if ! "$BIN/python" -c "import sys, redis; redis.Redis.from_url(sys.argv[1], socket_connect_timeout=1).ping()" "$REDIS_TEST_URL" 2>/dev/null; then
  if command -v redis-server >/dev/null; then
    echo "tests: starting redis-server on 127.0.0.1:6379"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    sleep 1
  else
    echo "tests: Redis is not reachable and redis-server is not installed (apt-get install redis-server)" >&2
    exit 1
  fi
fi

"$BIN/ruff" check .
"$BIN/ruff" format --check .
# Unset DATABASE_URL: this pass runs on SQLite; CI runs the server tests on PostgreSQL separately.
env -u DATABASE_URL -u REDIS_URL "$BIN/pytest" -m "not slow" "$@"
env -u DATABASE_URL -u REDIS_URL "$BIN/pytest" -m slow "$@"
