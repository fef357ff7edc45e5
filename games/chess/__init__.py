"""Chess: the rules (`rules`, on python-chess), the catalogue entry (`spec`), the compiled search
(`engine`).  See `rules` for the notation."""

from games.chess.record import pgn_game
from games.chess.rules import (
    CHESS,
    PIECE_VALUES,
    Chess,
    ChessState,
    PositionKey,
    captured,
    decode_key,
    encode_key,
    material,
    perft,
    position_key,
)

GAMES = (CHESS,)  # what the catalogue registers (games/__init__.py)

__all__ = [
    "GAMES",
    "CHESS",
    "PIECE_VALUES",
    "Chess",
    "ChessState",
    "PositionKey",
    "captured",
    "decode_key",
    "encode_key",
    "material",
    "perft",
    "pgn_game",
    "position_key",
]
