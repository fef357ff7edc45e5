"""Depth-limited alpha-beta (negamax form) with iterative deepening under a deadline."""

from __future__ import annotations

import random

from ai.budget import Deadline
from ai.types import SearchConfig, SearchResult
from games.base import Game, State

WIN = 1_000.0  # a won terminal scores WIN - ply: wins sooner, losses later


class _Timeout(Exception):
    pass


class _Search:
    def __init__(self, game: Game, deadline: Deadline, root_seat: int) -> None:
        self.game = game
        self.root_seat = root_seat
        self.deadline = deadline
        self.nodes = 0

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> tuple[float, list[str]]:
        self.nodes += 1
        if self.nodes & 255 == 0 and self.deadline.expired():
            raise _Timeout
        game = self.game
        if game.is_terminal(state):
            # Two seats alternate, so the seat "to move" here follows from the ply parity.
            seat = self.root_seat if ply % 2 == 0 else 1 - self.root_seat
            utility = game.returns(state)[seat]
            return (utility * (WIN - ply) if utility else 0.0), []
        mover = game.to_move(state)
        if depth == 0:
            return game.evaluate(state, mover), []
        best, best_pv = -float("inf"), []
        for move in game.order_moves(state, game.legal_moves(state)):
            value, pv = self.negamax(game.apply(state, move), depth - 1, -beta, -alpha, ply + 1)
            value = -value
            if value > best:
                best, best_pv = value, [move, *pv]
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best, best_pv


def search(game: Game, state: State, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    moves = game.order_moves(state, game.legal_moves(state))
    searcher = _Search(game, deadline, game.to_move(state))
    best = SearchResult(move=rng.choice(moves), algorithm="alphabeta")
    max_depth = config.max_depth or 64
    for depth in range(1, max_depth + 1):
        try:
            value, pv = searcher.negamax(state, depth, -float("inf"), float("inf"), 0)
        except _Timeout:
            break
        best.move, best.value, best.pv, best.depth = pv[0], value, pv, depth
        if abs(value) >= WIN - 64:  # a forced result: deeper search cannot change it
            break
    best.nodes = searcher.nodes
    return best
