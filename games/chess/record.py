"""A chess match as PGN (docs/wire.md): the record chess players' tools read.

The standard's seven-tag roster and its supplemental tags (TimeControl, Termination,
WhiteType/BlackType: a bot is a "program"), each move's clock as a ``{[%clk h:mm:ss]}``
comment in clocked matches, and how the match ended as the last comment.  python-chess
writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import chess
import chess.pgn

from games.base import Move
from games.records import Ending, GameRecord, PlayedMatch, PlayedMove

PGN_MEDIA_TYPE: Final = "application/x-chess-pgn; charset=utf-8"
# The standard's Termination values for the reasons a match here ends; the rules' own endings are "normal".
TERMINATIONS: Final = {"out of time": "time forfeit", "abandoned": "abandoned"}
COLOURS: Final = ("White", "Black")


def pgn_game(moves: Sequence[Move], board: chess.Board | None = None) -> chess.pgn.Game | None:
    """A python-chess game record of `moves` (UCI) from the start, or from `board`; None if one is illegal.

    The Result tag says how the moves end the game, or "*" while it goes on.
    """
    board = board.copy() if board is not None else chess.Board()
    game = chess.pgn.Game()
    if board.fen() != chess.STARTING_FEN:
        game.setup(board)
    node: chess.pgn.GameNode = game
    for text in moves:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            return None
        if not board.is_legal(move):
            return None
        board.push(move)
        node = node.add_variation(move)
    outcome = board.outcome()
    game.headers["Result"] = outcome.result() if outcome else "*"
    return game


def match_pgn(played: PlayedMatch) -> GameRecord:
    """The match as a PGN file; ValueError if its moves are not a legal chess game (a damaged match)."""
    game = pgn_game(played.seat_moves)
    if game is None:
        raise ValueError("the match's moves are not a legal chess game")
    game.headers.update(_tags(played))
    if played.clock:
        _add_clocks(game, played.clock, played.moves)
    if played.reason:  # after the last move's clock
        last = game.end()
        last.comment = f"{last.comment} {played.reason}".strip()
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return GameRecord(game.accept(exporter) + "\n", PGN_MEDIA_TYPE, "pgn")


def pgn_result(played: PlayedMatch) -> str:
    """1-0, 0-1, 1/2-1/2, or * for a match going on or called off."""
    if played.ending != Ending.FINISHED or not played.returns:
        return "*"
    return "1/2-1/2" if played.winner is None else ("1-0", "0-1")[played.winner]


def _tags(played: PlayedMatch) -> dict[str, str]:
    seats = dict(enumerate(played.seats))
    tags = {
        "Event": f"Plyground {'rated' if played.rated else 'casual'} game",
        "Site": played.site,
        "Date": played.date,
        "Round": "-",
        "White": seats[0].name if 0 in seats else "?",
        "Black": seats[1].name if 1 in seats else "?",
        "Result": pgn_result(played),
    }
    if played.clock:
        initial_ms, increment_ms = played.clock
        tags["TimeControl"] = f"{initial_ms // 1000}+{increment_ms // 1000}"
    tags["Termination"] = _termination(played)
    for index, colour in enumerate(COLOURS):
        if index in seats and seats[index].kind:
            tags[f"{colour}Type"] = seats[index].kind
    return tags


def _termination(played: PlayedMatch) -> str:
    if played.ending == Ending.GOING_ON:
        return "unterminated"
    if played.ending == Ending.CALLED_OFF:
        return "abandoned"
    return TERMINATIONS.get(played.reason, "normal")


def _add_clocks(game: chess.pgn.Game, clock: tuple[int, int], moves: Sequence[PlayedMove]) -> None:
    """Each move's comment gets the mover's time left after it, as the match's clock counted it."""
    initial_ms, increment_ms = clock
    left = [initial_ms, initial_ms]
    node: chess.pgn.GameNode = game
    for played in moves:
        left[played.seat] = max(0, left[played.seat] - played.think_ms) + increment_ms
        node = node.variations[0]
        node.set_clock(left[played.seat] // 1000)
