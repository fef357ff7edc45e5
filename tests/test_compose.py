"""docker-compose.yml stays runnable and scalable: the services, their commands, the proxy, the secrets.

No Docker engine runs here: the file is parsed and checked against what the image contains.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.support import ROOT

LONG_RUNNING = {"postgres", "redis", "web", "proxy", "worker", "worker-reserved", "beat"}
ONE_SHOT = {"migrate"}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def env_of(compose: dict, name: str) -> dict:
    return compose["services"][name]["environment"]


def test_compose_has_the_production_services(compose):
    assert set(compose["services"]) == LONG_RUNNING | ONE_SHOT
    for name in ("web", "worker", "migrate"):
        env = env_of(compose, name)
        assert env["DATABASE_URL"].startswith("postgres://") and env["REDIS_URL"].startswith("redis://redis:")
        assert env["DJANGO_SETTINGS_MODULE"] == "server.config.settings.prod"


def test_each_command_exists(compose):
    migrate = " ".join(compose["services"]["migrate"]["command"])
    assert "manage.py migrate" in migrate and "manage.py seed_bots" in migrate
    web = compose["services"]["web"]["command"]
    assert web[:3] == ["python", "-m", "server.asgi_server"], "daphne with back-pressure"
    assert web[-1] == "server.config.asgi:application" and "--proxy-headers" in web
    assert (ROOT / "server/config/asgi.py").exists() and (ROOT / "manage.py").exists()
    worker = compose["services"]["worker"]["command"]
    assert worker[:3] == ["celery", "-A", "server.config"]
    reserved = compose["services"]["worker-reserved"]["command"]
    assert reserved[:4] == ["python", "-m", "server.worker", "--reserved"], "people's turns and hints only"
    beat = compose["services"]["beat"]["command"]
    assert beat[:4] == ["celery", "-A", "server.config", "beat"], "the tournament tick's sender"
    from django.conf import settings

    assert "tournaments.tick" in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    import server.config

    assert server.config.celery_app.main == "plyground"
    for tool in ("daphne", "celery"):
        assert (ROOT / ".venv/bin" / tool).exists() or shutil.which(tool), f"{tool} is installed with the project"
    from django.core.management import get_commands

    assert "seed_bots" in get_commands()


def test_every_service_is_restarted_and_checked(compose):
    for name in LONG_RUNNING:
        service = compose["services"][name]
        assert service.get("restart") in ("unless-stopped", "always"), f"{name} is not restarted when it dies"
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    assert compose["services"]["migrate"]["restart"] == "no", "migrations run once, before the web replicas"
    worker = compose["services"]["worker"]["command"]
    assert worker[worker.index("--max-memory-per-child") + 1].isdigit(), "pool processes are replaced when they grow"
    assert env_of(compose, "web")["DATABASE_URL"] == env_of(compose, "worker")["DATABASE_URL"], (
        "one installation: one channel prefix and queue"
    )


def test_web_and_workers_scale_behind_the_proxy(compose):
    web, worker, proxy = (compose["services"][n] for n in ("web", "worker", "proxy"))
    # A fixed host port or container name would stop `--scale` at one.
    for name, service in compose["services"].items():
        assert "container_name" not in service, name
        if name != "proxy":
            assert "ports" not in service, f"{name} publishes a host port: only the proxy does"
    assert str(web["deploy"]["replicas"]).startswith("${WEB_REPLICAS"), "web replicas are set, not fixed at one"
    assert web["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert worker["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert proxy["image"].split(":")[0] in ("caddy", "nginx"), "an official proxy image"
    assert any(p.endswith(":80") for p in proxy["ports"])
    mounted = [v.split(":")[0] for v in proxy["volumes"]]
    assert "./deploy/Caddyfile" in mounted


def test_the_proxy_passes_websockets_to_every_replica():
    caddyfile = (ROOT / "deploy/Caddyfile").read_text()
    body = "\n".join(line.split("#")[0] for line in caddyfile.splitlines())  # no comments
    assert "reverse_proxy" in body
    # Replicas are found by the service's DNS name as they come and go, on the web port.
    assert re.search(r"dynamic a \{[^}]*name web[^}]*port 8000", body, re.S), "upstreams follow --scale web=N"
    assert "lb_policy least_conn" in body, "long-lived sockets balanced by count"
    # Caddy proxies WebSocket upgrades by itself; a header rule that drops them would break sockets.
    assert "header_up -Upgrade" not in body and "header_up -Connection" not in body
    assert "flush_interval -1" in body, "streamed exports are not buffered"


def test_secrets_come_from_an_env_file_that_is_never_committed(compose):
    text = (ROOT / "docker-compose.yml").read_text()
    for name in ("web", "worker", "migrate"):
        assert compose["services"][name]["env_file"] == [".env"]
        assert "SECRET_KEY" not in env_of(compose, name), "the key comes from .env, never from the compose file"
    assert "change-me" not in text and "POSTGRES_PASSWORD: plyground" not in text
    assert compose["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert ":${POSTGRES_PASSWORD:?" in env_of(compose, "web")["DATABASE_URL"]
    lines = (ROOT / ".env.example").read_text().splitlines()
    example = dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    assert example["SECRET_KEY"] == "" and example["POSTGRES_PASSWORD"] == "", "the example carries no secret"
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT)
    assert ignored.returncode == 0, ".env is ignored by git"
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", ".env"], cwd=ROOT, capture_output=True)
    assert tracked.returncode != 0, ".env is not committed"


def test_the_example_env_filled_in_starts_the_production_settings(compose, tmp_path):
    """Every secret the production settings demand is in .env.example (empty), and filled in they start."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    example = dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    assert example["RESEARCH_PSEUDONYM_SECRET"] == "", "the example carries no secret"
    assert example["NUM_PROXIES"] == "1", "behind the compose file's proxy, one proxy appends X-Forwarded-For"
    filled = {k: v or secrets.token_urlsafe(48) for k, v in example.items()}
    env = {
        **{k: v for k, v in os.environ.items() if k not in example},
        **filled,
        **env_of(compose, "web"),
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
    }
    env.pop("REDIS_URL")
    code = "import django\ndjango.setup()\nfrom django.conf import settings\nprint(settings.REST_FRAMEWORK)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "'NUM_PROXIES': 1" in out.stdout
