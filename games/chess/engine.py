"""The compiled chess search (`games/chess/_engine.c`) behind the `SearchEngine` hook.

`_engine.c` holds a bitboard board of its own (legal moves, make and unmake, Zobrist keys)
and an alpha-beta search on it: iterative deepening, principal variation search, a
transposition table, quiescence on captures (MVV-LVA, delta and SEE pruning), killers and
history, null-move pruning, reverse futility and futility pruning, late-move reductions,
check extension.  It scores positions as `games.chess.evaluation` does, from the values
handed over from it (PeSTO's tables and the other terms; tests compare the two), and scores repetitions (of the game's
history too) and the 50-move rule as draws.  About 30 times as many nodes a second as the
Python search over python-chess (`benchmarks/chess_search.py --engine`).

``AlphaBetaOptions.engine`` asks for it (the Master does); where the
extension is not built (no C compiler at install), `ENGINE` is None and `Chess.search_engine`
answers None: the Python search of `ai.alphabeta` with the game's hooks runs instead.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import Any, Final

from games.base import Game
from games.chess.evaluation import EG_SIGNED, MG_SIGNED, PHASE_WEIGHT, TERMS, to_utility
from games.hooks import EngineResult, ScoreScale

compiled: ModuleType | None
try:
    from games.chess import _engine
except ImportError:  # built without a C compiler: the Python search runs
    compiled = None
else:  # the one copy of the evaluation's values is the Python module's
    _engine.set_evaluation(MG_SIGNED, EG_SIGNED, PHASE_WEIGHT, TERMS)
    compiled = _engine

MATE: Final = 30_000  # the engine's mate score: a mate in p plies scores MATE - p
MATE_BOUND: Final = MATE - 1_000
TABLE_BITS: Final = 20  # 2^20 entries of 16 bytes


def to_scale(centipawns: int, scale: ScoreScale, max_utility: float = 1.0) -> float:
    """The engine's score on the searcher's scale: a mate as a won terminal that far away, else utility."""
    if abs(centipawns) >= MATE_BOUND:
        plies = MATE - abs(centipawns)
        value = max_utility * scale.win - plies
        return value if centipawns > 0 else -value
    return to_utility(centipawns, max_utility)


class ChessEngine:
    """`games.hooks.SearchEngine` on the compiled search: one engine and table a thread, made at its
    first search (the search runs without the GIL, so threads search at once, each on its own)."""

    name = "chess-engine"

    def __init__(self) -> None:
        self._local = threading.local()

    def supports(self, game: Game[Any], state: Any) -> bool:
        return compiled is not None

    def search(
        self, state: Any, scale: ScoreScale, deadline: float | None, max_depth: int, max_nodes: int = 0
    ) -> EngineResult:
        assert compiled is not None
        engine = getattr(self._local, "engine", None)
        if engine is None:
            engine = self._local.engine = compiled.Engine(TABLE_BITS)
        engine.nodes = 0
        found = engine.search(state.board.fen(), state.history, deadline, max_depth, max_nodes)
        if found is None:
            raise ValueError("the position has no legal move")
        move, centipawns, depth, pv = found
        return EngineResult(move=move, score=to_scale(centipawns, scale), depth=depth, nodes=engine.nodes, pv=pv)


ENGINE: Final = ChessEngine() if compiled is not None else None
