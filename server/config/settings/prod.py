import os

from django.core.exceptions import ImproperlyConfigured

from server.config.settings.base import *  # noqa: F403

DEBUG = False

# --- Deployment: the signing key, HTTPS (docs/security.md) ---------------------------
# SECRET_KEY signs sessions and CSRF tokens.  A key anyone can read (the development default
# committed in base.py, a placeholder, a short word) lets them forge a session: refused.
KNOWN_SECRET_KEYS = frozenset({"plyground-development-key-change-me-in-production", "change-me", "changeme"})
SECRET_KEY_MIN_LENGTH = 50  # Django's own deployment check asks for as much


def secret_key_problem(key: str) -> str | None:
    """Why `key` must not sign a production site, or None when it may."""
    if not key:
        return "SECRET_KEY is not set"
    if key in KNOWN_SECRET_KEYS or "change-me" in key.lower() or key.startswith("django-insecure-"):
        return "SECRET_KEY is a known default, published with the code"
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < 5:
        return f"SECRET_KEY is too short or too plain: at least {SECRET_KEY_MIN_LENGTH} random characters"
    return None


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if problem := secret_key_problem(SECRET_KEY):
    raise ImproperlyConfigured(
        f'{problem}. Make one with: python -c "import secrets; print(secrets.token_urlsafe(50))"'
    )


def env_flag(name: str, default: bool) -> bool:
    """A yes/no setting from the environment: 1/0, true/false, yes/no, on/off; unset or empty: `default`."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: say 1 or 0")


# HTTPS_ONLY (default on) says the site is reached over HTTPS only, directly or through a proxy
# that terminates TLS: plain HTTP is redirected, browsers are told to use HTTPS for a year (HSTS),
# cookies go over HTTPS only.  0 serves plain HTTP (localhost; `check --deploy` then warns).
# SECURE_COOKIES=0, the older switch for the cookies alone, also turns it off when it is unset.
# Each part can be set on its own.
HTTPS_ONLY = env_flag("HTTPS_ONLY", env_flag("SECURE_COOKIES", True))
SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", HTTPS_ONLY)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", HTTPS_ONLY)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or (365 * 24 * 3600 if HTTPS_ONLY else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading asks browsers to ship the domain in their HTTPS-only list, which is slow to undo:
# the operator's decision for a whole domain, so off unless asked (and Django's reminder muted).
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", False)
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
# Behind a proxy that terminates TLS, the web process sees plain HTTP; it must learn the scheme
# from the proxy, or every request is redirected again.  `server.asgi_server --proxy-headers`
# (as docker-compose.yml runs it) already takes X-Forwarded-Proto; otherwise name the header
# the proxy sets, e.g. SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto.  Only behind a proxy that
# always sets it: a client could send it itself.
if proxy_header := os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip():
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + proxy_header.upper().replace("-", "_"), "https")
# --- end of deployment ---

# --- Research exports: pseudonyms keyed by a secret of the operator's own (docs/exports.md) ---
# Never generated here (every process and host must share it) and never SECRET_KEY.
if not RESEARCH_PSEUDONYM_SECRET:  # noqa: F405
    raise ImproperlyConfigured(
        "RESEARCH_PSEUDONYM_SECRET is not set: production needs a secret of its own for the pseudonyms "
        "of research exports (docs/exports.md, 'Privacy'); make one with: "
        'python -c "import secrets; print(secrets.token_hex(32))"'
    )
from server.research.secret import check_secret  # noqa: E402 - settings are complete enough to check it

check_secret(RESEARCH_PSEUDONYM_SECRET, SECRET_KEY)  # noqa: F405
RESEARCH_PSEUDONYM_SECRET_FILE = None  # nothing generated in production
# --- end of research exports ---

# --- Accounts: password-reset mail over SMTP (.env.example) ---
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or "587")
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = 10  # seconds: a slow mail server must not hold a web worker
SERVER_EMAIL = DEFAULT_FROM_EMAIL  # noqa: F405
# --- end of accounts ---
