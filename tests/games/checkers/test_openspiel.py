"""Checkers' legal moves and results against OpenSpiel's ``checkers``, over thousands of random games.

OpenSpiel is a dev dependency (``pyproject.toml``), so ``make test`` runs this.  OpenSpiel plays a multi-jump
as one action per jump, so its moves here are whole sequences of one player's actions.  The two
rule sets differ only in their draws (``games/checkers/rules.py``): each game is compared while
neither side has drawn, and stops at the first draw either declares.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from games.checkers import CHECKERS, CheckersState
from games.checkers.rules import parse

GAMES = 2000


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


def test_random_games_agree_with_openspiel() -> None:
    rng = random.Random(47)
    game = pyspiel.load_game("checkers")
    compared = wins = plies = 0
    for _ in range(GAMES):
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
                wins += 1
                break
            assert CHECKERS.to_move(ours) == theirs.current_player()
            their_moves, mine = openspiel_moves(theirs), our_moves(ours)
            assert set(mine) == set(their_moves), CHECKERS.position_notation(ours)
            compared += 1
            path = rng.choice(sorted(mine))
            for action in their_moves[path]:
                theirs.apply_action(action)
            ours = CHECKERS.play(ours, mine[path])
            plies += 1
    assert compared == plies and wins > GAMES // 4  # most random games end decisively before any draw rule
