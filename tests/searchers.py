"""A searcher module as a new one would be written, for tests that add it to the one list (`register`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from ai import catalogue
from ai.budget import Deadline
from ai.searcher import Capability, Searcher
from ai.types import SearchConfig, SearchOptions, SearchResult
from games.base import Game, State


@dataclass(frozen=True)
class LastOptions(SearchOptions):
    skip: int = 0  # moves passed over from the end of the list


def _last(game: Game[Any], state: State, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    options = config.options
    assert isinstance(options, LastOptions)
    return SearchResult(move=game.legal_moves(state)[-1 - options.skip], algorithm="last")


# What a new searcher module declares.
LAST = Searcher(
    id="last",
    label="last move",
    summary="Plays the last legal move.",
    run=_last,
    options=LastOptions,
    capabilities=frozenset({Capability.COUNTS_ITERATIONS, Capability.CHANCE, Capability.MANY_PLAYERS}),
    words="plays the last legal move",
)


def register(monkeypatch: pytest.MonkeyPatch) -> Searcher:
    """`LAST` in the catalogue for one test, as its line in ai/catalogue.py would put it."""
    monkeypatch.setattr(catalogue, "SEARCHERS", (*catalogue.SEARCHERS, LAST))
    monkeypatch.setitem(catalogue.ALGORITHMS, LAST.id, LAST)
    return LAST
