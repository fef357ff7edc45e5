"""The page shells and their modules, without a browser: views render, modules parse and resolve."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend"
MODULES = sorted(STATIC.rglob("*.js"))
IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']""")


def page_data(html: str) -> dict:
    match = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the page has no page-data blob"
    return json.loads(match.group(1))


@pytest.mark.django_db
def test_the_lobby_renders_with_a_csrf_cookie_and_makes_a_guest_only_on_play(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "csrftoken" in response.cookies
    data = page_data(response.content.decode())
    assert data["page"] == "lobby"
    assert data["player"] is None  # a page view makes no guest
    assert "/static/frontend/js/lobby.js" in response.content.decode()
    seats = [{"kind": "human"}, {"kind": "bot", "profile": "tictactoe-random"}]
    played = client.post("/api/matches/", {"game": "tictactoe", "seats": seats}, content_type="application/json")
    assert played.status_code == 201
    data = page_data(client.get("/").content.decode())
    assert data["player"]["name"] and data["player"]["is_guest"] is True


@pytest.mark.django_db
def test_a_match_room_shell_carries_its_match_id(client):
    response = client.get("/matches/42/")
    assert response.status_code == 200
    html = response.content.decode()
    assert page_data(html)["match_id"] == 42
    for selector in ('id="status"', 'id="thinking"', 'id="result"', 'id="move-list"', 'id="reconnect-banner"'):
        assert selector in html
    assert 'aria-live="polite"' in html


@pytest.mark.django_db
def test_a_bot_page_shell_carries_its_slug(client):
    response = client.get("/bots/connect4-deep/")
    assert response.status_code == 200
    assert page_data(response.content.decode())["slug"] == "connect4-deep"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(STATIC)))
def test_every_module_parses(module):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    result = subprocess.run([node, "--check", str(module)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(STATIC)))
def test_every_relative_import_resolves(module):
    text = module.read_text()
    for found in IMPORT.finditer(text):
        target = (module.parent / (found.group(1) or found.group(2))).resolve()
        assert target.is_file(), f"{module.name} imports {target}, which does not exist"


@pytest.mark.django_db
def test_every_game_in_the_catalogue_names_a_board_module_that_exists(client):
    games = client.get("/api/games/").json()
    assert games
    for game in games:
        assert (STATIC / "js" / "boards" / game["board"]).is_file(), f"{game['id']}: no boards/{game['board']}"
