"""Plain data passed into and out of every searcher (DESIGN §3)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Algorithm = Literal["alphabeta", "expectimax", "mcts", "maxn", "random"]
ALGORITHMS: tuple[str, ...] = ("alphabeta", "expectimax", "mcts", "maxn", "random")
STYLES: tuple[str, ...] = ("balanced", "aggressive", "defensive")


@dataclass(frozen=True)
class SearchConfig:
    algorithm: str = "alphabeta"
    time_budget_ms: int = 1000
    max_depth: int | None = None
    max_iterations: int | None = None
    error_rate: float = 0.0  # chance of a human-looking slip instead of the best move
    temperature: float = 0.0  # softmax over root values; 0 picks the best
    style: str = "balanced"
    opponent_model: str | None = None  # for expectimax: "uniform", "epsilon:0.3", ...
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)  # algorithm-specific knobs

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}; known: {', '.join(ALGORITHMS)}")
        if self.style not in STYLES:
            raise ValueError(f"unknown style {self.style!r}; known: {', '.join(STYLES)}")
        if self.time_budget_ms <= 0:
            raise ValueError("time_budget_ms must be positive")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchResult:
    move: str
    value: float = 0.0  # for the seat to move, in the game's utility scale
    depth: int = 0
    nodes: int = 0
    elapsed_ms: float = 0.0
    pv: list[str] = field(default_factory=list)
    algorithm: str = "random"
    stats: dict[str, Any] = field(default_factory=dict)  # algorithm-specific: visits, tt hits, ...

    def to_json(self) -> dict[str, Any]:
        """JSON-safe figures for move logs and exports."""
        elapsed_s = self.elapsed_ms / 1000
        return {
            "algorithm": self.algorithm,
            "move": self.move,
            "value": round(self.value, 6),
            "depth": self.depth,
            "nodes": self.nodes,
            "nps": int(self.nodes / elapsed_s) if elapsed_s > 0 else 0,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "pv": list(self.pv),
            **self.stats,
        }


def adopt_iteration(result: SearchResult, partial: dict[str, float], depth: int | None) -> None:
    """Take what an iteration of iterative deepening found, over the root moves in `result`'s order.

    `depth` None: the iteration ran out of time.  The previous best move was searched first,
    so a move that beat it in the unfinished iteration is better still; otherwise the
    previous result stands.  A finished iteration's best move becomes the result.
    """
    if depth is None:
        if result.depth and result.move in partial:
            move = max(partial, key=partial.__getitem__)
            if partial[move] > partial[result.move]:
                result.move, result.value, result.pv = move, partial[move], [move]
        return
    move = max(partial, key=partial.__getitem__)
    result.move, result.value, result.depth, result.pv = move, partial[move], depth, [move]
