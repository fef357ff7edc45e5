"""The compiled Othello midgame search (`games/othello/_endgame.c`) behind the `SearchEngine` hook.

Iterative-deepening principal variation search on the two bitboards with a transposition
table, scored by the fitted pattern evaluation (`games.othello.patterns`, whose patterns and
weight tables are handed over once: the C search reads the same arrays; tests compare the two
evaluations).  Moves are ordered the table's first, then by the evaluation of the position they
leave (near the leaves: fewest replies first); a side without a move passes; from
`SOLVE_EMPTIES` empty squares on the exact solver of the same extension (`games.othello.endgame`)
scores the position.  It reads the clock every few thousand nodes and stops within one node of a node cap.

Unlike `patterns.evaluate`, the search scores every phase with the patterns (the hand-written
evaluation is not compiled).  ``AlphaBetaOptions.engine`` asks for it; where the extension is not
built, `ENGINE` is None and `Othello.search_engine` answers None: the Python search of
`ai.alphabeta` runs instead.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import Any, Final

from games.base import Game, Move
from games.hooks import EngineResult, ScoreScale
from games.othello.patterns import PATTERNS, SHAPE_OFFSETS, UNIT, WEIGHTS
from games.othello.rules import PASS, SQUARE_NAMES, OthelloState

compiled: ModuleType | None
try:
    from games.othello import _endgame
except ImportError:  # built without a C compiler: the Python search runs
    compiled = None
else:  # the one copy of the weights is the Python evaluation's arrays
    _endgame.set_weights([(SHAPE_OFFSETS[shape], squares) for shape, squares in PATTERNS], WEIGHTS)
    compiled = _endgame

WIN_BASE: Final = 10_000  # the engine's proven result: WIN_BASE + the final disc margin (a loss negative)
SOLVE_EMPTIES: Final = 12  # from this many empty squares on, the search's positions are solved exactly
TABLE_SIZE: Final = 1 << 20  # entries of 24 bytes, and half as many for the solver's
HEURISTIC_LIMIT: Final = 0.95  # a heuristic value stays within this utility, as `patterns.evaluate`'s


def to_scale(score: int, empties: int, scale: ScoreScale) -> float:
    """The engine's score on the searcher's scale: a proven win or loss as a won terminal about
    `empties` plies away; else the fitted disc margin over 64, within `HEURISTIC_LIMIT`."""
    if abs(score) > WIN_BASE:
        value = scale.win - empties
        return value if score > 0 else -value
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score / UNIT / 64))


def move_name(square: int) -> Move:
    return PASS if square < 0 else SQUARE_NAMES[square]


class OthelloEngine:
    """`games.hooks.SearchEngine` on the compiled search: one engine and its tables a thread, made at
    its first search (the search runs without the GIL)."""

    name = "othello-engine"

    def __init__(self, solve_empties: int = SOLVE_EMPTIES) -> None:
        self.solve_empties = solve_empties
        self._local = threading.local()

    def supports(self, game: Game[Any], state: Any) -> bool:
        return compiled is not None

    def search(
        self, state: OthelloState, scale: ScoreScale, deadline: float | None, max_depth: int, max_nodes: int = 0
    ) -> EngineResult:
        assert compiled is not None
        engine = getattr(self._local, "engine", None)
        if engine is None:
            engine = self._local.engine = compiled.Engine(TABLE_SIZE)
        engine.nodes = 0
        mover, other = state.own_opp()
        found = engine.search(mover, other, deadline, max_depth, max_nodes, self.solve_empties)
        if found is None:
            raise ValueError("the game is over: no side has a move")
        square, score, depth, pv = found
        empties = 64 - (mover | other).bit_count()
        return EngineResult(
            move=move_name(square),
            score=to_scale(score, empties, scale),
            depth=depth,
            nodes=engine.nodes,
            pv=[move_name(sq) for sq in pv],
        )


ENGINE: Final = OthelloEngine() if compiled is not None else None
