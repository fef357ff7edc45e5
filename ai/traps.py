"""Playing for the win in a proved position (search option ``trap_model``).

When the search proves several moves equally good (every drawing move of a position
proved drawn, say), minimax has no preference between them. People do: after
some of those moves a person has many ways to go wrong, after others none. With
``trap_model`` set to an opponent model (``ai.opponents``, e.g. ``softmax:0.1``: a player
who judges each move by a one-ply look), the bot plays, among the moves proved best, the
one with the highest expected value against that model. Every candidate keeps what the
search proved, so a bot that could not lose still cannot.

Two-player games without dice, after an alpha-beta search that reached the end of the
game on every line (``stats.complete``) with exact values for every root move.
"""

from __future__ import annotations

import random
from typing import Any, Final, Generic

from ai import opponents
from ai.budget import Deadline, Timeout
from ai.evaluation import Evaluator
from ai.types import SearchOptions, SearchResult
from games.base import Game, Move, S

SAME: Final = 1e-9  # root values this close are the same proved value


def applies(game: Game[Any]) -> bool:
    return game.num_players == 2 and not game.has_chance


def prefer_traps(
    game: Game[S], state: S, result: SearchResult, model_spec: str, deadline: Deadline, rng: random.Random
) -> None:
    """Switch `result` to the proved-best move a fallible opponent most likely goes wrong against."""
    values: dict[Move, float] = result.stats.get("root_values", {})
    if not result.stats.get("complete") or not values:
        return
    best = max(values.values())
    candidates = [m for m, v in values.items() if v >= best - SAME]
    if len(candidates) < 2:
        return
    evaluator = Evaluator(game)
    model = opponents.build(model_spec, game, state, evaluator, SearchOptions())
    expectation = _Expectation(game, game.to_move(state), model, evaluator, deadline)
    try:
        expected = {m: expectation.value(game.apply(state, m)) for m in candidates}
    except Timeout:
        result.stats["trap"] = {"candidates": len(candidates), "finished": False}
        return
    top = max(expected.values())
    # Equal expectations (symmetric moves, mostly): vary, so that a player cannot learn one line.
    choice = rng.choice([m for m in candidates if expected[m] >= top - SAME])
    result.stats["trap"] = {"candidates": len(candidates), "finished": True, "expected": round(expected[choice], 6)}
    if choice != result.move:
        result.move, result.pv = choice, [choice]


class _Expectation(Generic[S]):
    """The expected utility for `seat` when it maximises and the opponent follows `model`.

    Searched to the end of the game, each position once (a memo): the positions are few
    when the search before it could afford to prove every line.
    """

    def __init__(
        self, game: Game[S], seat: int, model: opponents.OpponentModel, evaluator: Evaluator[S], deadline: Deadline
    ):
        self.game, self.seat, self.model, self.evaluate = game, seat, model, evaluator
        self.deadline = deadline
        self.memo: dict[object, float] = {}

    def value(self, state: S) -> float:
        key = self.game.key(state)
        if key not in self.memo:
            if self.deadline.expired():
                raise Timeout
            self.memo[key] = self._value(state)
        return self.memo[key]

    def _value(self, state: S) -> float:
        game = self.game
        if game.is_terminal(state):
            return game.returns(state)[self.seat]
        moves = game.legal_moves(state)
        children = [self.value(game.apply(state, m)) for m in moves]
        if game.to_move(state) == self.seat:
            return max(children)
        return sum(w * v for w, v in zip(self._weights(state, moves, children), children, strict=True))

    def _weights(self, state: S, moves: list[Move], children: list[float]) -> list[float]:
        """How likely the opponent is to play each move, under the model."""
        model, n = self.model, len(moves)
        if model.kind == "softmax":
            glance = opponents.shallow_values(self.game, state, self.evaluate)
            return opponents.softmax_weights([glance[m] for m in moves], model.temperature * self.game.max_utility)
        e = 1.0 if model.kind == "uniform" else model.epsilon
        worst = children.index(min(children))  # the opponent's best reply is our worst outcome
        return [(1 - e) * (i == worst) + e / n for i in range(n)]
