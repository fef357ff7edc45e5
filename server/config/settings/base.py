"""Settings shared by every environment.  Environment variables choose the parts:

- ``DATABASE_URL``: PostgreSQL in production; SQLite (``db.sqlite3``) when unset.
- ``REDIS_URL``: the Redis channel layer and Celery broker; when unset the server runs
  in embedded mode (in-memory channel layer, bot searches in a local process pool).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext

from server.platform.cache import cache_settings
from server.platform.installation import installation_id
from server.realtime.channel_layer import redis_channel_layer

# The generics the type stubs declare (ModelAdmin[Player], ...) subscriptable at run time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parents[3]

SECRET_KEY = os.environ.get("SECRET_KEY", "plyground-development-key-change-me-in-production")
DEBUG = False
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "channels",
    "server.config",
    "server.players",
    "server.matches",
    "server.bots",
    "server.lobby",
    "server.pairing",
    "server.research",
    "server.analysis",
    "server.ratings",
    "server.chat",
    "server.agents",
    "server.tournaments",
    "frontend",
]

MIDDLEWARE = [
    "server.http.refuse_nul.RefuseNulMiddleware",  # before anything reads the path or query
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "server.players.middleware.PlayerMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "server.config.urls"
ASGI_APPLICATION = "server.config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # every page links each game's board stylesheet (games/<board>.css)
                "frontend.context_processors.game_stylesheets",
                # a guest's consent notice (server/players/consent.py)
                "frontend.context_processors.consent",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take the write lock at BEGIN, so concurrent moves queue up
    # instead of failing; the timeout is how long one waits for the other.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
# A move's statements are prepared once per PostgreSQL session and run by name (server/db/rows.py,
# `_by_name`).  Set DATABASE_PREPARED_STATEMENTS=0 behind a pooler that shares a server session
# between transactions (PgBouncer in transaction mode).
DATABASE_PREPARED_STATEMENTS = os.environ.get("DATABASE_PREPARED_STATEMENTS", "1") != "0"

# One database is one installation (server/platform/installation.py): its processes share a
# channel-layer prefix and a base task queue that no other installation on the same Redis
# uses.  CHANNEL_PREFIX and CELERY_QUEUE, or PLYGROUND_INSTALLATION for both, set them by hand.
INSTALLATION_ID = installation_id(dict(DATABASES["default"]))
CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX") or f"plyground-{INSTALLATION_ID}"
CELERY_QUEUE = os.environ.get("CELERY_QUEUE") or f"plyground-{INSTALLATION_ID}"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True  # serve app static files without a collectstatic step

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "server.players.auth.BearerTokenAuthentication",
        "server.players.auth.SessionPlayerAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON within bounds of size and nesting (server/http/parsers.py): a hostile body is a 400, never a 500.
    "DEFAULT_PARSER_CLASSES": [
        "server.http.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Plyground API",
    "DESCRIPTION": "Board games against people and disclosed AI opponents.",
    "VERSION": "1",
    # <id:...> path parameters (server/http/converters.py) are integers that fit a BigAutoField.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}},
    # Request bodies are declared as JSON only: the nested bodies (a match's seats) have no form encoding.
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    # Three choice sets are all called "status": each its own component name.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "server.matches.models.Match.Status",
        "AnalysisStatusEnum": "server.analysis.models.Analysis.Status",
        "BotTurnStatusEnum": ["queued", "thinking"],
        "TournamentKindEnum": "server.tournaments.api.KINDS",
        "TournamentStatusEnum": "server.tournaments.api.STATUSES",
        "TournamentEntryEnum": "server.tournaments.api.ENTRIES",
        "EntrantKindEnum": "server.tournaments.api.ENTRANT_KINDS",
    },
}
# Where to report a security problem (docs/security.md): an address or a URL the operator
# sets; the schema's contact at /api/schema/.
SECURITY_CONTACT = os.environ.get("SECURITY_CONTACT", "").strip()
if SECURITY_CONTACT:
    SPECTACULAR_SETTINGS["CONTACT"] = {
        "name": "Security reports",
        ("url" if SECURITY_CONTACT.startswith(("http://", "https://")) else "email"): SECURITY_CONTACT.removeprefix(
            "mailto:"
        ),
    }

# --- Redis: channel layer and Celery broker, or embedded mode ------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED = not REDIS_URL

if EMBEDDED:
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    BOT_RUNNER = "embedded"
else:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL, prefix=CHANNEL_PREFIX)}
    BOT_RUNNER = "celery"

# Throttles and hint locks count across every process of the installation (server/platform/cache.py).
CACHES = cache_settings(REDIS_URL, CHANNEL_PREFIX)

CELERY_BROKER_URL = REDIS_URL or "memory://"
# kombu's Redis transport, made to survive a Redis restart while a task runs (server/platform/broker.py).
CELERY_BROKER_TRANSPORT = "server.platform.broker:Transport" if REDIS_URL.startswith("redis://") else None
# On losing Redis a running search goes on: its move is stored through the database, not Redis.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_TASK_DEFAULT_QUEUE = CELERY_QUEUE  # the base name of the installation's queues
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a long search must not hold other matches' moves
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-search leaves the task for another
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- Celery queues: bot moves first (server/bots/queues.py) ---------------------------
# One queue per kind of work, named after the installation's base queue.  A worker
# started without -Q consumes them all, and kombu's Redis transport with the "priority"
# order strategy pops them in the order listed (one BRPOP over the keys in this order,
# never rotated), so a free worker process always takes a waiting bot move of a match a
# person plays before a hint, a bot-vs-bot match's move, an analysis step, a calibration
# game's move or a self-play move (tests/server/test_fair_queues.py, on real workers).  The
# base queue itself comes last, for anything not routed.
from kombu import Queue  # noqa: E402 - kept inside this block

BOT_QUEUE_KINDS = ("bots", "hints", "botmatches", "analysis", "calibration", "selfplay")
# Worker time shared fairly (server/bots/queues.py, server/bots/fair_share.py): hints and
# bot-vs-bot turns below people's bot turns, a reserved worker for people (server/run.py,
# WORKER_RESERVED_CONCURRENCY), caps per player and address.  Off (0): the old first come,
# first served on one queue, no reserved worker, no caps; kept for the benchmark's reference.
BOT_FAIR_SHARE = os.environ.get("BOT_FAIR_SHARE", "1") != "0"
# Each queue its own routing key: sharing the default one would copy a message to all of them.
CELERY_TASK_QUEUES = [
    Queue(name, routing_key=name)
    for name in (*(f"{CELERY_TASK_DEFAULT_QUEUE}.{kind}" for kind in BOT_QUEUE_KINDS), CELERY_TASK_DEFAULT_QUEUE)
]
CELERY_TASK_ROUTES = {
    "bots.bot_move": {"queue": f"{CELERY_TASK_DEFAULT_QUEUE}.bots"},  # a match's source may pick another
    "analysis.analyse_position": {"queue": f"{CELERY_TASK_DEFAULT_QUEUE}.analysis"},
    # Milliseconds of work that people may be waiting on (their next pairing): beside their bot turns.
    "tournaments.tick": {"queue": f"{CELERY_TASK_DEFAULT_QUEUE}.bots"},
}
# Redelivery, on purpose.  Every task is idempotent (a bot turn for a ply already played, an
# analysis step already done: nothing happens), so delivering twice only costs time, and
# losing a delivery costs a bot turn or an analysis stuck half way.  So:
# - a worker process that dies mid-task (killed, out of memory) puts its task back at once
#   (reject_on_worker_lost) instead of acknowledging it as failed;
# - a task fetched by a worker that vanished altogether (SIGKILL, lost host) goes back to its
#   queue after `visibility_timeout`.  5 minutes: far above the longest task (a search
#   within one budget, at most 30 s; an analysis step is one position's search), so a live
#   task is never handed out twice, and far below Redis's 1 hour, so a lost analysis step
#   resumes the same session.  A bot turn does not wait for it: the watchdog gives a lost
#   search its second chance after budget + grace (server/bots/watchdog.py).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **globals().get("CELERY_BROKER_TRANSPORT_OPTIONS", {}),  # keeps what the broker connection sets above
    "queue_order_strategy": "priority",
    "visibility_timeout": 300,
}
# A bot turn waiting for a worker is never overdue: it is queued again every BOT_REQUEUE_MS
# in case its message was lost, and gets a fallback move only after BOT_QUEUE_CAP_MS in which
# no bot search started anywhere (no worker alive).  A task message older than
# BOT_TASK_EXPIRES_MS is dropped unrun (the turn was queued again or played long before).
BOT_REQUEUE_MS = int(os.environ.get("BOT_REQUEUE_MS", "15000"))
BOT_QUEUE_CAP_MS = int(os.environ.get("BOT_QUEUE_CAP_MS", "60000"))
BOT_TASK_EXPIRES_MS = 600_000
# --- Tournaments (server/tournaments, docs/tournaments.md) -------------------------------
# Celery beat sends the tick every TOURNAMENT_TICK_MS in the full stack (server/run.py,
# docker-compose.yml); in embedded mode (no Redis, no beat) the web process ticks itself.
TOURNAMENT_TICK_MS = int(os.environ.get("TOURNAMENT_TICK_MS", "5000"))
TOURNAMENT_TICK_IN_WEB = EMBEDDED
CELERY_BEAT_SCHEDULE = {
    "tournaments-tick": {
        "task": "tournaments.tick",
        "schedule": TOURNAMENT_TICK_MS / 1000,
        "options": {"expires": TOURNAMENT_TICK_MS / 1000},  # a tick nobody took in time is replaced by the next
    }
}
# The site's time controls (the lobby's), what a tournament may choose.
TOURNAMENT_TIME_CONTROLS = ("1+0", "3+2", "5+3", "10+5", "30+20")
TOURNAMENT_OPEN_PER_PERSON = 2  # scheduled or running tournaments a person may have created
TOURNAMENT_MAX_ENTRANTS = 64
TOURNAMENT_MAX_ROUNDS = 15  # Swiss rounds; a round robin has entrants - 1, so at most this many + 1 entrants
TOURNAMENT_MAX_ARENA_MINUTES = 180
TOURNAMENT_MAX_DAYS_AHEAD = 30
# --- end of Celery queues ------------------------------------------------------------

# --- Bots -----------------------------------------------------------------------
# A bot that has not moved by its deadline plus this grace gets a fallback move.
BOT_WATCHDOG_GRACE_MS = int(os.environ.get("BOT_WATCHDOG_GRACE_MS", "3000"))
BOT_POOL_SIZE = int(os.environ.get("BOT_POOL_SIZE", "2"))
# Each search process (a Celery pool process, a local search process) warms up before it
# takes work (`ai.warm_up`): the first bot reply costs what the next ones do.  Off ("0") only
# to measure what it saves (benchmarks/first_reply.py).
SEARCH_WARM_UP = os.environ.get("SEARCH_WARM_UP", "1") != "0"
# A pool process reports itself up once its init (the warm-up) is done; Celery's default
# 4 s is too short on a loaded 2-core machine.
CELERY_WORKER_PROC_ALIVE_TIMEOUT = 60.0
BOT_WATCHDOG = True
BOT_GAMES_RATED_FOR_HUMANS = (
    os.environ.get("BOT_GAMES_RATED_FOR_HUMANS", "0") == "1"
)  # the web process rescues bot turns that nobody answered
# People's Glicko-2 ratings (server/ratings/services.py): provisional ("?") above this
# deviation, as lichess; idle time widens the deviation by this many periods a day.
RATING_PROVISIONAL_DEVIATION = float(os.environ.get("RATING_PROVISIONAL_DEVIATION", "110"))
RATING_PERIODS_PER_DAY = 0.21436
RATING_TAU = 0.5
# Farming (docs/security.md): a rated match changes no rating before its people made this many
# moves between them (two each in a two-player game: an instant resignation counts for nothing),
# and one pair of people moves each other's ratings in at most this many matches in any 24 hours
# (friends playing a long evening's series still play rated; only the first few count).
RATING_MIN_PLIES = int(os.environ.get("RATING_MIN_PLIES", "4"))
RATING_PAIR_MATCHES_PER_DAY = int(os.environ.get("RATING_PAIR_MATCHES_PER_DAY", "3"))
LEADERBOARD_ACTIVE_DAYS = int(os.environ.get("LEADERBOARD_ACTIVE_DAYS", "30"))  # who played since
LEADERBOARD_SIZE = 100
# Analysis and hints search with the strongest bot profile's settings; these cap its budget (ms, 0: no cap).
ANALYSIS_TIME_BUDGET_MS = int(os.environ.get("ANALYSIS_TIME_BUDGET_MS", "0"))
HINT_TIME_BUDGET_MS = int(os.environ.get("HINT_TIME_BUDGET_MS", "300"))
# Chess knowledge from system packages, never required (games/chess/tables.py): a Polyglot
# opening book (apt-get install gnuchess-book) and Gaviota endgame tables (apt-get install
# gaviotatb).  Where a path holds nothing the bots search instead, after one log line.
CHESS_BOOK_PATH = os.environ.get("CHESS_BOOK_PATH", "/usr/share/games/gnuchess/book.bin")
CHESS_GAVIOTA_PATH = os.environ.get("CHESS_GAVIOTA_PATH", "/usr/share/gaviotatb/gtb4")

# --- Match sockets ----------------------------------------------------------------
MATCH_EVENTS_KEPT = 500  # events replayed to a client reconnecting with ?v=
SOCKET_RATE_LIMIT = (20, 5.0)  # at most 20 frames per 5 seconds per connection, moves apart
SOCKET_MOVE_RATE_LIMIT = (50, 5.0)  # move frames: 10 a second, beyond any human's clicking
# Bot accounts (server/agents, docs/bots.md): how many a person registers, games at once per
# bot and per owner (all their bots together), challenges a player leaves waiting, how long a
# challenge waits for its answer; refused frames (server/players/conduct.py) that block a bot.
BOT_ACCOUNTS_PER_OWNER = int(os.environ.get("BOT_ACCOUNTS_PER_OWNER", "3"))
BOT_GAMES_PER_BOT = int(os.environ.get("BOT_GAMES_PER_BOT", "8"))
BOT_GAMES_PER_OWNER = int(os.environ.get("BOT_GAMES_PER_OWNER", "12"))
BOT_CHALLENGES_WAITING_PER_PLAYER = 5
BOT_CHALLENGE_TTL_S = 120
BOT_STRIKES = 30  # refused frames (errors, rate limits) of one bot account ...
BOT_STRIKE_WINDOW_S = 60  # ... within this window (from the first) ...
BOT_BLOCK_S = 300  # ... block it for this long
# "Measure my agent" (server/agents/measuring.py): runs at once per owner, games a run at most.
MEASUREMENTS_PER_OWNER = int(os.environ.get("MEASUREMENTS_PER_OWNER", "2"))
MEASUREMENT_MAX_GAMES = int(os.environ.get("MEASUREMENT_MAX_GAMES", "200"))
# Sockets open at once, match and lobby together, counted across every web process
# (server/realtime/socket_caps.py): per visitor (a player, else a browser session), and per
# client address (NUM_PROXIES' rule; an IPv6 /64).  A page holds one socket, so 50 is 50 tabs
# (or a bot account's 50 matches at once); 200 is a household or an office behind one NAT
# address, each person with several tabs.  0 turns a cap off (e.g. behind a proxy that hides
# the clients' addresses while NUM_PROXIES is not set yet).
SOCKETS_PER_VISITOR = int(os.environ.get("SOCKETS_PER_VISITOR", "50"))
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "200"))
# A socket's place in those counts lapses this long after its web process stops renewing it
# (every third of it): a crashed process's sockets are counted no longer than this.
SOCKET_LEASE_MS = int(os.environ.get("SOCKET_LEASE_MS", "30000"))
# Chat in the match room (server/chat): a message's length after stripping, how many a person
# may post (over all matches) in a window of seconds, and how many the state frame carries.
CHAT_MAX_CHARS = 280
CHAT_RATE_LIMIT = (5, 10.0)
CHAT_HISTORY = 50
# Clocks and presence, enforced by a loop in the web process (server/matches/watch.py).
MATCH_WATCH = True
CLOCK_FLAG_GRACE_MS = int(os.environ.get("CLOCK_FLAG_GRACE_MS", "1500"))  # 0:00 shown this long before the flag
# A seat's clock runs from its first move on; a person who has not made their first move this
# long after their turn began has the match aborted, unrated (lichess waits 15-35 s by speed:
# long enough to notice a pairing and look at the board, short enough not to strand the other).
CLOCK_FIRST_MOVE_MS = int(os.environ.get("CLOCK_FIRST_MOVE_MS", "30000"))
# Presence lives in the store beside the channel layer (server/matches/presence_store.py); the
# database hears only a seat or person coming and going.
PRESENCE_HEARTBEAT_MS = 2000  # each web process refreshes the seats and people it has sockets for
# Each match socket hears its match's version this often, from its own process (server/matches/heartbeat.py).
MATCH_HEARTBEAT = True
MATCH_HEARTBEAT_MS = int(os.environ.get("MATCH_HEARTBEAT_MS", "12000"))
PRESENCE_STALE_MS = 10000  # no heartbeat this long: the process holding the socket is gone
PRESENCE_RECONCILE_MS = 60000  # the database's online seats and people checked against the store
ABANDON_GRACE_MS = int(os.environ.get("ABANDON_GRACE_MS", "60000"))  # gone this long: the match is lost
# A person gone this long from a finished match's room calls off the rematch on offer there;
# a reload, even a slow one on a phone, is back well within it (server/matches/services/rematch.py).
REMATCH_LEFT_GRACE_MS = int(os.environ.get("REMATCH_LEFT_GRACE_MS", "10000"))
# The lobby's rules (docs/lobby.md): a match against bots whose person has had no socket (and
# which saw no move) this long is adjourned, resumable from "Your matches"; a waiting match
# whose seated people have had no socket this long is aborted ("nobody joined").
ADJOURN_AFTER_MS = int(os.environ.get("ADJOURN_AFTER_MS", "600000"))
OPEN_MATCH_EXPIRE_MS = int(os.environ.get("OPEN_MATCH_EXPIRE_MS", "600000"))

# --- Research exports ---------------------------------------------------------------
# Pseudonyms in exports are keyed by a secret of their own, never SECRET_KEY (docs/exports.md,
# "Privacy").  RESEARCH_PSEUDONYM_SECRET sets it (production refuses to start without it);
# unset, it is generated on first use into RESEARCH_PSEUDONYM_SECRET_FILE (mode 0600, ignored
# by git) and read from there after: one secret per installation, never committed.
RESEARCH_PSEUDONYM_SECRET = os.environ.get("RESEARCH_PSEUDONYM_SECRET", "")
RESEARCH_PSEUDONYM_SECRET_FILE: str | None = os.environ.get(  # None: never generated (prod.py)
    "RESEARCH_PSEUDONYM_SECRET_FILE", str(BASE_DIR / ".secrets" / "research_pseudonym_secret")
)
# --- end of research exports --------------------------------------------------------

# --- Abuse and exhaustion: client addresses, throttles, logins, tokens -----------------
# How many reverse proxies in front of the web process append to X-Forwarded-For.  0 (the
# default, no proxy): the header is anyone's to write and is ignored, the client is
# REMOTE_ADDR.  N: the client is the Nth address from the right, the one the outermost
# trusted proxy saw.  DRF's throttles and the login lockout use the same rule.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES") or os.environ.get("TRUSTED_PROXIES") or "0")
REST_FRAMEWORK["NUM_PROXIES"] = NUM_PROXIES  # the dict above
# Slow clients (server/asgi_server.py; deploy/Caddyfile bounds the same in front): a connection
# whose request headers are not all in within HTTP_HEADER_TIMEOUT_S of its opening (or of the
# first byte of its next request) is answered 408 and closed, whatever it trickles meanwhile;
# so is one whose body takes longer than HTTP_BODY_TIMEOUT_S (the site's bodies are small
# JSON); a kept-alive connection idle between requests is closed after HTTP_IDLE_TIMEOUT_S.
# Headers fit one packet: 10 s is ample for a phone on a poor link.  WebSockets are not bound
# by these once upgraded (daphne's ping timeout closes dead ones).  0 turns a bound off.
HTTP_HEADER_TIMEOUT_S = float(os.environ.get("HTTP_HEADER_TIMEOUT_S", "10"))
HTTP_BODY_TIMEOUT_S = float(os.environ.get("HTTP_BODY_TIMEOUT_S", "30"))
HTTP_IDLE_TIMEOUT_S = float(os.environ.get("HTTP_IDLE_TIMEOUT_S", "60"))
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "guest": "30/minute",  # POST /api/players/guest/, per client address
    "guest_session": "60/minute",  # a browser's first action that makes it a guest, per client address
    "hint": "20/minute",  # hints asked, per player (one search per ply at most, whatever the rate)
    "analysis": "10/hour",  # analyses started, per player (asking for an existing one is free)
    "tokens": "20/hour",  # tokens created or rotated, per player
    "bot_games": "30/minute",  # games against house bots asked by one bot account (docs/bots.md)
    "export_estimate": "60/minute",  # export size estimates (a page asks as its filters change), per player
    "tournament": "30/minute",  # tournaments created, joined or left, per player (each change is sent to every watcher)
    "signup": "20/hour",  # sign-up forms posted, per client address
    "password_reset": "10/hour",  # password-reset forms posted, per client address
    "email_change": "10/hour",  # new addresses asked for on the account page (each mails one), per client address
}
# Worker time one visitor may hold at once (server/bots/fair_share.py), as (per player, per
# client address): 429 with a Retry-After beyond.  One person watches two or three bot-vs-bot
# matches at most; an address is often a household or a school behind one NAT, hence twice
# that.  A hint is pending for well under a second, so 2 at once is any player's honest most.
# A person plays a handful of games against bots at once at most (adjourned ones count until
# finished or resigned); an address holds 20, a school class playing bots together.
# Bot-vs-bot matches are for accounts unless BOT_MATCHES_ACCOUNTS_ONLY=0.  A 0 turns that count off.
BOT_MATCHES_ACCOUNTS_ONLY = os.environ.get("BOT_MATCHES_ACCOUNTS_ONLY", "1") != "0"
FAIR_SHARE_BOT_MATCHES = tuple(int(n) for n in os.environ.get("FAIR_SHARE_BOT_MATCHES", "3,6").split(","))
FAIR_SHARE_MATCHES_VS_BOTS = tuple(int(n) for n in os.environ.get("FAIR_SHARE_MATCHES_VS_BOTS", "5,20").split(","))
FAIR_SHARE_ANALYSES = tuple(int(n) for n in os.environ.get("FAIR_SHARE_ANALYSES", "2,4").split(","))
FAIR_SHARE_HINTS = tuple(int(n) for n in os.environ.get("FAIR_SHARE_HINTS", "2,8").split(","))
# Analyses waiting or running at once, over the installation; one more is refused (503) until
# one ends.  One that has not ended after ANALYSIS_STALE_MINUTES no longer counts (its worker died).
ANALYSIS_MAX_PENDING = int(os.environ.get("ANALYSIS_MAX_PENDING", "8"))
ANALYSIS_STALE_MINUTES = int(os.environ.get("ANALYSIS_STALE_MINUTES", "60"))
# An analysis whose worker died (or whose embedded runner's process restarted) would stay
# "queued" for good: one with no step for ANALYSIS_STALL_SECONDS is queued again from where it
# stopped (steps are idempotent), at most ANALYSIS_MAX_RESTARTS times, then marked failed.
ANALYSIS_STALL_SECONDS = int(os.environ.get("ANALYSIS_STALL_SECONDS", "120"))
ANALYSIS_MAX_RESTARTS = int(os.environ.get("ANALYSIS_MAX_RESTARTS", "3"))
# A hint runs where bot moves run (the bots queue: a person is waiting for it, as for a bot's
# move), once per ply; a second ask within HINT_PENDING_S waits for that one, and a hint task
# not started by then is dropped (the player has moved on or will ask again).
HINT_PENDING_S = int(os.environ.get("HINT_PENDING_S", "30"))
# Bearer tokens expire this many days after they are issued; each player holds at most so many.
API_TOKEN_DAYS = int(os.environ.get("API_TOKEN_DAYS", "90"))
API_TOKENS_PER_PLAYER = int(os.environ.get("API_TOKENS_PER_PLAYER", "10"))

# Logins (the site's and the admin's; server/players/lockout.py): Django's password validators
# and zxcvbn's estimate, and django-axes counting failed logins per account (every spelling of
# it is one) and per client address over the last AXES_COOLOFF_HOURS, in the database.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # zxcvbn's estimate, score 0-4: 3 is its authors' "safely unguessable" (server/players/passwords.py).
    {"NAME": "server.players.passwords.StrengthValidator", "OPTIONS": {"min_score": 3}},
]
INSTALLED_APPS += ["axes", "django_otp", "django_otp.plugins.otp_totp"]
# The admin asks staff for a TOTP code too (server/players/staff.py).
INSTALLED_APPS[INSTALLED_APPS.index("django.contrib.admin")] = "server.players.apps.StaffAdminConfig"
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
    "django_otp.middleware.OTPMiddleware",
)
MIDDLEWARE += [
    "server.players.lockout.KnownDeviceMiddleware",  # the cookie of browsers that logged in to an account
    "axes.middleware.AxesMiddleware",  # last, as axes asks
]
AUTHENTICATION_BACKENDS = [
    "server.players.lockout.LoginLockoutBackend",  # refuses a locked-out login before any password check
    "server.players.backends.NameOrEmailBackend",  # a display name or a confirmed e-mail address, then the password
]
AXES_HANDLER = "server.players.lockout.LoginLockoutHandler"
AXES_USERNAME_CALLABLE = "server.players.lockout.login_key"  # the account the spelling resolves to
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # axes' own count: one account from one address
AXES_FAILURE_LIMIT = "server.players.lockout.failure_limit"  # LOGIN_ or STAFF_LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "1"))  # hours: the window of every limit below
# One account from one address: a few typos never reach it.
LOGIN_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
# One account from every address but the browsers that logged in to it before: at most this many
# guesses an hour whatever the number of addresses (a botnet's), while the owner's own browser
# still gets in.  Costs someone on a new device, while the account is under attack, the wait
# or a password reset.
LOGIN_ACCOUNT_FAILURE_LIMIT = int(os.environ.get("LOGIN_ACCOUNT_FAILURE_LIMIT", "20"))
# One address over every account (one password tried on many): a school or office behind one
# NAT shares it, so it is generous; known browsers are not held by it.
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "50"))
# Staff accounts and anyone at the admin's login: the strictest limits, and a second factor.
STAFF_LOGIN_FAILURE_LIMIT = 3
STAFF_ACCOUNT_FAILURE_LIMIT = 10
KNOWN_DEVICE_COOKIE = "plyground_device"  # signed: which accounts this browser logged in to
KNOWN_DEVICE_DAYS = 365
AXES_RESET_ON_SUCCESS = True  # the account's failures from that address, not the others'
AXES_CLIENT_IP_CALLABLE = "server.players.throttles.client_ip"  # NUM_PROXIES' rule, not X-Forwarded-For
AXES_LOCKOUT_TEMPLATE = "frontend/account/locked_out.html"  # the site's page, status 429
AXES_LOCKOUT_CALLABLE = "server.players.lockout.lockout_response"  # ...saying which limit and what still works
AXES_HTTP_RESPONSE_CODE = 429
# The admin: at ADMIN_PATH (an address guessers do not find in every scanner's list), for
# staff with a verified TOTP device (django-otp; `manage.py enrol_totp <user>`).
ADMIN_PATH = os.environ.get("ADMIN_PATH", "admin/").strip("/") + "/"
OTP_TOTP_ISSUER = "Plyground"  # the name authenticator apps show
# --- end of abuse and exhaustion ------------------------------------------------------

# --- Accounts (server/players/accounts.py): the site's own pages; mail printed in development ---
LOGIN_URL = "frontend:login"
LOGIN_REDIRECT_URL = "frontend:lobby"
LOGOUT_REDIRECT_URL = "frontend:lobby"
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600  # a reset link works for three days
# A link that attaches an e-mail address to an account (server/players/emails.py) works as long.
EMAIL_CONFIRM_TIMEOUT = PASSWORD_RESET_TIMEOUT
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # production: SMTP (prod.py)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Plyground <noreply@localhost>")
# --- end of accounts ---

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        # Not propagated: daphne and Celery give the root logger a handler of their own, and
        # each error was printed twice (its traceback too).
        "plyground": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO"), "propagate": False},
    },
}
