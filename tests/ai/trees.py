"""Shared helpers for the search tests: explicit game trees, a plain minimax and the exact values."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ai.alphabeta import WIN
from games.base import CHANCE, Game, Outcome

Tree = Any  # a number (a leaf: the utility for seat 0) or a list of subtrees


class TreeGame(Game):
    """A game given as an explicit tree: seats alternate by depth, seat 0 (MAX) at the root.

    Leaves are utilities for seat 0.  `chance_depths` marks depths whose nodes are
    chance nodes with uniform outcomes.  Every leaf whose utility is read is appended
    to `examined`, so tests can see what a search looked at.
    """

    id = "tree"
    name = "Explicit tree"

    def __init__(self, tree: Tree, chance_depths: Sequence[int] = (), max_utility: float = 100.0) -> None:
        self.tree = tree
        self.chance_depths = frozenset(chance_depths)
        self.has_chance = bool(chance_depths)  # type: ignore[misc]
        self.max_utility = max_utility  # type: ignore[misc]
        self.examined: list[float] = []

    def node(self, state: tuple[int, ...]) -> Tree:
        node = self.tree
        for i in state:
            node = node[i]
        return node

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        if len(state) in self.chance_depths:
            return CHANCE
        movers = [d for d in range(len(state)) if d not in self.chance_depths]
        return len(movers) % 2

    def legal_moves(self, state: tuple[int, ...]) -> list[str]:
        node = self.node(state)
        return [] if not isinstance(node, list) else [str(i) for i in range(len(node))]

    def chance_outcomes(self, state: tuple[int, ...]) -> list[tuple[str, float]]:
        moves = self.legal_moves(state)
        return [(m, 1 / len(moves)) for m in moves]

    def apply(self, state: tuple[int, ...], move: str) -> tuple[int, ...]:
        return (*state, int(move))

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return not isinstance(self.node(state), list)

    def outcome(self, state: tuple[int, ...]) -> Outcome:
        value = float(self.node(state))
        self.examined.append(value)
        return Outcome((value, -value), 0 if value > 0 else 1 if value < 0 else None, "leaf")

    def ply(self, state: tuple[int, ...]) -> int:
        return len(state)

    def to_json(self, state: tuple[int, ...]) -> dict[str, Any]:
        return {"path": list(state)}

    def from_json(self, data: dict[str, Any]) -> tuple[int, ...]:
        return tuple(data["path"])


def minimax(game: Game, state: Any, depth: int, ply: int = 0) -> float:
    """Plain depth-limited negamax with alpha-beta's conventions, for the seat to move."""
    seat = game.to_move(state)
    best = -float("inf")
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            u = game.returns(child)[seat]
            value = u * WIN - (ply + 1) if u > 0 else u * WIN + (ply + 1) if u < 0 else 0.0
        elif depth <= 1:
            value = -game.evaluate(child, game.to_move(child))
        else:
            value = -minimax(game, child, depth - 1, ply + 1)
        best = max(best, value)
    return best


def random_position(game: Game, rng: random.Random, plies: int) -> Any:
    """The position after up to `plies` random moves (fewer if the game ends first)."""
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


def exact_value(game: Game, state: Any, memo: dict[Any, float] | None = None) -> float:
    """The game-theoretic utility for the seat to move, by memoised full minimax."""
    memo = {} if memo is None else memo
    key = game.key(state)
    if key in memo:
        return memo[key]
    seat = game.to_move(state)
    best = -float("inf")
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        value = game.returns(child)[seat] if game.is_terminal(child) else -exact_value(game, child, memo)
        best = max(best, value)
    memo[key] = best
    return best


class ThreeSeatTree(TreeGame):
    """An explicit tree for three seats: seat = depth % 3; leaves are (u0, u1, u2) summing to 0."""

    id = "tree3"
    num_players = 3

    def to_move(self, state: tuple[int, ...]) -> int:
        return len(state) % 3

    def outcome(self, state: tuple[int, ...]) -> Outcome:
        values = tuple(float(v) for v in self.node(state))
        self.examined.append(values)  # type: ignore[arg-type]
        return Outcome(values, None, "leaf")

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return isinstance(self.node(state), tuple)

    def legal_moves(self, state: tuple[int, ...]) -> list[str]:
        node = self.node(state)
        return [str(i) for i in range(len(node))] if isinstance(node, list) else []
