"""How big an export would be, before anyone downloads it: matches, moves and bytes per format.

The counts are exact and cost one aggregate query: a match's ``ply`` is the number of its
moves (chance events included; a takeback deletes the moves it takes back), so the moves
are the sum of the selected matches' plies, never a walk over the move table.

The bytes are measured, not guessed: the first `SAMPLE_MATCHES` matches of the selection
are written by the export's own formatters, and the sizes scale up from there, a part per
match and a part per move.  When the sample is the whole selection the figures are the
export's exact sizes.  Either way the cost is bounded: a few queries, whatever the export's size.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Count, Sum

from server.research.filters import ExportFilters
from server.research.formats import CSV_COLUMNS, game_line, move_rows
from server.research.pseudonyms import Pseudonyms
from server.research.selectors import GAME_COLUMNS, MOVE_ROW_COLUMNS, Columns, MatchRows, match_rows, matches_query

SAMPLE_MATCHES = 50  # formatted to measure the bytes: one chunk of rows, a few milliseconds


@dataclass(frozen=True)
class Sizes:
    """What a sample of matches took in one format: a part per match, a part per move."""

    matches: int = 0
    moves: int = 0
    match_bytes: int = 0  # everything but the moves' own bytes (a line's frame; nothing in CSV)
    move_bytes: int = 0

    def scaled(self, matches: int, moves: int, fixed: int = 0) -> int:
        """The bytes of `matches` matches holding `moves` moves, at this sample's rates."""
        per_match = self.match_bytes / self.matches if self.matches else 0
        per_move = self.move_bytes / self.moves if self.moves else 0
        return fixed + round(matches * per_match + moves * per_move)


@dataclass(frozen=True)
class Estimate:
    matches: int
    moves: int
    jsonl_bytes: int
    csv_bytes: int
    exact: bool  # the bytes are the export's own (the sample was the whole selection)

    def as_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "moves": self.moves,
            "bytes": {"games.jsonl": self.jsonl_bytes, "moves.csv": self.csv_bytes},
            "exact": self.exact,
        }


def export_totals(filters: ExportFilters) -> tuple[int, int]:
    """The matches an export of `filters` holds and their moves (chance events included)."""
    qs = matches_query(filters)
    if filters.max is not None:
        qs = qs.order_by("pk")[: filters.max]  # the export's first matches, in id order
    totals = qs.aggregate(matches=Count("pk"), moves=Sum("ply"))
    return totals["matches"], totals["moves"] or 0


def _utf8(text: str) -> int:
    return len(text.encode())


def _csv_bytes(rows: list[list[Any]]) -> int:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return _utf8(buffer.getvalue())


def jsonl_sizes(sample: list[MatchRows], names: Pseudonyms) -> Sizes:
    """Each line's bytes (and its newline), split into its frame and its moves."""
    whole = sum(_utf8(game_line(rows, names)) + 1 for rows in sample)
    frames = sum(_utf8(game_line(MatchRows(rows.match, rows.seats, [], rows.ratings), names)) + 1 for rows in sample)
    moves = sum(len(rows.moves) for rows in sample)
    return Sizes(len(sample), moves, frames, whole - frames)


def csv_sizes(sample: list[MatchRows], names: Pseudonyms) -> Sizes:
    """The rows' bytes: a CSV has nothing per match but its moves' rows."""
    moves = sum(len(rows.moves) for rows in sample)
    return Sizes(len(sample), moves, 0, sum(_csv_bytes(list(move_rows(rows, names))) for rows in sample))


def _sample(filters: ExportFilters, columns: Columns, names: Pseudonyms) -> list[MatchRows]:
    limit = SAMPLE_MATCHES if filters.max is None else min(filters.max, SAMPLE_MATCHES)
    return list(match_rows(replace(filters, max=limit), columns, order=names.match))


def export_estimate(filters: ExportFilters) -> Estimate:
    """The size of an export of `filters` in both formats, from counts and a bounded sample."""
    matches, moves = export_totals(filters)
    header = _csv_bytes([list(CSV_COLUMNS)])
    if matches == 0:
        return Estimate(0, 0, 0, header, exact=True)
    names = Pseudonyms()
    game_sample = _sample(filters, GAME_COLUMNS, names)
    row_sample = _sample(filters, MOVE_ROW_COLUMNS, names)
    exact = len(game_sample) >= matches
    lines, rows = jsonl_sizes(game_sample, names), csv_sizes(row_sample, names)
    if moves and not lines.moves:
        # The first matches never started: measure the moves on the first ones that have some.
        with_moves = replace(filters, min_plies=max(filters.min_plies, 1))
        moved = jsonl_sizes(_sample(with_moves, GAME_COLUMNS, names), names)
        lines = replace(lines, moves=moved.moves, move_bytes=moved.move_bytes)
        rows = csv_sizes(_sample(with_moves, MOVE_ROW_COLUMNS, names), names)
    return Estimate(matches, moves, lines.scaled(matches, moves), rows.scaled(matches, moves, header), exact)
