"""The Celery app: bot searches run in its workers, with Redis as the broker."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")

app = Celery("plyground")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["server.bots", "server.analysis", "server.tournaments"])
