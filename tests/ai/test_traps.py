"""Playing for the win in proved positions: only proved-best moves, the most treacherous first."""

from __future__ import annotations

import random

import ai
from ai import opponents
from ai.budget import Deadline
from ai.evaluation import Evaluator
from ai.traps import prefer_traps
from ai.types import SearchResult
from games import registry
from tests.ai.trees import exact_value, random_position

TICTACTOE = registry.get("tictactoe")
TRAPS = {"trap_model": "softmax:0.1"}


def config(**options) -> ai.SearchConfig:
    return ai.SearchConfig(algorithm="alphabeta", time_budget_ms=5000, seed=1, options=options)


def test_the_opening_sets_the_corner_trap():
    """After a corner only the centre holds the draw; after the centre every reply does."""
    plain = ai.choose_move(TICTACTOE, TICTACTOE.initial_state(), config())
    trap = ai.choose_move(TICTACTOE, TICTACTOE.initial_state(), config(**TRAPS))
    assert plain.move == "5"
    assert trap.move in {"1", "3", "7", "9"}
    assert trap.stats["trap"] == {"candidates": 9, "finished": True, "expected": trap.stats["trap"]["expected"]}
    assert trap.stats["trap"]["expected"] > 0


def test_only_proved_best_moves_are_played():
    """From random positions of every phase the chosen move keeps the game-theoretic value."""
    memo: dict = {}
    rng = random.Random(7)
    for _ in range(60):
        state = random_position(TICTACTOE, rng, rng.randrange(0, 7))
        if TICTACTOE.is_terminal(state):
            continue
        seat = TICTACTOE.to_move(state)
        chosen = TICTACTOE.apply(state, ai.choose_move(TICTACTOE, state, config(**TRAPS)).move)
        after = (
            TICTACTOE.returns(chosen)[seat] if TICTACTOE.is_terminal(chosen) else -exact_value(TICTACTOE, chosen, memo)
        )
        assert after == exact_value(TICTACTOE, state, memo)


def test_the_trap_setter_never_loses_and_wins_more_against_a_fallible_player():
    """Against the player the model describes (a one-ply glance, softmax choice), more games are won."""
    evaluator = Evaluator(TICTACTOE)

    def score(options: dict) -> tuple[int, int]:
        wins = losses = 0
        for game_index in range(40):
            rng = random.Random(game_index)
            state, bot_seat = TICTACTOE.initial_state(), game_index % 2
            while not TICTACTOE.is_terminal(state):
                if TICTACTOE.to_move(state) == bot_seat:
                    move = ai.choose_move(TICTACTOE, state, config(**options)).move
                else:
                    glance = opponents.shallow_values(TICTACTOE, state, evaluator)
                    weights = opponents.softmax_weights(list(glance.values()), 0.1)
                    move = rng.choices(list(glance), weights)[0]
                state = TICTACTOE.apply(state, move)
            wins += TICTACTOE.returns(state)[bot_seat] > 0
            losses += TICTACTOE.returns(state)[bot_seat] < 0
        return wins, losses

    plain_wins, plain_losses = score({})
    trap_wins, trap_losses = score(TRAPS)
    assert plain_losses == trap_losses == 0
    assert trap_wins > plain_wins


def test_out_of_time_the_search_move_stands():
    state = TICTACTOE.initial_state()
    result = ai.choose_move(TICTACTOE, state, config())
    before = result.move
    prefer_traps(TICTACTOE, state, result, "softmax:0.1", Deadline.after_ms(0), random.Random(1))
    assert result.move == before
    assert result.stats["trap"]["finished"] is False


def test_unproved_values_are_left_alone():
    """A depth-capped search has not proved its values: no trap choice on top of it."""
    result = SearchResult(move="5", stats={"root_values": {"5": 0.1, "1": 0.1}})
    prefer_traps(TICTACTOE, TICTACTOE.initial_state(), result, "softmax:0.1", Deadline.after_ms(1000), random.Random(1))
    assert result.move == "5" and "trap" not in result.stats
