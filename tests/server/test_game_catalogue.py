"""Adding a game is its package, its board module and its tests: the catalogue and the seeds read the spec."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import Game, Move, Outcome, Seat, registry
from games.spec import GameSpec, SeatSpec, bot, random_bot
from server.bots.models import BotProfile
from server.bots.seed import seed_profiles


@dataclass(frozen=True)
class Pile:
    """A pile of stones; each player takes one or two, whoever takes the last one wins."""

    stones: int = 5
    moves: int = 0


class TakeAway(Game):
    id = "take-away"
    spec = GameSpec(
        name="Take away",
        board="generic.js",
        order=100,
        seats=(SeatSpec("first", "blue"), SeatSpec("second", "orange")),
        ladder=(
            random_bot("take-away"),
            bot("take-away", 1, "Pebble", "alphabeta", 100, "Looks one move ahead.", max_depth=1),
        ),
    )

    def initial_state(self) -> Pile:
        return Pile()

    def to_move(self, state: Pile) -> Seat:
        return state.moves % 2

    def legal_moves(self, state: Pile) -> list[Move]:
        return [m for m in ("1", "2") if int(m) <= state.stones]

    def apply(self, state: Pile, move: Move) -> Pile:
        return Pile(state.stones - int(move), state.moves + 1)

    def is_terminal(self, state: Pile) -> bool:
        return state.stones == 0

    def outcome(self, state: Pile) -> Outcome:
        winner = (state.moves - 1) % 2
        return Outcome((1.0, -1.0) if winner == 0 else (-1.0, 1.0), winner, "took the last stone")

    def to_json(self, state: Pile) -> dict[str, Any]:
        return {"stones": state.stones, "moves": state.moves}

    def from_json(self, data: dict[str, Any]) -> Pile:
        return Pile(data["stones"], data["moves"])


@pytest.fixture
def take_away(monkeypatch):
    game = TakeAway()
    monkeypatch.setitem(registry._GAMES, game.id, game)
    return game


def test_a_registered_game_is_in_the_catalogue_with_its_spec(take_away):
    games = {g["id"]: g for g in APIClient().get("/api/games/").json()}
    assert games["take-away"] == {
        "id": "take-away",
        "name": "Take away",
        "num_players": 2,
        "has_chance": False,
        "board": "generic.js",
        "stylesheet": "games/generic.css",
        "seats": [
            {"index": 0, "name": "first", "colour": "blue", "mark": "disc"},
            {"index": 1, "name": "second", "colour": "orange", "mark": "disc"},
        ],
        "options": [],  # it declares none (backgammon's cube is one: GameSpec.options)
        "resignation_levels": [],
    }


@pytest.mark.django_db
def test_a_registered_game_is_seeded_with_its_ladder(take_away):
    seed_profiles(BotProfile)
    seeded = BotProfile.objects.filter(game="take-away").order_by("level")
    assert [(p.slug, p.name, p.max_depth) for p in seeded] == [
        ("take-away-random", "Random mover", None),
        ("take-away-beginner", "Pebble", 1),
    ]


@pytest.mark.django_db
def test_every_page_links_the_games_stylesheets_and_gives_their_seats(client, take_away):
    html = client.get("/").content.decode()
    assert "/static/frontend/css/games/chess.css" in html
    assert "/static/frontend/css/games/generic.css" in html  # take-away's board, the fallback
    assert html.count("/static/frontend/css/games/chinese-checkers.css") == 1  # two ids, one board
    page = json.loads(html.split('<script id="page-data" type="application/json">')[1].split("</script>")[0])
    assert page["seats"]["take-away"][1] == {"index": 1, "name": "second", "colour": "orange", "mark": "disc"}
    assert [seat["name"] for seat in page["seats"]["chess"]] == ["white", "black"]
