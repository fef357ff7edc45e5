"""The production settings: `check --deploy` is clean, HTTPS is enforced, a published key is refused.

Each case runs `manage.py` in a subprocess with `server.config.settings.prod` and a fresh
environment (a random key, a temporary SQLite file), as an operator would start it.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from tests.support import REDIS_TEST_URL, ROOT

# Variables of the parent's environment that would change what production settings do.
DEPLOY_VARIABLES = (
    "SECRET_KEY",
    "REDIS_URL",
    "DATABASE_URL",
    "ALLOWED_HOSTS",
    "HTTPS_ONLY",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "RESEARCH_PSEUDONYM_SECRET",
)


def prod_env(tmp_path, **overrides: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DEPLOY_VARIABLES}
    env.update(
        DJANGO_SETTINGS_MODULE="server.config.settings.prod",
        SECRET_KEY=secrets.token_urlsafe(50),
        RESEARCH_PSEUDONYM_SECRET=secrets.token_hex(32),
        ALLOWED_HOSTS="play.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        PYTHONUNBUFFERED="1",
    )
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("redis_url", [None, REDIS_TEST_URL], ids=["embedded", "redis"])
def test_check_deploy_is_clean_with_a_random_key(tmp_path, redis_url):
    done = run(prod_env(tmp_path, REDIS_URL=redis_url), "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
    assert "Warning" not in done.stderr and "W0" not in done.stdout + done.stderr


def test_without_https_check_deploy_says_what_is_missing(tmp_path):
    done = run(prod_env(tmp_path, HTTPS_ONLY="0"), "manage.py", "check", "--deploy")
    report = done.stdout + done.stderr
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in report  # HSTS, SSL redirect, session and CSRF cookies over HTTPS


HTTPS_PROBE = """
from django.test import Client
client = Client(HTTP_HOST="play.example.org")
plain = client.get("/api/games/")
print("plain", plain.status_code, plain.headers.get("Location"))
tls = client.get("/api/games/", secure=True)
print("tls", tls.status_code, tls.headers.get("Strict-Transport-Security"))
from django.conf import settings
print("cookies", settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)
"""


def probe(env: dict[str, str]) -> dict[str, list[str]]:
    script = f"import django; django.setup()\n{HTTPS_PROBE}"
    done = run(env, "-c", script)
    assert done.returncode == 0, done.stderr
    return {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines() if line.strip()}


def test_production_redirects_plain_http_and_sends_hsts(tmp_path):
    seen = probe(prod_env(tmp_path))
    assert seen["plain"] == ["301", "https://play.example.org/api/games/"]
    assert seen["tls"][0] == "200" and " ".join(seen["tls"][1:]) == "max-age=31536000; includeSubDomains"
    assert seen["cookies"] == ["True", "True"]


def test_https_settings_come_from_the_environment(tmp_path):
    seen = probe(prod_env(tmp_path, SECURE_HSTS_SECONDS="600", SECURE_HSTS_PRELOAD="1"))
    assert " ".join(seen["tls"][1:]) == "max-age=600; includeSubDomains; preload"
    plain = probe(prod_env(tmp_path, SECURE_COOKIES="0"))  # the older switch: plain HTTP on localhost
    assert plain["plain"][0] == "200" and plain["tls"][1:] == ["None"] and plain["cookies"] == ["False", "False"]
    behind_proxy = run(
        prod_env(tmp_path, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto"),
        "-c",
        "import django; django.setup()\nfrom django.test import Client\n"
        "r = Client(HTTP_HOST='play.example.org').get('/api/games/', HTTP_X_FORWARDED_PROTO='https')\n"
        "print(r.status_code)",
    )
    assert behind_proxy.stdout.strip() == "200", behind_proxy.stderr


def development_default_key(tmp_path) -> str:
    """The key base.py falls back to, as committed (read, not copied, so a new default is covered too)."""
    env = prod_env(tmp_path, SECRET_KEY=None)
    done = run(env, "-c", "from server.config.settings import base; print(base.SECRET_KEY)")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    "key",
    ["development default", "change-me", "", "short-but-random-" + "x7Qp" * 6, "a" * 60, "django-insecure-" + "k" * 50],
)
def test_production_refuses_a_known_or_weak_secret_key(tmp_path, key):
    if key == "development default":
        key = development_default_key(tmp_path)
        assert "change-me" in key  # the committed default: what this case is about
    done = run(prod_env(tmp_path, SECRET_KEY=key), "manage.py", "check")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "SECRET_KEY" in done.stderr


def test_production_refuses_a_missing_secret_key(tmp_path):
    done = run(prod_env(tmp_path, SECRET_KEY=None), "manage.py", "check")
    assert done.returncode != 0 and "SECRET_KEY is not set" in done.stderr
