"""The algorithm catalogue (`ai.CATALOGUE`) as the API serves it, and as the server asks it: by capability."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

import ai
from server.analysis.selectors import analysis_settings
from server.bots import adaptive
from server.bots.admin import BotProfileForm
from server.bots.models import BotProfile, profile_problems
from server.bots.selectors import how_it_plays
from tests.searchers import LastOptions, register
from tests.server.test_schema import Contract

pytestmark = pytest.mark.django_db  # a profile's checks look up accounts' names


def test_the_catalogue_is_served_as_declared():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    response = APIClient().get("/api/algorithms/")
    body = Contract(schema).check(response, "/api/algorithms/", "get")
    assert [a["id"] for a in body] == list(ai.CATALOGUE)
    by_id = {a["id"]: a for a in body}
    assert by_id["maxn"]["label"] == "max^n" and by_id["maxn"]["games"] == ["chinese-checkers"]
    assert "backgammon" not in by_id["alphabeta"]["games"] and "backgammon" in by_id["expectimax"]["games"]
    rollout = next(o for o in by_id["mcts"]["options"] if o["name"] == "rollout")
    assert rollout == {"name": "rollout", "type": "string", "choices": ["random", "heuristic"], "default": "random"}
    assert by_id["mcts"]["counts_iterations"] and by_id["expectimax"]["uses_opponent_model"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"paranoid": True}, "unknown option 'paranoid' for alphabeta"),
        ({"tt_size": "big"}, "option 'tt_size' is int"),
    ],
)
def test_the_admin_names_an_option_the_algorithm_does_not_take(options, words):
    profile = BotProfile(slug="x", game="connect4", name="X", level=2, algorithm="alphabeta", search_options=options)
    assert words in profile_problems(profile)["search_options"]


# --- a searcher added to the catalogue: no migration, and the server asks its capabilities ----------------------------


@pytest.fixture
def last(monkeypatch: pytest.MonkeyPatch) -> ai.Searcher:
    return register(monkeypatch)


def _profile(algorithm: str, **fields: object) -> BotProfile:
    return BotProfile(
        **{"slug": "x", "game": "connect4", "name": "Lastly", "level": 2, "algorithm": algorithm, **fields}
    )


def test_a_profile_may_name_a_searcher_added_to_the_catalogue_without_a_migration(last):
    profile = _profile("last", max_iterations=500, search_options={"skip": 1})
    profile.full_clean()  # the field holds no list of choices: the catalogue says what is known
    profile.save()
    assert BotProfile.objects.get(slug="x").search_config().options == LastOptions(skip=1)
    assert ("last", "last move") in BotProfileForm().fields["algorithm"].choices


def test_an_unknown_algorithm_is_refused_with_the_catalogues_words():
    with pytest.raises(ValidationError) as refused:
        _profile("nope").full_clean()
    assert refused.value.message_dict["algorithm"] == [
        "unknown algorithm 'nope'; known: alphabeta, expectimax, mcts, maxn, random"
    ]


def test_adaptive_strength_scales_a_searcher_that_counts_iterations_by_its_iterations(last):
    config = adaptive.config_for({"algorithm": "last", "max_iterations": 1000, "max_depth": None}, 0.5)
    assert (config["max_iterations"], config["max_depth"]) == (250, None)
    config = adaptive.config_for({"algorithm": "alphabeta", "max_iterations": None, "max_depth": 6}, 0.5)
    assert (config["max_iterations"], config["max_depth"]) == (None, 3)


def test_a_bots_words_are_its_searchers_and_a_searcher_that_does_not_look_ahead_has_no_depth(last):
    words = how_it_plays(_profile("last", time_budget_ms=1000, max_depth=4))
    assert words[0] == "Lastly is an AI, not a person. It plays the last legal move."
    assert not any("deep" in line for line in words)
    paranoid = _profile("maxn", game="chinese-checkers", search_options={"paranoid": True}, max_depth=2)
    assert how_it_plays(paranoid)[:2] == [
        "Lastly is an AI, not a person. It searches paranoid: it assumes all other players play against it.",
        "It thinks up to 1 s per move, at most 2 plies deep, with a balanced evaluation.",
    ]


def test_analysis_replaces_a_searcher_that_is_not_full_width_with_the_games_full_width_one(last):
    BotProfile.objects.create(slug="bg-last", game="backgammon", name="Lastly", level=9, algorithm="last")
    config = analysis_settings("backgammon")["config"]
    assert (config["algorithm"], config["options"]) == ("expectimax", {"exact_root": True})


def test_every_page_receives_each_algorithms_story_and_capabilities():
    from frontend.views import _algorithms

    algorithms = _algorithms()
    assert list(algorithms) == list(ai.CATALOGUE)
    assert algorithms["alphabeta"]["capabilities"] == ["full_width", "looks_ahead"]
    assert algorithms["random"]["how"][0].startswith("It picks one of the legal moves at random")
