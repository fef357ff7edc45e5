"""The one entry point: `choose_move` dispatches a position to a searcher.

Which searcher runs: the configured algorithm where the game allows it; alpha-beta
on a game with chance becomes expectimax and on a game of three or more players
max^n (the substitution is recorded in the stats as ``requested``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ai import alphabeta, endgame, progress, traps
from ai.budget import Deadline
from ai.types import AlphaBetaOptions, SearchConfig, SearchResult
from ai.weakening import is_weakened, weaken
from games.base import Game, State

# Time kept back from the deadline for returning the move and sending it on.
SAFETY_MARGIN_MS = 5.0

Searcher = Callable[[Game[Any], State, SearchConfig, Deadline, random.Random], SearchResult]


def resolve_deadline(config: SearchConfig, deadline: Deadline | float | None) -> Deadline:
    """A `Deadline` from an epoch timestamp (seconds, as sent between processes) or the budget."""
    if deadline is None:
        return Deadline.after_ms(config.time_budget_ms - SAFETY_MARGIN_MS)
    if isinstance(deadline, Deadline):
        return deadline
    remaining_ms = (deadline - time.time()) * 1000 - SAFETY_MARGIN_MS
    return Deadline.after_ms(remaining_ms)


def algorithm_for(game: Game[Any], algorithm: str) -> str:
    """The searcher that runs `algorithm` on `game`."""
    if algorithm in ("alphabeta", "expectimax") and game.num_players > 2:
        return "maxn"
    if algorithm == "alphabeta" and game.has_chance:
        return "expectimax"
    return algorithm


def _alphabeta(
    game: Game[Any], state: State, config: SearchConfig, deadline: Deadline, rng: random.Random
) -> SearchResult:
    options = config.options.carried_to(AlphaBetaOptions)
    weakened = is_weakened(config.error_rate, config.temperature)
    if not weakened:
        exact = endgame.book_move(game, state, rng) if options.opening_book else None
        if not exact and options.tablebases:
            exact = endgame.table_move(game, state)
        if not exact and options.exact_endgame is not None:
            exact = endgame.exact_move(game, state, deadline, options.exact_endgame)
        if exact:
            return exact
    trap_model = options.trap_model if traps.applies(game) else None
    result = alphabeta.search(game, state, config, deadline, rng, exact_root=weakened or bool(trap_model))
    if not weakened and options.exact_endgame is not None:
        endgame.keep_proven(game, state, result)  # a draw the unfinished solve proved is not thrown
    if trap_model and not weakened:
        traps.prefer_traps(game, state, result, trap_model, deadline, rng)
    immediate_win = result.stats.get("plies_to_end") == 1
    weaken(result, config, result.stats.get("root_values", {}), game.max_utility, rng, immediate_win)
    return result


def _searchers() -> dict[str, Searcher]:
    from ai import expectimax, maxn, mcts

    return {
        "alphabeta": _alphabeta,
        "expectimax": expectimax.search,
        "mcts": mcts.search,
        "maxn": maxn.search,
    }


def choose_move(
    game: Game[Any],
    state: State,
    config: SearchConfig,
    deadline: Deadline | float | None = None,
    on_progress: progress.OnProgress | None = None,
) -> SearchResult:
    """The move `config`'s searcher picks for the seat to move, before `deadline`.

    Always returns a legal move, even when the deadline has already passed.
    `on_progress(figures)` hears how far the search got while it runs (`ai.progress`).
    """
    moves = game.legal_moves(state)
    if not moves:
        raise ValueError("no legal moves: the game is over")
    rng = random.Random(config.seed)
    started = time.perf_counter()
    algorithm = algorithm_for(game, config.algorithm)
    if len(moves) == 1 or algorithm == "random":
        result = SearchResult(move=rng.choice(moves) if len(moves) > 1 else moves[0], algorithm=algorithm)
        if len(moves) == 1:
            result.stats["forced"] = True
    else:
        with progress.listening(on_progress):
            result = _searchers()[algorithm](game, state, config, resolve_deadline(config, deadline), rng)
        if result.move not in moves:  # never let a searcher's bug reach the match
            result.stats["fallback_from"] = result.move
            result.move = moves[0]
    if algorithm != config.algorithm:
        result.stats["requested"] = config.algorithm
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    result.stats.setdefault("seed", config.seed)
    return result
