"""docker-compose.yml stays runnable: the services exist and each command exists in the image."""

from __future__ import annotations

import shutil

import yaml

from tests.support import ROOT


def test_compose_has_the_production_services():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert set(compose["services"]) == {"postgres", "redis", "web", "worker"}
    for name in ("web", "worker"):
        env = compose["services"][name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and env["REDIS_URL"].startswith("redis://redis:")


def test_each_command_exists():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    web = " ".join(compose["services"]["web"]["command"])
    assert "manage.py migrate" in web and "server.config.asgi:application" in web
    assert "python -m server.asgi_server" in web  # daphne with back-pressure
    assert (ROOT / "server/config/asgi.py").exists() and (ROOT / "manage.py").exists()
    worker = compose["services"]["worker"]["command"]
    assert worker[:3] == ["celery", "-A", "server.config"]
    import server.config

    assert server.config.celery_app.main == "plyground"
    for tool in ("daphne", "celery"):
        assert (ROOT / ".venv/bin" / tool).exists() or shutil.which(tool), f"{tool} is installed with the project"
    from django.core.management import get_commands

    assert "seed_bots" in get_commands()


def test_every_service_is_restarted_and_checked():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name, service in compose["services"].items():
        assert service.get("restart") in ("unless-stopped", "always"), f"{name} is not restarted when it dies"
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    worker = compose["services"]["worker"]["command"]
    assert worker[worker.index("--max-memory-per-child") + 1].isdigit(), "pool processes are replaced when they grow"
    web, worker_env = compose["services"]["web"]["environment"], compose["services"]["worker"]["environment"]
    assert web["DATABASE_URL"] == worker_env["DATABASE_URL"], "one installation: one channel prefix and queue"
