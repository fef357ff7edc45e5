"""Game-tree search over the Game API (docs/design.md §3).  Pure Python, no Django.

>>> from games import registry
>>> import ai
>>> game = registry.get("tictactoe")
>>> result = ai.choose_move(game, game.initial_state(), ai.SearchConfig(time_budget_ms=200, seed=1))
>>> result.move in game.legal_moves(game.initial_state())
True
"""

# Importing ai does no work; a process that searches calls `warm_up` before it takes work (`ai.warm`).
from ai.budget import Deadline, Timeout, collect_between_searches
from ai.catalogue import ALGORITHMS as CATALOGUE
from ai.catalogue import full_width_for, trap_model_problem
from ai.resign import accepts_resignation, resignation_to_offer
from ai.search import choose_move
from ai.searcher import Capability, Searcher
from ai.solve import solve
from ai.types import SearchConfig, SearchOptions, SearchResult, SearchStats
from ai.warm import warm_up
from ai.weakening import SLIP_TEMPERATURE

__all__ = [
    "CATALOGUE",
    "SLIP_TEMPERATURE",
    "Capability",
    "Deadline",
    "SearchConfig",
    "SearchOptions",
    "SearchResult",
    "Searcher",
    "SearchStats",
    "Timeout",
    "accepts_resignation",
    "choose_move",
    "collect_between_searches",
    "full_width_for",
    "resignation_to_offer",
    "solve",
    "trap_model_problem",
    "warm_up",
]
