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
never below zero (``loss``, on the game's scale).

A move is judged by the *winning chances* it gave away, not by that raw loss: each
value is read as the mover's expected score (1 a win, 1/2 a draw, 0 a loss) through
the game's calibrated map (`games.chances`, declared in its spec), a proven result as
itself, and the drop from the best move's expected score to the played move's
classifies it (`games.chances.THRESHOLDS`):

==========  ===================================
class       expected score given away (drop)
==========  ===================================
inaccuracy  at least 0.05
mistake     at least 0.10
blunder     at least 0.15
==========  ===================================

So a hung queen in chess (a tenth of chess's value scale) is a blunder, while the
same raw swing in a game whose values are squashed differently may be nothing; with
exact values every lost win or draw (a drop of 1/2 or more) is a blunder.

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
from games import CHANCE, chances, registry
from games.base import Game
from server.search.job import search

THRESHOLDS = chances.THRESHOLDS
MATCH_CUBE_NOT_ANALYSED = "a cube decision in match play: judged by the match score, which this analysis does not value"


def search_position(
    game_id: str,
    state: dict[str, Any],
    config: dict[str, Any],
    played: str | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The strongest search's best move and value (for the seat to move) in one position.

    With a searcher that valued every root move, the best move is the best of those
    values and ``played_value`` is `played`'s, both from the same iteration; with max^n
    ``vector`` is the best move's value for every seat.
    """
    result = search(game_id, state, ai.SearchConfig(**config), options=options)
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
    if "plies_to_end" in result.stats:
        found["plies_to_end"] = result.stats["plies_to_end"]  # a proven result: how soon (mate in N)
    if result.pv and result.pv[0] == result.move:
        found["pv"] = list(result.pv)
    if result.stats.get("forced"):
        found["forced"] = True  # one legal move: nothing was searched, the value is unknown here
    if "cube" in result.stats:
        found.update(_cube_decision(result.stats["cube"], played))
    values = result.stats.get("root_values") if (config.get("options") or {}).get("exact_root") else None
    # The searcher that ran gave every root move an exact value when asked (``options["exact_root"]``).
    if values and ai.CATALOGUE[result.algorithm].can(ai.Capability.EXACT_ROOT):
        best = max(values, key=lambda m: (values[m], m == result.move))
        if best != result.move:
            found.pop("pv", None)  # the line continues another move than the best valued
            found.pop("plies_to_end", None)
        found.update(best_move=best, value=values[best])
        if played in values:
            found["played_value"] = values[played]
        if best in (result.stats.get("root_vectors") or {}):
            found["vector"] = result.stats["root_vectors"][best]
    return found


def positions_to_search(
    game_id: str, moves: list[tuple[int, int, str]], options: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The position before each move by a seat, with that move (chance events are not judged, nor
    moves agreed rather than chosen: `_chosen`)."""
    game = registry.get(game_id).with_options(options or {})
    state = game.initial_state()
    found = []
    for ply, seat, move in moves:
        if _chosen(game, state, seat, move):
            found.append({"ply": ply, "seat": seat, "move": move, "state": game.to_json(state)})
        state = game.apply(state, move)
    return found


def _chosen(game: Game[Any], state: Any, seat: int, move: str) -> bool:
    """A seat's choice among the legal moves: what the analysis judges.  Not a chance event, nor an
    accepted resignation (backgammon's, for points), which both sides agreed on outside the turn."""
    return seat != CHANCE and move in game.legal_moves(state)


def ply_results(
    game_id: str,
    moves: list[tuple[int, int, str]],
    searched: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Per move by a seat: the mover's evaluation, the best move, the played move's value, the loss, the class.

    `searched[i]` is `search_position` of the i-th position of `positions_to_search`.
    Walked from the end, so that a forced move's position takes its value from the next
    one before the move that led to it needs it.  Chance moves get no entry; the roll a
    move was played with is in its ``roll``.
    """
    game = registry.get(game_id).with_options(options or {})
    decisions = []  # (ply, seat, move, position before and after it, the chance move just before it)
    state, roll = game.initial_state(), None
    for ply, seat, move in moves:
        after = game.apply(state, move)
        if seat == CHANCE:
            roll = move
        elif _chosen(game, state, seat, move):
            decisions.append((ply, seat, move, state, after, roll))
            roll = None
        state = after
    results: list[dict[str, Any]] = []
    following: Following | None = None  # the next decision's
    for (ply, seat, move, before, after, roll), found in reversed(list(zip(decisions, searched, strict=True))):
        cube = bool(found.get("cube"))
        if following is not None and following.cube and not cube:
            following = None  # a cube decision's equity is cubeful: it does not value the play before it
        played, played_exact = _played_value(game, found, ply, seat, move, after, following)
        forced = bool(found.get("forced"))
        exact = played_exact if forced else bool(found["exact"])
        value = played if forced else _outcome(game, found["value"], exact)
        best = value if played is None or value is None else max(value, played)
        loss = 0.0 if forced else None if played is None or best is None else best - played
        terminal = game.is_terminal(after)
        judged = _judged(game, value, _proven(game, exact), played, _proven(game, played_exact, terminal), forced)
        results.append(
            {
                "ply": ply,
                "seat": seat,
                "move": move,
                "notation": game.move_notation(before, move),
                "roll": roll,
                "value": _rounded(value),  # the position's evaluation for the mover, before the move
                "seat_values": _seat_values(game.num_players, seat, value, found.get("vector")),
                "best_move": found["best_move"],
                "best_notation": game.move_notation(before, found["best_move"]),
                "best_line": _line(game, before, found.get("pv")),
                "best_value": _rounded(best),
                "played_value": _rounded(played),
                "loss": _rounded(loss),
                **judged,
                "seat_chances": _seat_chances(game, seat, judged["chances"], found.get("vector")),
                "value_text": _text(game, value, _proven(game, exact), found.get("plies_to_end")),
                "played_text": _text(game, played, _proven(game, played_exact, terminal), None),
                "forced": forced,
                "depth": found["depth"],
                "nodes": found["nodes"],
                "exact": found["exact"],
                "cube": cube,  # a doubling-cube decision: values are equities per unit of the present cube
                **({"not_analysed": found["not_analysed"]} if "not_analysed" in found else {}),
            }
        )
        following = Following(ply, seat, value, exact, cube)
    return results[::-1]


def _judged(
    game: Game[Any], value: float | None, proven: bool, played: float | None, played_proven: bool, forced: bool
) -> dict[str, Any]:
    """The winning chances before the move, with the best move, with the played one; their drop; the class."""
    calibration = game.spec.chances
    before = None if value is None else calibration.expected_score(value, proven)
    after = None if played is None else calibration.expected_score(played, played_proven)
    best = before if after is None or before is None else max(before, after)
    drop = 0.0 if forced else None if after is None or best is None else best - after
    return {
        "chances": _rounded(before),
        "best_chances": _rounded(best),
        "played_chances": _rounded(after),
        "drop": _rounded(drop),
        "class": chances.classify(drop) if drop is not None else None,
    }


def _proven(game: Game[Any], exact: bool, terminal: bool = False) -> bool:
    """Whether a value stands for a result (a win, a draw, a loss): at the end of the game, or
    proven by search with two seats and no dice (with dice an exact value is an expectation)."""
    return terminal or (exact and game.num_players == 2 and not game.has_chance)


def _seat_chances(game: Game[Any], seat: int, mover: float | None, vector: list[float] | None) -> list[float | None]:
    """Every seat's expected score: from max^n's vector, or the mover's (its complement for the other of two)."""
    if vector is not None:
        return [_rounded(game.spec.chances.expected_score(v)) for v in vector]
    if mover is not None and game.num_players == 2:
        return [_rounded(mover if s == seat else 1.0 - mover) for s in range(2)]
    return [_rounded(mover) if s == seat else None for s in range(game.num_players)]


def _line(game: Game[Any], state: Any, pv: list[str] | None) -> list[str]:
    """The best line in the game's notation (SAN in chess), each move written in the position it is played in."""
    written = []
    for move in pv or []:
        if game.is_terminal(state) or game.to_move(state) == CHANCE or move not in game.legal_moves(state):
            break  # up to the end, the next roll of the dice, or where the line stops being legal
        written.append(game.move_notation(state, move))
        state = game.apply(state, move)
    return written


def _text(game: Game[Any], value: float | None, proven: bool, plies_to_end: int | None) -> str | None:
    """`value` (the mover's) as its players read it (`games.chances.WinningChances.text`)."""
    return None if value is None else game.spec.chances.text(value, proven, plies_to_end)


def _cube_decision(verdict: dict[str, Any], played: str | None) -> dict[str, Any]:
    """A doubling-cube decision (`ai.cube`) as a searched position: the decider's equity of each
    answer, per unit of the present cube, on the scale of the game's evaluation.  Where money
    equities do not value it (match play, a move the match score forces) it is not analysed, and
    says why, rather than be judged on the wrong scale."""
    equities = verdict.get("equities") or {}
    if not equities:
        return {
            "cube": True,
            "value": None,
            "not_analysed": MATCH_CUBE_NOT_ANALYSED,
        }
    found: dict[str, Any] = {"cube": True, "value": equities[verdict["move"]]}
    if played in equities:
        found["played_value"] = equities[played]
    return found


class Following(NamedTuple):
    """The next decision's position: its ply, its mover, its value for that mover, whether that is proven."""

    ply: int
    seat: int
    value: float | None
    exact: bool
    cube: bool = False  # a doubling-cube decision


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
