"""Checkers' legal moves and results against OpenSpiel's ``checkers``, over a seeded sample of random games.

OpenSpiel is a dev dependency (``pyproject.toml``), so ``make test`` runs this: 200 games here, the
full 2,000 in ``benchmarks/checkers_rules_vs_openspiel.py``.  OpenSpiel plays a multi-jump
as one action per jump, so its moves here are whole sequences of one player's actions.  The two
rule sets differ only in their draws (``games/checkers/rules.py``): each game is compared while
neither side has drawn, and stops at the first draw either declares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pyspiel

from games.checkers import CHECKERS, CheckersState
from games.checkers.rules import parse

GAMES = 200  # a sample; the benchmark plays 2,000 (same seed, so these 200 are its first)
SEED = 47


def square_name(square: int) -> str:
    """Our square (0..31) on OpenSpiel's board: the same board turned round, its first player at a1."""
    row, col = square // 4, 2 * (square % 4) + (1 if (square // 4) % 2 == 0 else 0)
    return "abcdefgh"[7 - col] + str(1 + row)


def openspiel_moves(state: Any) -> dict[tuple[str, ...], list[int]]:
    """Every whole move of the player to move: its squares -> OpenSpiel's actions."""
    player = state.current_player()
    moves: dict[tuple[str, ...], list[int]] = {}

    def walk(node: Any, squares: tuple[str, ...], actions: list[int]) -> None:
        for action in node.legal_actions():
            text = node.action_to_string(action)
            child = node.clone()
            child.apply_action(action)
            path = (squares or (text[:2],)) + (text[2:],)
            if not child.is_terminal() and child.current_player() == player:
                walk(child, path, [*actions, action])
            else:
                moves[path] = [*actions, action]

    walk(state, (), [])
    return moves


def our_moves(state: CheckersState) -> dict[tuple[str, ...], str]:
    moves = {}
    for move in CHECKERS.legal_moves(state):
        parsed = parse(move)
        assert parsed is not None
        moves[tuple(square_name(sq) for sq in parsed[0])] = move
    return moves


def test_square_names_match_openspiel_first_moves() -> None:
    start = pyspiel.load_game("checkers").new_initial_state()
    theirs = sorted(start.action_to_string(a) for a in start.legal_actions())
    ours = sorted("".join(path) for path in our_moves(CHECKERS.initial_state()))
    assert ours == theirs


@dataclass
class Agreement:
    """What a run of random games compared: every position's moves, every decisive result."""

    games: int = 0
    positions: int = 0  # positions whose legal moves were compared (all of them agreed)
    plies: int = 0
    wins: int = 0  # games both rule sets ended with the same winner, before any draw rule


def play_random_games(games: int, seed: int = SEED) -> Agreement:
    """Random games played on both rule sets at once, asserting at each position that the legal
    moves agree and, at the end, that the winner does; a game stops at either side's first draw."""
    rng = random.Random(seed)
    game = pyspiel.load_game("checkers")
    tally = Agreement()
    for _ in range(games):
        theirs, ours = game.new_initial_state(), CHECKERS.initial_state()
        while True:
            if CHECKERS.is_terminal(ours) and CHECKERS.outcome(ours).winner is None:
                break  # our repetition or 40-move draw: OpenSpiel has no such rule
            if theirs.is_terminal():
                returns = theirs.returns()
                if returns[0] == 0:
                    break  # OpenSpiel's draw (40 plies without a capture, or 1,000 plies)
                assert CHECKERS.is_terminal(ours)
                assert CHECKERS.outcome(ours).winner == (0 if returns[0] > 0 else 1)
                tally.wins += 1
                break
            assert CHECKERS.to_move(ours) == theirs.current_player()
            their_moves, mine = openspiel_moves(theirs), our_moves(ours)
            assert set(mine) == set(their_moves), CHECKERS.position_notation(ours)
            tally.positions += 1
            path = rng.choice(sorted(mine))
            for action in their_moves[path]:
                theirs.apply_action(action)
            ours = CHECKERS.play(ours, mine[path])
            tally.plies += 1
        tally.games += 1
    return tally


def test_random_games_agree_with_openspiel() -> None:
    tally = play_random_games(GAMES)
    assert tally.positions == tally.plies
    assert tally.wins > GAMES // 4  # most random games end decisively before any draw rule
