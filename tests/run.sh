#!/usr/bin/env bash
# Runs every test the project has: lint, types (mypy, strict on ai/, games/ and server/), the layers (lint-imports), the
# doctests, the fast suite with the full-stack and browser tests, then the slow marker.  What those need from the system (redis-server, Debian's
# chromium, caddy for deploy/Caddyfile, the engines the bridges play: stockfish, grhino, gnubg) is installed with apt-get
# when missing and we can (root, or sudo without a password); otherwise it stops and says what to install.  It never runs with tests skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
CHROMIUM=/usr/bin/chromium
export REDIS_TEST_URL="${REDIS_TEST_URL:-redis://127.0.0.1:6379/9}"

redis_up() {
  "$BIN/python" -c "import sys, redis; redis.Redis.from_url(sys.argv[1], socket_connect_timeout=1).ping()" \
    "$REDIS_TEST_URL" 2>/dev/null
}

missing=()
redis_up || command -v redis-server >/dev/null || missing+=(redis-server)
[ -x "$CHROMIUM" ] || missing+=(chromium)
command -v caddy >/dev/null || missing+=(caddy)  # tests/server/test_slow_clients.py runs deploy/Caddyfile
# tests/clients/test_bridges.py: each bridge with its real engine (Debian puts them in /usr/games).
for engine in stockfish:stockfish gtp-rhino:grhino gnubg:gnubg; do
  [ -x "/usr/games/${engine%%:*}" ] || command -v "${engine%%:*}" >/dev/null || missing+=("${engine#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
  if command -v apt-get >/dev/null && "${as_root[@]}" true 2>/dev/null; then
    echo "tests: installing ${missing[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! ("${as_root[@]}" apt-get update -qq && "${as_root[@]}" apt-get install -y -qq "${missing[@]}") >/dev/null; then
      echo "tests: apt-get could not install ${missing[*]}; install them, then run make test again" >&2
      exit 1
    fi
    if [ ! -x "$CHROMIUM" ]; then
      echo "tests: apt-get installed chromium, but not at $CHROMIUM (the browser tests need Debian's)" >&2
      exit 1
    fi
  else
    echo "tests: the full-stack and browser tests need ${missing[*]}, which cannot be installed from here" >&2
    echo "       (no apt-get, or neither root nor passwordless sudo). Install them, e.g." >&2
    echo "         sudo apt-get install ${missing[*]}" >&2
    echo "       then run make test again (Debian's chromium must be at $CHROMIUM)." >&2
    exit 1
  fi
fi

if ! redis_up; then
  echo "tests: starting redis-server on 127.0.0.1:6379"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 50); do redis_up && break; sleep 0.1; done
fi

"$BIN/ruff" check .
"$BIN/ruff" format --check .
"$BIN/mypy"  # what and how strictly: [tool.mypy] in pyproject.toml
"$BIN/lint-imports"  # the layers as contracts: [tool.importlinter] in pyproject.toml
# The examples in docstrings, wherever they are (settings and migrations are not modules to import).
env -u DATABASE_URL -u REDIS_URL "$BIN/pytest" -p no:cacheprovider -q --doctest-modules ai games server \
  --ignore=server/config/settings --ignore-glob='server/*/migrations/*'
# Unset DATABASE_URL: these passes run on SQLite; CI runs the server tests on PostgreSQL separately.
# Unset the skip switch too: make test runs the browser tests, or fails.
pytest=(env -u DATABASE_URL -u REDIS_URL -u PLYGROUND_SKIP_BROWSER_TESTS "$BIN/pytest")
# The main pass in three groups, by the marks of tests/conftest.py (`live`, `alone`); each lists
# its slowest tests: make test must stay well under 30 minutes.
# 1. The tests that start no servers, on both cores (pytest-xdist, two workers: this machine's two
#    cores); each worker has a Redis database and an SQLite file of its own.
# 2. The full stacks and browsers, on two workers again: they mostly wait on sockets, bots and
#    chromium, not on the CPU.  Each worker brings live stacks of its own (ports, Redis databases,
#    SQLite files, process markers).  Not mixed with group 1, whose CPU would stretch their waits.
# 3. What must run alone, one at a time: fault injection, load, timed supervision, fairness and
#    timeouts judged under a load of the test's own making, which another test would distort.
"${pytest[@]}" -m "not slow and not live" -n 2 --dist worksteal --durations=25 "$@"
"${pytest[@]}" -m "not slow and live and not alone" -n 2 --dist worksteal --durations=25 "$@"
"${pytest[@]}" -m "not slow and alone" --durations=25 "$@"
"${pytest[@]}" -m slow "$@"
