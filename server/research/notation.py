"""Standard notations beside ours, for games that have one other tools read.

Each entry turns a game's moves (canonical text, chance events left out) into the
notation researchers feed to their tools, or None when the moves do not fit it.

>>> standard_notation("connect4", ["4", "4", "5", "3"])
{'format': 'connect4-solver', 'moves': '4453'}
>>> standard_notation("othello", ["f5", "d6", "pass", "c3"])
{'format': 'othello-transcript', 'moves': 'f5d6c3'}
>>> standard_notation("tictactoe", ["5"]) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

_C4_COLUMNS = frozenset("1234567")
_OTHELLO_SQUARES = frozenset(f"{col}{row}" for col in "abcdefgh" for row in "12345678")


def _connect4_solver(moves: Sequence[str]) -> str | None:
    """The Connect Four solver's input: the columns played, 1-7 from the left, joined."""
    if not _C4_COLUMNS.issuperset(moves):
        return None
    return "".join(moves)


def _othello_transcript(moves: Sequence[str]) -> str | None:
    """A WOF-style transcript: squares joined, passes left out (they are forced, so implied)."""
    squares = [m for m in moves if m != "pass"]
    if not _OTHELLO_SQUARES.issuperset(squares):
        return None
    return "".join(squares)


NOTATIONS: dict[str, tuple[str, Callable[[Sequence[str]], str | None]]] = {
    "connect4": ("connect4-solver", _connect4_solver),
    "othello": ("othello-transcript", _othello_transcript),
}


def standard_notation(game_id: str, moves: Sequence[str]) -> dict[str, str] | None:
    """``{"format", "moves"}`` in the game's standard notation, or None where it has none."""
    entry = NOTATIONS.get(game_id)
    if entry is None:
        return None
    name, write = entry
    text = write(moves)
    return None if text is None else {"format": name, "moves": text}
