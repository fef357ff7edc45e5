"""An agent that searches with Plyground's own `ai` library, as a researcher would: every game.

    PYTHONPATH=.:clients python examples/search_agent.py --token <bot token> --house connect4-master
    PYTHONPATH=.:clients python examples/search_agent.py --token <bot token> --algorithm mcts --budget-ms 500

`--house SLUG` searches as that house bot does (its seeded settings, `games/<game>/spec.py`),
so a measurement of this agent (docs/bots.md, "Measuring a bot") can be compared with the house
bot's own rating; otherwise `--algorithm` and `--budget-ms` pick the search.  The state the
server sends with each turn is the game's own JSON (`Game.from_json`); the search runs on a
thread, so the client keeps its sockets alive meanwhile.  It sends its search's figures with
nothing: the server's clock is what it plays against.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any

from plyground_bot import BotClient, GameResult, Move, Turn

import ai
from games import registry

# What a seeded profile holds that is not part of its search.
NOT_SEARCH = ("slug", "game", "name", "level", "description", "min_think_ms", "adaptive")


def house_config(slug: str, seed: int = 0) -> ai.SearchConfig:
    """The search of the house bot `slug`, as its game's ladder seeds it."""
    for game in registry.all():
        for entry in game.spec.ladder:
            if entry.slug == slug:
                fields: dict[str, Any] = {k: v for k, v in entry.profile(game.id).items() if k not in NOT_SEARCH}
                fields["options"] = fields.pop("search_options", {})
                return ai.SearchConfig(**fields, seed=seed)
    raise ValueError(f"no house bot {slug!r}")


class SearchAgent:
    """Plays the move `config`'s search picks; accepts challenges to `games` (None: every game)."""

    def __init__(self, config: ai.SearchConfig, games: set[str] | None = None) -> None:
        self.config = config
        self.games = games

    async def on_challenge(self, challenge: Any) -> bool | str:
        return True if self.games is None or challenge.game in self.games else "game"

    async def on_turn(self, turn: Turn) -> Move:
        game = registry.get(turn.game)
        state = game.from_json(turn.state)
        result = await asyncio.to_thread(ai.choose_move, game, state, self.config)
        # The search's figures go with the move: the site keeps them, and the run's export has them.
        stats = {"algorithm": result.algorithm, "value": round(result.value, 4), "depth": result.depth,
                 "nodes": result.nodes, "time_ms": round(result.elapsed_ms), "pv": result.pv[:8]}  # fmt: skip
        return Move(result.move, stats)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a bot token (POST /api/agents/{name}/tokens/)")
    parser.add_argument("--house", help="search as this house bot does, e.g. connect4-master")
    parser.add_argument("--algorithm", default="alphabeta", choices=sorted(ai.CATALOGUE))
    parser.add_argument("--budget-ms", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    if args.house:
        config = house_config(args.house, args.seed)
    else:
        config = ai.SearchConfig(algorithm=args.algorithm, time_budget_ms=args.budget_ms, seed=args.seed)

    async def report(result: GameResult) -> None:
        print(f"match {result.match} ({result.game}) {result.status}: {result.result}")

    await BotClient(args.url, args.token, SearchAgent(config), on_game_over=report).run()


if __name__ == "__main__":
    asyncio.run(main())
