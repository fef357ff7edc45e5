"""Every registered game declares a spec the server and the browser can rely on (docs/design.md §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from games import Game, registry
from games.spec import GameSpec, SeatSpec

STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend"
BOARDS = STATIC / "js" / "boards"
GAMES = registry.all()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_spec_describes_the_game(game: Game) -> None:
    spec = game.spec
    assert isinstance(spec, GameSpec) and game.name == spec.name
    assert (BOARDS / spec.board).is_file()
    assert (STATIC / "css" / spec.stylesheet).is_file()
    assert len(spec.seats) == game.num_players
    assert len({seat.name for seat in spec.seats}) == game.num_players


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_ladder_has_a_random_anchor_and_its_own_slugs(game: Game) -> None:
    ladder = game.spec.ladder
    assert ladder[0].level == 0 and ladder[0].algorithm == "random"
    assert all(seed.slug.startswith(f"{game.id}-") for seed in ladder)
    assert all(seed.profile(game.id)["game"] == game.id for seed in ladder)


def test_slugs_and_display_names_are_unique_across_games() -> None:
    slugs = [seed.slug for game in GAMES for seed in game.spec.ladder]
    assert len(slugs) == len(set(slugs))
    assert len({game.name for game in GAMES}) == len(GAMES)


def test_fast_paths_are_declared_and_absent_by_default() -> None:
    plain = registry.get("tictactoe")
    state = plain.initial_state()
    assert plain.search_kernel() is None and plain.new_solver() is None and plain.fast_playout() is None
    assert plain.opening_move(state) is None
    connect4 = registry.get("connect4")
    assert connect4.search_kernel() is not None and connect4.new_solver() is not None
    assert connect4.opening_move(connect4.initial_state()) == "4"


def test_the_catalogue_is_every_game_package_in_its_specs_order() -> None:
    packages = sorted(p.parent.name for p in (Path(games.__file__).parent).glob("*/__init__.py"))
    exported = sorted(module for game in GAMES for module in [type(game).__module__.split(".")[1]])
    assert sorted(set(exported)) == packages
    assert [game.spec.order for game in GAMES] == sorted(game.spec.order for game in GAMES)
    assert registry.ids()[:3] == ["tictactoe", "connect4", "othello"]


def test_a_seat_has_a_colour_and_a_mark_of_the_palette() -> None:
    with pytest.raises(ValueError, match="colour one of"):
        SeatSpec("red", "red")
    assert SeatSpec("X", "blue", mark="x").to_json(0) == {"index": 0, "name": "X", "colour": "blue", "mark": "x"}
