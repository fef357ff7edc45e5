"""A play entered die by die (`Game.move_parts`): the steps offered add up to exactly the legal plays."""

from __future__ import annotations

import random

from games.backgammon import Backgammon, legal_plays
from games.base import CHANCE, PartsNode


def random_decisions(count: int, seed: int) -> list:
    game, rng, found = Backgammon(), random.Random(seed), []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(found) < count:
            if game.to_move(state) == CHANCE:
                rolls = game.chance_outcomes(state)
                state = game.apply(state, rng.choices([m for m, _ in rolls], [p for _, p in rolls])[0])
                continue
            found.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return found


def paths(graph: list[PartsNode]) -> tuple[set[str], int]:
    """The moves the graph's paths end in, and how many paths end in none (dead ends)."""
    reached: set[str] = set()
    dead = 0
    seen: set[int] = set()

    def walk(index: int) -> None:
        nonlocal dead
        if index in seen:
            return
        seen.add(index)
        node = graph[index]
        if node.move is not None:
            reached.add(node.move)
        elif not node.parts:
            dead += 1
        for _, target in node.parts:
            walk(target)

    walk(0)
    return reached, dead


def test_every_path_ends_in_a_legal_play_and_every_play_has_one() -> None:
    game = Backgammon()
    for state in random_decisions(400, seed=3):
        graph = game.move_parts(state)
        plays = legal_plays(state)
        if "pass" in plays:
            assert graph is None
            continue
        assert graph is not None
        assert paths(graph) == (set(plays), 0), state


def test_a_step_says_its_die_its_points_and_a_hit() -> None:
    from games.backgammon.parts import step_text

    assert [step_text(6, 13, 7, False), step_text(4, 25, 21, True), step_text(5, 3, 0, False)] == [
        "6:13/7", "4:bar/21*", "5:3/off"
    ]  # fmt: skip


def test_rolls_and_other_games_are_picked_whole() -> None:
    from games import registry

    game = Backgammon()
    assert game.move_parts(game.initial_state()) is None  # the opening roll
    assert registry.get("chess").move_parts(registry.get("chess").initial_state()) is None
