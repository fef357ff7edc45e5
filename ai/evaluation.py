"""Evaluators (docs/design.md §3): the game's heuristic, shaped by a play style (balanced, aggressive, defensive).

A game that can split its heuristic into "my chances" and "their chances" provides
``evaluate_terms(state, seat) -> (mine, theirs)`` (`ai.types.SplitEvaluation`), both
>= 0 in the scale of ``evaluate``.  A style weighs the two: an aggressive bot values its own threats more
than the opponent's, a defensive one the reverse.  Every game also gets a draw
contempt: an aggressive bot scores a draw a little below zero (it plays on for the
win), a defensive one a little above (it takes the safe half point).

A game may offer other evaluations by name (`Game.evaluation`: a stronger but costlier one for
its top bot, say); ``evaluation`` picks one instead of ``evaluate``, with the balanced style.

>>> from games import registry
>>> game = registry.get("connect4")
>>> ev = Evaluator(game, "aggressive")
>>> ev.draw_value > -game.max_utility
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Generic

from ai.types import SplitEvaluation
from games.base import Game, S, Seat

STYLE_WEIGHTS: Final[dict[str, tuple[float, float]]] = {
    "balanced": (1.0, 1.0),
    "aggressive": (1.5, 0.7),  # own chances count more, the opponent's less
    "defensive": (0.7, 1.5),
}
# A draw's value for the searching seat, as a fraction of max_utility.
STYLE_CONTEMPT: Final[dict[str, float]] = {"balanced": 0.0, "aggressive": -0.1, "defensive": 0.05}


@dataclass
class Evaluator(Generic[S]):
    """Heuristic value of a live state for `seat`, in (-max_utility, max_utility)."""

    game: Game[S]
    style: str = "balanced"
    evaluation: str | None = None  # one of the game's named evaluations (`Game.evaluation`), not `evaluate`

    def __post_init__(self) -> None:
        if self.style not in STYLE_WEIGHTS:
            raise ValueError(f"unknown style {self.style!r}; known: {', '.join(STYLE_WEIGHTS)}")
        self._evaluate: Callable[[S, Seat], float] = self.game.evaluate
        if self.evaluation is not None:
            named = self.game.evaluation(self.evaluation)
            if named is None:
                raise ValueError(f"{self.game.id} has no evaluation named {self.evaluation!r}")
            if self.style != "balanced":
                raise ValueError(f"the evaluation {self.evaluation!r} plays the balanced style only")
            self._evaluate = named
        self.mine_weight, self.theirs_weight = STYLE_WEIGHTS[self.style]
        self.limit = 0.95 * self.game.max_utility
        self.draw_value = STYLE_CONTEMPT[self.style] * self.game.max_utility
        self._terms: Callable[[S, Seat], tuple[float, float]] | None = None
        if self.style != "balanced" and isinstance(self.game, SplitEvaluation):
            self._terms = self.game.evaluate_terms

    def __call__(self, state: S, seat: Seat) -> float:
        if self._terms is None:
            return self._evaluate(state, seat)
        mine, theirs = self._terms(state, seat)
        value = self.mine_weight * mine - self.theirs_weight * theirs
        return max(-self.limit, min(self.limit, value))

    def vector(self, state: S) -> list[float]:
        """One heuristic value per seat, for max^n: each seat's own view."""
        return [self(state, seat) for seat in range(self.game.num_players)]
