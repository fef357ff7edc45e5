"""Perfect play where it is affordable (search options ``exact_endgame`` and ``opening_book``).

For a game with a solver (`Game.new_solver`, `games.hooks.Solver`): from the ply
``exact_endgame`` gives, the solver works within a share of the move's time.  It first
finds a move that does not lose, in the game's `order_moves` order (one null-window
probe a move: can the opponent force a win after it?); then looks for a move that keeps
a win, asking only whether each move wins (a weak solve, several times cheaper than an
exact score); failing that, it scores every legal move exactly and the best score wins,
the game's order breaking ties.  With ``opening_book`` a position the game's book knows
is answered from it: a proven move (`Game.opening_move`, stats ``exact: "opening"``), else
a move of a book of practice drawn by its weights with the search's seeded generator
(`Game.book_move`, stats ``source: "book"``).  With ``tablebases`` a position the game's
endgame tables hold is answered with their best move (`Game.table_move`, stats
``source: "tablebase"``).

When the exact scores do not finish in time, what the first pass proved is kept
(docs/design.md §3): if it found no win but a move that draws, the position is a draw
and the first drawing move in the game's order is the move the exact scores would
have chosen (every draw scores 0), so it is played (``exact: "drawn"``).  Otherwise the
caller searches as usual with what is left, and `keep_proven` then holds that search to
a move proved not to lose, unless its own choice was proved not to lose too (or the
search proved a win of its own): a draw within reach is never thrown on a guess.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from typing import Any

from ai.budget import Deadline
from ai.types import SearchResult, SearchStats
from games.base import Game, Move, S
from games.hooks import Solver

SOLVER_SHARE = 0.6  # of the remaining time, at most, for the exact attempt
NOT_LOSING = 2  # in `_PROVEN`: a move proved to draw or win, not yet which (sign 1, 0, -1 otherwise)


# The sign of each move an attempt proved (1 wins, 0 draws, -1 loses, for the mover),
# by game: the position attempted last and its proofs, for `keep_proven`.
_PROVEN: dict[str, tuple[Hashable, dict[Move, int]]] = {}

# One per game and process, so its tables (bounded, positions as keys) carry what an
# unfinished attempt learnt over to the next move of the game.
_SOLVERS: dict[str, Solver | None] = {}


def solver_for(game: Game[Any]) -> Solver | None:
    if game.id not in _SOLVERS:
        _SOLVERS[game.id] = game.new_solver()
    return _SOLVERS[game.id]


def book_move(game: Game[S], state: S, rng: random.Random) -> SearchResult | None:
    """The game's proven opening move, else a move of its book of practice drawn with `rng`; or None."""
    move = game.opening_move(state)
    if move is not None:
        return SearchResult(move=move, depth=0, algorithm="alphabeta", stats={"exact": "opening"})
    choice = game.book_move(state, rng)
    if choice is None:
        return None
    return SearchResult(
        move=choice.move, algorithm="alphabeta", stats={"source": "book", "book_share": round(choice.share, 4)}
    )


def table_move(game: Game[S], state: S) -> SearchResult | None:
    """The move the game's endgame tables prove best (value and distance to the end as a search gives them)."""
    choice = game.table_move(state)
    if choice is None:
        return None
    plies = choice.plies_to_end
    value = (plies > 0) - (plies < 0)
    stats: SearchStats = {"source": "tablebase"}
    if plies:
        stats["plies_to_end"] = plies
    return SearchResult(
        move=choice.move, value=value * game.max_utility, pv=[choice.move], algorithm="alphabeta", stats=stats
    )


def exact_move(game: Game[S], state: S, deadline: Deadline, from_ply: int) -> SearchResult | None:
    """A move that keeps a win, else the exactly best move, or None (no solver, too early, out of time)."""
    solver = solver_for(game)
    if solver is None or game.ply(state) < from_ply:
        return None
    started = time.perf_counter()
    solver.nodes = 0
    solver.deadline = Deadline.after_ms(deadline.remaining_ms() * SOLVER_SHARE).at
    proven: dict[Move, int] = {}
    _PROVEN[game.id] = (game.key(state), proven)
    try:
        not_losing_move(solver, game, state, proven)
        move = winning_move(solver, game, state, proven)
        scores = None if move else solver.move_scores(state)
    except TimeoutError:
        return _drawing_move(game, state, proven, solver.nodes, started)
    stats: SearchStats = {"exact": "solved"}
    if move:
        value, stats["exact"] = 1, "won"
    else:
        assert scores is not None
        rank = {m: r for r, m in enumerate(game.order_moves(state, list(scores)))}
        move = max(scores, key=lambda m: (scores[m], -rank[m]))
        value = (scores[move] > 0) - (scores[move] < 0)
        stats["exact_score"], stats["move_scores"] = scores[move], scores
    return SearchResult(
        move=move,
        value=value,
        depth=game.max_length - game.ply(state) if game.max_length is not None else 0,
        nodes=solver.nodes,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        pv=[move],
        algorithm="alphabeta",
        stats=stats,
    )


def not_losing_move(solver: Solver, game: Game[S], state: S, proven: dict[Move, int]) -> Move | None:
    """The first move, in the game's order, after which the opponent cannot force a win; None if none.

    One null-window probe a move, so a position too hard to solve in time still gets a
    move proven not to lose.  Moves proven losing go into `proven` as -1; the move found
    as `NOT_LOSING` (a draw, or better).
    """
    mover = game.to_move(state)
    for move in game.order_moves(state, game.legal_moves(state)):
        after = game.apply(state, move)
        if game.is_terminal(after):
            returns = game.returns(after)[mover]
            proven[move] = (returns > 0) - (returns < 0)
        else:
            proven[move] = -1 if solver.wins(after) else NOT_LOSING
        if proven[move] >= 0:
            return move
    return None


def winning_move(solver: Solver, game: Game[S], state: S, proven: dict[Move, int] | None = None) -> Move | None:
    """The first move, in the game's order, after which the opponent is lost; None if none is.

    Each move's proven sign for the mover goes into `proven` as it is found.
    """
    proven = {} if proven is None else proven
    for move in game.order_moves(state, game.legal_moves(state)):
        if proven.get(move, NOT_LOSING) != NOT_LOSING:
            continue  # its sign is known already
        after = game.apply(state, move)
        if game.is_terminal(after):
            returns = game.returns(after)[game.to_move(state)]
            proven[move] = (returns > 0) - (returns < 0)
        else:
            proven[move] = -solver.solve_state(after, weak=True)
        if proven[move] > 0:
            return move
    return None


def _drawing_move(game: Game[S], state: S, proven: dict[Move, int], nodes: int, started: float) -> SearchResult | None:
    """After an unfinished attempt: the first drawing move in order, if every move's sign is known."""
    if len(proven) < len(game.legal_moves(state)) or NOT_LOSING in proven.values() or 0 not in proven.values():
        return None
    move = next(m for m, sign in proven.items() if sign == 0)  # `proven` is in the game's order
    return SearchResult(
        move=move,
        value=0,
        depth=game.max_length - game.ply(state) if game.max_length is not None else 0,
        nodes=nodes,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        pv=[move],
        algorithm="alphabeta",
        stats={"exact": "drawn"},
    )


def keep_proven(game: Game[S], state: S, result: SearchResult) -> None:
    """Hold a search's move to what an unfinished exact attempt at `state` proved.

    If the attempt proved some move not to lose, the search's move is kept only if it was
    proved not to lose too, or the search itself proved it wins; otherwise the first move
    proved not to lose, in the game's order, is played (``stats["exact"] = "kept draw"``):
    a draw the Master could prove is never traded for a move nobody proved.
    """
    key, proven = _PROVEN.get(game.id, (None, {}))
    if key != game.key(state) or proven.get(result.move, -1) >= 0:
        return
    if result.value > 0 and result.stats.get("plies_to_end", 0) > 0:
        return  # the search saw a forced win of its own
    draw = next((m for m, sign in proven.items() if sign >= 0), None)
    if draw is not None:
        result.stats["best_move"] = result.move  # what the search preferred
        result.move, result.value, result.pv = draw, 0, [draw]
        result.stats["exact"] = "kept draw"
