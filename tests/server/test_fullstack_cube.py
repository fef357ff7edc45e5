"""Backgammon with the cube on the whole stack: daphne, a Celery worker, Redis; a bot answers a
double and decides its own through its ordinary turn (docs/design.md §4), over a real WebSocket."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import websockets

from tests.support import LiveStack

pytestmark = pytest.mark.fullstack

CUBE_MOVES = {"double", "roll", "take", "drop"}


def human_choice(legal: list[str], doubled: bool, rng: random.Random) -> str:
    """The person doubles at the first chance, drops any double of the bot's, and plays at random."""
    if "double" in legal and not doubled:
        return "double"
    if "drop" in legal:
        return "drop"
    if "roll" in legal:
        return "roll"
    return rng.choice(legal)


async def play_cube_game(stack: LiveStack, bot: str, seed: int) -> tuple[dict, list[dict]]:
    _, token = stack.guest()
    seats = [{"kind": "human"}, {"kind": "bot", "profile": bot}]
    match = stack.api("POST", "/api/matches/", {"game": "backgammon", "seats": seats, "options": {"cube": True}}, token)
    assert match["options"] == {"cube": True, "jacoby": False, "match_to": 0}
    rng, doubled, bot_moves = random.Random(seed), False, []
    async with websockets.connect(f"{stack.ws_url}/ws/matches/{match['id']}/?token={token}") as ws:
        state = json.loads(await ws.recv())
        legal, ply = state["match"]["legal_moves"], state["match"]["ply"]
        waiting = state["match"]["to_move"] != 0
        while True:
            if not waiting:
                move = human_choice(legal, doubled, rng)
                doubled = doubled or move == "double"
                await ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                assert frame["type"] != "error", frame
                if frame["type"] == "game_over":
                    return stack.api("GET", f"/api/matches/{match['id']}/"), bot_moves
                if frame["type"] == "move" and frame["seat"] == 1:
                    bot_moves.append(frame)
                if frame["type"] == "move" and frame["to_move"] == 0:
                    legal, ply, waiting = frame["legal_moves"], frame["ply"] + 1, False
                    break


def test_a_bot_answers_a_double_and_makes_its_cube_decisions_through_its_turn():
    with LiveStack() as stack:
        match, bot_moves = asyncio.run(play_cube_game(stack, "backgammon-beginner", seed=5))
    assert match["status"] == "finished"
    cube_moves = [f for f in bot_moves if f["move"] in CUBE_MOVES]
    answers = [f["move"] for f in cube_moves if f["move"] in ("take", "drop")]
    assert answers, "the bot answered the person's double"
    for frame in cube_moves:  # each decided by Janowski's model (ai.cube), in the bot's searched turn
        assert frame["by"] == {"kind": "bot", "is_ai": True}
        assert frame["stats"]["cube"]["move"] == frame["move"]
        assert frame["stats"]["algorithm"] == "expectimax"
    result = match["result"]
    cube = match["state"]["cube"]
    winner_points = result["points"][result["winner"]]
    assert result["points"][1 - result["winner"]] == -winner_points
    if result["reason"] == "double dropped":
        # Who dropped: the bot at once (1 point), or the person a double of the bot's (the cube taken at 2).
        assert (answers[0], winner_points) == ("drop", 1) or (answers[0], winner_points) == ("take", 2)
    else:
        assert answers[0] == "take" and winner_points in (cube["value"], 2 * cube["value"], 3 * cube["value"])
    moves = [m["move"] for m in match["moves"]]
    assert moves.count("double") >= 1 and moves.index("double") < moves.index(answers[0])
