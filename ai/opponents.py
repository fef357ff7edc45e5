"""Opponent models for expectimax: how likely the opponent is to play each move.

``SearchConfig.opponent_model`` names one:

- ``None`` or ``"optimal"``: the opponent minimises (expectiminimax, alpha-beta prunes);
- ``"uniform"``: every legal move alike;
- ``"epsilon:E"``: the best reply with probability ``1 - E``, otherwise a uniformly
  random move (so it finds the best reply ``1 - E + E / k`` of the time among k moves);
- ``"softmax:T"``: moves weighted by ``exp(value / T)`` where value is a one-ply look from
  the opponent's side (its own evaluation), T in units of ``max_utility``: a player
  who sees what is in front of it and misjudges the rest;
- ``"adaptive"``: epsilon-optimal with E fitted from the moves this opponent actually
  played in the match (``MatchMemory``), starting from a strong prior so that the bot is
  safe against an unknown player and exploits a weak one once it has seen it err.

Observed moves reach the model in two ways: the option ``opponent_moves`` (a list of
``{"state": <game json>, "move": "..."}`` the caller kept), and, when the option
``match_id`` is given, a per-process memory that sees each position the bot
is asked about and recovers the opponent's reply between two of them.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Final, Generic

from ai.evaluation import Evaluator
from ai.types import SearchOptions
from games.base import CHANCE, Game, Move, S

PRIOR_STRENGTH: Final = 4.0  # pseudo-observations of a strong opponent before any real one
PRIOR_EPSILON: Final = 0.05
MEMORY_MATCHES: Final = 256
BEST_TOLERANCE: Final = 0.02  # a move this close (in max_utility units) to the best counts as best


@dataclass(frozen=True)
class OpponentModel:
    kind: str  # optimal, uniform, epsilon, softmax
    epsilon: float = 0.0
    temperature: float = 0.0

    @property
    def prunes_like_min(self) -> bool:
        return self.kind == "optimal" or (self.kind == "epsilon" and self.epsilon == 0)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "epsilon": round(self.epsilon, 4), "temperature": self.temperature}


def parse(spec: str | None) -> tuple[str, float]:
    """("optimal" | "uniform" | "epsilon" | "softmax" | "adaptive", parameter)."""
    if spec is None or spec in ("optimal", "minimax"):
        return "optimal", 0.0
    name, _, arg = spec.partition(":")
    if name == "uniform":
        return "uniform", 0.0
    if name == "adaptive":
        return "adaptive", 0.0
    if name in ("epsilon", "softmax"):
        try:
            value = float(arg)
        except ValueError:
            raise ValueError(f"opponent model {spec!r} needs a number, e.g. {name}:0.3") from None
        if name == "epsilon" and not 0 <= value <= 1:
            raise ValueError("epsilon is a probability, between 0 and 1")
        if name == "softmax" and value <= 0:
            raise ValueError("a softmax temperature is positive")
        return name, value
    raise ValueError(f"unknown opponent model {spec!r}; known: optimal, uniform, epsilon:E, softmax:T, adaptive")


def shallow_values(game: Game[S], state: S, evaluator: Evaluator[S]) -> dict[Move, float]:
    """Each move's value to the seat to move, one ply deep: what a player sees at a glance."""
    seat = game.to_move(state)
    out = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            out[move] = game.returns(child)[seat]
        elif game.to_move(child) == CHANCE:
            out[move] = sum(
                p * _glance(game, game.apply(child, m), seat, evaluator) for m, p in game.chance_outcomes(child)
            )
        else:
            out[move] = evaluator(child, seat)
    return out


def _glance(game: Game[S], state: S, seat: int, evaluator: Evaluator[S]) -> float:
    return game.returns(state)[seat] if game.is_terminal(state) else evaluator(state, seat)


def softmax_weights(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass
class Observations(Generic[S]):
    """How often an opponent played its best move, against how often chance alone would."""

    played_best: float = 0.0
    count: int = 0
    chance_best: float = 0.0  # sum over observations of 1 / (number of best-looking moves' share)

    def epsilon(self) -> float:
        """The fitted error rate, pulled towards a strong opponent while evidence is thin."""
        n = self.count + PRIOR_STRENGTH
        hit_rate = (self.played_best + PRIOR_STRENGTH * (1 - PRIOR_EPSILON)) / n
        by_chance = (self.chance_best + PRIOR_STRENGTH * 0.0) / n
        # hit = (1 - e) + e * by_chance  =>  e = (1 - hit) / (1 - by_chance)
        if by_chance >= 1:
            return PRIOR_EPSILON
        return max(0.0, min(1.0, (1 - hit_rate) / (1 - by_chance)))

    def observe(self, game: Game[S], state: S, move: Move, evaluator: Evaluator[S]) -> None:
        values = shallow_values(game, state, evaluator)
        if move not in values or len(values) < 2:
            return
        top = max(values.values())
        best = [m for m, v in values.items() if v >= top - BEST_TOLERANCE * game.max_utility]
        self.count += 1
        self.chance_best += len(best) / len(values)
        if move in best:
            self.played_best += 1


@dataclass
class MatchMemory:
    last_key: Hashable | None = None  # the position after the bot's previous move
    last_state: Any = None
    observations: Observations[Any] = field(default_factory=Observations)


_MEMORY: OrderedDict[Hashable, MatchMemory] = OrderedDict()


def memory_for(match_key: Hashable) -> MatchMemory:
    memory = _MEMORY.pop(match_key, None) or MatchMemory()
    _MEMORY[match_key] = memory
    while len(_MEMORY) > MEMORY_MATCHES:
        _MEMORY.popitem(last=False)
    return memory


def fit(
    game: Game[S],
    state: S,
    evaluator: Evaluator[S],
    options: SearchOptions,
) -> Observations[S]:
    """Observations of the opponent from the caller's list and from the match memory."""
    seen: Observations[S] = Observations()
    for item in options.opponent_moves:
        seen.observe(game, game.from_json(item["state"]), item["move"], evaluator)
    match_id = options.match_id
    if match_id is not None:
        memory = memory_for(("opponent", match_id, game.id, game.to_move(state)))
        if memory.last_state is not None:
            # The opponent's reply: the move from our last position that leads here.
            before = memory.last_state
            if not game.is_terminal(before) and game.to_move(before) not in (CHANCE, game.to_move(state)):
                key = game.key(state)
                for move in game.legal_moves(before):
                    if game.key(game.apply(before, move)) == key:
                        memory.observations.observe(game, before, move, evaluator)
                        break
        seen.played_best += memory.observations.played_best
        seen.count += memory.observations.count
        seen.chance_best += memory.observations.chance_best
    return seen


def remember_move(game: Game[S], state: S, move: Move, options: SearchOptions) -> None:
    """Record the position after the bot's move, to recover the opponent's reply next time."""
    match_id = options.match_id
    if match_id is None:
        return
    memory = memory_for(("opponent", match_id, game.id, game.to_move(state)))
    memory.last_state = game.apply(state, move)


def build(spec: str | None, game: Game[S], state: S, evaluator: Evaluator[S], options: SearchOptions) -> OpponentModel:
    kind, arg = parse(spec)
    if kind == "adaptive":
        return OpponentModel("epsilon", epsilon=fit(game, state, evaluator, options).epsilon())
    if kind == "epsilon":
        return OpponentModel("epsilon", epsilon=arg)
    if kind == "softmax":
        return OpponentModel("softmax", temperature=arg)
    return OpponentModel(kind)
