"""MCTS simulations per second on Connect Four beside OpenSpiel's Python MCTS bot, and a match.

Needs ``pip install open-spiel==2.0.2`` (benchmark only).  Both bots: UCT constant 1.4,
one uniformly random rollout per simulation (ours: progressive bias off, random
rollouts; OpenSpiel: RandomRolloutEvaluator(1), solve=False).

The match gives both bots equal time per move: ours runs on a deadline, OpenSpiel's bot
(which counts simulations) gets the number of simulations it runs in that time, measured
first.  First player alternates.

    .venv/bin/python benchmarks/mcts_vs_openspiel.py [games] [ms_per_move]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts

import ai
from games import registry

CONNECT4 = registry.get("connect4")
C = 1.4


def openspiel_bot(simulations: int, seed: int) -> os_mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = os_mcts.RandomRolloutEvaluator(1, rng)
    return os_mcts.MCTSBot(pyspiel.load_game("connect_four"), C, simulations, evaluator, solve=False, random_state=rng)


def ours(iterations: int | None, budget_ms: int, seed: int) -> ai.SearchConfig:
    return ai.SearchConfig(
        algorithm="mcts",
        time_budget_ms=budget_ms,
        max_iterations=iterations,
        seed=seed,
        options={"c": C, "progressive_bias": 0, "rollout": "random"},
    )


def rates(simulations: int = 2000) -> tuple[float, float]:
    game = pyspiel.load_game("connect_four")
    bot = openspiel_bot(simulations, 1)
    started = time.perf_counter()
    bot.step(game.new_initial_state())
    theirs = simulations / (time.perf_counter() - started)
    started = time.perf_counter()
    result = ai.choose_move(CONNECT4, CONNECT4.initial_state(), ours(simulations, 600_000, 1))
    mine = result.stats["iterations"] / (time.perf_counter() - started)
    return mine, theirs


def play(games: int, ms: int, their_rate: float) -> tuple[int, int, int]:
    wins = draws = losses = 0
    their_sims = max(10, int(their_rate * ms / 1000))
    for g in range(games):
        ours_first = g % 2 == 0
        state = CONNECT4.initial_state()
        os_state = pyspiel.load_game("connect_four").new_initial_state()
        bot = openspiel_bot(their_sims, g)
        ply = 0
        while not CONNECT4.is_terminal(state):
            our_turn = (ply % 2 == 0) == ours_first
            if our_turn:
                move = ai.choose_move(CONNECT4, state, ours(None, ms, g * 1000 + ply)).move
            else:
                move = str(bot.step(os_state) + 1)
            state = CONNECT4.play(state, move)
            os_state.apply_action(int(move) - 1)
            ply += 1
        returns = CONNECT4.returns(state)
        mine = returns[0] if ours_first else returns[1]
        wins += mine > 0
        draws += mine == 0
        losses += mine < 0
    return wins, draws, losses


def main(games: int, ms: int) -> None:
    mine, theirs = rates()
    print("MCTS simulations per second, Connect Four, empty board, 2000 simulations")
    print(f"  ours {mine:8.0f}/s   OpenSpiel MCTSBot {theirs:8.0f}/s   ratio {mine / theirs:.2f}x")
    wins, draws, losses = play(games, ms, theirs)
    score = (wins + draws / 2) / games
    print(
        f"Match, {games} games, {ms} ms per move each (OpenSpiel: {int(theirs * ms / 1000)} simulations), "
        f"first player alternating"
    )
    print(f"  ours: {wins} wins, {draws} draws, {losses} losses; score {score:.0%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100, int(sys.argv[2]) if len(sys.argv) > 2 else 100)
