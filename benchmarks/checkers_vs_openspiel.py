"""Checkers: our Master (alpha-beta) against OpenSpiel's MCTS bot, move for move on both rule sets.

Needs ``pip install open-spiel==2.0.2`` (benchmark only).  OpenSpiel's bot: UCT constant 1.4,
one uniformly random rollout per simulation (RandomRolloutEvaluator(1), solve=False), a fixed
number of simulations a move; ours: the seeded Master profile's search (`games/checkers/spec.py`)
at the given budget.  Each move is played in both games (a multi-jump is one move here, one
action per jump there); a game ends where either rule set ends it, so OpenSpiel's stricter draw
(40 plies without a capture) counts.  First player alternates.

    nice .venv/bin/python benchmarks/checkers_vs_openspiel.py [games] [ms_per_move] [simulations]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from botplay import interval  # noqa: E402

import ai  # noqa: E402
from games.checkers import CHECKERS  # noqa: E402
from tests.games.checkers.test_openspiel import our_moves, square_name  # noqa: E402

C = 1.4


def master(ms: int, seed: int) -> ai.SearchConfig:
    seed_profile = next(s for s in CHECKERS.spec.ladder if s.level == 5)
    return ai.SearchConfig(algorithm=seed_profile.algorithm, time_budget_ms=ms, seed=seed, **seed_profile.settings)


def play(games: int, ms: int, simulations: int) -> None:
    game = pyspiel.load_game("checkers")
    wins = draws = losses = 0
    their_seconds = their_moves = 0.0
    our_depths: list[int] = []
    for g in range(games):
        rng = np.random.RandomState(g)
        bot = os_mcts.MCTSBot(
            game, C, simulations, os_mcts.RandomRolloutEvaluator(1, rng), solve=False, random_state=rng
        )
        ours_seat = g % 2
        state, theirs = CHECKERS.initial_state(), game.new_initial_state()
        while not CHECKERS.is_terminal(state) and not theirs.is_terminal():
            seat = CHECKERS.to_move(state)
            if seat == ours_seat:
                result = ai.choose_move(CHECKERS, state, master(ms, g * 1000 + state.ply))
                move = result.move
                our_depths.append(result.depth)
                path = [square_name(int(sq) - 1) for sq in move.replace("x", "-").split("-")]
                for start, to in zip(path, path[1:], strict=False):
                    action = next(a for a in theirs.legal_actions() if theirs.action_to_string(a) == start + to)
                    theirs.apply_action(action)
            else:
                started = time.perf_counter()
                squares: list[str] = []
                while not theirs.is_terminal() and theirs.current_player() == seat:
                    text = theirs.action_to_string(action := bot.step(theirs))
                    squares = squares or [text[:2]]
                    squares.append(text[2:])
                    theirs.apply_action(action)
                their_seconds += time.perf_counter() - started
                their_moves += 1
                move = our_moves(state)[tuple(squares)]
            state = CHECKERS.play(state, move)
        if CHECKERS.is_terminal(state):
            winner = CHECKERS.outcome(state).winner
        else:
            returns = theirs.returns()
            winner = None if returns[0] == 0 else (0 if returns[0] > 0 else 1)
        wins += winner == ours_seat
        losses += winner is not None and winner != ours_seat
        draws += winner is None
        print(f"  game {g + 1}: ours as {'black' if ours_seat == 0 else 'white'}, {state.ply} plies, "
              f"{'draw' if winner is None else 'won' if winner == ours_seat else 'lost'}", flush=True)  # fmt: skip
    score = (wins + draws / 2) / games
    depth = sorted(our_depths)[len(our_depths) // 2] if our_depths else 0
    print(f"Master ({ms} ms a move, median depth {depth}) against OpenSpiel MCTS ({simulations} simulations, "
          f"{their_seconds / max(their_moves, 1):.2f} s a move): {wins} wins, {draws} draws, {losses} losses; "
          f"score {score:.0%} ± {interval(score, games):.0%}")  # fmt: skip


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    play(*(args + [10, 500, 1000][len(args) :]))
