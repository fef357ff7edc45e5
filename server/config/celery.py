"""The Celery app: bot searches run in its workers, with Redis as the broker."""

import os

from celery import Celery
from celery.signals import task_postrun

from ai.budget import collect_garbage_if_due

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.config.settings.dev")

app = Celery("plyground")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["server.bots", "server.analysis"])


@task_postrun.connect
def collect_after_task(**kwargs) -> None:
    """Searches freeze what they leave; once a task's move or analysis step is stored, the cycles
    among it (Django's and the channel layer's per-call event loops) are collected, now and then."""
    collect_garbage_if_due()
