"""A bot that plays one game of every game on a Plyground site against its weakest house bots.

Written from docs/bots.md and docs/wire.md alone: the Python standard library and `websockets`,
nothing of the site's own code.  Run it in any directory with a bot token:

    pip install websockets
    python every_game.py --url http://127.0.0.1:8000 --token <bot token> [--games connect4,chess]

For each game (`GET /api/games/`) it asks for a game against the weakest listed house bot
(`GET /api/bots/?game=`, weakest first) in every other seat (`POST /api/agents/games/`), then
plays it on the match socket with a legal move at random until the game is over; all the games
at once, within the limits the event stream's `hello` states.  Dice and other chance moves are
the server's.  It prints one line per game and exits 0 when every game finished.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any

import websockets


class Site:
    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url.rstrip("/"), token
        self.ws_url = "ws" + self.url.removeprefix("http")

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One HTTP call with the bot token; the answer's JSON (an error's too, with its status)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            raise SystemExit(f"{method} {path}: {refused.code} {refused.read().decode()[:300]}") from None

    async def api_async(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return await asyncio.to_thread(self.api, method, path, body)


class Pace:
    """At most `count` moves in any `seconds` on one socket: the `moves` limit of `hello`."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self.sent: list[float] = []

    async def wait(self) -> None:
        now = time.monotonic()
        self.sent = [t for t in self.sent if now - t < self.seconds]
        if len(self.sent) >= self.count - 1:  # one spare: the server's window is not ours to the millisecond
            await asyncio.sleep(self.seconds - (now - self.sent[0]) + 0.05)
        self.sent.append(time.monotonic())


async def play(site: Site, match_id: int, seat: int, limits: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Play our seat of the match to its end; the `game_over` frame's result and status."""
    pace = Pace(limits["moves"]["count"], limits["moves"]["seconds"])
    async with websockets.connect(f"{site.ws_url}/ws/matches/{match_id}/?token={site.token}") as ws:
        async for text in ws:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "state":
                match = frame["match"]
                if match["status"] in ("finished", "aborted"):
                    return {"status": match["status"], "result": match["result"]}
                ply, to_move, legal = match["ply"], match["to_move"], match["legal_moves"]
            elif kind == "move":
                ply, to_move, legal = frame["ply"] + 1, frame["to_move"], frame["legal_moves"]
            elif kind == "game_over":
                return {"status": frame["status"], "result": frame["result"]}
            elif kind == "error":
                print(f"match {match_id}: refused {frame['code']}: {frame['message']}", file=sys.stderr)
                await ws.send(json.dumps({"type": "sync"}))  # the state frame comes back: go on from it
                continue
            else:
                continue
            if to_move == seat and legal:
                await pace.wait()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
    raise ConnectionError(f"match {match_id}: the socket closed before the game ended")


async def one_game(site: Site, game: dict[str, Any], limits: dict[str, Any], rng: random.Random) -> bool:
    profiles = await site.api_async("GET", f"/api/bots/?game={game['id']}")
    weakest = profiles[0]["slug"]  # listed weakest first
    body = {"game": game["id"], "house_bots": [weakest] * (game["num_players"] - 1), "seat": "random"}
    made = await site.api_async("POST", "/api/agents/games/", body)
    end = await play(site, made["match"], made["seat"], limits, rng)
    result = end["result"] or {}
    print(f"{game['id']}: match {made['match']} seat {made['seat']} {end['status']}: {result.get('reason')}")
    return bool(end["status"] == "finished")


async def listen(events: Any) -> None:
    """The event stream: this bot asks for its games, so it declines every challenge."""
    async for text in events:
        frame = json.loads(text)
        if frame["type"] == "challenge":
            await events.send(json.dumps({"type": "decline", "challenge": frame["challenge"]["id"], "reason": "later"}))


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a bot token (POST /api/agents/{name}/tokens/)")
    parser.add_argument("--games", default="", help="game ids, comma-separated; none: every game")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    site, rng = Site(args.url, args.token), random.Random(args.seed)
    wanted = set(filter(None, args.games.split(",")))
    games = [g for g in site.api("GET", "/api/games/") if not wanted or g["id"] in wanted]
    async with websockets.connect(f"{site.ws_url}/ws/agents/?token={site.token}") as events:
        hello = json.loads(await events.recv())  # the first frame: who we are and our limits
        limits = hello["limits"]
        print(f"{hello['bot']['name']} (by {hello['bot']['owner']}): {len(games)} games", file=sys.stderr)
        at_once = asyncio.Semaphore(limits["games_per_bot"])
        listening = asyncio.create_task(listen(events))

        async def bounded(game: dict[str, Any]) -> bool:
            async with at_once:
                return await one_game(site, game, limits, rng)

        finished = await asyncio.gather(*(bounded(g) for g in games))
        listening.cancel()
    return 0 if all(finished) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
