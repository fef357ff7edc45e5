"""The one entry point: `choose_move` dispatches a position to a searcher.

Which searcher runs: the configured algorithm's (`ai.catalogue`) where it plays the
game itself, otherwise a full-width searcher that does: alpha-beta on a game with
chance becomes expectimax and on a game of three or more players max^n (the
substitution is recorded in the stats as ``requested``).  A doubling-cube decision is not
searched: every bot but the random mover answers it by `ai.cube` from the game's
`cube_inputs` (stats ``cube``), looking ahead where its budget affords it
(`ai.cube.LOOK_AHEAD_MIN_BUDGET_MS`) and its deadline allows, from the position's own
evaluation otherwise (``look_ahead_cut``: the deadline came first).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ai import catalogue, cube, progress
from ai.budget import Deadline
from ai.types import SearchConfig, SearchResult
from games.base import Game, S

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


def algorithm_for(game: Game[Any], algorithm: str) -> str:
    """The searcher that runs `algorithm` on `game` (`ai.catalogue.runs_as`)."""
    return catalogue.runs_as(game, algorithm)


def choose_move(
    game: Game[S],
    state: S,
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
    until = resolve_deadline(config, deadline)
    look_ahead = config.time_budget_ms >= cube.LOOK_AHEAD_MIN_BUDGET_MS
    cube_decision = len(moves) > 1 and algorithm != "random"
    inputs = game.cube_inputs(state, look_ahead, stop=until.expired) if cube_decision else None
    if len(moves) == 1:
        result = SearchResult(move=moves[0], algorithm=algorithm, stats={"forced": True})
    elif inputs is not None:
        verdict = cube.decide(inputs)
        # `look_ahead_cut`: the budget afforded the look-ahead, but the deadline came first.
        looked = {"look_ahead": inputs.looked_ahead, "look_ahead_cut": look_ahead and not inputs.looked_ahead}
        result = SearchResult(move=verdict.move, algorithm=algorithm, stats={"cube": {**verdict.to_json(), **looked}})
    else:
        with progress.listening(on_progress):
            result = catalogue.get(algorithm).run(game, state, config, until, rng)
        if result.move not in moves:  # never let a searcher's bug reach the match
            result.stats["fallback_from"] = result.move
            result.move = moves[0]
    if algorithm != config.algorithm:
        result.stats["requested"] = config.algorithm
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    result.stats.setdefault("seed", config.seed)
    return result
