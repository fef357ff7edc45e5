"""A random agent for every game on Plyground: it accepts every challenge and plays a legal move at random.

    PYTHONPATH=clients python examples/random_agent.py --url http://127.0.0.1:8000 --token <bot token>

The server sends the legal moves with each turn (and rolls backgammon's dice), so the agent
needs no rules of its own.  A real agent would search `turn.state`; docs/bots.md has the wire.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random

from plyground_bot import BotClient, Challenge, GameResult, Turn


class RandomAgent:
    def __init__(self, seed: int | None = None, games: set[str] | None = None) -> None:
        self.random = random.Random(seed)
        self.games = games  # None: every game

    async def on_challenge(self, challenge: Challenge) -> bool | str:
        return True if self.games is None or challenge.game in self.games else "game"

    async def on_turn(self, turn: Turn) -> str:
        return self.random.choice(turn.legal_moves)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a bot token (POST /api/agents/{name}/tokens/)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    async def report(result: GameResult) -> None:
        print(f"match {result.match} ({result.game}) {result.status}: {result.result}")

    await BotClient(args.url, args.token, RandomAgent(args.seed), on_game_over=report).run()


if __name__ == "__main__":
    asyncio.run(main())
