"""``manage.py create_tournament``: a tournament of the site's, with house bots, from the shell.

What an admin does in the Django admin, for scripts and benchmarks::

    manage.py create_tournament --kind swiss --game tictactoe --rounds 3 --entry bots \\
        --house-bots tictactoe-random,tictactoe-beginner --starts-in 0

Prints the new tournament's id.  The tick starts it at its time and runs it to its end.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from server.bots.models import BotProfile
from server.matches.errors import MatchError
from server.tournaments import services


class Command(BaseCommand):
    help = "Create a tournament of the site's (no creator) and enter house bots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", default="")
        parser.add_argument("--kind", required=True, choices=["round_robin", "swiss", "arena"])
        parser.add_argument("--game", required=True)
        parser.add_argument("--clock", default="1+0")
        parser.add_argument("--entry", default="bots", choices=["people", "bots", "open"])
        parser.add_argument("--rounds", type=int, default=None, help="Swiss only")
        parser.add_argument("--minutes", type=int, default=None, help="arena only")
        parser.add_argument("--max-entrants", type=int, default=16)
        parser.add_argument("--casual", action="store_true", help="unrated")
        parser.add_argument("--starts-in", type=float, default=60.0, help="seconds from now")
        parser.add_argument("--house-bots", default="", help="bot profile slugs, comma-separated")

    def handle(self, *args: Any, **options: Any) -> None:
        slugs = [s for s in options["house_bots"].split(",") if s]
        profiles = {p.slug: p for p in BotProfile.objects.filter(slug__in=slugs)}
        if missing := [s for s in slugs if s not in profiles]:
            raise CommandError(f"no bot profile {', '.join(missing)}")
        request = services.TournamentRequest(
            name=options["name"] or f"{options['game']} {options['kind'].replace('_', ' ')}",
            kind=options["kind"],
            game=options["game"],
            clock=options["clock"],
            starts_at=timezone.now() + timedelta(seconds=options["starts_in"]),
            entry=options["entry"],
            rated=not options["casual"],
            rounds=options["rounds"],
            minutes=options["minutes"],
            max_entrants=options["max_entrants"],
        )
        try:
            with transaction.atomic():
                tournament = services.tournament_create(None, request)
                for slug in slugs:
                    services.house_bot_add(tournament.pk, profiles[slug])
        except MatchError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(str(tournament.pk))
