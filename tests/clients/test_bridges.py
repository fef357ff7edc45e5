"""The engine bridges on the real stack (daphne, a Celery worker, Redis), each with its real engine.

Stockfish through the UCI bridge, GRhino's gtp-rhino through the GTP bridge and gnubg through
its bridge each play a bot account's game against the weakest house bot of their game to its
end, at fast settings.  Each bridge runs as its users run it (``python -m
plyground_bot.bridges.<protocol>``, with only clients/ on the path, from a directory of its
own), and stops after the one game.  An engine that dies makes its bridge resign, said in its
log, rather than hang.

The engines are Debian's (``stockfish``, ``grhino``, ``gnubg``): tests/run.sh installs them
where missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT, LiveStack

pytestmark = pytest.mark.fullstack
BRIDGE_TIMEOUT_S = 120  # one game; each takes well under a minute on a shared machine

SETUP = """
from server.agents.services import bot_account_create
from server.players.models import ApiToken, Player
owner = Player.objects.create(name="Margot", is_guest=False)
for name in ("Kestrel", "Heron", "Plover"):
    print("TOKEN", name, ApiToken.issue(bot_account_create(owner, name)))
"""

# A bot account's game against a house bot: the test arranges it, as the site's own runs of
# agents against the house ladder will.
MATCH = """
from server.bots.models import BotProfile
from server.matches.models import Seat
from server.matches.services import Clock, SeatRequest, match_create
from server.players.models import Player
bot = Player.objects.get(name={bot!r})
house = BotProfile.objects.filter(game={game!r}).order_by("level").first()
seats = [SeatRequest(Seat.Kind.BOT, house), SeatRequest(Seat.Kind.BOT, house)]
seats[{seat}] = SeatRequest(Seat.Kind.HUMAN)
match = match_create({game!r}, seats, bot, clock=Clock({minutes}, {increment}), seated=[bot], options={options!r})
print("MATCH", match.pk)
"""


@pytest.fixture(scope="module")
def stack():
    with LiveStack() as live:
        lines = live.manage("shell", "-c", SETUP).splitlines()
        live.tokens = {words[1]: words[2] for words in (line.split() for line in lines) if words[:1] == ["TOKEN"]}
        yield live


def house_match(stack: LiveStack, bot: str, game: str, seat: int, options: dict | None = None) -> int:
    script = MATCH.format(bot=bot, game=game, seat=seat, minutes=5, increment=2, options=options or {})
    out = stack.manage("shell", "-c", script)
    return int(next(line.split()[1] for line in out.splitlines() if line.startswith("MATCH ")))


def run_bridge(stack: LiveStack, protocol: str, bot: str, *options: str, cwd: Path) -> subprocess.CompletedProcess:
    """The bridge as its users run it, for one game; what it printed is its log."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "clients")}
    command = [sys.executable, "-m", f"plyground_bot.bridges.{protocol}", "--url", stack.url]
    command += ["--token", stack.tokens[bot], "--games", "1", *options]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=BRIDGE_TIMEOUT_S)


def finished_by_the_rules(stack: LiveStack, match_id: int, seat: int, bridge: subprocess.CompletedProcess) -> dict:
    """The match, checked over: finished by the game's rules (no resignation, no flag), every move of
    the bridge's seat the bot account's."""
    assert bridge.returncode == 0, bridge.stderr[-3000:]
    match = stack.api("GET", f"/api/matches/{match_id}/")
    assert match["status"] == "finished", bridge.stderr[-3000:]
    assert match["result"]["reason"] not in ("resigned", "time forfeit", "abandoned"), match["result"]
    assert match["seats"][seat]["player"]["kind"] == "agent" and match["seats"][1 - seat]["player"]["kind"] == "bot"
    ours = [m for m in match["moves"] if m["seat"] == seat]
    assert ours and all(m["by"]["kind"] == "agent" and m["by"]["is_ai"] for m in ours)
    assert "resign" not in bridge.stderr
    return match


def test_stockfish_through_the_uci_bridge_finishes_a_game_against_a_house_bot(stack, tmp_path):
    match_id = house_match(stack, "Kestrel", "chess", seat=1)  # black: the house bot moves first
    bridge = run_bridge(stack, "uci", "Kestrel", "--engine", "stockfish", "--movetime-ms", "50", cwd=tmp_path)
    match = finished_by_the_rules(stack, match_id, 1, bridge)
    assert "engine ready: Stockfish" in bridge.stderr
    assert match["result"]["winner"] == 1, match["result"]  # Stockfish mates the weakest house bot


def test_grhino_through_the_gtp_bridge_finishes_a_game_against_a_house_bot(stack, tmp_path):
    match_id = house_match(stack, "Heron", "othello", seat=1)  # white
    bridge = run_bridge(stack, "gtp", "Heron", "--engine", "gtp-rhino --level 1", cwd=tmp_path)
    match = finished_by_the_rules(stack, match_id, 1, bridge)
    assert "engine ready: GTP GRhino" in bridge.stderr
    assert len(match["moves"]) >= 20


@pytest.mark.parametrize("cube", [False, True], ids=["checkers only", "with the cube"])
def test_gnubg_through_its_bridge_finishes_a_game_against_a_house_bot(stack, tmp_path, cube):
    match_id = house_match(stack, "Plover", "backgammon", seat=0, options={"cube": cube})
    bridge = run_bridge(stack, "gnubg", "Plover", "--plies", "0", cwd=tmp_path)
    match = finished_by_the_rules(stack, match_id, 0, bridge)
    assert "engine ready: GNU Backgammon" in bridge.stderr
    ours = [m["move"] for m in match["moves"] if m["seat"] == 0]
    plays = [move for move in ours if move not in ("double", "roll", "take", "drop")]
    assert plays, "gnubg played checkers"
    if not cube:  # without the cube the game goes on until one side has borne off all fifteen
        assert match["result"]["reason"] != "double dropped" and len(plays) >= 10, match["result"]


def test_an_engine_that_dies_makes_its_bridge_resign_and_say_why(stack, tmp_path):
    match_id = house_match(stack, "Kestrel", "chess", seat=0)
    bridge = run_bridge(stack, "uci", "Kestrel", "--engine", "sh -c 'exit 3'", cwd=tmp_path)
    assert bridge.returncode == 0, bridge.stderr[-3000:]
    match = stack.api("GET", f"/api/matches/{match_id}/")
    assert match["status"] == "finished" and match["result"]["reason"] == "resigned", match["result"]
    assert match["result"]["winner"] == 1
    assert "exited (code 3)" in bridge.stderr and "resigns" in bridge.stderr
