"""What an analysis computes: plain data in, plain data out, no Django.

Like `server.bots.engine`, kept free of Django so that the embedded mode can search
positions in its process pool while Celery workers and tests run the same functions.

Each position before a move is searched once with the strongest bot's settings. The
value of the move that was played is read from the next position's search (negated
when the other seat moves there), or from the result when the move ended the game, so
a match of n moves costs n searches. The value a move lost is the best move's value
minus the played move's, never below zero, and a move is classified by that loss in
units of the game's ``max_utility`` (a won game is worth +max_utility, a lost one
-max_utility, so going from a win to a draw loses 1 and from a win to a loss 2):

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
"""

from __future__ import annotations

from typing import Any

import ai
from games import CHANCE, registry
from games.base import Game

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


def unsupported_reason(game: Game) -> str | None:
    """Why `game` cannot be analysed (the played move's value needs two seats and no dice), or None."""
    if game.num_players != 2:
        return f"analysis is for two-player games; {game.name} has {game.num_players} players"
    if game.has_chance:
        return f"analysis does not handle dice yet: {game.name} has chance moves"
    return None


def search_position(game_id: str, state: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The strongest search's best move and value (for the seat to move) in one position."""
    game = registry.get(game_id)
    result = ai.choose_move(game, game.from_json(state), ai.SearchConfig(**config))
    return {
        "best_move": result.move,
        "value": round(result.value, 6),
        "depth": result.depth,
        "nodes": result.nodes,
        "elapsed_ms": round(result.elapsed_ms, 1),
        # Searched to the end everywhere, solved, or a proven win or loss.
        "exact": bool(
            result.stats.get("complete") or result.stats.get("exact") == "solved" or "plies_to_end" in result.stats
        ),
    }


def positions_to_search(game_id: str, moves: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """The position before each move by a seat (chance events are not judged)."""
    game = registry.get(game_id)
    state = game.initial_state()
    found = []
    for ply, seat, move in moves:
        if seat != CHANCE:
            found.append({"ply": ply, "seat": seat, "state": game.to_json(state)})
        state = game.apply(state, move)
    return found


def ply_results(
    game_id: str, moves: list[tuple[int, int, str]], searched: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per move: the mover's evaluation, the best move and its value, the played move's value, the loss, the class.

    `searched[i]` is `search_position` of the position before the i-th move (two-player
    games without chance: every move is a seat's).
    """
    game = registry.get(game_id)
    state = game.initial_state()
    results = []
    for i, (ply, seat, move) in enumerate(moves):
        found = searched[i]
        after = game.apply(state, move)
        if move == found["best_move"]:
            played = found["value"]
        elif game.is_terminal(after):
            played = game.returns(after)[seat]
        else:
            following = searched[i + 1]["value"]
            played = following if game.to_move(after) == seat else -following
        loss = 0.0 if move == found["best_move"] else max(0.0, found["value"] - played)
        results.append(
            {
                "ply": ply,
                "seat": seat,
                "move": move,
                "value": found["value"],  # the position's evaluation for the mover, before the move
                "best_move": found["best_move"],
                "best_value": found["value"],
                "played_value": round(played, 6),
                "loss": round(loss, 6),
                "class": classify(loss, game.max_utility),
                "depth": found["depth"],
                "nodes": found["nodes"],
                "exact": found["exact"],
            }
        )
        state = after
    return results
