"""One conformance test for every registered game (docs/design.md §2), by random playouts.

Each game in `games.registry.all()` is played from its initial state with seeded
random moves (chance moves drawn with their probabilities), and at every state
the Game API contract is checked: moves are canonical strings, `play` accepts
each legal move and refuses anything else with `IllegalMove` without changing the
state, terminal states have no moves and well-formed returns, JSON and keys
round trip, chance probabilities sum to 1, and the ply counts every move.  A game with
options (`GameSpec.options`) is checked as each option alone configures it and with every
on/off option on, where that is a valid setting.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Hashable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import CHANCE, Game, IllegalMove, registry


def variants(game: Game) -> list[Game]:
    """`game` as each of its options alone changes it, then with every on/off option on (valid ones)."""
    settings: list[dict[str, object]] = [{o.name: not o.default if isinstance(o.default, bool) else min(o.high, 3)}
                                         for o in game.spec.options]  # fmt: skip
    settings.append({o.name: True for o in game.spec.options if isinstance(o.default, bool)})
    found: list[Game] = []
    for options in settings:
        try:
            variant = game.with_options(options)
        except ValueError:
            continue
        if variant is not game and all(v.options != variant.options for v in found):
            found.append(variant)
    return found


def label(game: Game) -> str:
    changed = {k: v for k, v in game.options.items() if v != registry.get(game.id).options[k]}
    return game.id + "".join(f"-{k}={v}" for k, v in changed.items())


GAMES = [v for g in registry.all() for v in (g, *variants(g))]
IDS = [label(g) for g in GAMES]
MAX_PLIES = 3000  # every game must end well within this under random play
FULL_CHECK_EVERY = 7  # play every legal move at one state in this many (and at the start)
MAX_MOVES_CHECKED = 40

NOT_MOVES = ["", " ", "resign", "undo", "\x00", "9999", "pass pass", "zz99", "a1 a1 a1", "roll 7-7", "bar/off"]


def roundtrip(game: Game, state: Any) -> Any:
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


def check_metadata(game: Game) -> None:
    assert game.id == game.id.lower() and " " not in game.id
    assert isinstance(game.name, str) and game.name
    assert isinstance(game.num_players, int) and game.num_players >= 1
    assert game.max_utility > 0
    registered = registry.get(game.id)
    assert registered.with_options(game.options).options == game.options
    assert game is registered or game.options != registered.options


def check_terminal(game: Game, state: Any) -> None:
    assert game.legal_moves(state) == []
    outcome = game.outcome(state)
    returns = game.returns(state)
    assert len(returns) == game.num_players
    assert list(outcome.returns) == returns
    assert all(isinstance(r, (int, float)) and abs(r) <= game.max_utility for r in returns)
    if game.zero_sum:
        assert math.isclose(sum(returns), 0.0, abs_tol=1e-9), returns
    if outcome.winner is not None:
        assert 0 <= outcome.winner < game.num_players
        assert returns[outcome.winner] == max(returns)
    if outcome.ranking:
        assert sorted(outcome.ranking) == list(range(game.num_players))
        assert [returns[s] for s in outcome.ranking] == sorted(returns, reverse=True)
    assert isinstance(outcome.reason, str) and outcome.reason
    json.dumps(outcome.to_json())
    with pytest.raises(IllegalMove, match="over"):
        game.play(state, "anything")


def check_live(game: Game, state: Any, full: bool, rng: random.Random) -> list[str]:
    seat = game.to_move(state)
    moves = game.legal_moves(state)
    assert moves, "a live state has at least one legal move (a pass is a move)"
    assert all(isinstance(m, str) and m for m in moves)
    assert len(set(moves)) == len(moves), "legal moves are listed once each"
    with pytest.raises(ValueError):
        game.outcome(state)
    ply = game.ply(state)
    if seat == CHANCE:
        assert game.has_chance
        outcomes = game.chance_outcomes(state)
        probabilities = [p for _, p in outcomes]
        assert all(0 < p <= 1 for p in probabilities)
        assert math.isclose(sum(probabilities), 1.0, abs_tol=1e-9)
        assert sorted(m for m, _ in outcomes) == sorted(moves)
    else:
        assert 0 <= seat < game.num_players
        for s in range(game.num_players):
            value = game.evaluate(state, s)
            assert -game.max_utility <= value <= game.max_utility
        ordered = game.order_moves(state, moves)
        assert sorted(ordered) == sorted(moves)
        assert game.rollout_move(state, rng) in moves
    before = game.to_json(state)
    checked = moves if full else rng.sample(moves, min(3, len(moves)))
    for move in checked[:MAX_MOVES_CHECKED]:
        child = game.play(state, move)
        assert game.ply(child) == ply + 1
        assert game.apply(state, move) == child, "apply and play agree"
    legal = set(moves)
    for junk in NOT_MOVES + [m.upper() + "!" for m in moves[:3]]:
        if junk in legal:
            continue
        with pytest.raises(IllegalMove) as info:
            game.play(state, junk)
        assert str(info.value), "an illegal move says why"
    assert game.to_json(state) == before, "refused moves leave the state as it was"
    return moves


def check_state(game: Game, state: Any) -> None:
    data = game.to_json(state)
    assert isinstance(data, dict)
    restored = roundtrip(game, state)
    assert restored == state
    key = game.key(state)
    assert isinstance(key, Hashable)
    hash(key)
    assert game.key(restored) == key
    assert game.is_terminal(restored) == game.is_terminal(state)
    if not game.is_terminal(state):
        assert game.to_move(restored) == game.to_move(state)
        assert game.legal_moves(restored) == game.legal_moves(state)
    with pytest.raises(ValueError):
        game.from_json({})
    with pytest.raises(ValueError):
        game.from_json({k: "nonsense" for k in data})


def playout(game: Game, rng: random.Random, pick: Any = None) -> int:
    """Play one game to the end, checking every state; returns its length."""
    state = game.initial_state()
    assert game.ply(state) == 0
    for ply in range(MAX_PLIES):
        check_state(game, state)
        if game.is_terminal(state):
            check_terminal(game, state)
            return ply
        moves = check_live(game, state, full=ply % FULL_CHECK_EVERY == 0, rng=rng)
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        elif pick is not None:
            move = moves[pick(len(moves))]
        else:
            move = rng.choice(moves)
        child = game.play(state, move)
        assert game.ply(child) == ply + 1
        state = child
    raise AssertionError(f"{game.id}: no end after {MAX_PLIES} random plies")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_metadata(game: Game) -> None:
    check_metadata(game)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_playouts_keep_the_contract(game: Game, seed: int) -> None:
    playout(game, random.Random(f"{game.id}-{seed}"))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_equal_states_have_equal_keys(game: Game) -> None:
    rng = random.Random(game.id)
    state = game.initial_state()
    for _ in range(12):
        if game.is_terminal(state):
            break
        move = game.rollout_move(state, rng)
        a, b = game.play(state, move), game.play(state, move)
        assert a == b and hash(game.key(a)) == hash(game.key(b))
        state = a


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_rollouts_reach_the_end(game: Game) -> None:
    """The game's own rollout policy finishes games quickly (MCTS depends on it)."""
    rng = random.Random(1)
    state = game.initial_state()
    for _ in range(MAX_PLIES):
        if game.is_terminal(state):
            break
        state = game.apply(state, game.rollout_move(state, rng))
    assert game.is_terminal(state)
    assert len(game.returns(state)) == game.num_players


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_hypothesis_playouts(game: Game) -> None:
    @settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        seed = data.draw(st.integers(0, 2**32 - 1))
        playout(game, random.Random(seed), pick=lambda n: data.draw(st.integers(0, n - 1)))

    run()
