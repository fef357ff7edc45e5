"""Game records in the standard notation of a match's game: PGN for chess (docs/wire.md).

The PGN follows the standard's seven-tag roster and its supplemental tags (TimeControl,
Termination, WhiteType/BlackType: a bot is a "program"), with each move's clock as a
``{[%clk h:mm:ss]}`` comment in clocked matches.  python-chess writes it.
"""

from __future__ import annotations

from typing import Any

import chess
import chess.pgn

from games.chess import pgn_game
from server.matches.errors import NoRecord
from server.matches.models import Match, Seat

PGN_GAMES = ("chess",)
PGN_CONTENT_TYPE = "application/x-chess-pgn; charset=utf-8"
# The standard's Termination values for the reasons a match here ends.
TERMINATIONS = {"out of time": "time forfeit", "abandoned": "abandoned"}


def match_pgn(match: Match, site: str) -> str:
    """The match as PGN; `site` is where it was played (its page).  NoRecord for a game without PGN."""
    if match.game not in PGN_GAMES:
        raise NoRecord(f"PGN is for chess matches; match {match.pk} is {match.game}")
    moves = list(match.moves.order_by("ply").values_list("seat", "move", "think_ms"))
    game = pgn_game([move for _, move, _ in moves])
    if game is None:  # the stored moves are the rules' own: this would be a damaged match
        raise NoRecord(f"match {match.pk}'s moves are not a legal chess game")
    game.headers.update(_tags(match, site))
    if match.clock:
        _add_clocks(game, match.clock, moves)
    if match.result and match.result.get("reason"):  # after the last move's clock
        last = game.end()
        last.comment = f"{last.comment} {match.result['reason']}".strip()
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter) + "\n"


def pgn_result(match: Match) -> str:
    """1-0, 0-1, 1/2-1/2, or * for a match going on or called off."""
    result = match.result or {}
    if match.status != Match.Status.FINISHED or not result.get("returns"):
        return "*"
    return {0: "1-0", 1: "0-1"}.get(result.get("winner"), "1/2-1/2")  # type: ignore[arg-type]  # no winner: a draw


def _tags(match: Match, site: str) -> dict[str, str]:
    seats = {seat.index: seat for seat in match.seats.all()}
    tags = {
        "Event": f"Plyground {'rated' if match.rated else 'casual'} game",
        "Site": site,
        "Date": match.created_at.strftime("%Y.%m.%d"),
        "Round": "-",
        "White": _player_name(seats.get(0)),
        "Black": _player_name(seats.get(1)),
        "Result": pgn_result(match),
    }
    if match.clock:
        tags["TimeControl"] = f"{match.clock['initial_ms'] // 1000}+{match.clock['increment_ms'] // 1000}"
    tags["Termination"] = _termination(match)
    for index, colour in ((0, "White"), (1, "Black")):
        seat = seats.get(index)
        if seat is not None and (seat.kind == Seat.Kind.BOT or seat.player_id is not None):
            tags[f"{colour}Type"] = "program" if seat.kind == Seat.Kind.BOT else "human"
    return tags


def _player_name(seat: Seat | None) -> str:
    if seat is None:
        return "?"
    if seat.kind == Seat.Kind.BOT:
        return str((seat.bot_snapshot or {}).get("name", "Bot"))
    return seat.player.name if seat.player is not None else "?"


def _termination(match: Match) -> str:
    if match.status in (Match.Status.WAITING, Match.Status.ACTIVE, Match.Status.ADJOURNED):
        return "unterminated"
    if match.status == Match.Status.ABORTED:
        return "abandoned"
    return TERMINATIONS.get((match.result or {}).get("reason", ""), "normal")


def _add_clocks(game: chess.pgn.Game, clock: dict[str, Any], moves: list[tuple[int, str, int]]) -> None:
    """Each move's comment gets the mover's time left after it, as the match's clock counted it."""
    left = [clock["initial_ms"], clock["initial_ms"]]
    node: chess.pgn.GameNode = game
    for seat, _, think_ms in moves:
        left[seat] = max(0, left[seat] - think_ms) + clock["increment_ms"]
        node = node.variations[0]
        node.set_clock(left[seat] // 1000)
