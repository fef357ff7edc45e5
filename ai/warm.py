"""Getting a process ready to search before it takes work (docs/design.md §3, §4).

Importing ``ai`` does no work: a process that only validates a bot profile, or serves a
page, never pays for what a search needs.  A process that searches calls `warm_up` before
it takes its first search (a Celery pool process, a local search process): it builds each
game's fast paths (`Game.search_kernel`, `Game.fast_playout`, which import and compile
their tables) and runs a tiny search with every searcher on every game, so that the first
bot reply costs what the next ones cost instead of paying for first calls (lazily built
tables, opened books, caches the interpreter fills).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import Any, Final

from ai.catalogue import SEARCHERS
from ai.search import choose_move
from ai.types import SearchConfig
from games import registry
from games.base import CHANCE, Game

BOOK_PLIES: Final = 12  # random plies before the tiny searches: books answer the first moves without searching
TINY_BUDGET_MS: Final = 5  # per search: enough to reach every code path a real search takes, too short to matter


def build(games: Iterable[Game[Any]]) -> None:
    """Build `games`' fast paths and the named evaluations their ladders use now, rather than inside
    the first search's budget."""
    for game in games:
        game.search_kernel()
        game.fast_playout()
        for seed in game.spec.ladder:
            named = (seed.settings.get("search_options") or {}).get("evaluation")
            if isinstance(named, str):
                game.evaluation(named)


def warm_up(games: Iterable[Game[Any]] | None = None) -> dict[str, float]:
    """Build `games`' fast paths (all registered games by default) and search each once with
    every searcher that plays it; the seconds each game took, by game id."""
    took: dict[str, float] = {}
    for game in registry.all() if games is None else games:
        started = time.perf_counter()
        build([game])
        state = _out_of_book(game)
        for searcher in SEARCHERS:
            if searcher.supports(game):
                choose_move(game, state, SearchConfig(algorithm=searcher.id, time_budget_ms=TINY_BUDGET_MS, seed=0))
        took[game.id] = time.perf_counter() - started
    return took


def _out_of_book(game: Game[Any]) -> Any:
    """A position some plies in, where a seat chooses: past the opening books, which answer without searching."""
    rng, state = random.Random(0), game.initial_state()
    for ply in range(BOOK_PLIES + 2 * game.num_players):
        if game.is_terminal(state) or (ply >= BOOK_PLIES and game.to_move(state) != CHANCE):
            break
        following = game.apply(state, game.rollout_move(state, rng))
        if game.is_terminal(following):
            break
        state = following
    return state
