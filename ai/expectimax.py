"""Expectimax / expectiminimax with opponent models, iterative deepening under a deadline.

Values are from the searching seat's point of view.  Its own nodes maximise; chance
nodes take the expectation over `chance_outcomes()`; the opponent's nodes follow the
opponent model (`ai.opponents`): the minimum for an optimal opponent, otherwise a
weighted mean of the replies.

Pruning uses the bounds the game declares (every value lies in
``[-max_utility, max_utility]``): at a chance node (Star1) and at a modelled opponent
node, once the children seen so far and the bounds of the unseen ones put the node's
value outside the window, the rest is skipped; with the optimal model the opponent's
nodes are ordinary alpha-beta min nodes.

``exact_root`` (an option of every searcher): every root move gets its exact value (a full window,
as a weakened bot needs), not only the best one -- for analysis, which measures how
much the played move lost against the best.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, Generic

from ai import opponents
from ai.budget import Deadline, Timeout, collector_paused
from ai.deepening import deepen
from ai.evaluation import Evaluator
from ai.opponents import OpponentModel, softmax_weights
from ai.searcher import Capability, Searcher
from ai.types import SearchConfig, SearchOptions, SearchResult
from ai.weakening import is_weakened, weaken
from games.base import CHANCE, Game, Move, S

INF: Final = float("inf")
SOONER: Final = 1e-3  # a terminal utility shrinks by this fraction per ply: wins sooner, losses later
CHECK_EVERY: Final = 0  # a mask on the node count: 0 checks the clock at every node (a node with dice can take ms)


@dataclass(frozen=True)
class ExpectimaxOptions(SearchOptions):
    pass


class Expectimax(Generic[S]):
    def __init__(
        self, game: Game[S], seat: int, model: OpponentModel, evaluator: Evaluator[S], deadline: Deadline | None
    ):
        if game.num_players != 2:
            raise ValueError(f"expectimax here is for two players; {game.name} has {game.num_players}: use maxn")
        self.game = game
        self.seat = seat
        self.model = model
        self.evaluate = evaluator
        self.deadline = deadline
        self.bound = game.max_utility
        self.nodes = 0
        self.depth_cut = False
        self.root_state: S = None  # type: ignore[assignment]  # what `iterate` searches, set before the first iteration
        self.exact_root = False  # every root move gets a full window (its exact value)

    def iterate(self, depth: int, moves: list[Move], values: dict[Move, float]) -> None:
        """One iteration of iterative deepening over the root moves (`ai.deepening`)."""
        game, state = self.game, self.root_state
        best = -INF
        for move in moves:
            alpha = -INF if self.exact_root else best
            values[move] = self.value(game.apply(state, move), depth - 1, alpha, INF, 1)
            best = max(best, values[move])

    def value(self, state: S, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of `state` for the searching seat, exact when inside (alpha, beta)."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and self.deadline is not None and self.deadline.expired():
            raise Timeout
        game = self.game
        if game.is_terminal(state):
            utility = game.returns(state)[self.seat]
            if utility == 0:
                return self.evaluate.draw_value
            return utility * (1 - SOONER * ply)
        if depth <= 0:
            self.depth_cut = True
            return self.evaluate(state, self.seat)
        mover = game.to_move(state)
        if mover == CHANCE:
            return self.chance(state, depth, alpha, beta, ply)
        moves = game.order_moves(state, game.legal_moves(state))
        if mover == self.seat:
            best = -INF
            for move in moves:
                best = max(best, self.value(game.apply(state, move), depth - 1, max(alpha, best), beta, ply + 1))
                if best >= beta:
                    break
            return best
        if self.model.prunes_like_min:
            worst = INF
            for move in moves:
                worst = min(worst, self.value(game.apply(state, move), depth - 1, alpha, min(beta, worst), ply + 1))
                if worst <= alpha:
                    break
            return worst
        return self.modelled(state, moves, depth, alpha, beta, ply)

    def chance(self, state: S, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Expectation over the outcomes, with Star1 cutoffs from the value bounds."""
        game, low, high = self.game, -self.bound, self.bound
        outcomes = game.chance_outcomes(state)
        total, left = 0.0, 1.0
        for move, p in outcomes:
            left -= p
            # The child's window: what it must reach for this node to leave (alpha, beta).
            child_alpha = (alpha - total - left * high) / p
            child_beta = (beta - total - left * low) / p
            v = self.value(
                game.apply(state, move), depth, max(child_alpha, low - 1), min(child_beta, high + 1), ply + 1
            )
            total += p * v
            if total + left * high <= alpha:
                return total + left * high
            if total + left * low >= beta:
                return total + left * low
        return total

    def modelled(self, state: S, moves: list[Move], depth: int, alpha: float, beta: float, ply: int) -> float:
        """An opponent node valued by the model: a weighted mean of the replies, cut by bounds."""
        game, low, high = self.game, -self.bound, self.bound
        n = len(moves)
        model = self.model
        if model.kind == "softmax":
            glance = opponents.shallow_values(game, state, self.evaluate)
            weights = softmax_weights([glance[m] for m in moves], model.temperature * self.bound)
            total, left = 0.0, 1.0
            for move, w in zip(moves, weights, strict=True):
                left -= w
                total += w * self.value(game.apply(state, move), depth - 1, -INF, INF, ply + 1)
                if total + left * high <= alpha:
                    return total + left * high
                if total + left * low >= beta:
                    return total + left * low
            return total
        # epsilon-optimal (uniform is epsilon = 1): (1 - e) * min + e * mean
        e = 1.0 if model.kind == "uniform" else model.epsilon
        worst, total = INF, 0.0
        for i, move in enumerate(moves):
            v = self.value(game.apply(state, move), depth - 1, -INF, INF, ply + 1)
            worst, total = min(worst, v), total + v
            left = n - i - 1
            if left:
                upper = (1 - e) * worst + e * (total + left * high) / n
                lower = (1 - e) * low + e * (total + left * low) / n
                if upper <= alpha:
                    return upper
                if lower >= beta:
                    return lower
        return (1 - e) * worst + e * total / n


def search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    with collector_paused():
        return _search(game, state, config, deadline, rng)


def _search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    options = config.options
    evaluator = Evaluator(game, config.style)
    seat = game.to_move(state)
    model = opponents.build(config.opponent_model, game, state, evaluator, options)
    searcher = Expectimax(game, seat, model, evaluator, deadline)
    moves = game.order_moves(state, game.legal_moves(state))
    result = SearchResult(move=moves[0], algorithm="expectimax")
    result.stats["opponent_model"] = model.to_json()
    weakened = is_weakened(config.slip_rate, config.temperature)
    searcher.root_state, searcher.exact_root = state, weakened or options.exact_root
    values = deepen(searcher, result, moves, range(1, (config.max_depth or 64) + 1))
    result.nodes = searcher.nodes
    result.stats["root_values"] = {m: round(v, 6) for m, v in values.items()}
    weaken(result, config, values, game.max_utility, rng)
    opponents.remember_move(game, state, result.move, options)
    return result


SEARCHER = Searcher(
    id="expectimax",
    label="expectimax",
    summary="Looks ahead through the dice, weighing each roll by its chance and the opponent by a model.",
    run=search,
    options=ExpectimaxOptions,
    capabilities=frozenset(
        {
            Capability.LOOKS_AHEAD,
            Capability.FULL_WIDTH,
            Capability.EXACT_ROOT,
            Capability.OPPONENT_MODEL,
            Capability.CHANCE,
        }
    ),
    how=(
        "It searches moves and replies, and at dice rolls it averages over every outcome, weighted by its "
        "probability (expectimax).",
    ),
    words="searches with expectiminimax: it averages over the dice (or over the replies it expects "
    "from you) instead of assuming the worst",
)
