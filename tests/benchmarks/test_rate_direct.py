"""`benchmarks/rate_direct.py --log`: a round-robin goes on over several runs, plays no game twice,
plays again a game whose profile changed, and writes ratings only once every game is in
(tic-tac-toe, one game a seating: 42 games in a few seconds)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from server.bots import measured

ROOT = Path(__file__).resolve().parents[2]
CUT = '{"game": "tictac'  # a line a killed run left unfinished


def rate_direct(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "benchmarks/rate_direct.py", "--game", "tictactoe", "--games", "1", "--jobs", "1", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )


def lines(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line != CUT]


def test_a_round_robin_resumes_from_its_log_and_plays_no_game_twice(tmp_path: Path) -> None:
    log = tmp_path / "rr.jsonl"
    first = rate_direct("--log", str(log))
    assert first.returncode == 0, first.stderr
    records = lines(log)
    assert len(records) == 42
    assert len({(tuple(r["seats"]), r["seed"]) for r in records}) == 42
    assert all(len(r["fingerprints"]) == 2 and len(r["returns"]) == 2 for r in records)

    # A run stopped part-way: ten games left, the last line cut short, one game marked.
    kept = records[:10]
    kept[0]["plies"] = 99
    # Another fingerprint: that profile's settings changed since, so the game is played again.
    kept[1]["fingerprints"] = ["0" * 16, "0" * 16]
    log.write_text("".join(json.dumps(r) + "\n" for r in kept) + CUT)
    again = rate_direct("--log", str(log))
    assert again.returncode == 0, again.stderr
    assert "9 already in" in again.stdout
    records = lines(log)  # the line cut short stays where it was, read past
    assert records[0]["plies"] == 99
    current = [r for r in records if r["fingerprints"] != ["0" * 16, "0" * 16]]
    assert len(current) == 42
    assert len({(tuple(r["seats"]), r["seed"]) for r in current}) == 42
    assert "42 of 42 games" in again.stdout


def test_ratings_are_written_only_once_every_game_is_in(tmp_path: Path) -> None:
    log = tmp_path / "rr.jsonl"
    before = [path.read_bytes() for path in measured.data_paths()]
    # A deadline already past: no game starts.
    stopped = rate_direct("--log", str(log), "--minutes", "0.000001", "--write-ratings")
    assert stopped.returncode != 0
    assert "no game played yet" in stopped.stderr
    assert not log.exists() or log.read_text() == ""
    assert [path.read_bytes() for path in measured.data_paths()] == before


def test_a_log_replaced_under_a_running_measurement_still_gets_its_games(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from botplay import GameLog, read_log
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path = tmp_path / "games.jsonl"
    log = GameLog(path)
    log.append({"game": 1})
    # A checkout or a copy puts another file at the path while the run goes on.
    (tmp_path / "copy.jsonl").write_text(path.read_text())
    os.replace(tmp_path / "copy.jsonl", path)
    log.append({"game": 2})
    assert read_log(path) == [{"game": 1}, {"game": 2}]
