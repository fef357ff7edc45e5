"""Which Celery queue a search goes to: a person waiting first, generated games last.

The queues and their order are in settings (``CELERY_TASK_QUEUES``): bot turns of matches
a person plays, hints, bot turns of bot-vs-bot matches, analysis steps, calibration games,
self-play games.  A worker takes from the first non-empty queue it consumes, so a person's
bot turn never waits behind queued work of another kind; and the reserved worker
(``server.run``, `RESERVED_KINDS`) consumes only the first two, so one always comes free
for a person within a hint's budget, however many long bot-vs-bot searches run elsewhere.
"""

from __future__ import annotations

from django.conf import settings

PLAY = "play"
CALIBRATION = "calibration"
# What the reserved worker takes: a person is waiting for each of these, and each is short
# next to a strong bot's search of a bot-vs-bot match.
RESERVED_KINDS = ("bots", "hints")


def queue_name(kind: str) -> str:
    """The installation's queue for `kind` (one of ``settings.BOT_QUEUE_KINDS``)."""
    if kind not in settings.BOT_QUEUE_KINDS:
        raise ValueError(f"no queue for {kind!r}: one of {', '.join(settings.BOT_QUEUE_KINDS)}")
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}.{kind}"


def bot_queue_for(source: str, person_seated: bool = True) -> str:
    """The queue of a bot turn in a match from `source` ("play", "calibration", "selfplay" or a dataset).

    A match on the site with no person seated (bot against bot) waits below people's
    matches and hints; with ``BOT_FAIR_SHARE`` off it shares their queue, as it once did.
    """
    if source == PLAY:
        return queue_name("bots" if person_seated or not settings.BOT_FAIR_SHARE else "botmatches")
    if source == CALIBRATION:
        return queue_name("calibration")
    return queue_name("selfplay")


def bot_queue_of(match_id: int, source: str) -> str:
    """`bot_queue_for` a match, looking up whether a person is seated in it (a bot account is none)."""
    from server.matches.models import Seat

    # A bot account holds a person's kind of seat, but no person waits on its game (server/agents).
    people = Seat.objects.filter(match_id=match_id, kind=Seat.Kind.HUMAN).exclude(player__bot_owner__isnull=False)
    seated = source == PLAY and people.exists()
    return bot_queue_for(source, seated)


def hint_queue() -> str:
    """The queue of a hint's search: below people's bot turns (``bots`` with ``BOT_FAIR_SHARE`` off)."""
    return queue_name("hints" if settings.BOT_FAIR_SHARE else "bots")
