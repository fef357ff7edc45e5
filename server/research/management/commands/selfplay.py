"""``manage.py selfplay``: bot-vs-bot matches for a dataset, played by the bot runner, tagged by source.

    python manage.py selfplay --game connect4 --profiles connect4-shallow,connect4-deep --games 100

Matches are made through the normal path, so the bots play them where bots always
play: Celery workers when ``REDIS_URL`` is set (as many at once as ``--parallel``; the
workers' concurrency decides how many really think at the same time), a local process
pool otherwise.  The profiles take turns at moving first.  The matches carry
``source=selfplay`` (or ``--source``): exports take them in with ``source=selfplay``
and leave them out with ``source=play``.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import registry
from server.matches.errors import MatchError
from server.matches.models import Match
from server.matches.services import match_abort
from server.research.services import SELFPLAY_SOURCE, selfplay_match_create, selfplay_profiles, selfplay_seating

POLL_S = 0.2
OVER = (Match.Status.FINISHED, Match.Status.ABORTED)


class Command(BaseCommand):
    help = "Play bot-vs-bot matches through the bot runner (Celery workers when Redis is set), tagged for exports."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help="game id, e.g. connect4")
        parser.add_argument("--profiles", required=True, help="bot profile slugs, comma-separated (one a seat)")
        parser.add_argument("--games", type=int, default=10, help="how many matches to play")
        parser.add_argument("--parallel", type=int, default=8, help="matches in play at once")
        parser.add_argument("--source", default=SELFPLAY_SOURCE, help="the tag exports filter on (a slug)")
        parser.add_argument("--timeout", type=float, default=3600.0, help="seconds before unfinished ones are aborted")

    def handle(self, *args: Any, **options: Any) -> None:
        game_id, count, parallel = options["game"], options["games"], max(1, options["parallel"])
        slugs = [s.strip() for s in options["profiles"].split(",") if s.strip()]
        if count < 1:
            raise CommandError("--games must be at least 1")
        try:
            profiles = selfplay_profiles(game_id, slugs)
        except (KeyError, ValueError) as exc:
            raise CommandError(str(exc.args[0])) from None
        num_players = registry.get(game_id).num_players
        self.stderr.write(
            f"selfplay: {count} {game_id} matches of {' vs '.join(slugs)} through the {settings.BOT_RUNNER} "
            f"runner, {parallel} at a time, source={options['source']}",
            style_func=str,
        )
        started, deadline = time.monotonic(), time.monotonic() + options["timeout"]
        made: list[int] = []
        playing: set[int] = set()
        while len(made) < count or playing:
            while len(made) < count and len(playing) < parallel:
                seated = selfplay_seating(profiles, num_players, len(made))
                match = selfplay_match_create(game_id, seated, options["source"])
                made.append(match.pk)
                playing.add(match.pk)
            over = set(Match.objects.filter(pk__in=playing, status__in=OVER).values_list("pk", flat=True))
            playing -= over
            self._progress(len(made) - len(playing), count, len(playing), started)
            if playing and time.monotonic() > deadline:
                for match_id in playing:
                    with contextlib.suppress(MatchError):  # it may have ended meanwhile
                        match_abort(match_id, "selfplay timed out")
                self.stderr.write("", style_func=str)
                raise CommandError(
                    f"{len(playing)} matches unfinished after {options['timeout']:.0f} s, aborted; "
                    "are bot workers running (celery -A server.config worker)?"
                )
            if playing:
                time.sleep(POLL_S)
        self.stderr.write("", style_func=str)
        self._summary(made, slugs)

    def _progress(self, done: int, count: int, playing: int, started: float) -> None:
        elapsed = time.monotonic() - started
        self.stderr.write(
            f"\rselfplay: {done}/{count} finished, {playing} in play, {elapsed:,.0f} s", style_func=str, ending=""
        )
        self.stderr.flush()

    def _summary(self, made: list[int], slugs: list[str]) -> None:
        wins: Counter[str] = Counter()
        plies = 0
        for match in Match.objects.filter(pk__in=made).prefetch_related("seats"):
            plies += match.ply
            winner = (match.result or {}).get("winner")
            if match.status == Match.Status.ABORTED:
                wins["aborted"] += 1
            elif winner is None:
                wins["draw"] += 1
            else:
                seat = next(s for s in match.seats.all() if s.index == winner)
                wins[(seat.bot_snapshot or {}).get("slug", "?")] += 1
        tally = ", ".join(f"{name} {wins[name]}" for name in [*dict.fromkeys(slugs), "draw", "aborted"] if wins[name])
        self.stdout.write(f"{len(made)} matches, {plies} plies: {tally}")
