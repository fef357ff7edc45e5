"""``python manage.py calibrate --game connect4 [--games N] [--profiles a,b] [--budget-cap-ms MS] [--write-ratings]``"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import registry
from server.bots import calibration, measured
from server.bots.models import BotProfile

LADDER_MIN_SCORE = 0.65


class Command(BaseCommand):
    help = (
        "Play a round-robin of bot-vs-bot matches through the normal match path (alternating seats), "
        "fit Elo ratings by maximum likelihood anchored at the random mover (0), and store them placed on "
        "the players' Glicko-2 scale (server/bots/placement.py). "
        "Resumable: games already played count."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True)
        parser.add_argument("--games", type=int, default=20, help="games per pairing and seat order")
        parser.add_argument("--profiles", default="", help="comma-separated slugs (default: the listed ladder)")
        parser.add_argument("--concurrency", type=int, default=settings.BOT_POOL_SIZE)
        parser.add_argument("--fit-only", action="store_true", help="rate the games already played")
        parser.add_argument(
            "--budget-cap-ms",
            type=int,
            default=None,
            help="play every bot with at most this budget a move (recorded with the ratings: not its real strength)",
        )
        parser.add_argument(
            "--write-ratings",
            action="store_true",
            help=f"also write the ratings into the game's {measured.DATA_FILE}, which a fresh install is seeded with",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            registry.get(options["game"])
            slugs = [s for s in options["profiles"].split(",") if s]
            profiles = calibration.profiles_for(options["game"], slugs)
        except (KeyError, ValueError) as exc:
            raise CommandError(str(exc.args[0])) from None
        anchors = [p for p in profiles if p.algorithm == "random"]
        if not anchors:
            raise CommandError("the round-robin needs a random mover: it is the rating anchor (Elo 0)")
        if len(profiles) < 2:
            raise CommandError("a round-robin needs two profiles or more")
        cap = options["budget_cap_ms"]
        if cap is not None and cap < 10:
            raise CommandError("--budget-cap-ms is at least 10")
        if not options["fit_only"]:
            self.play(profiles, options["games"], options["concurrency"], cap)
        self.report(profiles, anchors[0].slug, method(options), cap)
        if options["write_ratings"]:
            entries = calibration.data_entries(profiles)
            written = measured.write(entries)
            self.stdout.write(f"\n{len(entries)} ratings written to {', '.join(map(str, written))}")

    def play(self, profiles: Sequence[BotProfile], games: int, concurrency: int, cap: int | None) -> None:
        names = ", ".join(p.slug for p in profiles)
        capped = f", budgets capped at {cap} ms" if cap is not None else ""
        self.stderr.write(f"round-robin of {names}: {games} games per seating ({settings.BOT_RUNNER}{capped})")
        started, last = time.monotonic(), [0.0]

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= 2 or done == total:
                last[0] = now
                rate = done / max(now - started, 1e-9)
                self.stderr.write(f"\r  {done}/{total} games  ({rate:.2f}/s)", ending="")
                sys.stderr.flush()

        calibration.run_round_robin(profiles, games, concurrency, progress, budget_cap_ms=cap)
        self.stderr.write("")

    def report(self, profiles: Sequence[BotProfile], anchor: str, how: str, cap: int | None) -> None:
        try:
            ratings = calibration.fit_and_store(profiles, anchor, how, cap)
        except ValueError as exc:
            raise CommandError(f"cannot rate yet: {exc}") from None
        # The bots' own scale here (random mover 0); the profiles hold it placed on the players' scale.
        self.stdout.write(f"{'profile':28} {'level':>5} {'Elo':>7} {'95% interval':>17} {'games':>6}")
        level = {p.slug: p.level for p in profiles}
        for r in ratings:
            self.stdout.write(
                f"{r.player:28} {level[r.player]:>5} {r.elo:7.0f} {r.low:8.0f} to {r.high:5.0f} {r.games:6}"
            )
        table = calibration.head_to_head(profiles)
        ladder = sorted((p for p in profiles if not p.adaptive), key=lambda p: p.level)
        self.stdout.write("\nladder (each level against the one below, seats combined):")
        for lower, upper in zip(ladder, ladder[1:], strict=False):
            games, score = table.get((upper.slug, lower.slug), (0, 0.0))
            verdict = "ok" if score >= LADDER_MIN_SCORE else "below 65%"
            self.stdout.write(f"  {upper.slug:28} vs {lower.slug:28} {score:6.1%} over {games:4} games  {verdict}")


def method(options: dict[str, Any]) -> str:
    """The command that measured a rating, as kept with it (the runner says how the matches were played)."""
    parts = ["manage.py calibrate", f"--game {options['game']}", f"--games {options['games']}"]
    if options["budget_cap_ms"] is not None:
        parts.append(f"--budget-cap-ms {options['budget_cap_ms']}")
    return f"{' '.join(parts)} ({settings.BOT_RUNNER} runner)"
