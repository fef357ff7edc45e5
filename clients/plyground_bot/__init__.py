"""A small asyncio client for Plyground's Bot API (docs/bots.md): your agent, the server's wire.

    from plyground_bot import BotClient, Turn

    class Agent:
        async def on_turn(self, turn: Turn) -> str:
            return turn.legal_moves[0]

    await BotClient("http://127.0.0.1:8000", token, Agent()).run()

It needs only the `websockets` package and the standard library, and no code of the server.
"""

from plyground_bot.client import (
    Agent,
    BotClient,
    Challenge,
    ClosedForGood,
    GameResult,
    Move,
    Resign,
    Turn,
    connect,
)

__all__ = ["Agent", "BotClient", "Challenge", "ClosedForGood", "GameResult", "Move", "Resign", "Turn", "connect"]
