"""Opening sets for measurements: short lines a measurement's games start from (docs/bots.md).

A deterministic agent against a deterministic house bot would play one game over and over
from the initial position; from a set of openings, each played with both colours, the games
differ.  A set is a file per game, ``server/agents/openings/<set>/<game>.txt``: one opening
a line, its moves in the game's notation separated by spaces, ``#`` lines saying how it was
made.  The ``standard`` set is made by ``python -m server.agents.openings`` from fixed seeds,
so the files are the same wherever they are made again:

- chess: the first four plies of eight main lines of the standard openings (below);
- Connect Four: ten-ply lines at random from a fixed seed that the solver calls balanced
  (neither side wins with perfect play: its score 0);
- the other games for two: four plies at random from a fixed seed (two in tic-tac-toe), each
  a different position, none over.

Backgammon has none: its dice make every game a new one already, and an opening could not
hold them (a match's chance events are the server's).
"""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path
from typing import Any

import ai
from games import CHANCE, registry
from games.base import Game

DIRECTORY = Path(__file__).with_name("openings")
SETS = ("standard",)
SEED = 2026
OPENINGS_PER_GAME = 8
RANDOM_PLIES = {"tictactoe": 2}  # the others: DEFAULT_RANDOM_PLIES
DEFAULT_RANDOM_PLIES = 4
CONNECT4_PLIES = 10
CONNECT4_TRIES = 600
# Four plies of eight main lines (UCI): open games, the Sicilian, French, Caro-Kann, the
# Queen's Gambit Declined, Nimzo/Queen's Indian setups, the English and the Réti.
CHESS = (
    "e2e4 e7e5 g1f3 b8c6",
    "e2e4 c7c5 g1f3 d7d6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "d2d4 d7d5 c2c4 e7e6",
    "d2d4 g8f6 c2c4 e7e6",
    "c2c4 e7e5 b1c3 g8f6",
    "g1f3 d7d5 g2g3 g8f6",
)


class NoOpenings(ValueError):
    """No such set, or none for that game."""


def games_with_openings() -> list[str]:
    """The games for two without chance: those a set has openings for."""
    return [g for g in registry.ids() if registry.get(g).num_players == 2 and not registry.get(g).has_chance]


@cache
def opening_set(name: str, game_id: str) -> tuple[tuple[str, ...], ...]:
    """The openings of set `name` for `game_id`, in the file's order."""
    if name not in SETS:
        raise NoOpenings(f"no opening set {name[:40]!r}: the sets are {', '.join(SETS)}")
    path = DIRECTORY / name / f"{game_id}.txt"
    if game_id not in games_with_openings() or not path.exists():
        raise NoOpenings(f"the {name} openings have none for {game_id} (games: {', '.join(games_with_openings())})")
    lines = (line.strip() for line in path.read_text().splitlines())
    return tuple(tuple(line.split()) for line in lines if line and not line.startswith("#"))


def _random_line(game: Game[Any], plies: int, rng: random.Random) -> tuple[str, ...] | None:
    """`plies` moves at random from the start; None if the game ends or a chance event comes first."""
    state, line = game.initial_state(), []
    for _ in range(plies):
        if game.is_terminal(state) or game.to_move(state) == CHANCE:
            return None
        move = rng.choice(sorted(game.legal_moves(state)))
        line.append(move)
        state = game.play(state, move)
    return None if game.is_terminal(state) else tuple(line)


def _random_lines(game: Game[Any], plies: int, rng: random.Random) -> list[tuple[str, ...]]:
    """Lines at random, each to a position none of the others reaches."""
    found: dict[str, tuple[str, ...]] = {}
    while len(found) < OPENINGS_PER_GAME:
        line = _random_line(game, plies, rng)
        if line is not None:
            found.setdefault(str(game.to_json(_after(game, line))), line)
    return list(found.values())


def _connect4_lines(rng: random.Random) -> list[tuple[str, ...]]:
    game = registry.get("connect4")
    found: list[tuple[str, ...]] = []
    for _ in range(CONNECT4_TRIES):
        line = _random_line(game, CONNECT4_PLIES, rng)
        if line and line not in found and ai.solve(game, _after(game, line)) == 0:  # the solver's exact score
            found.append(line)
            if len(found) == OPENINGS_PER_GAME:
                return found
    raise RuntimeError(f"fewer than {OPENINGS_PER_GAME} balanced lines in {CONNECT4_TRIES} tries")


def _after(game: Game[Any], line: tuple[str, ...]) -> Any:
    state = game.initial_state()
    for move in line:
        state = game.play(state, move)
    return state


def make_standard(game_id: str) -> list[tuple[str, ...]]:
    """The ``standard`` set's openings for `game_id`, made again from its fixed seed."""
    rng = random.Random(f"{SEED}:{game_id}")
    if game_id == "chess":
        return [tuple(line.split()) for line in CHESS]
    if game_id == "connect4":
        return _connect4_lines(rng)
    return _random_lines(registry.get(game_id), RANDOM_PLIES.get(game_id, DEFAULT_RANDOM_PLIES), rng)


HOW = {
    "chess": "the first four plies of eight main lines of the standard openings",
    "connect4": f"{CONNECT4_PLIES}-ply lines at random (seed {SEED}) that the solver calls balanced (score 0)",
}


def write(game_id: str) -> Path:
    how = HOW.get(game_id, f"{RANDOM_PLIES.get(game_id, DEFAULT_RANDOM_PLIES)} plies at random (seed {SEED})")
    path = DIRECTORY / "standard" / f"{game_id}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# {game_id}, the standard set: {how}.", "# Made by python -m server.agents.openings; one a line."]
    path.write_text("\n".join([*lines, *(" ".join(line) for line in make_standard(game_id))]) + "\n")
    return path


if __name__ == "__main__":
    for wanted in sys.argv[1:] or games_with_openings():
        print(write(wanted))
