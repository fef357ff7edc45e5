"""The Bot API's cost a move: two random agents through the client against two people's raw sockets.

On a fresh full stack (daphne, a Celery worker, Redis), alternately: `--games` Connect Four
games between two bot accounts run by clients/plyground_bot (a challenge, the event stream,
the match sockets), and as many between two guests whose scripts send random legal moves on
the match socket as a page does (the reference: the path every move takes).  Prints the
wall-clock milliseconds a move of each and their ratio.

    .venv/bin/python benchmarks/bot_api.py --games 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "clients"), str(ROOT / "examples")]

from plyground_bot import connect  # noqa: E402
from random_agent import RandomAgent  # noqa: E402

from tests.support import LiveStack  # noqa: E402

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="Margot", is_guest=False)
for name in ("Quokka", "Wombat"):
    print("TOKEN", ApiToken.issue(bot_account_create(owner, name)))
"""


async def agents_game(stack: LiveStack, quokka, tokens: list[str]) -> int:
    """One game between the two agents; its plies."""
    before = set(quokka.results)
    await quokka.challenge("Wombat", "connect4")
    while not set(quokka.results) - before:
        await asyncio.sleep(0.05)
    match_id = (set(quokka.results) - before).pop()
    return int(stack.api("GET", f"/api/matches/{match_id}/")["ply"])


async def people_game(stack: LiveStack, seed: int) -> int:
    """One game between two guests sending random legal moves on their match sockets; its plies."""
    (_, first), (_, second) = stack.guest(), stack.guest()
    match = stack.api("POST", "/api/matches/", {"game": "connect4", "seats": [{"kind": "human"}] * 2}, first)
    stack.api("POST", f"/api/matches/{match['id']}/join/", {}, second)
    rng = random.Random(seed)

    async def side(token: str, seat: int) -> int:
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
            state = json.loads(await ws.recv())["match"]
            ply, to_move, legal = state["ply"], state["to_move"], state["legal_moves"]
            while True:
                if to_move == seat and legal:
                    await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
                frame = json.loads(await ws.recv())
                while frame["type"] not in ("move", "game_over"):
                    frame = json.loads(await ws.recv())
                if frame["type"] == "game_over":
                    return ply
                ply, to_move, legal = frame["ply"] + 1, frame["to_move"], frame["legal_moves"]

    plies = await asyncio.gather(side(first, 0), side(second, 1))
    return max(plies) + 1


async def measure(stack: LiveStack, games: int) -> tuple[float, float]:
    tokens = [line.split()[1] for line in stack.manage("shell", "-c", SETUP).splitlines() if line.startswith("TOKEN")]
    agents_s = people_s = 0.0
    agents_plies = people_plies = 0
    async with connect(stack.url, tokens[0], RandomAgent(1)) as quokka, connect(stack.url, tokens[1], RandomAgent(2)):
        for game in range(games):
            start = time.perf_counter()
            agents_plies += await agents_game(stack, quokka, tokens)
            agents_s += time.perf_counter() - start
            start = time.perf_counter()
            people_plies += await people_game(stack, game)
            people_s += time.perf_counter() - start
    return 1000 * agents_s / agents_plies, 1000 * people_s / people_plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    with LiveStack(extra_env={"BOT_GAMES_PER_BOT": "4"}) as stack:
        agents_ms, people_ms = asyncio.run(measure(stack, args.games))
    print(f"Bot API (client, challenge, event stream): {agents_ms:.1f} ms a move, game start included")
    print(f"people's match sockets (reference):        {people_ms:.1f} ms a move, game start included")
    print(f"ratio: {agents_ms / people_ms:.2f}")


if __name__ == "__main__":
    main()
