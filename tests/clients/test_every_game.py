"""The program written from docs/bots.md alone plays and finishes a game of every registered game.

`examples/every_game.py` uses only the standard library and `websockets` (what docs/bots.md
says to install) and only what docs/bots.md and docs/wire.md document.  The test copies it
into a fresh directory and runs it there, with nothing of the repository on its path, against
the real stack (daphne, the Redis channel layer, a Celery worker): it asks for a game of every
game in `games.registry` against the weakest house bots (dice games and Chinese checkers for
three included, the other seats house bots) and plays each to the end with random moves.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys

import pytest

from games import registry
from tests.support import ROOT, LiveStack

pytestmark = pytest.mark.fullstack
EXAMPLE = ROOT / "examples" / "every_game.py"
RUN_TIMEOUT_S = 900  # every game at once, random against random; a few minutes on a loaded machine

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="Margot", is_guest=False)
print("TOKEN", ApiToken.issue(bot_account_create(owner, "Wren")))
"""


def test_the_example_needs_only_the_standard_library_and_websockets():
    imported = set()
    for node in ast.walk(ast.parse(EXAMPLE.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported - sys.stdlib_module_names - {"__future__"} == {"websockets"}


def test_a_program_from_the_docs_alone_finishes_a_game_of_every_registered_game(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "every_game.py")
    with LiveStack() as stack:
        token = next(
            line.split()[1] for line in stack.manage("shell", "-c", SETUP).splitlines() if line.startswith("TOKEN")
        )
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DJANGO_SETTINGS_MODULE")}
        command = [sys.executable, "-I", "every_game.py", "--url", stack.url, "--token", token, "--seed", "7"]
        run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        assert run.returncode == 0, (run.stdout, run.stderr[-3000:], stack.server_log()[-3000:])
        played = {
            m["game"]: (int(m["match"]), int(m["seat"]))
            for m in re.finditer(
                r"^(?P<game>\S+): match (?P<match>\d+) seat (?P<seat>\d+) finished", run.stdout, flags=re.MULTILINE
            )
        }
        assert set(played) == set(registry.ids()), run.stdout
        for game, (match_id, seat) in played.items():
            match = stack.api("GET", f"/api/matches/{match_id}/")
            assert match["status"] == "finished" and match["game"] == game
            assert match["result"]["reason"] not in ("resigned", "out of time", "abandoned"), match["result"]
            kinds = [s["player"]["kind"] for s in match["seats"]]
            assert kinds[seat] == "agent" and kinds.count("bot") == registry.get(game).num_players - 1
            assert any(m["seat"] == seat and m["by"]["kind"] == "agent" for m in match["moves"]), game
            if registry.get(game).has_chance:  # the server rolled the dice
                assert any(m["seat"] == -1 and m["by"]["kind"] == "chance" for m in match["moves"]), game
