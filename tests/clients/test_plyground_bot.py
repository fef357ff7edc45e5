"""The Bot API client against the real stack (daphne, a Celery worker, Redis): every game to its end.

Two bot accounts run the random agent (examples/random_agent.py) through the client
(clients/plyground_bot); one challenges the other to each registered game, and house bots
fill the seats beyond two.  One client's match socket is cut now and then: the game goes
on, no move is lost and the agent is never asked twice for a ply.  A third bot floods its
socket with garbage and is blocked, while the others' games go on.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import sys
from collections import Counter

import pytest
import websockets

from tests.support import ROOT, LiveStack

sys.path.insert(0, str(ROOT / "clients"))
sys.path.insert(0, str(ROOT / "examples"))

from plyground_bot import BotClient, ClosedForGood, Turn, connect  # noqa: E402  # the client as its users import it
from random_agent import RandomAgent  # noqa: E402

pytestmark = pytest.mark.fullstack
GAME_TIMEOUT_S = 240  # every game of the catalogue at once, random moves, on a shared machine

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="Margot", is_guest=False)
for name in ("Quokka", "Wombat", "Rascal"):
    print("TOKEN", ApiToken.issue(bot_account_create(owner, name)))
"""


@pytest.fixture(scope="module")
def stack():
    with LiveStack(extra_env={"BOT_GAMES_PER_BOT": "12", "BOT_GAMES_PER_OWNER": "24"}) as live:
        lines = live.manage("shell", "-c", SETUP).splitlines()
        live.tokens = [line.split()[1] for line in lines if line.startswith("TOKEN ")]
        yield live


def test_the_client_imports_no_server_code():
    for path in (ROOT / "clients" / "plyground_bot").rglob("*.py"):  # the bridges too
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not [n for n in names if n.split(".")[0] in ("server", "games", "ai", "django")], path


class CuttingAgent(RandomAgent):
    """The random agent, whose match socket is cut after every fifth move it gives."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: Counter[tuple[int, int]] = Counter()
        self.client: BotClient | None = None

    async def on_turn(self, turn: Turn) -> str:
        self.asked[(turn.match, turn.ply)] += 1
        move = await super().on_turn(turn)
        if sum(self.asked.values()) % 5 == 0 and self.client is not None and turn.match in self.client.sockets:
            socket = self.client.sockets[turn.match]
            asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(socket.close()))
        return move


def house_bot(stack: LiveStack, game: str) -> str:
    return stack.api("GET", f"/api/bots/?game={game}")[0]["slug"]  # the weakest: quick turns


async def play_everything(stack: LiveStack) -> tuple[dict[int, object], CuttingAgent, list[dict]]:
    games = stack.api("GET", "/api/games/")
    quokka_token, wombat_token, _ = stack.tokens
    cutter = CuttingAgent(seed=1)
    async with connect(stack.url, quokka_token, cutter) as quokka, connect(stack.url, wombat_token, RandomAgent(2)):
        cutter.client = quokka
        challenges = []
        for game in games:
            extra = [house_bot(stack, game["id"])] * (game["num_players"] - 2)
            challenges.append(await quokka.challenge("Wombat", game["id"], house_bots=extra))
        ids = {c["id"] for c in challenges}
        assert len(ids) == len(games)
        while len(quokka.results) < len(games):
            await asyncio.sleep(0.5)
        return dict(quokka.results), cutter, games


def test_two_random_agents_finish_a_game_of_every_registered_game(stack):
    results, cutter, games = asyncio.run(asyncio.wait_for(play_everything(stack), GAME_TIMEOUT_S))
    assert {r.game for r in results.values()} == {g["id"] for g in games}
    for result in results.values():
        assert result.status == "finished", result
        match = stack.api("GET", f"/api/matches/{result.match}/")
        assert match["rated"] is False
        assert [p["player"]["kind"] for p in match["seats"][:2]] == ["agent", "agent"]
        assert all(p["player"]["is_ai"] and p["player"].get("owner", "Margot") for p in match["seats"])
        agent_moves = [m for m in match["moves"] if m["by"]["kind"] == "agent"]
        assert agent_moves and all(m["by"]["is_ai"] for m in agent_moves)
        plies = [m["ply"] for m in match["moves"]]
        assert plies == list(range(match["ply"])), "every ply stored exactly once"
    # Cut sockets lost no move and asked for none twice.
    assert cutter.asked and max(cutter.asked.values()) == 1


async def drain(ws: websockets.ClientConnection) -> None:
    """Read a socket's frames until it closes."""
    with contextlib.suppress(websockets.ConnectionClosed):
        async for _ in ws:
            pass


async def flood(stack: LiveStack) -> tuple[int, int, str]:
    """Rascal floods its match socket while Quokka and Wombat play a game: the close code, a retry's, the game's end."""
    quokka_token, wombat_token, rascal_token = stack.tokens
    async with (
        connect(stack.url, quokka_token, RandomAgent(3)) as quokka,
        connect(stack.url, wombat_token, RandomAgent(4)),
    ):
        made = stack.api("POST", "/api/agents/Wombat/challenges/", {"game": "tictactoe"}, rascal_token)
        while not (seen := stack.api("GET", f"/api/agents/challenges/{made['id']}/", token=rascal_token))["match"]:
            await asyncio.sleep(0.2)  # Wombat accepts
        await quokka.challenge("Wombat", "connect4")
        async with websockets.connect(f"{stack.ws_url}/ws/matches/{seen['match']}/?token={rascal_token}") as ws:
            reading = asyncio.ensure_future(drain(ws))  # the error frames are read, as a client would
            with contextlib.suppress(websockets.ConnectionClosed):
                for _ in range(500):
                    await ws.send("\x00garbage" * 100)
                    await ws.send(json.dumps({"type": "move", "move": "nonsense", "ply": 0}))
            await asyncio.wait_for(reading, 20)
            code = ws.close_code
        async with websockets.connect(f"{stack.ws_url}/ws/agents/?token={rascal_token}") as again:
            await asyncio.wait_for(drain(again), 10)
            retry = again.close_code
        while not [r for r in quokka.results.values() if r.game == "connect4"]:
            await asyncio.sleep(0.5)
        ends = [r.status for r in quokka.results.values() if r.game == "connect4"]
        return code or 0, retry or 0, ends[0]


def test_a_flooding_bot_is_blocked_and_harms_no_other_match(stack):
    code, retry, other_game = asyncio.run(asyncio.wait_for(flood(stack), GAME_TIMEOUT_S))
    assert code == 4429 and retry == 4429
    assert other_game == "finished"


def test_a_revoked_or_wrong_token_ends_the_client(stack):
    async def run() -> None:
        async with connect(stack.url, "not-a-token", RandomAgent(6)):
            pass

    with pytest.raises(ClosedForGood) as caught:
        asyncio.run(asyncio.wait_for(run(), 30))
    assert caught.value.code == 4401
