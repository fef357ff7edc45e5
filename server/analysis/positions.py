"""What an analysis computes: plain data in, plain data out, no Django.

Like `server.bots.turn`, kept free of Django so that the embedded mode can search
positions in the search pool (`server.search.pool`) while Celery workers and tests run
the same functions.

Each position where a seat chose a move is searched once with the strongest bot's
settings; dice and other chance events are not judged.  The played move's value comes
from the same search when the searcher values every root move (expectiminimax and
max^n with ``exact_root``: backgammon, three-player Chinese checkers), otherwise from
the next position's search (negated when the other seat moves there) or from the
result when the move ended the game (alpha-beta, two seats, no dice), so a match of n
decisions costs n searches.  A position with a single legal move is not searched: its
value is its move's (from the next position or the result; unknown across dice).
Values are the mover's (with max^n: the mover's component of the vector, one utility
per seat).  The value a move lost is the best move's value minus the played move's,
never below zero, and a move is classified by that loss in units of the game's
``max_utility`` (a won game is worth +max_utility, a lost one -max_utility, so going
from a win to a draw loses 1 and from a win to a loss 2; backgammon's gammons and
backgammons make its scale 3):

==========  =====================
class       value lost (x max_utility)
==========  =====================
inaccuracy  at least 0.1
mistake     at least 0.25
blunder     at least 0.5
==========  =====================

With exact values (tic-tac-toe searched to the end, Connect Four solved from the
level-5 profile's ``exact_endgame`` on) every lost win or draw is a blunder; with a
heuristic evaluation the thresholds keep small swings from being called mistakes.

Exact and heuristic values are compared on one scale (docs/design.md §3):

- in a two-seat game without dice a proven value counts as its outcome, +max_utility,
  0 or -max_utility: how soon a win comes is not value (keeping a win in 9 instead of
  a win in 3 loses nothing), and a heuristic value always lies strictly between;
- the played move's value is the best informed one known: the result when the move
  ended the game, then a proven value of the next position (so a move the search here
  thought best, that the next position's solver proves lost, is judged by that proof),
  then the value the search gave it here, then the next position's heuristic value;
- the position's best value is never below the played move's: a move found better
  than the search here thought loses nothing.  So a move from a heuristic +0.22 to a
  proven loss loses 1.22 (a blunder), one from a proven win or draw to a proven loss
  at least 1.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import ai
from games import CHANCE, registry
from games.base import Game
from server.search.job import search

INACCURACY = 0.1
MISTAKE = 0.25
BLUNDER = 0.5
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))


def classify(loss: float, max_utility: float) -> str | None:
    """ "inaccuracy", "mistake", "blunder" or None for a move that lost `loss` value.

    >>> classify(0.05, 1.0), classify(0.1, 1.0), classify(0.3, 1.0), classify(1.0, 1.0)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    share = loss / max_utility if max_utility else 0.0
    for name, threshold in THRESHOLDS:
        if share >= threshold - 1e-9:
            return name
    return None


def search_position(
    game_id: str, state: dict[str, Any], config: dict[str, Any], played: str | None = None
) -> dict[str, Any]:
    """The strongest search's best move and value (for the seat to move) in one position.

    With a searcher that valued every root move, the best move is the best of those
    values and ``played_value`` is `played`'s, both from the same iteration; with max^n
    ``vector`` is the best move's value for every seat.
    """
    result = search(game_id, state, ai.SearchConfig(**config))
    found: dict[str, Any] = {
        "best_move": result.move,
        "value": round(result.value, 6),
        "depth": result.depth,
        "nodes": result.nodes,
        "elapsed_ms": round(result.elapsed_ms, 1),
        # Searched to the end everywhere, solved, or a proven win or loss.
        "exact": bool(
            result.stats.get("complete")
            or result.stats.get("exact") in ("solved", "won")
            or "plies_to_end" in result.stats
        ),
    }
    if result.stats.get("forced"):
        found["forced"] = True  # one legal move: nothing was searched, the value is unknown here
    values = result.stats.get("root_values") if (config.get("options") or {}).get("exact_root") else None
    # The searcher that ran gave every root move an exact value when asked (``options["exact_root"]``).
    if values and ai.CATALOGUE[result.algorithm].can(ai.Capability.EXACT_ROOT):
        best = max(values, key=lambda m: (values[m], m == result.move))
        found.update(best_move=best, value=values[best])
        if played in values:
            found["played_value"] = values[played]
        if best in (result.stats.get("root_vectors") or {}):
            found["vector"] = result.stats["root_vectors"][best]
    return found


def positions_to_search(game_id: str, moves: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """The position before each move by a seat, with that move (chance events are not judged)."""
    game = registry.get(game_id)
    state = game.initial_state()
    found = []
    for ply, seat, move in moves:
        if seat != CHANCE:
            found.append({"ply": ply, "seat": seat, "move": move, "state": game.to_json(state)})
        state = game.apply(state, move)
    return found


def ply_results(
    game_id: str, moves: list[tuple[int, int, str]], searched: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per move by a seat: the mover's evaluation, the best move, the played move's value, the loss, the class.

    `searched[i]` is `search_position` of the i-th position of `positions_to_search`.
    Walked from the end, so that a forced move's position takes its value from the next
    one before the move that led to it needs it.  Chance moves get no entry; the roll a
    move was played with is in its ``roll``.
    """
    game = registry.get(game_id)
    decisions = []  # (ply, seat, move, position after it, the chance move just before it)
    state, roll = game.initial_state(), None
    for ply, seat, move in moves:
        after = game.apply(state, move)
        if seat == CHANCE:
            roll = move
        else:
            decisions.append((ply, seat, move, after, roll))
            roll = None
        state = after
    results: list[dict[str, Any]] = []
    following: Following | None = None  # the next decision's
    for (ply, seat, move, after, roll), found in reversed(list(zip(decisions, searched, strict=True))):
        played, played_exact = _played_value(game, found, ply, seat, move, after, following)
        forced = bool(found.get("forced"))
        exact = played_exact if forced else bool(found["exact"])
        value = played if forced else _outcome(game, found["value"], exact)
        best = value if played is None or value is None else max(value, played)
        loss = 0.0 if forced else None if played is None or best is None else best - played
        results.append(
            {
                "ply": ply,
                "seat": seat,
                "move": move,
                "roll": roll,
                "value": _rounded(value),  # the position's evaluation for the mover, before the move
                "seat_values": _seat_values(game.num_players, seat, value, found.get("vector")),
                "best_move": found["best_move"],
                "best_value": _rounded(best),
                "played_value": _rounded(played),
                "loss": _rounded(loss),
                "class": classify(loss, game.max_utility) if loss is not None else None,
                "forced": forced,
                "depth": found["depth"],
                "nodes": found["nodes"],
                "exact": found["exact"],
            }
        )
        following = Following(ply, seat, value, exact)
    return results[::-1]


class Following(NamedTuple):
    """The next decision's position: its ply, its mover, its value for that mover, whether that is proven."""

    ply: int
    seat: int
    value: float | None
    exact: bool


def _played_value(
    game: Game[Any],
    found: dict[str, Any],
    ply: int,
    seat: int,
    move: str,
    after: Any,
    following: Following | None,
) -> tuple[float | None, bool]:
    """The played move's value for its mover and whether it is proven; (None, False) when no search tells it.

    The best informed value wins (see the module's docstring): a next position's proof
    outranks this position's heuristic search, even of the move it found best.
    """
    if game.is_terminal(after):
        return game.returns(after)[seat], True
    # Two seats and the next move right after (no dice between): that position's value, from our side.
    next_value = None
    if following is not None and game.num_players == 2 and following.ply == ply + 1 and following.value is not None:
        next_value = following.value if following.seat == seat else -following.value
        if following.exact:
            return next_value, True
    exact = bool(found["exact"]) and not found.get("forced")
    if "played_value" in found:
        return _outcome(game, found["played_value"], exact), exact
    if move == found["best_move"] and not found.get("forced"):
        return _outcome(game, found["value"], exact), exact
    return next_value, False


def _outcome(game: Game[Any], value: float | None, exact: bool) -> float | None:
    """A proven value as its outcome (a win in 3 and a win in 9 are both +max_utility); others as they are.

    Only in games of two seats without dice, where a proven value is a won, drawn or
    lost game; with dice an exact value is an expectation, with more seats a share.
    """
    if value is None or not exact or game.has_chance or game.num_players != 2:
        return value
    outcome = round(value / game.max_utility) * game.max_utility
    return float(outcome) + 0.0  # never -0.0


def _seat_values(n: int, seat: int, value: float | None, vector: list[float] | None) -> list[float | None]:
    """The position's value for every seat: max^n's vector, or the mover's value (negated for the other of two)."""
    if vector is not None:
        return [round(v, 6) for v in vector]
    if value is not None and n == 2:
        return [_rounded(value if s == seat else -value) for s in range(n)]
    return [_rounded(value) if s == seat else None for s in range(n)]


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
