"""The catalogue: a searcher is one module, registered in one list, and asked for capabilities."""

from __future__ import annotations

import pytest

import ai
from ai import catalogue
from ai.search import algorithm_for
from ai.searcher import Searcher
from ai.types import SearchConfig
from games import registry
from tests.searchers import LastOptions, register


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Searcher:
    return register(monkeypatch)


def test_a_searcher_added_to_the_list_is_configured_and_dispatched_by_its_declaration(registered):
    game = registry.get("tictactoe")
    config = SearchConfig.from_json({"algorithm": "last", "options": {"skip": 1}, "seed": 1})
    assert config.options == LastOptions(skip=1)
    result = ai.choose_move(game, game.initial_state(), config)
    assert (result.algorithm, result.move) == ("last", game.legal_moves(game.initial_state())[-2])
    with pytest.raises(ValueError, match="unknown option 'paranoid' for last; known: .*skip"):
        SearchConfig(algorithm="last", options={"paranoid": True})
    assert ai.CATALOGUE["last"].to_json(registry.all())["capabilities"] == [
        "chance",
        "counts_iterations",
        "many_players",
    ]


def test_an_algorithm_the_list_does_not_hold_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown algorithm 'last'; known: alphabeta, expectimax, mcts, maxn, random"):
        SearchConfig(algorithm="last")


# Which searcher runs, by the game's chance and seats: the table the name switch used to be.
@pytest.mark.parametrize(
    ("game_id", "runs"),
    [
        ("connect4", {"alphabeta": "alphabeta", "expectimax": "expectimax", "maxn": "maxn"}),
        ("backgammon", {"alphabeta": "expectimax", "expectimax": "expectimax", "maxn": "maxn"}),
        ("chinese-checkers", {"alphabeta": "maxn", "expectimax": "maxn", "maxn": "maxn"}),
    ],
)
def test_a_searcher_that_does_not_play_a_game_runs_as_a_full_width_one_that_does(game_id, runs):
    game = registry.get(game_id)
    assert {a: algorithm_for(game, a) for a in runs} == runs
    assert algorithm_for(game, "mcts") == "mcts" and algorithm_for(game, "random") == "random"
    assert catalogue.full_width_for(game).id == runs["alphabeta"]


def test_every_searcher_module_declares_itself_and_the_list_holds_each_once():
    assert [s.id for s in catalogue.SEARCHERS] == list(ai.CATALOGUE)
    for searcher in catalogue.SEARCHERS:
        assert searcher.run.__module__.startswith("ai."), searcher.id
        assert searcher.how and searcher.words, searcher.id  # the bot page's and the API's words
    # Every game has a full-width searcher to stand in for one that does not play it.
    assert all(catalogue.full_width_for(game).plays(game) for game in registry.all())
