"""The random mover: a legal move at random, no look-ahead (the rating ladder's anchor)."""

from __future__ import annotations

import random

from ai.budget import Deadline
from ai.searcher import Capability, Searcher
from ai.types import SearchConfig, SearchResult
from games.base import Game, S


def search(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    return SearchResult(move=rng.choice(game.legal_moves(state)), algorithm="random")


SEARCHER = Searcher(
    id="random",
    label="random",
    summary="Plays a legal move at random.",
    run=search,
    capabilities=frozenset({Capability.CHANCE, Capability.MANY_PLAYERS}),
    how=(
        "It picks one of the legal moves at random, with no look-ahead at all.",
        "A first opponent for learning the rules: it never sets a trap and rarely stops one.",
    ),
    words="does not search: it picks a random legal move",
)
