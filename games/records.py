"""A played match as a file players download: the game's own record (docs/design.md §2).

The server knows matches (players, clocks, how it ended); the game knows its notation.
The server fills a `PlayedMatch` and asks the game (`Game.match_record`) for a
`GameRecord`: chess writes PGN (`games.chess.record`); every other game gets the plain
record below, its moves as players write them (`Game.move_notation`), until it has a
notation of its own.

>>> from games import registry
>>> played = PlayedMatch(moves=(PlayedMove(0, "4", 900), PlayedMove(1, "3", 1200)),
...                      seats=(RecordSeat("Alice", "human"), RecordSeat("Bot", "program")),
...                      site="https://plyground.example/matches/7/", date="2026.12.07")
>>> record = registry.get("connect4").match_record(played)
>>> record.extension, record.text.splitlines()[-1]
('txt', '1. 4 3')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from games.base import CHANCE, Move, Seat

if TYPE_CHECKING:
    from games.base import Game


class Ending(StrEnum):
    """Where a match stands when its record is written."""

    GOING_ON = "going on"  # not over yet (waiting, being played, adjourned)
    CALLED_OFF = "called off"  # aborted before it counted: no result
    FINISHED = "finished"


@dataclass(frozen=True)
class PlayedMove:
    """One stored move, chance events included, and how long its mover took."""

    seat: Seat  # `CHANCE` for a roll
    move: Move
    think_ms: int


@dataclass(frozen=True)
class RecordSeat:
    """A seat as the record names it; `kind` "human", "program" or "" when the seat is empty."""

    name: str
    kind: str = ""


@dataclass(frozen=True)
class PlayedMatch:
    """What the server tells a game about a match, so that the game can write its record."""

    moves: tuple[PlayedMove, ...]
    seats: tuple[RecordSeat, ...]  # by seat index
    site: str  # the match's page
    date: str  # the day it was created, ``YYYY.MM.DD``
    rated: bool = False
    clock: tuple[int, int] | None = None  # (initial_ms, increment_ms) of a clocked match
    ending: Ending = Ending.GOING_ON
    returns: tuple[float, ...] = ()  # empty unless the match finished with a result
    winner: Seat | None = None  # of a finished match; None for a draw
    reason: str = ""  # how it ended in the players' words: "checkmate", "out of time", ...

    @property
    def seat_moves(self) -> list[Move]:
        """The moves with chance events left out (what `Game.standard_notation` reads)."""
        return [played.move for played in self.moves if played.seat != CHANCE]


@dataclass(frozen=True)
class GameRecord:
    """A downloadable record: its text, its media type and the file name's extension."""

    text: str
    media_type: str
    extension: str


PLAIN_MEDIA_TYPE: Final = "text/plain; charset=utf-8"


def plain_record(game: Game[Any], played: PlayedMatch) -> GameRecord:
    """The record of a game without a notation of its own: ``name: value`` lines, then the moves, a round a line."""
    lines = [f"{name}: {value}" for name, value in _plain_tags(game, played)]
    lines.append("")
    lines.extend(_numbered_rounds(game, played))
    return GameRecord("\n".join(lines) + "\n", PLAIN_MEDIA_TYPE, "txt")


def _plain_tags(game: Game[Any], played: PlayedMatch) -> list[tuple[str, str]]:
    tags = [("Game", game.name), ("Event", f"Plyground {'rated' if played.rated else 'casual'} game"),
            ("Site", played.site), ("Date", played.date)]  # fmt: skip
    for index, seat in enumerate(game.spec.seats):
        record_seat = played.seats[index] if index < len(played.seats) else RecordSeat("?")
        tags.append((seat.name, record_seat.name))
    tags.append(("Result", _plain_result(game, played)))
    if played.reason:
        tags.append(("Ending", played.reason))
    return tags


def _plain_result(game: Game[Any], played: PlayedMatch) -> str:
    if played.ending != Ending.FINISHED or not played.returns:
        return "*"
    if played.winner is None:
        return "draw"
    return f"{game.spec.seats[played.winner].name} wins"


def _numbered_rounds(game: Game[Any], played: PlayedMatch) -> list[str]:
    """Moves as players write them, one numbered line per round of seats; a roll goes with the move after it."""
    state = game.initial_state()
    rounds: list[list[str]] = []
    rolls: list[str] = []  # written before the move they come before
    last_seat: Seat | None = None
    for stored in played.moves:
        words = game.move_notation(state, stored.move)
        state = game.apply(state, stored.move)
        if stored.seat == CHANCE:
            rolls.append(words)
            continue
        if last_seat is None or stored.seat <= last_seat:
            rounds.append([])
        rounds[-1].extend([*rolls, words])
        rolls, last_seat = [], stored.seat
    if rolls:  # the roll of a turn not yet played
        rounds.append(rolls)
    return [f"{number}. {' '.join(words)}" for number, words in enumerate(rounds, start=1)]
