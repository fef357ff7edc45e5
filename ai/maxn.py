"""Max^n for games of three or more seats, with shallow pruning; paranoid as an option.

Max^n: every node's value is a vector, one utility per seat; the seat to move picks the
child best for itself.  Leaves are the game's returns, or at the depth limit each
seat's own evaluation centred on the mean (so that a vector sums to 0, like the
returns of a zero-sum game).

Shallow pruning (Korf): the components are bounded below by ``-max_utility`` and sum to
``SUM`` (0 for zero-sum games).  Once the seat moving at a child has secured ``x``, the
parent's seat can get at most ``SUM - x - (n - 2) * low`` there; when that is no better
than what the parent already has, the child's other moves cannot matter.

Paranoid (`MaxnOptions` ``paranoid``): every other seat is assumed to play against
the searching seat, so the tree is a two-sided one on the searcher's component and
ordinary alpha-beta applies (deeper search, pessimistic play).

``exact_root`` (an option of every searcher): every root move gets its exact value, not only the
best one, and ``stats["root_vectors"]`` holds each root move's value vector (max^n
only) -- for analysis, which compares the played move with the best and shows every
seat's prospects.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, Generic

from ai.budget import Deadline, Timeout, collector_paused
from ai.deepening import deepen
from ai.evaluation import Evaluator
from ai.searcher import Capability, Searcher
from ai.types import SearchConfig, SearchOptions, SearchResult
from ai.weakening import is_weakened, weaken
from games.base import CHANCE, Game, Move, S

INF: Final = float("inf")
CHECK_EVERY: Final = 0  # a mask on the node count: 0 checks the clock at every node (a node with dice can take ms)
SOONER: Final = 1e-3


@dataclass(frozen=True)
class MaxnOptions(SearchOptions):
    paranoid: bool = False  # everyone else plays against the searching seat (alpha-beta on its value)


class MaxN(Generic[S]):
    def __init__(
        self, game: Game[S], evaluator: Evaluator[S], deadline: Deadline | None, paranoid: bool = False
    ) -> None:
        self.game = game
        self.n = game.num_players
        self.evaluate = evaluator
        self.deadline = deadline
        self.paranoid = paranoid
        self.low = -game.max_utility
        self.total = 0.0 if game.zero_sum else None  # the constant sum of a value vector, if any
        self.nodes = 0
        self.depth_cut = False
        self.root_seat = 0
        self.root_state: S = None  # type: ignore[assignment]  # what `iterate` searches, set before the first iteration
        self.exact_root = False  # every root move gets its exact value
        self.root_vectors: dict[Move, list[float]] = {}  # of the last finished iteration (max^n only)

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and self.deadline is not None and self.deadline.expired():
            raise Timeout

    def leaf(self, state: S, ply: int) -> list[float]:
        game = self.game
        if game.is_terminal(state):
            return [u * (1 - SOONER * ply) for u in game.returns(state)]
        self.depth_cut = True
        values = [self.evaluate(state, seat) for seat in range(self.n)]
        mean = sum(values) / self.n
        return [max(self.low, min(-self.low, v - mean)) for v in values]

    def maxn(self, state: S, depth: int, ply: int, parent_seat: int | None, parent_best: float) -> list[float]:
        """The value vector of `state`; may stop early once the parent cannot prefer it."""
        self.tick()
        game = self.game
        if depth <= 0 or game.is_terminal(state):
            return self.leaf(state, ply)
        mover = game.to_move(state)
        if mover == CHANCE:
            out = [0.0] * self.n
            for move, p in game.chance_outcomes(state):
                child = self.maxn(game.apply(state, move), depth, ply + 1, None, -INF)
                for i in range(self.n):
                    out[i] += p * child[i]
            return out
        # The value the mover must reach here for the parent's seat to lose interest.
        cutoff = INF
        if self.total is not None and parent_seat is not None and parent_seat != mover:
            cutoff = self.total - parent_best - (self.n - 2) * self.low
        best: list[float] | None = None
        for move in game.order_moves(state, game.legal_moves(state)):
            child = self.maxn(game.apply(state, move), depth - 1, ply + 1, mover, best[mover] if best else -INF)
            if best is None or child[mover] > best[mover]:
                best = child
                if best[mover] >= cutoff:
                    break  # shallow cutoff
        assert best is not None
        return best

    def paranoid_value(self, state: S, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The searching seat's value when everyone else plays against it (alpha-beta)."""
        self.tick()
        game = self.game
        if depth <= 0 or game.is_terminal(state):
            return self.leaf(state, ply)[self.root_seat]
        mover = game.to_move(state)
        if mover == CHANCE:
            return sum(
                p * self.paranoid_value(game.apply(state, m), depth, -INF, INF, ply + 1)
                for m, p in game.chance_outcomes(state)
            )
        maximise = mover == self.root_seat
        best = -INF if maximise else INF
        for move in game.order_moves(state, game.legal_moves(state)):
            v = self.paranoid_value(game.apply(state, move), depth - 1, alpha, beta, ply + 1)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def iterate(self, depth: int, moves: list[Move], values: dict[Move, float]) -> None:
        """One iteration of iterative deepening over the root moves (`ai.deepening`)."""
        vectors: dict[Move, list[float]] = {}
        self.root(self.root_state, depth, moves, self.exact_root, values, vectors)
        self.root_vectors = vectors  # reached only when the iteration finished

    def root(
        self,
        state: S,
        depth: int,
        moves: list[Move],
        exact: bool,
        values: dict[Move, float],
        vectors: dict[Move, list[float]],
    ) -> None:
        seat = self.root_seat
        best = -INF
        for move in moves:
            child = self.game.apply(state, move)
            if self.paranoid:
                v = self.paranoid_value(child, depth - 1, -INF if exact else best, INF, 1)
            else:
                vectors[move] = self.maxn(child, depth - 1, 1, None if exact else seat, best)
                v = vectors[move][seat]
            values[move] = v
            best = max(best, v)


def search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    with collector_paused():
        return _search(game, state, config, deadline, rng)


def _search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    options = config.options.carried_to(MaxnOptions)
    searcher = MaxN(game, Evaluator(game, config.style), deadline, options.paranoid)
    searcher.root_seat = game.to_move(state)
    moves = game.order_moves(state, game.legal_moves(state))
    result = SearchResult(move=moves[0], algorithm="maxn")
    result.stats["paranoid"] = options.paranoid
    weakened = is_weakened(config.slip_rate, config.temperature)
    searcher.root_state, searcher.exact_root = state, weakened or options.exact_root
    values = deepen(searcher, result, moves, range(1, (config.max_depth or 64) + 1))
    result.nodes = searcher.nodes
    result.stats["root_values"] = {m: round(v, 6) for m, v in values.items()}
    if options.exact_root and searcher.root_vectors:
        result.stats["root_vectors"] = {m: [round(x, 6) for x in v] for m, v in searcher.root_vectors.items()}
    weaken(result, config, values, game.max_utility, rng)
    return result


def _problem(game: Game[Any]) -> str:
    if game.num_players < 3:
        return f"max^n is for games of three or more players; {game.name} has {game.num_players}"
    return ""


SEARCHER = Searcher(
    id="maxn",
    label="max^n",
    summary="With three or more players, each assumed to play for their own score.",
    run=search,
    options=MaxnOptions,
    capabilities=frozenset(
        {
            Capability.LOOKS_AHEAD,
            Capability.FULL_WIDTH,
            Capability.EXACT_ROOT,
            Capability.CHANCE,
            Capability.MANY_PLAYERS,
        }
    ),
    fit=_problem,
    how=(
        "With more than two players, each assumed to maximise their own score, it searches the tree keeping one "
        "value per player (max^n).",
    ),
    words="searches with max^n: every player is assumed to pursue their own score",
    option_words={"paranoid": "searches paranoid: it assumes all other players play against it"},
)
