"""The one entry point: `choose_move` dispatches a position to a searcher."""

from __future__ import annotations

import random
import time

from ai import alphabeta
from ai.budget import Deadline
from ai.types import SearchConfig, SearchResult
from games.base import Game, State

# Time kept back from the deadline for returning the move and sending it on.
SAFETY_MARGIN_MS = 5.0


def resolve_deadline(config: SearchConfig, deadline: Deadline | float | None) -> Deadline:
    """A `Deadline` from an epoch timestamp (seconds, as sent between processes) or the budget."""
    if deadline is None:
        return Deadline.after_ms(config.time_budget_ms - SAFETY_MARGIN_MS)
    if isinstance(deadline, Deadline):
        return deadline
    remaining_ms = (deadline - time.time()) * 1000 - SAFETY_MARGIN_MS
    return Deadline.after_ms(remaining_ms)


def choose_move(
    game: Game, state: State, config: SearchConfig, deadline: Deadline | float | None = None
) -> SearchResult:
    """The move `config`'s searcher picks for the seat to move, before `deadline`.

    Always returns a legal move, even when the deadline has already passed.
    """
    moves = game.legal_moves(state)
    if not moves:
        raise ValueError("no legal moves: the game is over")
    rng = random.Random(config.seed)
    started = time.perf_counter()
    if len(moves) == 1 or config.algorithm == "random":
        result = SearchResult(move=rng.choice(moves), algorithm=config.algorithm)
    else:
        result = alphabeta.search(game, state, config, resolve_deadline(config, deadline), rng)
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    result.stats.setdefault("seed", config.seed)
    return result
