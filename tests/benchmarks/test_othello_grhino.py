"""`benchmarks/othello_grhino.py`: games against GRhino over GTP with the boards cross-checked after
every move, resumed from the log (GRhino's weakest level, the Master capped at 50 ms: a few seconds).

GRhino is Debian's `grhino` package: `make test` installs it where missing, as it does chromium."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from games.othello import OTHELLO

ROOT = Path(__file__).resolve().parents[2]


def against_grhino(log: Path, games: int) -> subprocess.CompletedProcess[str]:
    command = ["benchmarks/othello_grhino.py", "--games", str(games), "--level", "1", "--budget-cap-ms", "50"]
    return subprocess.run(
        [sys.executable, *command, "--log", str(log)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_games_against_grhino_finish_with_the_boards_agreeing_and_resume_from_the_log(tmp_path: Path) -> None:
    log = tmp_path / "grhino.jsonl"
    first = against_grhino(log, 1)
    assert first.returncode == 0, first.stdout + first.stderr
    second = against_grhino(log, 2)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "1 games already in the log" in second.stdout
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["master_seat"] for r in records] == [0, 1]  # colours alternate
    for record in records:  # each game, replayed by our rules, ends as the log says
        state = OTHELLO.initial_state()
        for move in record["moves"].split():
            state = OTHELLO.play(state, move)
        assert OTHELLO.is_terminal(state)
        assert list(OTHELLO.score(state)) == record["score"]
        assert OTHELLO.returns(state)[record["master_seat"]] == record["result"]
