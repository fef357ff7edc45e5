"""Monte Carlo tree search: UCT with progressive bias, rollouts, chance nodes, tree reuse.

- Selection: UCT, ``mean + c * sqrt(ln N / n)`` with rewards scaled to [0, 1] for the
  seat that chooses (``options["c"]``, default 1.4), plus progressive bias
  ``bias * h / (n + 1)`` where h is the game's evaluation of the child for that seat
  (``options["progressive_bias"]``, default 0.5; 0 turns it off).  Works for any number
  of seats: each node keeps the total reward of every seat.
- Chance nodes: an outcome is sampled with its probability (not chosen by UCT).
- Expansion: one child per iteration, in the game's `order_moves` order.
- Rollouts: ``options["rollout"]`` = "random" (uniform) or "heuristic" (the game's
  `rollout_move` hook; the game's `fast_playout` where it has one), cut off
  after ``options["rollout_depth"]`` plies and scored by the evaluation.
- Tree reuse: with ``options["match_id"]`` the tree is kept in this process between the
  moves of a match, and the subtree of the new position (found among the old tree's
  first plies) becomes the new root.
- The move played is the most visited; the stats give visits and mean values per root move.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal

from ai import progress
from ai.budget import Deadline, collector_paused
from ai.evaluation import Evaluator
from ai.searcher import Capability, Searcher
from ai.types import SearchConfig, SearchOptions, SearchResult
from ai.weakening import weaken
from games.base import CHANCE, Game, Move, S
from games.hooks import Playout


@dataclass(frozen=True)
class MctsOptions(SearchOptions):
    c: float = 1.4  # UCT exploration constant
    progressive_bias: float = 0.5  # weight of the evaluation in selection; 0 turns it off
    rollout: Literal["random", "heuristic"] = "random"
    rollout_depth: int | None = None  # plies before a rollout is cut off and scored by the evaluation


DEFAULT_C: Final = MctsOptions.c
DEFAULT_BIAS: Final = MctsOptions.progressive_bias
REUSE_SEARCH_PLIES: Final = 4
DEFAULT_ROLLOUT_PLIES: Final = 80  # a rollout longer than this stops and is scored by the evaluation
CACHED_TREES: Final = 64


class Node(Generic[S]):
    __slots__ = ("bias", "children", "mover", "outcomes", "state", "terminal", "untried", "visits", "wins")

    def __init__(self, game: Game[S], state: S, n: int, bias: float = 0.0) -> None:
        self.state = state
        self.terminal = game.is_terminal(state)
        self.mover = -2 if self.terminal else game.to_move(state)
        self.children: dict[Move, Node[S]] = {}
        self.untried: list[Move] = (
            [] if self.terminal or self.mover == CHANCE else game.order_moves(state, game.legal_moves(state))[::-1]
        )
        self.outcomes: list[tuple[Move, float]] | None = game.chance_outcomes(state) if self.mover == CHANCE else None
        self.visits = 0
        self.wins = [0.0] * n  # total reward per seat, each reward in [0, 1]
        self.bias = bias  # the evaluation for the seat that moved into this node, in [-1, 1]


class MCTS(Generic[S]):
    def __init__(
        self,
        game: Game[S],
        config: SearchConfig,
        rng: random.Random,
        evaluator: Evaluator[S],
        deadline: Deadline | None = None,
    ) -> None:
        options = config.options.carried_to(MctsOptions)
        self.deadline = deadline
        self.game = game
        self.rng = rng
        self.evaluate = evaluator
        self.n = game.num_players
        self.c = options.c
        self.bias_weight = options.progressive_bias
        self.rollout_depth = options.rollout_depth
        self.heuristic = options.rollout == "heuristic"
        self.fast_playout: Playout | None = game.fast_playout()
        self.scale = game.max_utility
        self.nodes = 0
        self.max_depth = 0

    def reward(self, returns: list[float]) -> list[float]:
        """Utilities in [-max_utility, max_utility] as rewards in [0, 1]."""
        s = self.scale
        return [(u / s + 1) / 2 for u in returns]

    def child(self, node: Node[S], move: Move) -> Node[S]:
        game = self.game
        state = game.apply(node.state, move)
        bias = 0.0
        if self.bias_weight and node.mover >= 0 and not game.is_terminal(state):
            bias = self.evaluate(state, node.mover) / self.scale
        new = Node(game, state, self.n, bias)
        node.children[move] = new
        return new

    def select(self, node: Node[S]) -> Node[S]:
        rng = self.rng
        if node.mover == CHANCE:
            assert node.outcomes is not None
            moves, weights = zip(*node.outcomes, strict=True)
            move = rng.choices(moves, weights)[0]
            return node.children.get(move) or self.child(node, move)
        log_n = math.log(node.visits)
        c, bias, seat = self.c, self.bias_weight, node.mover
        best, best_score = None, -math.inf
        for ch in node.children.values():
            v = ch.visits
            score = ch.wins[seat] / v + c * math.sqrt(log_n / v) + bias * ch.bias / (v + 1)
            if score > best_score:
                best, best_score = ch, score
        assert best is not None
        return best

    def rollout(self, state: S) -> list[float]:
        game, rng = self.game, self.rng
        if self.fast_playout is not None and self.rollout_depth is None:
            result = self.fast_playout(state, rng, self.heuristic)
            if result is not None:
                return result
        plies = 0
        limit = self.rollout_depth if self.rollout_depth is not None else DEFAULT_ROLLOUT_PLIES
        deadline = self.deadline
        while not game.is_terminal(state):
            if plies >= limit or (deadline is not None and deadline.expired()):  # a ply can take ms
                return self.reward(self.cutoff_values(state))
            if self.heuristic or game.to_move(state) == CHANCE:
                move = game.rollout_move(state, rng)
            else:
                move = rng.choice(game.legal_moves(state))
            state = game.apply(state, move)
            plies += 1
        return self.reward(game.returns(state))

    def cutoff_values(self, state: S) -> list[float]:
        """The evaluation where a rollout stops early, as one utility per seat summing to 0."""
        values = [self.evaluate(state, seat) for seat in range(self.n)]
        mean = sum(values) / self.n
        return [max(-self.scale, min(self.scale, v - mean)) for v in values]

    def iterate(self, root: Node[S]) -> None:
        node, path = root, [root]
        while not node.terminal:
            if node.mover != CHANCE and node.untried:
                node = self.child(node, node.untried.pop())
                path.append(node)
                break
            node = self.select(node)
            path.append(node)
        self.max_depth = max(self.max_depth, len(path) - 1)
        rewards = self.reward(self.game.returns(node.state)) if node.terminal else self.rollout(node.state)
        self.nodes += len(path)
        for n in path:
            n.visits += 1
            wins = n.wins
            for i, r in enumerate(rewards):
                wins[i] += r


# --- tree reuse --------------------------------------------------------------
_TREES: OrderedDict[Hashable, Node[Any]] = OrderedDict()


def _tree_key(game: Game[Any], config: SearchConfig) -> Hashable | None:
    options = config.options
    if options.match_id is None:
        return None
    fingerprint = tuple(
        sorted((k, repr(v)) for k, v in options.to_json().items() if k not in ("match_id", "opponent_moves"))
    )
    return (options.match_id, game.id, config.style, fingerprint)


def _find(game: Game[S], root: Node[S], key: Hashable) -> Node[S] | None:
    """The node of the position `key` among the first plies of an old tree."""
    frontier = [root]
    for _ in range(REUSE_SEARCH_PLIES + 1):
        nxt: list[Node[S]] = []
        for node in frontier:
            if game.key(node.state) == key:
                return node
            nxt.extend(node.children.values())
        frontier = nxt
    return None


def reused_root(game: Game[S], state: S, config: SearchConfig) -> Node[S] | None:
    tree_key = _tree_key(game, config)
    if tree_key is None or tree_key not in _TREES:
        return None
    node = _find(game, _TREES[tree_key], game.key(state))
    return node if node is not None and not node.terminal else None


def keep_tree(game: Game[S], config: SearchConfig, root: Node[S]) -> bool:
    tree_key = _tree_key(game, config)
    if tree_key is None:
        return False
    _TREES.pop(tree_key, None)
    _TREES[tree_key] = root
    while len(_TREES) > CACHED_TREES:
        _TREES.popitem(last=False)
    return True


def forget_trees() -> None:
    _TREES.clear()


# The last tree that was not kept: freeing a big tree takes milliseconds, so it is freed
# at the start of the next search (whose clock already accounts for it), not before a
# move is returned.
_DISCARDED: list[Node[Any]] = []


def search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    _DISCARDED.clear()
    with collector_paused():  # the tree has no cycles: reference counting frees it
        return _search(game, state, config, deadline, rng)


def _search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    searcher = MCTS(game, config, rng, Evaluator(game, config.style), deadline)
    root = reused_root(game, state, config)
    reused = root.visits if root is not None else 0
    if root is None:
        root = Node(game, state, searcher.n)
    iterations = 0
    limit = config.max_iterations
    reporting = progress.active()
    while limit is None or iterations < limit:
        if deadline.expired():
            break
        searcher.iterate(root)
        iterations += 1
        if reporting and not iterations % progress.MCTS_EVERY:
            progress.report(searcher.max_depth, searcher.nodes, iterations=iterations)
    seat = root.mover
    visits = {m: ch.visits for m, ch in root.children.items()}
    means = {m: ch.wins[seat] / ch.visits for m, ch in root.children.items() if ch.visits}
    if not visits:  # not even one iteration: the game's first hint
        move = game.order_moves(state, game.legal_moves(state))[0]
    else:
        move = max(visits, key=lambda m: (visits[m], means.get(m, 0.0)))
    values = {m: (v * 2 - 1) * game.max_utility for m, v in means.items()}
    result = SearchResult(
        move=move,
        value=values.get(move, 0.0),
        depth=searcher.max_depth,
        nodes=searcher.nodes,
        algorithm="mcts",
        stats={
            "iterations": iterations,
            "reused_visits": reused,
            "visits": visits,
            "values": {m: round(v, 6) for m, v in values.items()},
            "c": searcher.c,
        },
    )
    weaken(result, config, values, game.max_utility, rng)
    result.pv = principal_variation(root, result.move)
    if not keep_tree(game, config, root):
        _DISCARDED.append(root)
    return result


def principal_variation(root: Node[Any], first: Move) -> list[Move]:
    """`first`, then the most visited child while there is one."""
    pv, node = [first], root.children.get(first)
    while node is not None and node.children and len(pv) < 32:
        children = node.children
        nxt = max(children, key=lambda m: children[m].visits)  # noqa: B023
        pv.append(nxt)
        node = children[nxt]
    return pv


SEARCHER = Searcher(
    id="mcts",
    label="MCTS",
    summary="Plays many quick random games from the position and picks the move that wins most.",
    run=search,
    options=MctsOptions,
    capabilities=frozenset(
        {Capability.LOOKS_AHEAD, Capability.COUNTS_ITERATIONS, Capability.CHANCE, Capability.MANY_PLAYERS}
    ),
    how=(
        "It plays many quick random games from the current position and grows a tree towards the moves that win "
        "most often (Monte Carlo tree search).",
        "The more time it has, the more games it plays and the stronger its choice.",
    ),
    words="uses Monte Carlo tree search: it plays thousands of quick games from the position and "
    "prefers the moves that win most often",
)
