"""Which Celery queue a bot turn goes to: people's matches first, generated games last.

The queues and their order are in settings (``CELERY_TASK_QUEUES``): bot moves of
matches people play, analysis steps, calibration games, self-play games.  A worker
takes from the first non-empty one, so a person never waits behind generated games.
"""

from __future__ import annotations

from django.conf import settings

PLAY = "play"
CALIBRATION = "calibration"


def queue_name(kind: str) -> str:
    """The installation's queue for `kind` ("bots", "analysis", "calibration", "selfplay")."""
    if kind not in settings.BOT_QUEUE_KINDS:
        raise ValueError(f"no queue for {kind!r}: one of {', '.join(settings.BOT_QUEUE_KINDS)}")
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}.{kind}"


def bot_queue_for(source: str) -> str:
    """The queue of a bot turn in a match from `source` ("play", "calibration", "selfplay" or a dataset)."""
    if source == PLAY:
        return queue_name("bots")
    if source == CALIBRATION:
        return queue_name("calibration")
    return queue_name("selfplay")
