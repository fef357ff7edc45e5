"""Search options: one dataclass per algorithm, parsed from the JSON a bot profile keeps."""

from __future__ import annotations

import pytest

import ai
from ai.alphabeta import AlphaBetaOptions
from ai.maxn import MaxnOptions
from ai.mcts import MctsOptions
from ai.types import SearchOptions


def test_stored_options_become_the_algorithms_dataclass_and_back():
    stored = {"exact_endgame": 14, "opening_book": True, "match_id": 7, "seat": 1}
    config = ai.SearchConfig.from_json({"algorithm": "alphabeta", "options": stored})
    assert config.options == AlphaBetaOptions(exact_endgame=14, opening_book=True, match_id=7, seat=1)
    assert config.to_json()["options"] == stored
    assert ai.SearchConfig(algorithm="mcts", options={"c": 2}).options == MctsOptions(c=2.0)


@pytest.mark.parametrize(
    ("algorithm", "options", "words"),
    [
        ("mcts", {"paranoid": True}, "unknown option 'paranoid' for mcts"),
        ("alphabeta", {"ordering": "yes"}, "option 'ordering' is bool, not 'yes'"),
        ("mcts", {"rollout": "smart"}, "option 'rollout' is 'random' or 'heuristic'"),
        ("alphabeta", {"exact_endgame": 1.5}, "option 'exact_endgame' is int or null"),
        ("maxn", AlphaBetaOptions(), "maxn takes MaxnOptions"),
    ],
)
def test_an_option_the_algorithm_does_not_take_is_refused_by_name(algorithm, options, words):
    with pytest.raises(ValueError, match="^" + words.replace("(", r"\(")):
        ai.SearchConfig(algorithm=algorithm, options=options)


def test_an_unknown_setting_is_refused_at_the_boundary():
    with pytest.raises(ValueError, match="unknown search setting 'depth'"):
        ai.SearchConfig.from_json({"depth": 3})


def test_the_common_options_carry_over_when_the_game_makes_another_searcher_run():
    options = SearchOptions(match_id="m", exact_root=True)
    assert options.carried_to(MaxnOptions) == MaxnOptions(match_id="m", exact_root=True)
    assert ai.SearchConfig(algorithm="maxn", options=options).options.exact_root
