"""``manage.py export_games``: the research export to a file or stdout, with a progress bar on stderr.

    python manage.py export_games --game connect4 --pairing human-vs-bot -o games.jsonl
    python manage.py export_games --format csv --source selfplay --since 2026-01-01 > moves.csv

The filters are those of ``GET /api/exports/...`` (docs/exports.md), as options.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from rest_framework.exceptions import ValidationError

from server.research.filters import parse_filters
from server.research.formats import FORMATS
from server.research.pseudonyms import Pseudonyms
from server.research.selectors import MatchRows, export_count, match_rows

FILTER_OPTIONS = (
    "game",
    "since",
    "until",
    "bot",
    "pairing",
    "result",
    "status",
    "source",
    "min_plies",
    "max",
    "purpose",
)


class Progress:
    """``[#####.....] 1,234/5,000 matches  2,345/s`` on stderr, redrawn at most 5 times a second."""

    WIDTH = 30

    def __init__(self, out: OutputWrapper, total: int, enabled: bool) -> None:
        self.out, self.total, self.enabled = out, total, enabled
        self.done, self.started, self.drawn = 0, time.monotonic(), 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and now - self.drawn >= 0.2:
            self.drawn = now
            self.draw(now)

    def draw(self, now: float, end: str = "") -> None:
        part = self.done / self.total if self.total else 1.0
        bar = "#" * int(part * self.WIDTH)
        rate = self.done / max(now - self.started, 1e-9)
        self.out.write(
            f"\r[{bar:.<{self.WIDTH}}] {self.done:,}/{self.total:,} matches  {rate:,.0f}/s{end}",
            style_func=str,
            ending="",
        )
        self.out.flush()

    def close(self) -> None:
        if self.enabled:
            self.draw(time.monotonic(), end="\n")


class Command(BaseCommand):
    help = "Export matches for research (JSON Lines or CSV), with the filters of the export API."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=sorted(FORMATS), default="jsonl", help="jsonl (a match a line) or csv")
        parser.add_argument("-o", "--output", default="-", help="file to write; - (the default) is stdout")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
        parser.add_argument("--game", help="game ids, comma-separated")
        parser.add_argument("--since", help="created at or after (ISO 8601 date or date-time, UTC)")
        parser.add_argument("--until", help="created before (ISO 8601 date or date-time, UTC)")
        parser.add_argument("--bot", help="bot profile slugs, comma-separated")
        parser.add_argument("--pairing", help="human-vs-bot, bot-vs-bot, human-vs-human")
        parser.add_argument("--result", help="win, draw, human-win, bot-win")
        parser.add_argument("--status", help="finished (default), aborted, active, waiting or any")
        parser.add_argument("--source", help="play, selfplay or a dataset's name")
        parser.add_argument("--min-plies", dest="min_plies", help="at least this many plies")
        parser.add_argument("--max", help="at most this many matches")
        parser.add_argument(
            "--purpose", help="research (default) or training: matches whose people all agreed to that use"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        params = {name: str(options[name]) for name in FILTER_OPTIONS if options.get(name) is not None}
        try:
            filters = parse_filters(params)
        except ValidationError as exc:
            problems = "; ".join(f"--{k.replace('_', '-')}: {' '.join(map(str, v))}" for k, v in exc.detail.items())  # type: ignore[union-attr]  # a serializer's errors: by field
            raise CommandError(problems) from None
        write, columns, _ = FORMATS[options["format"]]
        try:
            names = Pseudonyms()  # before a file is opened: no half-written export without a secret
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from None
        progress = Progress(self.stderr, export_count(filters), enabled=not options["no_progress"])
        chunks = write(self._counted(match_rows(filters, columns, order=names.match), progress), names)
        if options["output"] == "-":
            for chunk in chunks:
                self.stdout.write(chunk.decode(), ending="")
            self.stdout.flush()
        else:
            with open(options["output"], "wb") as out:
                for chunk in chunks:
                    out.write(chunk)
        progress.close()
        if options["output"] != "-" or not sys.stdout.isatty():
            self.stderr.write(f"exported {progress.done:,} matches", style_func=str)

    @staticmethod
    def _counted(matches: Iterator[MatchRows], progress: Progress) -> Iterator[MatchRows]:
        for rows in matches:
            yield rows
            progress.step()
