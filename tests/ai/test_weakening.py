"""Weakened play looks human: it slips on deep wins, never throws the game away."""

from __future__ import annotations

import random

import pytest

import ai
import ai.weakening
from ai.evaluation import Evaluator
from ai.weakening import BLUNDER_MARGIN, SLIP_SHARE, pick
from games import registry
from games.base import CHANCE
from tests.ai.trees import exact_value

TICTACTOE = registry.get("tictactoe")
CONNECT4 = registry.get("connect4")


def test_a_slip_is_a_plausible_move_never_a_proven_loss():
    values = {"a": 0.5, "b": 0.4, "c": -0.99, "d": -0.3}
    rng = random.Random(1)
    chosen = {pick(values, "a", slip_rate=1.0, temperature=0, max_utility=1, rng=rng)[0] for _ in range(200)}
    assert chosen <= {"b", "d"} and "b" in chosen  # never the loss, mostly the close second


def test_a_temperature_spreads_slips_evenly_and_never_below_the_floor():
    # Backgammon's scale: the floor is at 0.0, so "e" is never a slip and "a" is the best.
    values = {"a": 1.0, "b": 0.9, "c": 0.7, "d": 0.6, "e": -1.0}

    def shares(temperature: float) -> dict[str, float]:
        rng = random.Random(3)
        picks = [pick(values, "a", slip_rate=1.0, temperature=temperature, max_utility=3, rng=rng) for _ in range(3000)]
        assert {why for _, why in picks} == {"slip"}
        return {m: sum(move == m for move, _ in picks) / len(picks) for m in values}

    close = shares(0)  # slips lean to the close second
    assert close["a"] == close["e"] == 0 and close["b"] > 0.45 and close["d"] < 0.25
    even = shares(5)  # the weakest level: any sane second choice, the weaker as often as the better
    assert even["a"] == even["e"] == 0 and all(0.3 < even[m] < 0.37 for m in "bcd")


def test_a_win_on_the_next_move_is_always_taken():
    values = {"a": 0.999, "b": 0.1}
    rng = random.Random(1)
    for _ in range(50):
        assert pick(values, "a", slip_rate=1.0, temperature=1.0, max_utility=1, rng=rng, immediate_win=True)[0] == "a"


@pytest.mark.parametrize("algorithm", ["alphabeta", "expectimax", "mcts"])
def test_weak_tictactoe_bot_takes_wins_and_blocks(algorithm):
    take = TICTACTOE.from_json({"board": [0, 0, None, 1, 1, None, None, None, None]})
    block = TICTACTOE.from_json({"board": [0, 0, None, None, 1, None, None, None, None]})
    for seed in range(15):
        config = ai.SearchConfig(
            algorithm=algorithm, slip_rate=0.5, temperature=0.3, max_depth=2, seed=seed, max_iterations=400
        )
        assert ai.choose_move(TICTACTOE, take, config).move == "3"
        assert ai.choose_move(TICTACTOE, block, config).move == "3"


def test_weak_bot_makes_mistakes_but_no_immediate_blunders():
    rng = random.Random(4)
    memo: dict = {}
    slips = 0
    for game_no in range(30):
        state = TICTACTOE.initial_state()
        while not TICTACTOE.is_terminal(state):
            if TICTACTOE.to_move(state) == 0:
                # Slips stay in the better half of the root values, so it takes many to lose a tic-tac-toe draw.
                config = ai.SearchConfig(slip_rate=0.7, max_depth=2, seed=game_no * 10 + len(state.board))
                result = ai.choose_move(TICTACTOE, state, config)
                after = TICTACTOE.play(state, result.move)
                before = exact_value(TICTACTOE, state, memo)
                now = (
                    TICTACTOE.returns(after)[0]
                    if TICTACTOE.is_terminal(after)
                    else -exact_value(TICTACTOE, after, memo)
                )
                slips += now < before
                if not TICTACTOE.is_terminal(after):
                    # No blunder: the opponent cannot win on its very next move.
                    for reply in TICTACTOE.legal_moves(after):
                        done = TICTACTOE.apply(after, reply)
                        assert not (TICTACTOE.is_terminal(done) and TICTACTOE.returns(done)[1] > 0), state.board
                state = after
            else:
                state = TICTACTOE.apply(state, rng.choice(TICTACTOE.legal_moves(state)))
    assert slips > 0  # it is weaker than perfect


def test_depth_cap_misses_a_deep_win_that_full_strength_finds():
    # A Connect Four endgame (solver test set) where the side to move wins late.
    state = CONNECT4.from_moves("5554224333234511764415115")  # score 4: a win eight plies on or so
    strong = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=3000, seed=1))
    weak = ai.choose_move(CONNECT4, state, ai.SearchConfig(time_budget_ms=3000, max_depth=2, seed=1))
    assert weak.depth <= 2 < strong.depth
    assert abs(weak.value) < 0.9  # a beginner does not see the forced win coming


@pytest.mark.parametrize("style", ["balanced", "aggressive", "defensive"])
def test_styles_change_the_evaluation_not_the_rules(style):
    state = CONNECT4.from_moves("4433")
    ev = Evaluator(CONNECT4, style)
    assert -1 < ev(state, 0) < 1
    result = ai.choose_move(CONNECT4, state, ai.SearchConfig(style=style, time_budget_ms=100, seed=1))
    assert result.move in CONNECT4.legal_moves(state)


def test_aggressive_and_defensive_weigh_threats_differently():
    state = CONNECT4.from_moves("4433")
    aggressive, defensive = Evaluator(CONNECT4, "aggressive"), Evaluator(CONNECT4, "defensive")
    assert aggressive.draw_value < 0 < defensive.draw_value
    if hasattr(CONNECT4, "evaluate_terms"):
        assert aggressive(state, 0) != defensive(state, 0)


@pytest.mark.parametrize(
    ("game_id", "algorithm"),
    [("connect4", "alphabeta"), ("backgammon", "expectimax"), ("chinese-checkers", "maxn"), ("othello", "mcts")],
)
def test_every_searcher_reports_its_weakened_pick_alike(game_id, algorithm):
    """The one weakening step: the pick's own value and line, and the best move kept aside."""
    game = registry.get(game_id)
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    for seed in range(30):
        config = ai.SearchConfig(
            algorithm=algorithm, slip_rate=1.0, max_depth=1, max_iterations=60, seed=seed, time_budget_ms=60_000
        )
        result = ai.choose_move(game, state, config)
        if result.stats["choice"] == "slip":
            values = result.stats.get("root_values") or result.stats.get("values")
            assert result.stats["best_move"] != result.move
            assert result.value == pytest.approx(values[result.move], abs=1e-6) and result.pv[0] == result.move
            return
    pytest.fail("no slip in 30 searches at slip_rate 1")


# --- the promise on the bot pages, in every game's own scale ---------------------------------

SLIP_CASES = [
    # (game, algorithm, depth, iterations): each game searched the way its weakened ladder bots search
    ("tictactoe", "alphabeta", 1, None),
    ("connect4", "alphabeta", 2, None),
    ("othello", "alphabeta", 1, None),
    ("othello", "mcts", None, 60),
    ("backgammon", "expectimax", 1, None),
    ("chinese-checkers", "maxn", 1, None),
    ("chinese-checkers-2", "alphabeta", 1, None),
]


def _random_position(game, rng: random.Random, plies: int):
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    while not game.is_terminal(state) and game.to_move(state) == CHANCE:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return None if game.is_terminal(state) else state


@pytest.mark.parametrize(("game_id", "algorithm", "depth", "iterations"), SLIP_CASES)
def test_no_slip_is_beyond_the_stated_margin(monkeypatch, game_id, algorithm, depth, iterations):
    """A slip keeps within half the spread of the root values and half the stakes of the best."""
    game = registry.get(game_id)
    seen: list[tuple[dict, str, str]] = []
    real = ai.weakening.configured_pick

    def spy(config, values, best, max_utility, rng, immediate_win=False):
        move, why = real(config, values, best, max_utility, rng, immediate_win)
        seen.append((dict(values), best, move))
        return move, why

    monkeypatch.setattr(ai.weakening, "configured_pick", spy)
    rng = random.Random(7)
    for seed in range(40):
        state = _random_position(game, rng, rng.randrange(0, 30))
        if state is None or len(game.legal_moves(state)) < 2:
            continue
        config = ai.SearchConfig(
            algorithm=algorithm, slip_rate=1.0, max_depth=depth, max_iterations=iterations, seed=seed
        )
        ai.choose_move(game, state, config)
    slips = 0
    decisive = 0.95 * game.max_utility
    for values, best, move in seen:
        if move == best or values[move] > decisive:
            continue
        slips += 1
        shown = [max(-decisive, min(decisive, v)) for v in values.values()]
        top, spread = max(shown), max(shown) - min(shown)
        value = max(-decisive, min(decisive, values[move]))  # proven results count as `decisive`
        assert value >= top - SLIP_SHARE * spread - 1e-9, (values, move)
        assert value >= top - BLUNDER_MARGIN * game.max_utility - 1e-9, (values, move)
    assert slips >= 5
