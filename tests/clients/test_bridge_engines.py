"""The bridges' agents with their real engines, without a server: restarts, the clock, refusals.

The positions come from the games' rules; the engines are Debian's (tests/run.sh installs them).
"""

from __future__ import annotations

import asyncio
import doctest
import logging
import random
import sys

import pytest

from games import registry
from tests.support import ROOT

sys.path.insert(0, str(ROOT / "clients"))

from plyground_bot import Resign, Turn  # noqa: E402
from plyground_bot.bridges import engine, gnubg, gtp, uci  # noqa: E402
from plyground_bot.bridges.engine import BridgeAgent, engine_command  # noqa: E402

START = registry.get("chess").to_json(registry.get("chess").initial_state())
FIRST_MOVES = registry.get("chess").legal_moves(registry.get("chess").initial_state())


def chess_turn(legal: list[str], clock: dict | None = None) -> Turn:
    return Turn(1, "chess", 0, 0, START, legal, clock, [], (), {})


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def test_the_bridges_docstring_examples():
    for module in (engine, gnubg, gtp, uci):
        assert doctest.testmod(module).failed == 0


def test_a_uci_engine_that_died_between_turns_is_started_again(caplog):
    async def play() -> tuple[str, str]:
        stockfish = uci.UciEngine(engine_command("stockfish"), movetime_ms=20)
        agent = BridgeAgent(stockfish, "chess")
        try:
            first = await agent.on_turn(chess_turn(FIRST_MOVES))
            stockfish.process._process.kill()  # the engine dies between turns
            await stockfish.process.wait()
            return first, await agent.on_turn(chess_turn(FIRST_MOVES))
        finally:
            await stockfish.stop()

    with caplog.at_level(logging.INFO, logger="plyground_bot"):
        first, second = run(play())
    assert first in FIRST_MOVES and second in FIRST_MOVES
    assert "died between turns: starting it again" in caplog.text


def test_a_move_the_site_would_refuse_makes_the_bridge_resign(caplog):
    async def play() -> None:
        stockfish = uci.UciEngine(engine_command("stockfish"), movetime_ms=20)
        try:
            await BridgeAgent(stockfish, "chess").on_turn(chess_turn(["a2a3"], None))  # Stockfish never plays a3
        finally:
            await stockfish.stop()

    with pytest.raises(Resign, match="illegal move"):
        run(play())
    assert "is not legal here: resigning" in caplog.text


def test_a_uci_engine_past_its_clock_is_stopped_and_its_best_move_so_far_sent():
    """Told to search to depth 60 with 1.5 s on its clock, Stockfish is stopped in time and answers."""
    clock = {"initial_ms": 60000, "increment_ms": 0, "remaining_ms": [1500, 60000], "running": 0, "elapsed_ms": 0}

    async def play() -> str:
        stockfish = uci.UciEngine(engine_command("stockfish"), depth=60)
        try:
            return await BridgeAgent(stockfish, "chess").on_turn(chess_turn(FIRST_MOVES, clock))
        finally:
            await stockfish.stop()

    assert run(play()) in FIRST_MOVES


def test_grhino_plays_a_whole_game_of_othello_from_the_sites_moves():
    """Both sides asked of GRhino move by move, the position rebuilt each time from the moves: every
    answer is one of the site's legal moves, passes included."""
    game, rng = registry.get("othello"), random.Random(4)

    async def play() -> list[str]:
        rhino = gtp.GtpEngine(engine_command("gtp-rhino --level 1"))
        agent = BridgeAgent(rhino, "othello")
        state, moves = game.initial_state(), []
        try:
            while not game.is_terminal(state):
                legal = game.legal_moves(state)
                seat = game.to_move(state)
                if seat == 1:
                    move = rng.choice(legal)
                else:
                    turn = Turn(1, "othello", seat, len(moves), game.to_json(state), legal, None, [], tuple(moves), {})
                    move = await agent.on_turn(turn)
                moves.append(move)
                state = game.apply(state, move)
        finally:
            await rhino.stop()
        return moves

    assert len(run(play())) >= 50


def test_gnubg_plays_a_money_game_with_the_cube_from_the_sites_positions():
    """gnubg takes both seats (cube decisions included), the dice from the rules' chance outcomes."""
    game, rng = registry.get("backgammon").with_options({"cube": True}), random.Random(2)

    async def play() -> set[str]:
        bg = gnubg.GnubgEngine(engine_command("gnubg"))
        agent = BridgeAgent(bg, "backgammon")
        state, seen = game.initial_state(), set()
        try:
            while not game.is_terminal(state):
                legal, seat = game.legal_moves(state), game.to_move(state)
                if seat < 0:
                    move = rng.choice(legal)
                else:
                    turn = Turn(1, "backgammon", seat, 0, game.to_json(state), legal, None, [], (), {"cube": True})
                    move = await agent.on_turn(turn)
                    seen.add("cube" if move in gnubg.CUBE_ANSWERS else "play")
                state = game.apply(state, move)
        finally:
            await bg.stop()
        return seen

    assert "play" in run(play())


def moves_to_a_pass(game, seed: int = 0) -> list[str]:
    """The moves of the first random game (seeds from `seed` on) with a pass that the game goes on after."""
    while True:
        rng, state, moves = random.Random(seed), game.initial_state(), []
        while not game.is_terminal(state):
            moves.append(rng.choice(game.legal_moves(state)))
            state = game.apply(state, moves[-1])
            if moves[-1] == "pass" and not game.is_terminal(state):
                return moves
        seed += 1


def test_grhino_answers_after_a_pass():
    game = registry.get("othello")
    moves = moves_to_a_pass(game)
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)
    legal, seat = game.legal_moves(state), game.to_move(state)
    turn = Turn(1, "othello", seat, len(moves), game.to_json(state), legal, None, [], tuple(moves), {})

    async def ask() -> str:
        rhino = gtp.GtpEngine(engine_command("gtp-rhino --level 1"))
        try:
            return await BridgeAgent(rhino, "othello").on_turn(turn)
        finally:
            await rhino.stop()

    assert run(ask()) in legal


def test_a_position_the_bridge_cannot_read_resigns_rather_than_ending_the_match_task(caplog):
    turn = Turn(1, "othello", 1, 1, {}, ["c3", "e3"], None, [], ("z9",), {})

    async def ask() -> str:
        rhino = gtp.GtpEngine(engine_command("gtp-rhino --level 1"))
        try:
            return await BridgeAgent(rhino, "othello").on_turn(turn)
        finally:
            await rhino.stop()

    with pytest.raises(Resign, match="unreadable position"):
        run(ask())
    assert "no position to give the engine: resigning" in caplog.text


def test_gnubg_weighs_a_resignation_offer_by_its_cubeful_equity():
    """A lost race with the bridge's side winning a gammon: a single game declined, a gammon accepted;
    an even opening: a single game accepted."""
    game = registry.get("backgammon").with_options({"cube": True})
    state = game.to_json(game.apply(game.initial_state(), "open 3-1"))  # seat 0 to play 3-1

    async def answers() -> list[bool]:
        bg = gnubg.GnubgEngine(engine_command("gnubg"))
        agent = BridgeAgent(bg, "backgammon")
        try:
            offers = [
                ({"kind": "resign", "seat": 1, "level": "single", "points": 1}, position),
                ({"kind": "resign", "seat": 1, "level": "gammon", "points": 2}, position),
                ({"kind": "resign", "seat": 1, "level": "single", "points": 1}, state),
                ({"kind": "draw", "seat": 1}, state),
            ]
            return [await agent.on_offer(offer, where) for offer, where in offers]
        finally:
            await bg.stop()

    points = [0] * 24
    points[0], points[18] = 1, -15  # seat 0: one checker on its 1-point, 14 off; seat 1: all on its 6-point
    position = {**state, "points": points, "off": [14, 0], "bar": [0, 0], "dice": [], "turn": 0}
    assert run(answers()) == [False, True, True, False]
